// envpool_lite._core: a task's options between Python and C++: the
// Python values make() hands over as the typed Config values of the task's
// defaults (refusing anything else), and a default as a Python value.
#pragma once

#include <pybind11/pybind11.h>

#include "core/registry.h"

namespace envpool_lite {

namespace py = pybind11;

// A Config value as the Python value task_defaults() returns.
py::object OptionToPy(const OptionValue& v);

// The task's defaults with `options` ({name: value}) set; raises TypeError on
// an unknown option or a value of the wrong type.
Config ConfigFromPy(const EnvDescriptor& d, const py::dict& options);

}  // namespace envpool_lite
