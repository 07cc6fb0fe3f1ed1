// envpool_lite._core: an env's spec as Python sees it: numpy dtypes of
// DType, and EnvSpec as the dict Task.spec and EnvPool.spec return.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include "core/env_pool.h"

namespace envpool_lite {

namespace py = pybind11;

inline py::dtype NumpyDType(DType d) { return py::dtype(DTypeName(d)); }

// {"obs", "obs_dict", "action", "info", "max_episode_steps", "render_shape",
// "reward_dtype"}, each array spec as a dict.
py::dict EnvSpecToPy(const EnvSpec& spec);

}  // namespace envpool_lite
