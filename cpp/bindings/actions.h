// envpool_lite._core: action conversion and validation: an array of
// actions of any numeric dtype, checked against the action space (shape,
// Discrete range, finiteness) and written in the action space's dtype.
// ConvertAction is also what the XLA bridge (xla_pools.cc) converts with.
#pragma once

#include <pybind11/pybind11.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "core/env_pool.h"

namespace envpool_lite {

namespace py = pybind11;

[[noreturn]] inline void ThrowNonFinite(double v, const char* dtype) {
  std::ostringstream msg;
  msg << "action value " << v << " is not a finite " << dtype
      << (std::isfinite(v) ? " (beyond the range of the action space's dtype)"
                           : "");
  throw py::value_error(msg.str());
}

// Copies `src` (any numeric numpy array, C-contiguous) into `dst` as the
// action spec's dtype, validating each value.
template <typename Src>
void ConvertAction(const Src* src, std::size_t n, const ArraySpec& spec,
                   char* dst) {
  switch (spec.dtype) {
    case DType::kInt32: {
      auto* out = reinterpret_cast<int32_t*>(dst);
      for (std::size_t i = 0; i < n; ++i) {
        if constexpr (std::is_floating_point_v<Src>) {
          // EnvPool takes float arrays for discrete actions: whole numbers
          // in range are those actions; anything else is an error.
          const double v = static_cast<double>(src[i]);
          if (!(v == std::floor(v) && v >= 0 &&
                (spec.num_values > 0
                     ? v < static_cast<double>(spec.num_values)
                     : v <= std::numeric_limits<int32_t>::max()))) {
            std::ostringstream msg;
            msg << "action " << v << " is not one of Discrete("
                << spec.num_values << ") (a float action must be a whole "
                << "number in range)";
            throw py::value_error(msg.str());
          }
          out[i] = static_cast<int32_t>(v);
        } else {
          auto v = src[i];
          // Compared in the source's own signedness: a huge uint64 is
          // reported as given, not wrapped to a negative number.
          bool ok;
          if constexpr (std::is_signed_v<Src>) {
            ok = spec.num_values > 0
                     ? (v >= 0 && static_cast<int64_t>(v) < spec.num_values)
                     : (static_cast<int64_t>(v) >=
                            std::numeric_limits<int32_t>::min() &&
                        static_cast<int64_t>(v) <=
                            std::numeric_limits<int32_t>::max());
          } else {
            ok = spec.num_values > 0
                     ? static_cast<uint64_t>(v) <
                           static_cast<uint64_t>(spec.num_values)
                     : static_cast<uint64_t>(v) <=
                           static_cast<uint64_t>(
                               std::numeric_limits<int32_t>::max());
          }
          if (!ok) {
            throw py::value_error("action " + std::to_string(v) +
                                  " out of range for Discrete(" +
                                  std::to_string(spec.num_values) + ")");
          }
          out[i] = static_cast<int32_t>(v);
        }
      }
      return;
    }
    case DType::kFloat32:
    case DType::kFloat64: {
      // The finiteness check applies to the value the env will see: a
      // float64 beyond float32's range would become inf.
      for (std::size_t i = 0; i < n; ++i) {
        if (spec.dtype == DType::kFloat32) {
          const float v = static_cast<float>(src[i]);
          if (!std::isfinite(v))
            ThrowNonFinite(static_cast<double>(src[i]), "float32");
          reinterpret_cast<float*>(dst)[i] = v;
        } else {
          const double v = static_cast<double>(src[i]);
          if (!std::isfinite(v)) ThrowNonFinite(v, "float64");
          reinterpret_cast<double*>(dst)[i] = v;
        }
      }
      return;
    }
    default:
      throw std::logic_error("unsupported action dtype");
  }
}

// Validates `action` (n actions of `spec`) and writes them to `dst` in the
// spec's dtype; raises before writing on a bad shape, dtype or value.
void ConvertActionsInto(const ArraySpec& spec, const py::object& action,
                        std::size_t n, char* dst);

}  // namespace envpool_lite
