// envpool_lite._core: single_thread_steps_per_second(), the per-core limit
// the benchmark compares pools against.
#pragma once

#include <pybind11/pybind11.h>

#include <cstdint>
#include <string>

namespace envpool_lite {

namespace py = pybind11;

// One env stepped in a tight C++ loop on the calling thread, with random
// actions and the pool's episode handling: the per-core limit the benchmark
// compares pools against.
double SingleThreadStepsPerSecond(const std::string& task_id,
                                  const py::dict& options, int64_t steps,
                                  uint64_t seed, int env_id = 0);

}  // namespace envpool_lite
