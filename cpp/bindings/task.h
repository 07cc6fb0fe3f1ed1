// envpool_lite._core.Task: a task with its options, as make() resolved them:
// the descriptor, the typed Config and the EnvSpec, built once. Python's
// EnvSpec reads its arrays from it, and a pool (or the Ray pool's action
// checks) is built from it, so the spec is never built twice.
#pragma once

#include <pybind11/pybind11.h>

#include <string>

#include "core/env_pool.h"
#include "core/registry.h"

namespace envpool_lite {

namespace py = pybind11;

class PyTask {
 public:
  // The task's defaults with `options` ({name: value}) set; TypeError for an
  // unknown option or a value of the wrong type, ValueError for one the
  // env's spec refuses.
  PyTask(const std::string& task_id, const py::dict& options);

  const EnvDescriptor& Descriptor() const { return descriptor_; }
  const Config& GetConfig() const { return config_; }
  const EnvSpec& Spec() const { return spec_; }
  const std::string& TaskId() const { return descriptor_.task_id; }

 private:
  const EnvDescriptor& descriptor_;
  Config config_;
  EnvSpec spec_;
};

// _core.Task and _core.PoolOptions (a keyword constructor that checks and
// resolves through CheckPoolOptions, replace(), pickling for Ray), and
// _core.POOL_OPTION_DEFAULTS.
void BindTaskAndPoolOptions(py::module_& m);

}  // namespace envpool_lite
