// envpool_lite._core: single_thread_steps_per_second(): one env stepped in
// a tight C++ loop on the calling thread, timed.
#include "bindings/single_thread_limit.h"

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <chrono>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "bindings/options.h"
#include "core/env_pool.h"
#include "core/registry.h"
#include "envs/registration.h"

namespace envpool_lite {

// One env stepped in a tight C++ loop on the calling thread, with random
// actions and the pool's episode handling: the per-core limit the benchmark
// compares pools against.
double SingleThreadStepsPerSecond(const std::string& task_id,
                                  const py::dict& options, int64_t steps,
                                  uint64_t seed, int env_id) {
  if (steps < 1) throw py::value_error("steps must be >= 1");
  const EnvDescriptor& d = GlobalRegistry().Get(task_id);
  Config config = ConfigFromPy(d, options);
  EnvSpec spec = d.make_spec(config);
  py::gil_scoped_release release;
  std::unique_ptr<Env> env = d.make_env(config, seed, env_id);

  // Random actions, drawn before timing.
  const std::size_t row = spec.action.NumBytes();
  const std::size_t n_actions = 1024;
  std::vector<char> actions(n_actions * row);
  std::mt19937_64 rng(seed);
  for (std::size_t i = 0; i < n_actions * spec.action.NumElements(); ++i) {
    if (spec.action.IsDiscrete()) {
      reinterpret_cast<int32_t*>(actions.data())[i] =
          static_cast<int32_t>(rng() % spec.action.num_values);
    } else {
      double lo = spec.action.low.empty() ? -1.0 : spec.action.low[0];
      double hi = spec.action.high.empty() ? 1.0 : spec.action.high[0];
      double u = std::uniform_real_distribution<double>(lo, hi)(rng);
      if (spec.action.dtype == DType::kFloat32) {
        reinterpret_cast<float*>(actions.data())[i] = static_cast<float>(u);
      } else {
        reinterpret_cast<double*>(actions.data())[i] = u;
      }
    }
  }
  // Where WriteObs writes, as in a batch row.
  std::vector<std::vector<char>> obs_rows;
  std::vector<void*> obs;
  for (const ArraySpec& s : spec.obs_dict.empty()
                                ? std::vector<ArraySpec>{spec.obs}
                                : spec.obs_dict) {
    obs_rows.emplace_back(s.NumBytes() + 64);
    obs.push_back(obs_rows.back().data());
  }
  std::vector<std::vector<char>> info_rows;
  std::vector<void*> info;
  for (const ArraySpec& s : spec.info) {
    info_rows.emplace_back(s.NumBytes() + 64);
    info.push_back(info_rows.back().data());
  }
  Row out(obs.data(), info.data());

  env->Reset();
  env->WriteObs(out);
  int64_t elapsed = 0;
  auto start = std::chrono::steady_clock::now();
  for (int64_t i = 0; i < steps; ++i) {
    StepResult r = env->Step(&actions[(i % n_actions) * row]);
    ++elapsed;
    if (r.terminated ||
        (spec.max_episode_steps > 0 && elapsed >= spec.max_episode_steps)) {
      env->Reset();
      elapsed = 0;
    }
    env->WriteObs(out);
  }
  double secs =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  return static_cast<double>(steps) / secs;
}

}  // namespace envpool_lite
