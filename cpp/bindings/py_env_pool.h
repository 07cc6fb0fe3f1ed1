// envpool_lite._core.EnvPool: the Python face of EnvPool (core/env_pool.h).
// Converts and validates actions and env ids, releases the GIL while
// waiting, and hands batches to numpy without copying (every array of a
// batch shares one capsule that returns the block to the pool when the last
// array dies).
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "bindings/task.h"
#include "core/env_pool.h"
#include "core/registry.h"

namespace envpool_lite {

namespace py = pybind11;

class PyEnvPool {
 public:
  // The pool of `task`'s envs, built with `options` (one seed per env).
  PyEnvPool(const PyTask& task, const PoolOptions& options);

  void Send(const py::object& action, const py::object& env_id);
  void SendReset(const py::object& env_id, const py::object& seeds);
  py::tuple Recv(const py::object& timeout);
  py::tuple Step(const py::object& action, const py::object& env_id,
                 const py::object& timeout);

  // (n, H, W, 3) uint8 pictures of the given envs (a new array: rendering
  // is not on the stepping path).
  py::array_t<uint8_t> Render(const py::object& env_id);

  // (n, k) float64: the state a Python renderer draws each env from.
  py::array_t<double> RenderState(const py::object& env_id);
  py::list DebugStates(const py::object& env_id);

  // get_state(): one bytes object per env (core/state_blob.h).
  py::list GetState(const py::object& env_id);
  // set_state(): the envs restored; recv() returns their rows.
  void SetState(const py::object& env_id, const py::object& states);

  void Close();

  // The id xla()'s handle carries (registered on first use).
  int64_t XlaId();

  ~PyEnvPool();

  const std::vector<std::string>& FieldNames() const { return field_names_; }

  // (name, dtype, per-env shape) of every batch field, in order.
  py::list FieldSpecs() const;
  py::dict Spec() const;
  int NumEnvs() const { return pool_->NumEnvs(); }
  int BatchSize() const { return pool_->BatchSize(); }
  int NumThreads() const { return pool_->NumThreads(); }
  bool Closed() const { return pool_->Closed(); }
  int InFlight() const { return pool_->InFlight(); }
  int64_t BlocksAllocated() const { return pool_->BlocksAllocated(); }

 private:
  void CheckOpen() const {
    if (pool_->Closed()) throw std::logic_error("the env pool is closed");
  }

  // recv(timeout=): None or a number of seconds >= 0; -1 means no limit
  // (inf too: a limit beyond a year is none).
  static int64_t TimeoutNs(const py::object& timeout);

  // None: every env in sync mode, else the envs of the last batch received.
  std::vector<int32_t> EnvIds(const py::object& env_id) const;

  template <typename T>
  std::vector<int32_t> CheckedIds(const py::array_t<T>& values) const;

  const char* ConvertActions(const py::object& action, std::size_t n);

  py::tuple ToArrays(Batch batch);

  const EnvDescriptor& descriptor_;
  std::shared_ptr<EnvPool> pool_;
  int64_t xla_id_ = 0;  // 0: not registered for xla()
  std::vector<py::dtype> dtypes_;
  std::vector<std::string> field_names_;
  std::vector<int32_t> last_ids_;
  std::vector<int32_t> all_ids_;
  std::vector<char> action_scratch_;
  unsigned long main_thread_ident_ = 0;  // threading.main_thread().ident
};

// _core.check_states(task, options, env_ids, states): the checks of
// set_state() (task, options, version, digest, one state per id), without
// a pool: the pool over Ray runs them before it sends states to a worker.
void CheckStates(const PyTask& task, const PoolOptions& options,
                 const std::vector<int32_t>& env_ids, const py::object& states);

}  // namespace envpool_lite
