// envpool_lite._core: ConvertActionsInto, the numpy side of action
// conversion: an array-like's shape and dtype checked, then its values
// converted by ConvertAction (actions.h).
#include "bindings/actions.h"

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <string>
#include <vector>

namespace envpool_lite {

// Validates `action` (n actions of `spec`) and writes them to `dst` in the
// spec's dtype; raises before writing on a bad shape, dtype or value.
void ConvertActionsInto(const ArraySpec& spec, const py::object& action,
                        std::size_t n, char* dst) {
  // Aligned and in this machine's byte order: a big-endian array is
  // converted (by numpy), never read as if it were little-endian.
  py::array arr = py::array::ensure(
      action, py::array::c_style | py::detail::npy_api::NPY_ARRAY_ALIGNED_);
  if (!arr) throw py::type_error("action must be array-like");
  // numpy converts what the dispatch below does not read: a foreign byte
  // order (to this machine's) and float16 / longdouble (to float64).
  py::dtype dt = arr.dtype();
  const bool foreign_order =
      dt.byteorder() == (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ ? '>' : '<');
  const bool odd_float =
      dt.kind() == 'f' && dt.itemsize() != 4 && dt.itemsize() != 8;
  if (foreign_order || odd_float) {
    arr =
        py::array(arr.attr("astype")(odd_float ? py::object(py::str("float64"))
                                               : dt.attr("newbyteorder")("=")));
    dt = arr.dtype();
  }
  // Expected shape: (n, *spec.shape).
  bool shape_ok =
      arr.ndim() == static_cast<py::ssize_t>(1 + spec.shape.size()) &&
      arr.shape(0) == static_cast<py::ssize_t>(n);
  for (std::size_t d = 0; shape_ok && d < spec.shape.size(); ++d) {
    shape_ok = arr.shape(d + 1) == spec.shape[d];
  }
  if (!shape_ok) {
    std::string want = "(" + std::to_string(n);
    for (int64_t d : spec.shape) want += ", " + std::to_string(d);
    want += spec.shape.empty() ? ",)" : ")";
    std::string got = py::str(py::tuple(py::cast(
        std::vector<py::ssize_t>(arr.shape(), arr.shape() + arr.ndim()))));
    throw py::value_error("action has shape " + got + ", expected " + want +
                          " (one action per env id)");
  }
  std::size_t count = static_cast<std::size_t>(arr.size());
  const void* src = arr.data();
  char kind = dt.kind();
  int size = static_cast<int>(dt.itemsize());
  if (kind == 'b') {
    ConvertAction(static_cast<const uint8_t*>(src), count, spec, dst);
  } else if (kind == 'i') {
    if (size == 1)
      ConvertAction(static_cast<const int8_t*>(src), count, spec, dst);
    else if (size == 2)
      ConvertAction(static_cast<const int16_t*>(src), count, spec, dst);
    else if (size == 4)
      ConvertAction(static_cast<const int32_t*>(src), count, spec, dst);
    else
      ConvertAction(static_cast<const int64_t*>(src), count, spec, dst);
  } else if (kind == 'u') {
    if (size == 1)
      ConvertAction(static_cast<const uint8_t*>(src), count, spec, dst);
    else if (size == 2)
      ConvertAction(static_cast<const uint16_t*>(src), count, spec, dst);
    else if (size == 4)
      ConvertAction(static_cast<const uint32_t*>(src), count, spec, dst);
    else
      ConvertAction(static_cast<const uint64_t*>(src), count, spec, dst);
  } else if (kind == 'f' && size == 4) {
    ConvertAction(static_cast<const float*>(src), count, spec, dst);
  } else if (kind == 'f' && size == 8) {
    ConvertAction(static_cast<const double*>(src), count, spec, dst);
  } else {
    throw py::type_error("action has unsupported dtype " +
                         std::string(py::str(dt)));
  }
}

}  // namespace envpool_lite
