// dm_control/suite/acrobot.py: swingup, swingup_sparse.
#pragma once

#include "envs/dm_control/dmc_env.h"
#include "envs/dm_control/rewards.h"

namespace envpool_lite {
namespace dm_control {

template <bool kSparse>
class AcrobotEnv : public DmcEnv {
 public:
  static Config DefaultConfig() {
    return BaseConfig("acrobot", kSparse ? "swingup_sparse" : "swingup", 10, 0);
  }

  AcrobotEnv(const Config& config, uint64_t seed)
      : DmcEnv(config, seed),
        upper_arm_(BodyId("upper_arm")),
        lower_arm_(BodyId("lower_arm")),
        shoulder_(JointId("shoulder")),
        elbow_(JointId("elbow")),
        target_(SiteId("target")),
        tip_(SiteId("tip")) {}

 protected:
  void InitializeEpisode() override {
    // qpos[['shoulder', 'elbow']] = random.uniform(-pi, pi, 2)
    JointQpos(shoulder_)[0] = random_.Uniform(-kPi, kPi);
    JointQpos(elbow_)[0] = random_.Uniform(-kPi, kPi);
  }

  double GetReward() override {
    const double target_radius = model_->site_size[3 * target_];
    double tip_to_target[3];
    for (int i = 0; i < 3; ++i) {
      tip_to_target[i] =
          data_->site_xpos[3 * target_ + i] - data_->site_xpos[3 * tip_ + i];
    }
    return Tolerance(np_, Norm(tip_to_target, 3), 0, target_radius,
                     kSparse ? 0.0 : 1.0);
  }

  void GetObservation(Observation& obs) override {
    // horizontal (xz) then vertical (zz) of upper_arm, lower_arm.
    const double* xmat = data_->xmat;
    const double orientations[4] = {
        xmat[9 * upper_arm_ + 2], xmat[9 * lower_arm_ + 2],
        xmat[9 * upper_arm_ + 8], xmat[9 * lower_arm_ + 8]};
    obs.Add("orientations", orientations, {4});
    obs.Add("velocity", data_->qvel, {model_->nv});
  }

 private:
  int upper_arm_, lower_arm_, shoulder_, elbow_, target_, tip_;
};

inline void RegisterAcrobot(Registry& registry) {
  registry.Add<Task<AcrobotEnv<false>>>("AcrobotSwingup-v1");
  registry.Add<Task<AcrobotEnv<true>>>("AcrobotSwingupSparse-v1");
}

}  // namespace dm_control
}  // namespace envpool_lite
