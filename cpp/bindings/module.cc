// envpool_lite._core: the Python face of EnvPool. Converts and validates
// actions and env ids, releases the GIL while waiting, and hands batches to
// numpy without copying (every array of a batch shares one capsule that
// returns the block to the pool when the last array dies).
//
// This file only wires the module; each concern has a file of its own:
//   options.h        Python values <-> a task's typed Config values
//   task.h           Task (a task's Config and spec) and PoolOptions
//   specs.h          an EnvSpec as a Python dict, DType as a numpy dtype
//   actions.h        action conversion and validation
//   single_thread_limit.h  single_thread_steps_per_second()
//   action_converter.h     ActionConverter, for the distributed (Ray) pool
//   xla_pools.h      xla(): the pool registry and copies of the XLA bridge
//   py_env_pool.h    EnvPool, the Python-facing pool class
//   render_resize.h  resize_images(), render()'s resize
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <exception>
#include <string>
#include <vector>

#include "bindings/action_converter.h"
#include "bindings/options.h"
#include "bindings/py_env_pool.h"
#include "bindings/render_resize.h"
#include "bindings/single_thread_limit.h"
#include "bindings/specs.h"
#include "bindings/task.h"
#include "bindings/xla_pools.h"
#include "core/env_pool.h"
#include "core/registry.h"
#include "envs/registration.h"

namespace py = pybind11;

PYBIND11_MODULE(_core, m) {
  using namespace envpool_lite;
  m.doc() = "envpool_lite's C++ engine";

  // Made once, kept by the module; the translator looks it up there.
  py::exception<EnvStepError>(m, "EnvStepError", PyExc_RuntimeError);
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const TimeoutError& e) {
      PyErr_SetString(PyExc_TimeoutError, e.what());
    } catch (const StateUnsupported& e) {
      PyErr_SetString(PyExc_NotImplementedError, e.what());
    } catch (const EnvStepError& e) {
      py::object cls =
          py::module_::import("envpool_lite._core").attr("EnvStepError");
      py::object exc = cls(e.what());
      exc.attr("env_ids") = e.env_ids;
      exc.attr("dropped_env_ids") = e.dropped_env_ids;
      PyErr_SetObject(cls.ptr(), exc.ptr());
    }
  });

  // The mujoco version the MuJoCo envs were built for ("" when left out).
#ifdef ENVPOOL_LITE_MUJOCO
  m.attr("MUJOCO_VERSION") = ENVPOOL_LITE_MUJOCO_VERSION;
#else
  m.attr("MUJOCO_VERSION") = "";
#endif
  // The procgen release whose libenv.so the Procgen envs run ("" when left
  // out).
#ifdef ENVPOOL_LITE_PROCGEN
  m.attr("PROCGEN_VERSION") = ENVPOOL_LITE_PROCGEN_VERSION;
#else
  m.attr("PROCGEN_VERSION") = "";
#endif

  m.def("check_states", &CheckStates, py::arg("task"), py::arg("options"),
        py::arg("env_ids"), py::arg("states"));
  m.def("list_tasks", [] { return GlobalRegistry().TaskIds(); });
  m.def("task_defaults", [](const std::string& task_id) {
    py::dict out;
    for (const auto& [k, v] : GlobalRegistry().Get(task_id).defaults.Values()) {
      out[py::str(k)] = OptionToPy(v);
    }
    return out;
  });
  m.def("task_family", [](const std::string& task_id) {
    return GlobalRegistry().Get(task_id).family;
  });
  // {name: (default, kind)}: every option the task's env takes, with its
  // default and the name of its type (what make() checks a value against).
  m.def("task_options", [](const std::string& task_id) {
    py::dict out;
    for (const auto& [k, v] : GlobalRegistry().Get(task_id).defaults.Values()) {
      out[py::str(k)] = py::make_tuple(OptionToPy(v), OptionTypeName(v));
    }
    return out;
  });
  BindTaskAndPoolOptions(m);

  m.def("resize_images", &ResizeImages, py::arg("images"), py::arg("height"),
        py::arg("width"), py::arg("area"),
        "(n, H, W, C) uint8 pictures resized to (n, height, width, C) as "
        "cv2.resize does: INTER_AREA (area=True) or INTER_LINEAR.");

  m.def("single_thread_steps_per_second", &SingleThreadStepsPerSecond,
        py::arg("task_id"), py::arg("options"), py::arg("steps"),
        py::arg("seed") = 0, py::arg("env_id") = 0,
        "Steps/s of one env (the pool's env env_id) stepped in a C++ loop on "
        "this thread (random actions, resets included): the per-core limit "
        "of a pool.");

  py::class_<PyActionConverter>(m, "ActionConverter")
      .def(py::init<const PyTask&>(), py::arg("task"))
      .def("convert", &PyActionConverter::Convert, py::arg("action"),
           py::arg("n"));

  py::class_<PyEnvPool>(m, "EnvPool")
      .def(py::init<const PyTask&, const PoolOptions&>(), py::arg("task"),
           py::arg("options"))
      .def("send", &PyEnvPool::Send, py::arg("action"),
           py::arg("env_id") = py::none())
      .def("send_reset", &PyEnvPool::SendReset, py::arg("env_id") = py::none(),
           py::arg("seeds") = py::none())
      .def("recv", &PyEnvPool::Recv, py::arg("timeout") = py::none())
      .def("step", &PyEnvPool::Step, py::arg("action"),
           py::arg("env_id") = py::none(), py::arg("timeout") = py::none())
      .def("close", &PyEnvPool::Close)
      .def("render", &PyEnvPool::Render, py::arg("env_id"))
      .def("render_state", &PyEnvPool::RenderState, py::arg("env_id"))
      .def("debug_states", &PyEnvPool::DebugStates, py::arg("env_id"))
      .def("get_state", &PyEnvPool::GetState, py::arg("env_id"))
      .def("set_state", &PyEnvPool::SetState, py::arg("env_id"),
           py::arg("states"))
      .def("xla_id", &PyEnvPool::XlaId)
      .def_property_readonly("field_names", &PyEnvPool::FieldNames)
      .def_property_readonly("field_specs", &PyEnvPool::FieldSpecs)
      .def_property_readonly("spec", &PyEnvPool::Spec)
      .def_property_readonly("num_envs", &PyEnvPool::NumEnvs)
      .def_property_readonly("batch_size", &PyEnvPool::BatchSize)
      .def_property_readonly("num_threads", &PyEnvPool::NumThreads)
      .def_property_readonly("closed", &PyEnvPool::Closed)
      .def_property_readonly("in_flight", &PyEnvPool::InFlight)
      .def_property_readonly("blocks_allocated", &PyEnvPool::BlocksAllocated);

  m.def(
      "xla_bridge", [] { return reinterpret_cast<uintptr_t>(&kXlaBridge); },
      "The address of the C table (cpp/xla/xla_bridge.h) that xla()'s FFI "
      "handlers call.");
}
