// numpy's own inner loops of its float64 math ufuncs (np.exp, np.log,
// np.cos, ...), called from C++ so that a value equals numpy's on every CPU.
//
// Why: numpy picks each ufunc's loop for the CPU when it is imported. Where
// the CPU has AVX-512 (most servers), np.exp, np.log, np.cos, np.tanh, ...
// of float64 run numpy's own vectorised code (or SVML's), which rounds some
// results differently from libm's exp, log, cos. An env that must equal a
// Python reference computing with numpy calls the same loop. Python finds
// each loop (the function pointer and its data, from the ufunc object:
// envpool_lite.families.numpy_loops) and passes them in the "numpy_loops"
// option as {name: [function address, data address]} (user-space addresses
// are below 2^47, exact in a double). Without them (the C++ tests) the libm
// function is used.
#pragma once

#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "core/config.h"

namespace envpool_lite {

class NumpyMath {
 public:
  // The loops numpy_loops passes, by ufunc name.
  static constexpr const char* kNames[] = {
      "exp",     "log",    "cos",     "sin",     "cosh",
      "tanh",    "arccos", "arccosh", "arcsinh", "arctanh",
      "arctan2", "power",  "arctan",  "arcsin",  "tan"};

  NumpyMath() = default;  // libm
  explicit NumpyMath(const NamedNumbers& loops) {
    for (const auto& [name, v] : loops) {
      if (v.size() != 2) {
        throw std::invalid_argument("numpy_loops: [function, data] needed");
      }
      Loop loop{reinterpret_cast<Fn>(static_cast<uintptr_t>(v[0])),
                reinterpret_cast<void*>(static_cast<uintptr_t>(v[1]))};
      if (name == "exp") exp_ = loop;
      if (name == "log") log_ = loop;
      if (name == "log1p") log1p_ = loop;
      if (name == "cos") cos_ = loop;
      if (name == "sin") sin_ = loop;
      if (name == "cosh") cosh_ = loop;
      if (name == "tanh") tanh_ = loop;
      if (name == "arccos") arccos_ = loop;
      if (name == "arccosh") arccosh_ = loop;
      if (name == "arcsinh") arcsinh_ = loop;
      if (name == "arctanh") arctanh_ = loop;
      if (name == "arctan2") arctan2_ = loop;
      if (name == "power") power_ = loop;
      if (name == "arctan") arctan_ = loop;
      if (name == "arcsin") arcsin_ = loop;
      if (name == "tan") tan_ = loop;
      if (name == "exp_float32") exp_f32_ = loop;
    }
  }

  double Exp(double x) const {
    return Unary(exp_, x, [](double a) { return std::exp(a); });
  }
  double Log(double x) const {
    return Unary(log_, x, [](double a) { return std::log(a); });
  }
  double Log1p(double x) const {
    return Unary(log1p_, x, [](double a) { return std::log1p(a); });
  }
  double Cos(double x) const {
    return Unary(cos_, x, [](double a) { return std::cos(a); });
  }
  double Sin(double x) const {
    return Unary(sin_, x, [](double a) { return std::sin(a); });
  }
  double Cosh(double x) const {
    return Unary(cosh_, x, [](double a) { return std::cosh(a); });
  }
  double Tanh(double x) const {
    return Unary(tanh_, x, [](double a) { return std::tanh(a); });
  }
  double Arccos(double x) const {
    return Unary(arccos_, x, [](double a) { return std::acos(a); });
  }
  double Arccosh(double x) const {
    return Unary(arccosh_, x, [](double a) { return std::acosh(a); });
  }
  double Arcsinh(double x) const {
    return Unary(arcsinh_, x, [](double a) { return std::asinh(a); });
  }
  double Arctanh(double x) const {
    return Unary(arctanh_, x, [](double a) { return std::atanh(a); });
  }
  double Arctan(double x) const {
    return Unary(arctan_, x, [](double a) { return std::atan(a); });
  }
  double Arcsin(double x) const {
    return Unary(arcsin_, x, [](double a) { return std::asin(a); });
  }
  double Tan(double x) const {
    return Unary(tan_, x, [](double a) { return std::tan(a); });
  }
  // np.exp of a float32 array: numpy's float32 loop (its own vectorised
  // algorithm on CPUs with AVX2 or AVX-512, not libm's expf).
  float ExpF32(float x) const {
    if (exp_f32_.fn == nullptr) return std::exp(x);
    float out = 0.0f;
    char* args[2] = {reinterpret_cast<char*>(&x),
                     reinterpret_cast<char*>(&out)};
    const intptr_t dims[1] = {1};
    const intptr_t steps[2] = {sizeof(float), sizeof(float)};
    exp_f32_.fn(args, dims, steps, exp_f32_.data);
    return out;
  }
  double Arctan2(double y, double x) const {
    return Binary(arctan2_, y, x,
                  [](double a, double b) { return std::atan2(a, b); });
  }
  // np.power of float64 arrays (not `a ** 2` of an array, which numpy turns
  // into a * a, nor of an np.float64 scalar, which is libm's pow).
  double Power(double a, double b) const {
    return Binary(power_, a, b,
                  [](double x, double y) { return std::pow(x, y); });
  }

 private:
  using Fn = void (*)(char** args, const intptr_t* dims, const intptr_t* steps,
                      void* data);
  struct Loop {
    Fn fn = nullptr;
    void* data = nullptr;
  };

  template <typename F>
  static double Unary(const Loop& loop, double x, F fallback) {
    if (loop.fn == nullptr) return fallback(x);
    double out = 0.0;
    char* args[2] = {reinterpret_cast<char*>(&x),
                     reinterpret_cast<char*>(&out)};
    const intptr_t dims[1] = {1};
    const intptr_t steps[2] = {sizeof(double), sizeof(double)};
    loop.fn(args, dims, steps, loop.data);
    return out;
  }
  template <typename F>
  static double Binary(const Loop& loop, double a, double b, F fallback) {
    if (loop.fn == nullptr) return fallback(a, b);
    double out = 0.0;
    char* args[3] = {reinterpret_cast<char*>(&a), reinterpret_cast<char*>(&b),
                     reinterpret_cast<char*>(&out)};
    const intptr_t dims[1] = {1};
    const intptr_t steps[3] = {sizeof(double), sizeof(double), sizeof(double)};
    loop.fn(args, dims, steps, loop.data);
    return out;
  }

  Loop exp_, log_, log1p_, cos_, sin_, cosh_, tanh_, arccos_, arccosh_,
      arcsinh_, arctanh_, arctan2_, power_, arctan_, arcsin_, tan_, exp_f32_;
};

// numpy's pairwise summation (np.sum / ndarray.sum over a contiguous array,
// and np.add.reduce): below 8 elements a plain loop, up to 128 eight
// accumulators combined pairwise, above that halves recursively.
template <typename T>
T PairwiseSum(const T* a, int64_t n) {
  if (n < 8) {
    T res = 0;
    for (int64_t i = 0; i < n; ++i) res += a[i];
    return res;
  }
  if (n <= 128) {
    T r[8];
    for (int j = 0; j < 8; ++j) r[j] = a[j];
    int64_t i = 8;
    for (; i < n - (n % 8); i += 8) {
      for (int j = 0; j < 8; ++j) r[j] += a[i + j];
    }
    T res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
    for (; i < n; ++i) res += a[i];
    return res;
  }
  int64_t n2 = n / 2;
  n2 -= n2 % 8;
  return PairwiseSum(a, n2) + PairwiseSum(a + n2, n - n2);
}

}  // namespace envpool_lite
