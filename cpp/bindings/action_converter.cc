// envpool_lite._core: ActionConverter (action_converter.h): the action
// space of a task's spec, and actions converted and validated against it as
// EnvPool.send() does.
#include "bindings/action_converter.h"

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <vector>

#include "bindings/actions.h"
#include "bindings/specs.h"

namespace envpool_lite {

PyActionConverter::PyActionConverter(const PyTask& task)
    : spec_(task.Spec().action) {}

// (n, *shape) in the action space's dtype.
py::array PyActionConverter::Convert(const py::object& action,
                                     std::size_t n) const {
  std::vector<py::ssize_t> shape{static_cast<py::ssize_t>(n)};
  shape.insert(shape.end(), spec_.shape.begin(), spec_.shape.end());
  py::array out(NumpyDType(spec_.dtype), shape);
  ConvertActionsInto(spec_, action, n, static_cast<char*>(out.mutable_data()));
  return out;
}

}  // namespace envpool_lite
