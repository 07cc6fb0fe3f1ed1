// The few numpy / Python numerics the classic-control envs need in order to
// match gymnasium bit for bit, where plain C++ would round differently.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>

namespace envpool_lite {
namespace numpy_math {

// np.pi (== math.pi); M_PI is not standard C++.
inline constexpr double kPi = 3.141592653589793;

// `x ** 2` on an np.float64 (or a Python float, or math.pow(x, 2)) calls
// libm's pow(), which glibc does not always round like x * x. GCC folds
// pow(x, 2.0) into x * x, so the exponent is hidden behind a volatile.
inline double Pow2(double x) {
  volatile double two = 2.0;
  return std::pow(x, two);
}

// `x ** 2` on an np.float32: libm's powf().
inline float Pow2(float x) {
  volatile float two = 2.0f;
  return std::pow(x, static_cast<float>(two));
}

// Python's (and numpy's) float `a % b`: fmod, moved to the sign of b, and
// +0.0 / -0.0 following b when the remainder is zero.
inline double FloorMod(double a, double b) {
  double mod = std::fmod(a, b);
  if (mod != 0.0) {
    if ((b < 0) != (mod < 0)) mod += b;
  } else {
    mod = std::copysign(0.0, b);
  }
  return mod;
}

// np.sin / np.cos on float32: numpy's own vectorised algorithm (Cody-Waite
// range reduction and minimax polynomials with fused multiply-adds; numpy
// uses it on every x86-64 CPU with FMA3), not libm's sinf / cosf. Out of
// its range numpy falls back to libm, and so do we.
namespace detail {

inline float SinCosF32(float x, bool cosine) {
  if (std::isnan(x)) return std::numeric_limits<float>::quiet_NaN();
  const float max_cody = cosine ? 71476.0625f : 117435.992f;
  if (!(std::fabs(x) <= max_cody)) return cosine ? std::cos(x) : std::sin(x);

  // quadrant = rint(x * 2/pi) via the 1.5 * 2^23 trick (round half even).
  // numpy's source multiplies then adds, but its build contracts the two
  // into one fused multiply-add, which decides ties near odd multiples of
  // pi/4 differently; match the build.
  const float rint_cvt_magic = 0x1.800000p+23f;
  float quadrant = std::fma(x, 0x1.45f306p-1f, rint_cvt_magic);
  quadrant = quadrant - rint_cvt_magic;

  // x - quadrant * pi/2 in three parts.
  float r = std::fma(quadrant, -0x1.921fb0p+00f, x);
  r = std::fma(quadrant, -0x1.5110b4p-22f, r);
  r = std::fma(quadrant, -0x1.846988p-48f, r);
  const float r2 = r * r;

  float c = std::fma(0x1.98e616p-16f, r2, -0x1.6c06dcp-10f);
  c = std::fma(c, r2, 0x1.55553cp-05f);
  c = std::fma(c, r2, -0x1.000000p-01f);
  c = std::fma(c, r2, 0x1.000000p+00f);

  float s = std::fma(0x1.7d3bbcp-19f, r2, -0x1.a06bbap-13f);
  s = std::fma(s, r2, 0x1.11119ap-07f);
  s = std::fma(s, r2, -0x1.555556p-03f);
  s = std::fma(s, r2, 0.0f);
  s = std::fma(s, r, r);

  int32_t q = static_cast<int32_t>(quadrant);
  if (cosine) q += 1;
  float result = (q & 1) == 0 ? s : c;
  if ((q & 2) == 2) result = 0.0f - result;
  return result;
}

}  // namespace detail

inline float Sin(float x) { return detail::SinCosF32(x, false); }
inline float Cos(float x) { return detail::SinCosF32(x, true); }

}  // namespace numpy_math
}  // namespace envpool_lite
