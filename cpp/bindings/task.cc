// envpool_lite._core.Task and _core.PoolOptions (task.h): what a pool is
// built from, each made once by make() (python/envpool_lite/spec.py).
#include "bindings/task.h"

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <climits>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "bindings/options.h"
#include "bindings/specs.h"
#include "core/pool_options.h"
#include "envs/registration.h"

namespace envpool_lite {

PyTask::PyTask(const std::string& task_id, const py::dict& options)
    : descriptor_(GlobalRegistry().Get(task_id)),
      config_(ConfigFromPy(descriptor_, options)),
      spec_(descriptor_.make_spec(config_)) {}

namespace {

// A Python int as int64_t, saturated: a value beyond int64 is out of every
// range PoolOptions checks, and is reported as the nearest int64.
int64_t Int64(py::handle value) {
  if (!PyLong_Check(value.ptr()) || PyBool_Check(value.ptr())) {
    throw py::type_error("PoolOptions takes an int, got " +
                         py::repr(value).cast<std::string>());
  }
  int overflow = 0;
  const long long v = PyLong_AsLongLongAndOverflow(value.ptr(), &overflow);
  if (v == -1 && PyErr_Occurred()) throw py::error_already_set();
  if (overflow > 0) return INT64_MAX;
  if (overflow < 0) return INT64_MIN;
  return v;
}

// CheckPoolOptions, and the seeds: none yet, or one per env.
PoolOptions Checked(PoolOptions o) {
  o = CheckPoolOptions(std::move(o));
  if (!o.seeds.empty() && static_cast<int64_t>(o.seeds.size()) != o.num_envs) {
    throw py::value_error("seeds has " + std::to_string(o.seeds.size()) +
                          " entries, expected one per env (" +
                          std::to_string(o.num_envs) + ")");
  }
  return o;
}

PoolOptions MakePoolOptions(const py::int_& num_envs,
                            const py::int_& batch_size,
                            const py::int_& num_threads,
                            const py::int_& thread_affinity_offset,
                            bool same_step_autoreset, bool render,
                            const py::object& seeds,
                            const py::int_& first_env_id, bool shares_cores) {
  PoolOptions o;
  o.num_envs = Int64(num_envs);
  o.batch_size = Int64(batch_size);
  o.num_threads = Int64(num_threads);
  o.thread_affinity_offset = Int64(thread_affinity_offset);
  o.same_step_autoreset = same_step_autoreset;
  o.render = render;
  o.first_env_id = Int64(first_env_id);
  o.shares_cores = shares_cores;
  if (!seeds.is_none()) o.seeds = seeds.cast<std::vector<uint64_t>>();
  return Checked(o);
}

py::dict AsDict(const PoolOptions& o) {
  py::dict d;
  d["num_envs"] = o.num_envs;
  d["batch_size"] = o.batch_size;
  d["num_threads"] = o.num_threads;
  d["thread_affinity_offset"] = o.thread_affinity_offset;
  d["same_step_autoreset"] = o.same_step_autoreset;
  d["render"] = o.render;
  d["seeds"] = o.seeds;
  d["first_env_id"] = o.first_env_id;
  d["shares_cores"] = o.shares_cores;
  return d;
}

// One field of `o` set by name from a Python value; TypeError for a name
// PoolOptions has not.
void SetField(PoolOptions& o, const std::string& name, py::handle value) {
  if (name == "num_envs") {
    o.num_envs = Int64(value);
  } else if (name == "batch_size") {
    o.batch_size = Int64(value);
  } else if (name == "num_threads") {
    o.num_threads = Int64(value);
  } else if (name == "thread_affinity_offset") {
    o.thread_affinity_offset = Int64(value);
  } else if (name == "first_env_id") {
    o.first_env_id = Int64(value);
  } else if (name == "same_step_autoreset") {
    o.same_step_autoreset = value.cast<bool>();
  } else if (name == "render") {
    o.render = value.cast<bool>();
  } else if (name == "shares_cores") {
    o.shares_cores = value.cast<bool>();
  } else if (name == "seeds") {
    o.seeds = value.cast<std::vector<uint64_t>>();
  } else {
    throw py::type_error("PoolOptions has no field '" + name + "'");
  }
}

// `o` with the fields of `changes` ({name: value}) set, checked as a new one
// is (replace(), and unpickling onto the defaults).
PoolOptions Changed(PoolOptions o, const py::dict& changes) {
  for (const auto& [key, value] : changes) {
    SetField(o, key.cast<std::string>(), value);
  }
  return Checked(std::move(o));
}

}  // namespace

void BindTaskAndPoolOptions(py::module_& m) {
  py::class_<PyTask>(m, "Task",
                     "A task with its options resolved: its typed options "
                     "and its spec, built once (what a pool is built from).")
      .def(py::init<const std::string&, const py::dict&>(), py::arg("task_id"),
           py::arg("options"))
      .def_property_readonly("task_id", &PyTask::TaskId)
      .def_property_readonly(
          "spec", [](const PyTask& t) { return EnvSpecToPy(t.Spec()); });

  const PoolOptions d;
  py::dict defaults;
  defaults["num_envs"] = d.num_envs;
  defaults["batch_size"] = d.batch_size;
  defaults["num_threads"] = d.num_threads;
  defaults["thread_affinity_offset"] = d.thread_affinity_offset;
  // The defaults of the pool options make() takes (before batch_size 0 is
  // resolved to num_envs).
  m.attr("POOL_OPTION_DEFAULTS") = defaults;

  py::class_<PoolOptions>(
      m, "PoolOptions",
      "What a pool is built with besides its task, checked when made "
      "(ValueError for a value out of its range) with batch_size 0 resolved "
      "to num_envs. Read-only: replace() makes a changed copy.")
      .def(py::init(&MakePoolOptions), py::kw_only(),
           py::arg("num_envs") = d.num_envs,
           py::arg("batch_size") = d.batch_size,
           py::arg("num_threads") = d.num_threads,
           py::arg("thread_affinity_offset") = d.thread_affinity_offset,
           py::arg("same_step_autoreset") = d.same_step_autoreset,
           py::arg("render") = d.render, py::arg("seeds") = py::none(),
           py::arg("first_env_id") = d.first_env_id,
           py::arg("shares_cores") = d.shares_cores)
      .def_readonly("num_envs", &PoolOptions::num_envs)
      .def_readonly("batch_size", &PoolOptions::batch_size)
      .def_readonly("num_threads", &PoolOptions::num_threads)
      .def_readonly("thread_affinity_offset",
                    &PoolOptions::thread_affinity_offset)
      .def_readonly("same_step_autoreset", &PoolOptions::same_step_autoreset)
      .def_readonly("render", &PoolOptions::render)
      .def_readonly("seeds", &PoolOptions::seeds)
      .def_readonly("first_env_id", &PoolOptions::first_env_id)
      .def_readonly("shares_cores", &PoolOptions::shares_cores)
      .def("_asdict", &AsDict)
      .def(
          "replace",
          [](const PoolOptions& o, const py::kwargs& changes) {
            return Changed(o, changes);  // the seeds copied here, not in Python
          },
          "A copy with the given fields changed, checked as a new one is.")
      .def("__repr__",
           [](const PoolOptions& o) {
             return "PoolOptions(num_envs=" + std::to_string(o.num_envs) +
                    ", batch_size=" + std::to_string(o.batch_size) +
                    ", num_threads=" + std::to_string(o.num_threads) +
                    ", thread_affinity_offset=" +
                    std::to_string(o.thread_affinity_offset) +
                    ", same_step_autoreset=" +
                    (o.same_step_autoreset ? "True" : "False") +
                    ", render=" + (o.render ? "True" : "False") + ", seeds=<" +
                    std::to_string(o.seeds.size()) +
                    ">, first_env_id=" + std::to_string(o.first_env_id) +
                    ", shares_cores=" + (o.shares_cores ? "True" : "False") +
                    ")";
           })
      .def(py::pickle(
          [](const PoolOptions& o) { return AsDict(o); },
          [](const py::dict& state) { return Changed(PoolOptions{}, state); }));
}

}  // namespace envpool_lite
