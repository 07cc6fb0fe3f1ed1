// ArraySpec: name, dtype, per-env shape and bounds of one array an env reads
// (its action) or writes (its observation and info fields).
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace envpool_lite {

enum class DType { kBool, kUint8, kInt32, kInt64, kFloat32, kFloat64, kInt8 };

inline std::size_t DTypeSize(DType dtype) {
  switch (dtype) {
    case DType::kBool:
    case DType::kUint8:
    case DType::kInt8:
      return 1;
    case DType::kInt32:
    case DType::kFloat32:
      return 4;
    case DType::kInt64:
    case DType::kFloat64:
      return 8;
  }
  throw std::logic_error("unknown dtype");
}

// numpy's name for the dtype, as np.dtype(name) accepts it.
inline const char* DTypeName(DType dtype) {
  switch (dtype) {
    case DType::kBool:
      return "bool";
    case DType::kUint8:
      return "uint8";
    case DType::kInt32:
      return "int32";
    case DType::kInt64:
      return "int64";
    case DType::kFloat32:
      return "float32";
    case DType::kFloat64:
      return "float64";
    case DType::kInt8:
      return "int8";
  }
  throw std::logic_error("unknown dtype");
}

template <typename T>
DType DTypeOf();
template <>
inline DType DTypeOf<bool>() {
  return DType::kBool;
}
template <>
inline DType DTypeOf<uint8_t>() {
  return DType::kUint8;
}
template <>
inline DType DTypeOf<int32_t>() {
  return DType::kInt32;
}
template <>
inline DType DTypeOf<int64_t>() {
  return DType::kInt64;
}
template <>
inline DType DTypeOf<float>() {
  return DType::kFloat32;
}
template <>
inline DType DTypeOf<double>() {
  return DType::kFloat64;
}
template <>
inline DType DTypeOf<int8_t>() {
  return DType::kInt8;
}

struct ArraySpec {
  std::string name;
  DType dtype = DType::kFloat32;
  std::vector<int64_t> shape;  // per env, without the batch dimension
  // Box bounds: empty (unbounded), one value (same for every element) or one
  // per element.
  std::vector<double> low;
  std::vector<double> high;
  // > 0 for a Discrete(num_values) array: an integer scalar in [0, num_values).
  int64_t num_values = 0;

  std::size_t NumElements() const {
    std::size_t n = 1;
    for (int64_t d : shape) n *= static_cast<std::size_t>(d);
    return n;
  }
  std::size_t NumBytes() const { return NumElements() * DTypeSize(dtype); }
  bool IsDiscrete() const { return num_values > 0; }
};

// Shorthands that keep env headers short.
template <typename T>
ArraySpec MakeBox(std::string name, std::vector<int64_t> shape,
                  std::vector<double> low, std::vector<double> high) {
  ArraySpec spec;
  spec.name = std::move(name);
  spec.dtype = DTypeOf<T>();
  spec.shape = std::move(shape);
  spec.low = std::move(low);
  spec.high = std::move(high);
  return spec;
}

template <typename T>
ArraySpec MakeScalar(std::string name) {
  return MakeBox<T>(std::move(name), {}, {}, {});
}

inline ArraySpec MakeDiscrete(std::string name, int64_t num_values) {
  ArraySpec spec;
  spec.name = std::move(name);
  spec.dtype = DType::kInt32;
  spec.num_values = num_values;
  spec.low = {0.0};
  spec.high = {static_cast<double>(num_values - 1)};
  return spec;
}

}  // namespace envpool_lite
