// EntryGate: the pool's "one caller at a time" contract, enforced.
//
// send / recv / reset / render are meant for one thread at a time. Breaking
// that (a send while another thread is blocked in recv, two threads in recv,
// a signal handler that calls recv while recv is blocked) used to corrupt
// the pool's bookkeeping silently. Every entry point now passes this gate:
// a second caller gets ConcurrentUseError at once, and nothing changes.
//
// close() is the one call that may come from any thread at any time: it
// waits for the caller inside to leave (the pool wakes it first, so that
// takes at most one env step), then tears the pool down. When close() runs
// on the very thread that is inside (a signal handler during recv), it
// cannot wait for itself: the teardown is left to that call, which runs it
// as it leaves.
//
// fork(): only the forking thread survives in the child, so a pool made
// before the fork has no workers there. ForkGeneration() counts forks (a
// pthread_atfork handler bumps it in each child); a pool remembers the
// generation it was made in and refuses to run in another.
#pragma once

#include <pthread.h>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <string>
#include <thread>

namespace envpool_lite {

class ConcurrentUseError : public std::logic_error {
  using std::logic_error::logic_error;
};

inline std::atomic<int>& ForkCounter() {
  static std::atomic<int> forks{0};
  return forks;
}

// How many forks separate this process from the first one that asked.
inline int ForkGeneration() {
  static const bool registered = [] {
    pthread_atfork(nullptr, nullptr, [] {
      ForkCounter().fetch_add(1, std::memory_order_relaxed);
    });
    return true;
  }();
  (void)registered;
  return ForkCounter().load(std::memory_order_relaxed);
}

class EntryGate {
 public:
  // The caller holds the gate until Leave(). Throws ConcurrentUseError if
  // another call holds it (on any thread, this one included).
  void Enter(const char* call) {
    int expected = kFree;
    if (!state_.compare_exchange_strong(expected, kBusy,
                                        std::memory_order_acquire)) {
      const bool same =
          owner_.load(std::memory_order_relaxed) == std::this_thread::get_id();
      const char* other = call_.load(std::memory_order_relaxed);
      throw ConcurrentUseError(
          std::string(call) + "() was called while " +
          (other != nullptr ? other : "another call") + "() is running " +
          (same ? "on this same thread (re-entered from a signal handler or "
                  "a callback)"
                : "on another thread") +
          ": a pool is used by one thread at a time (close() is the "
          "exception: it may be called from anywhere)");
    }
    owner_.store(std::this_thread::get_id(), std::memory_order_relaxed);
    call_.store(call, std::memory_order_relaxed);
  }

  void Leave() {
    call_.store(nullptr, std::memory_order_relaxed);
    owner_.store(std::thread::id(), std::memory_order_relaxed);
    state_.store(kFree, std::memory_order_release);
  }

  // close(): returns true with the gate held once the caller inside has
  // left; false, without the gate, when the caller inside is this thread.
  bool EnterForClose() {
    for (;;) {
      int expected = kFree;
      if (state_.compare_exchange_weak(expected, kBusy,
                                       std::memory_order_acquire)) {
        owner_.store(std::this_thread::get_id(), std::memory_order_relaxed);
        call_.store("close", std::memory_order_relaxed);
        return true;
      }
      if (expected == kBusy && owner_.load(std::memory_order_relaxed) ==
                                   std::this_thread::get_id()) {
        return false;
      }
      std::this_thread::sleep_for(std::chrono::microseconds(100));
    }
  }

 private:
  static constexpr int kFree = 0;
  static constexpr int kBusy = 1;
  std::atomic<int> state_{kFree};
  std::atomic<std::thread::id> owner_{};
  std::atomic<const char*> call_{nullptr};
};

}  // namespace envpool_lite
