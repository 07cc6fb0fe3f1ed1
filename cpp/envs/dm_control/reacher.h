// dm_control/suite/reacher.py: easy, hard.
#pragma once

#include "envs/dm_control/dmc_env.h"
#include "envs/dm_control/rewards.h"

namespace envpool_lite {
namespace dm_control {

template <bool kHard>  // the target's size: _BIG_TARGET, _SMALL_TARGET
class ReacherEnv : public DmcEnv {
  static constexpr double kTargetSize = kHard ? .015 : .05;

 public:
  static Config DefaultConfig() {
    return BaseConfig("reacher", kHard ? "hard" : "easy", 20, 0);
  }

  ReacherEnv(const Config& config, uint64_t seed)
      : DmcEnv(config, seed),
        target_(GeomId("target")),
        finger_(GeomId("finger")) {}

 protected:
  void InitializeEpisode() override {
    model_->geom_size[3 * target_] = kTargetSize;
    RandomizeLimitedAndRotationalJoints();
    const double angle = random_.Uniform(0, 2 * kPi);
    const double radius = random_.Uniform(.05, .20);
    model_->geom_pos[3 * target_ + 0] = radius * np_.Sin(angle);
    model_->geom_pos[3 * target_ + 1] = radius * np_.Cos(angle);
  }

  double GetReward() override {
    // geom_size[['target', 'finger'], 0].sum(), left to right.
    const double radii =
        model_->geom_size[3 * target_] + model_->geom_size[3 * finger_];
    double to_target[2];
    FingerToTarget(to_target);
    return Tolerance(np_, Norm(to_target, 2), 0, radii);
  }

  void GetObservation(Observation& obs) override {
    obs.Add("position", data_->qpos, {model_->nq});
    double to_target[2];
    FingerToTarget(to_target);
    obs.Add("to_target", to_target, {2});
    obs.Add("velocity", data_->qvel, {model_->nv});
  }

  void RecordResetState(ResetState& out) override {
    out.Add("qpos0", data_->qpos, model_->nq);
    out.Add("target", model_->geom_pos + 3 * target_, 2);  // x, y
  }

 private:
  void FingerToTarget(double* v) const {
    for (int i = 0; i < 2; ++i) {
      v[i] =
          data_->geom_xpos[3 * target_ + i] - data_->geom_xpos[3 * finger_ + i];
    }
  }
  int target_, finger_;
};

inline void RegisterReacher(Registry& registry) {
  registry.Add<Task<ReacherEnv<false>>>("ReacherEasy-v1");
  registry.Add<Task<ReacherEnv<true>>>("ReacherHard-v1");
}

}  // namespace dm_control
}  // namespace envpool_lite
