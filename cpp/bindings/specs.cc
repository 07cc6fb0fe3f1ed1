// envpool_lite._core: an env's spec (core/env_pool.h's EnvSpec, ArraySpec)
// as the Python dicts Task.spec and EnvPool.spec return.
#include "bindings/specs.h"

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "core/env_pool.h"

namespace envpool_lite {
namespace {

py::dict ArraySpecToPy(const ArraySpec& s) {
  py::dict out;
  out["name"] = s.name;
  out["dtype"] = DTypeName(s.dtype);
  out["shape"] = py::tuple(py::cast(s.shape));
  out["low"] = s.low;
  out["high"] = s.high;
  out["num_values"] = s.num_values;
  return out;
}

}  // namespace

py::dict EnvSpecToPy(const EnvSpec& spec) {
  py::dict out;
  out["obs"] = ArraySpecToPy(spec.obs);
  py::list obs_dict;
  for (const ArraySpec& s : spec.obs_dict) obs_dict.append(ArraySpecToPy(s));
  out["obs_dict"] = obs_dict;
  out["action"] = ArraySpecToPy(spec.action);
  py::list info;
  for (const ArraySpec& s : spec.info) info.append(ArraySpecToPy(s));
  out["info"] = info;
  out["max_episode_steps"] = spec.max_episode_steps;
  out["render_shape"] = py::make_tuple(spec.render_height, spec.render_width);
  out["reward_dtype"] = spec.reward_float64 ? "float64" : "float32";
  out["num_players"] = spec.num_players;
  return out;
}

}  // namespace envpool_lite
