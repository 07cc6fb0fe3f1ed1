// envpool_lite._core: ActionConverter, a task's action checks without a
// pool, for the distributed (Ray) pool (python/envpool_lite/distributed.py).
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cstddef>

#include "bindings/task.h"
#include "core/env_pool.h"

namespace envpool_lite {

namespace py = pybind11;

// A task's action checks without a pool: the distributed pool
// (python/envpool_lite/distributed.py) validates and converts actions in
// the caller's process, before anything is sent to a worker.
class PyActionConverter {
 public:
  explicit PyActionConverter(const PyTask& task);

  // (n, *shape) in the action space's dtype.
  py::array Convert(const py::object& action, std::size_t n) const;

 private:
  ArraySpec spec_;
};

}  // namespace envpool_lite
