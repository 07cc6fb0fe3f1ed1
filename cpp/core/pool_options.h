// PoolOptions: what a pool is built with besides its task (the task's
// options are its Config), with the pool's rules in one place: the defaults,
// the ranges, and batch_size 0 meaning num_envs. Python's make() builds one
// (envpool_lite._core.PoolOptions) and checks nothing of these itself; the
// pool of a Ray worker is built from the same object.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace envpool_lite {

struct PoolOptions {
  // The numbers a user gives, as wide as Python's ints get here, so that a
  // value out of range is reported as given.
  int64_t num_envs = 1;
  int64_t batch_size = 0;               // 0: num_envs
  int64_t num_threads = 0;              // 0: min(batch_size, cores)
  int64_t thread_affinity_offset = -1;  // -1: no pinning
  bool same_step_autoreset = false;
  bool render = false;          // make(render_mode=...): Env::EnableRendering
  std::vector<uint64_t> seeds;  // one per env
  int64_t first_env_id = 0;     // env i is built with env_id first_env_id + i
  // The process's cores are shared with other pools (a distributed
  // worker's, beside its siblings on the node): no core counts as spare.
  bool shares_cores = false;

  // Limits, checked before anything is allocated.
  static constexpr int64_t kMaxEnvs = 1 << 20;
  static constexpr int64_t kMaxThreads = 1024;
};

// The cores a pinned pool counts its thread_affinity_offset in (its worker
// i runs on core (offset + i) % cores: thread_pool.h).
inline int PinnableCores() {
  const int cores = static_cast<int>(std::thread::hardware_concurrency());
  return cores < 1 ? 1 : cores;
}

// `options` with batch_size 0 resolved to num_envs; std::invalid_argument
// (Python's ValueError) for a value out of its range. The seeds are the
// pool's to check (one per env): they are often set after.
inline PoolOptions CheckPoolOptions(PoolOptions options) {
  const auto got = [](int64_t v) { return ", got " + std::to_string(v); };
  const int64_t n = options.num_envs;
  if (n < 1 || n > PoolOptions::kMaxEnvs) {
    throw std::invalid_argument("num_envs must be in [1, " +
                                std::to_string(PoolOptions::kMaxEnvs) + "]" +
                                got(n));
  }
  if (options.batch_size == 0) options.batch_size = n;
  if (options.batch_size < 1 || options.batch_size > n) {
    throw std::invalid_argument(
        "batch_size must be in [1, num_envs=" + std::to_string(n) +
        "] (0 means num_envs)" + got(options.batch_size));
  }
  if (options.num_threads < 0 ||
      options.num_threads > PoolOptions::kMaxThreads) {
    throw std::invalid_argument("num_threads must be in [0, " +
                                std::to_string(PoolOptions::kMaxThreads) +
                                "] (0: one per core, at most batch_size)" +
                                got(options.num_threads));
  }
  const int cores = PinnableCores();
  if (options.thread_affinity_offset < -1 ||
      options.thread_affinity_offset >= cores) {
    throw std::invalid_argument(
        "thread_affinity_offset must be in [0, " + std::to_string(cores - 1) +
        "] (the first core to pin to; this machine has " +
        std::to_string(cores) + "), or -1 for no pinning" +
        got(options.thread_affinity_offset));
  }
  if (options.first_env_id < 0 || options.first_env_id > INT32_MAX - n) {
    throw std::invalid_argument(
        "first_env_id must be in [0, 2**31 - 1 - num_envs]" +
        got(options.first_env_id));
  }
  return options;
}

}  // namespace envpool_lite
