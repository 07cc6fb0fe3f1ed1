// envpool_lite._core: xla()'s side of the XLA bridge (cpp/xla/xla_bridge.h):
// the registry of the pools the XLA FFI handlers reach by id, and the C table
// of send / recv / step those handlers call.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <unordered_map>

#include "core/env_pool.h"
#include "xla/xla_bridge.h"

namespace envpool_lite {

class XlaPoolRegistry {
 public:
  int64_t Add(const std::shared_ptr<EnvPool>& pool) {
    std::lock_guard<std::mutex> lock(mutex_);
    const int64_t id = next_id_++;
    pools_[id] = pool;
    return id;
  }
  void Remove(int64_t id) {
    std::lock_guard<std::mutex> lock(mutex_);
    pools_.erase(id);
  }
  // The pool, kept alive for the call; null once its Python pool is gone.
  std::shared_ptr<EnvPool> Get(int64_t id) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = pools_.find(id);
    return it == pools_.end() ? nullptr : it->second.lock();
  }

 private:
  std::mutex mutex_;
  int64_t next_id_ = 1;
  std::unordered_map<int64_t, std::weak_ptr<EnvPool>> pools_;
};

// The one registry (EnvPool.xla_id() adds to it).
XlaPoolRegistry& XlaPools();

// The table xla_bridge() hands out the address of.
extern const EnvpoolLiteXlaBridge kXlaBridge;

}  // namespace envpool_lite
