// pygame-ce 2.5.8's pygame.math.Vector2.rotate_rad, reproduced operation by
// operation (src_c/math.c: vector2_rotate_rad -> _vector2_rotate_helper), so
// that coordinates gymnasium's CarRacing computes with it are the same
// float64 values here.
//
// pygame first folds the angle into [0, 2 pi) with fmod, then special-cases
// angles within the vector's epsilon (1e-6, VECTOR_EPSILON, what a new
// Vector2 gets) of a multiple of 90 degrees: those rotate exactly (a copy,
// a swap, a negation) instead of through sin and cos. Everything else is
// x' = cos * x - sin * y, y' = sin * x + cos * y in float64.
#pragma once

#include <cmath>

namespace envpool_lite::pygame_math {

struct Vector2 {
  double x, y;
};

// math.c's VECTOR_EPSILON: the epsilon of every Vector2 gymnasium builds.
inline constexpr double kVectorEpsilon = 1e-6;

// Vector2.rotate_rad(angle) of any vector, with the angle's folding, special
// case and sin / cos worked out once (CarRacing turns thousands of points
// by one angle per frame).
class Rotation {
 public:
  explicit Rotation(double angle, double epsilon = kVectorEpsilon) {
    constexpr double kTwoPi = 2. * M_PI;  // math.c's TWO_PI
    // "make sure angle is in range [0, 2 PI)"
    angle = std::fmod(angle, kTwoPi);
    if (angle < 0) angle += kTwoPi;
    // "special-case rotation by 0, 90, 180 and 270 degrees"
    if (std::fmod(angle + epsilon, M_PI_2) < 2 * epsilon) {
      const int quarter = static_cast<int>((angle + epsilon) / M_PI_2);
      if (quarter >= 0 && quarter <= 4) {  // 4: 360 degrees (pygame-ce 229)
        quarter_ = quarter % 4;
        return;
      }
      // otherwise pygame raises RuntimeError ("should NEVER happen")
    }
    sin_ = std::sin(angle);
    cos_ = std::cos(angle);
  }

  Vector2 Apply(Vector2 v) const {
    switch (quarter_) {
      case 0:  // 0 degrees
        return {v.x, v.y};
      case 1:  // 90 degrees
        return {-v.y, v.x};
      case 2:  // 180 degrees
        return {-v.x, -v.y};
      case 3:  // 270 degrees
        return {v.y, -v.x};
      default:
        return {cos_ * v.x - sin_ * v.y, sin_ * v.x + cos_ * v.y};
    }
  }

 private:
  int quarter_ = -1;  // a multiple of 90 degrees, or -1: sin and cos
  double sin_ = 0.0, cos_ = 1.0;
};

}  // namespace envpool_lite::pygame_math
