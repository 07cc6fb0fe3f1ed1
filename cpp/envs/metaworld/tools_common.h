// Meta-World, the tools tasks (assembly, disassemble, peg-insert-side,
// peg-unplug-side, hammer, basketball, box-close): what their files share
// beyond sawyer_env.h.
#pragma once

#include <algorithm>
#include <stdexcept>
#include <vector>

#include "envs/metaworld/sawyer_env.h"

namespace envpool_lite {
namespace metaworld {
namespace tools {

inline Vec3 At(const double* p) { return {p[0], p[1], p[2]}; }
inline Vec3 Add(const Vec3& a, const Vec3& b) {
  return {a[0] + b[0], a[1] + b[1], a[2] + b[2]};
}
inline Vec3 Sub(const Vec3& a, const Vec3& b) {
  return {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
}

// The v1 rewards' `-reachDist + max(actions[-1], 0) / 50`: the float32
// action divided in float32 (a Python int is weak), added in float64.
inline double ReachGrip(double reach_dist, float a) {
  const double grip = a > 0 ? static_cast<double>(a / 50.0f) : 0.0;
  return -reach_dist + grip;
}

// The v1 rewards' 1000 * (max_dist - dist) + 1000 * (np.exp(-(dist**2) /
// 0.01) + np.exp(-(dist**2) / 0.001)) (c1 = 1000, c2 = 0.01, c3 = 0.001).
inline double PlaceReward(const NumpyMath& np, double max_dist, double dist) {
  const double d2 = ScalarSquare(dist);  // dist**2: libm's pow
  return 1000 * (max_dist - dist) +
         1000 * (np.Exp(-d2 / 0.01) + np.Exp(-d2 / 0.001));
}

}  // namespace tools

// A tools task: SawyerEnv with the helpers their files share.
class ToolsEnv : public SawyerEnv {
 protected:
  ToolsEnv(const Config& config, uint64_t seed, TaskSpec task)
      : SawyerEnv(config, seed, std::move(task)) {}

  // reset_model's `while np.linalg.norm(v[:2] - v[3:5]) < threshold:`
  // redraw.
  double XyDistance(const std::vector<double>& v) const {
    const double diff[2] = {v[0] - v[3], v[1] - v[4]};
    return Norm(diff, 2);
  }
  const std::vector<double>& FrozenApart(double threshold,
                                         const char* task) const {
    const std::vector<double>& v = StateRandVec();
    if (XyDistance(v) < threshold) {
      throw std::runtime_error(std::string(task) +
                               ": a task's rand_vec fails reset_model's "
                               "distance check (metaworld would loop)");
    }
    return v;
  }

  // _reward_quat: max(1.0 - float(np.linalg.norm(obs[7:11] - ideal)) /
  // scale, 0.0).
  double RewardQuat(const double* obs, const double ideal[4],
                    double scale) const {
    const double diff[4] = {obs[7] - ideal[0], obs[8] - ideal[1],
                            obs[9] - ideal[2], obs[10] - ideal[3]};
    const double error = Norm(diff, 4);
    return std::max(1.0 - error / scale, 0.0);
  }

  // np.linalg.norm(x) of a 0-d value (ravelled, dotted).
  double Norm1(double x) const { return Norm(&x, 1); }

  // np.linalg.norm(a[:2] - b[:2])
  double NormXy(const Vec3& a, const Vec3& b) const {
    const double diff[2] = {a[0] - b[0], a[1] - b[1]};
    return Norm(diff, 2);
  }

  // The v1 rewards' reach term: -reachDist when within `xy_radius` in x-y,
  // else -reachDistxy - z_factor * zRew; with the gripper's incentive when
  // reachDist < `radius`.
  double V1Reach(double reach_dist, double reach_dist_xy, double z_rew,
                 double z_factor, double xy_radius, double radius,
                 float a) const {
    double reach_rew = reach_dist_xy < xy_radius
                           ? -reach_dist
                           : -reach_dist_xy - z_factor * z_rew;
    if (reach_dist < radius) reach_rew = tools::ReachGrip(reach_dist, a);
    return reach_rew;
  }
};

}  // namespace metaworld
}  // namespace envpool_lite
