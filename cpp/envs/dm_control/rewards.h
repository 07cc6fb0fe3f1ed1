// dm_control/utils/rewards.py: tolerance() and its sigmoids, computed as
// numpy computes them for a scalar x (an np.float64): np.exp, np.cos, ...
// are numpy's own loops (NumpyMath), `y ** 2` of an np.float64 is libm's
// pow (numpy's scalar power), and the rest is IEEE arithmetic.
#pragma once

#include <cmath>
#include <stdexcept>

#include "refkit/numpy/loops.h"

namespace envpool_lite {
namespace dm_control {

enum class Sigmoid {
  kGaussian,
  kHyperbolic,
  kLongTail,
  kReciprocal,
  kCosine,
  kLinear,
  kQuadratic,
  kTanhSquared
};

// `y ** 2` of an np.float64: libm's pow (GCC would fold pow(y, 2.0) into
// y * y, which rounds differently at times; the exponent is hidden).
inline double ScalarSquare(double y) {
  volatile double two = 2.0;
  return std::pow(y, two);
}

// _sigmoids(x, value_at_margin, sigmoid) of an np.float64 x.
inline double SigmoidValue(const NumpyMath& np, double x,
                           double value_at_margin, Sigmoid sigmoid) {
  constexpr double kPi = 3.141592653589793;
  switch (sigmoid) {
    case Sigmoid::kGaussian: {
      const double scale = std::sqrt(-2 * np.Log(value_at_margin));
      return np.Exp(-0.5 * ScalarSquare(x * scale));
    }
    case Sigmoid::kHyperbolic: {
      const double scale = np.Arccosh(1 / value_at_margin);
      return 1 / np.Cosh(x * scale);
    }
    case Sigmoid::kLongTail: {
      const double scale = std::sqrt(1 / value_at_margin - 1);
      return 1 / (ScalarSquare(x * scale) + 1);
    }
    case Sigmoid::kReciprocal: {
      const double scale = 1 / value_at_margin - 1;
      return 1 / (std::abs(x) * scale + 1);
    }
    case Sigmoid::kCosine: {
      const double scale = np.Arccos(2 * value_at_margin - 1) / kPi;
      const double scaled_x = x * scale;
      const double cos_pi_scaled_x = np.Cos(kPi * scaled_x);
      return std::abs(scaled_x) < 1 ? (1 + cos_pi_scaled_x) / 2 : 0.0;
    }
    case Sigmoid::kLinear: {
      const double scale = 1 - value_at_margin;
      const double scaled_x = x * scale;
      return std::abs(scaled_x) < 1 ? 1 - scaled_x : 0.0;
    }
    case Sigmoid::kQuadratic: {
      const double scale = std::sqrt(1 - value_at_margin);
      const double scaled_x = x * scale;
      return std::abs(scaled_x) < 1 ? 1 - ScalarSquare(scaled_x) : 0.0;
    }
    case Sigmoid::kTanhSquared: {
      const double scale = np.Arctanh(std::sqrt(1 - value_at_margin));
      return 1 - ScalarSquare(np.Tanh(x * scale));
    }
  }
  throw std::logic_error("unknown sigmoid");
}

// rewards.tolerance(x, bounds=(lower, upper), margin, sigmoid,
// value_at_margin) of a scalar x: 1 inside the bounds, else the sigmoid of
// the distance to them in units of margin (0 outside when margin is 0).
inline double Tolerance(const NumpyMath& np, double x, double lower,
                        double upper, double margin = 0.0,
                        Sigmoid sigmoid = Sigmoid::kGaussian,
                        double value_at_margin = 0.1) {
  const bool in_bounds = lower <= x && x <= upper;
  if (margin == 0) return in_bounds ? 1.0 : 0.0;
  const double d = (x < lower ? lower - x : x - upper) / margin;
  return in_bounds ? 1.0 : SigmoidValue(np, d, value_at_margin, sigmoid);
}

}  // namespace dm_control
}  // namespace envpool_lite
