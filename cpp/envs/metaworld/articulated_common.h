// Meta-World: what the articulated tasks (doors, drawers, faucets, windows,
// the lever and the dial; registration_articulated.cc) share.
#pragma once

#include "envs/metaworld/sawyer_env.h"

namespace envpool_lite {
namespace metaworld {
namespace articulated {

// A float32 init_config value (np.array([...], dtype=np.float32)) as the
// float64 the reference reads from it.
inline Vec3 F32(double x, double y, double z) {
  return {static_cast<double>(static_cast<float>(x)),
          static_cast<double>(static_cast<float>(y)),
          static_cast<double>(static_cast<float>(z))};
}

inline Vec3 Add(const Vec3& a, const Vec3& b) {
  return {a[0] + b[0], a[1] + b[1], a[2] + b[2]};
}
inline Vec3 Sub(const Vec3& a, const Vec3& b) {
  return {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
}
inline Vec3 Mul(const Vec3& a, const Vec3& b) {
  return {a[0] * b[0], a[1] * b[1], a[2] * b[2]};
}
inline Vec3 At(const double* p) { return {p[0], p[1], p[2]}; }

// The v1 rewards' pull term: c1 * (max_pull - pull) + c1 * (exp(-(pull **
// 2) / c2) + exp(-(pull ** 2) / c3)), c1 = 1000, then max(., 0) where the
// task clamps it.
inline double V1Pull(const NumpyMath& np, double max_pull, double pull,
                     double c2, double c3, bool clamp) {
  const double sq = pull * pull;
  const double rew =
      1000 * (max_pull - pull) + 1000 * (np.Exp(-sq / c2) + np.Exp(-sq / c3));
  return clamp ? std::max(rew, 0.0) : rew;
}

// hamacher_product of two float32 values (numpy keeps float32 where one of
// them is an np.float32 and the other a Python float).
inline float HamacherF32(float a, float b) {
  if (!((0.0f <= a && a <= 1.0f) && (0.0f <= b && b <= 1.0f))) {
    throw std::runtime_error("hamacher_product: a and b must be in [0, 1]");
  }
  const float prod = a * b;
  const float denominator = a + b - prod;
  return denominator > 0 ? prod / denominator : 0.0f;
}

// A value that is either a Python float (float64) or an np.float32.
struct Num {
  double value = 0;
  bool f32 = false;
};

// hamacher_product(reach, min(max(0, action[-1]), 1)) with action[-1] an
// np.float32: 0 (int) when not positive, 1 (int) above 1, else the float32
// itself, which makes the product float32.
inline Num HamacherGripper(double reach, float a) {
  if (!(a > 0)) return {HamacherProduct(reach, 0.0), false};
  if (1.0f < a) return {HamacherProduct(reach, 1.0), false};
  return {static_cast<double>(HamacherF32(static_cast<float>(reach), a)), true};
}

// hamacher_product(x, y) with x maybe float32 and y a Python float.
inline Num Hamacher(const Num& x, double y) {
  if (!x.f32) return {HamacherProduct(x.value, y), false};
  return {static_cast<double>(
              HamacherF32(static_cast<float>(x.value), static_cast<float>(y))),
          true};
}

}  // namespace articulated
}  // namespace metaworld
}  // namespace envpool_lite
