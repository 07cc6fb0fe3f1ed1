// ThreadPool: a fixed set of worker threads running one function, optionally
// pinned to cores (worker i on core (offset + i) % cores).
#pragma once

#include <pthread.h>
#include <sched.h>

#include <functional>
#include <stdexcept>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

namespace envpool_lite {

class ThreadPool {
 public:
  // `work(i)` runs on worker i until it returns. affinity_offset < 0: no
  // pinning. If a thread cannot be started (the system's thread or memory
  // limit), `stop()` is called so that the workers already running return,
  // they are joined, and std::runtime_error is thrown: never a terminate.
  ThreadPool(int num_threads, int affinity_offset,
             const std::function<void(int)>& work,
             const std::function<void()>& stop) {
    int cores = static_cast<int>(std::thread::hardware_concurrency());
    if (cores < 1) cores = 1;
    threads_.reserve(num_threads);
    for (int i = 0; i < num_threads; ++i) {
      try {
        threads_.emplace_back(work, i);
      } catch (const std::system_error& e) {
        stop();
        Join();
        throw std::runtime_error(
            "could not start worker thread " + std::to_string(i + 1) + " of " +
            std::to_string(num_threads) + " (" + e.what() +
            "): the system's thread or memory limit is reached; use fewer "
            "num_threads");
      }
      // Named, so that tools (top -H, /proc/<pid>/task/*/comm) and tests
      // tell the pool's threads from others (at most 15 characters).
      const std::string name = "envpool_lite:" + std::to_string(i % 100);
      pthread_setname_np(threads_.back().native_handle(), name.c_str());
      if (affinity_offset >= 0) {
        cpu_set_t set;
        CPU_ZERO(&set);
        CPU_SET((affinity_offset + i) % cores, &set);
        pthread_setaffinity_np(threads_.back().native_handle(), sizeof(set),
                               &set);
      }
    }
  }
  ~ThreadPool() { Join(); }
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  void Join() {
    for (std::thread& t : threads_) {
      if (t.joinable()) t.join();
    }
  }
  int Size() const { return static_cast<int>(threads_.size()); }

 private:
  std::vector<std::thread> threads_;
};

}  // namespace envpool_lite
