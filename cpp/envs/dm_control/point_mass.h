// dm_control/suite/point_mass.py: easy, hard.
#pragma once

#include <cmath>

#include "envs/dm_control/dmc_env.h"
#include "envs/dm_control/rewards.h"

namespace envpool_lite {
namespace dm_control {

template <bool kHard>  // hard: randomize_gains
class PointMassEnv : public DmcEnv {
 public:
  static Config DefaultConfig() {
    return BaseConfig("point_mass", kHard ? "hard" : "easy", 20, 0);
  }

  PointMassEnv(const Config& config, uint64_t seed)
      : DmcEnv(config, seed),
        target_(GeomId("target")),
        pointmass_(GeomId("pointmass")) {}

 protected:
  void InitializeEpisode() override {
    RandomizeLimitedAndRotationalJoints();
    if (kHard) {
      // Two random unit directions, redrawn the second while
      // |dot(dir1, dir2)| > 0.9: the wrap_prm of the tendons' joints.
      double dir1[2], dir2[2];
      RandomDirection(dir1);
      bool parallel = true;
      while (parallel) {
        RandomDirection(dir2);
        parallel = std::abs(Dot(dir1, dir2, 2)) > 0.9;
      }
      model_->wrap_prm[0] = dir1[0];
      model_->wrap_prm[1] = dir1[1];
      model_->wrap_prm[2] = dir2[0];
      model_->wrap_prm[3] = dir2[1];
    }
  }

  double GetReward() override {
    const double target_size = model_->geom_size[3 * target_];
    double mass_to_target[3];
    for (int i = 0; i < 3; ++i) {
      mass_to_target[i] = data_->geom_xpos[3 * target_ + i] -
                          data_->geom_xpos[3 * pointmass_ + i];
    }
    const double near_target =
        Tolerance(np_, Norm(mass_to_target, 3), 0, target_size, target_size);
    // tolerance(control, margin=1, value_at_margin=0, 'quadratic').mean():
    // an array (its square is x * x), summed left to right, / n.
    double sum = 0.0;
    for (int i = 0; i < model_->nu; ++i) sum += ArrayQuadratic(data_->ctrl[i]);
    const double control_reward = sum / model_->nu;
    const double small_control = (control_reward + 4) / 5;
    return near_target * small_control;
  }

  void GetObservation(Observation& obs) override {
    obs.Add("position", data_->qpos, {model_->nq});
    obs.Add("velocity", data_->qvel, {model_->nv});
  }

  void RecordResetState(ResetState& out) override {
    out.Add("qpos0", data_->qpos, model_->nq);
    out.Add("wrap_prm", model_->wrap_prm, model_->nwrap);
  }

 private:
  // dir = random.randn(2); dir /= np.linalg.norm(dir)
  void RandomDirection(double* dir) {
    dir[0] = random_.StandardNormal();
    dir[1] = random_.StandardNormal();
    const double norm = Norm(dir, 2);
    dir[0] /= norm;
    dir[1] /= norm;
  }
  // One element of tolerance(array, bounds=(0, 0), margin=1,
  // value_at_margin=0, sigmoid='quadratic').
  static double ArrayQuadratic(double x) {
    if (x == 0) return 1.0;
    const double scaled_x = x < 0 ? 0 - x : x - 0;
    return std::abs(scaled_x) < 1 ? 1 - scaled_x * scaled_x : 0.0;
  }

  int target_, pointmass_;
};

inline void RegisterPointMass(Registry& registry) {
  registry.Add<Task<PointMassEnv<false>>>("PointMassEasy-v1");
  registry.Add<Task<PointMassEnv<true>>>("PointMassHard-v1");
}

}  // namespace dm_control
}  // namespace envpool_lite
