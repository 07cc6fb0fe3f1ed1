// dm_control/suite/pendulum.py: swingup.
#pragma once

#include "envs/dm_control/dmc_env.h"
#include "envs/dm_control/rewards.h"

namespace envpool_lite {
namespace dm_control {

class PendulumEnv : public DmcEnv {
 public:
  static Config DefaultConfig() {
    return BaseConfig("pendulum", "swingup", 20, 0);
  }

  PendulumEnv(const Config& config, uint64_t seed)
      : DmcEnv(config, seed),
        pole_(BodyId("pole")),
        hinge_(JointId("hinge")),
        // _COSINE_BOUND: np.cos(np.deg2rad(8)), numpy's cos.
        cosine_bound_(np_.Cos(8 * (kPi / 180))) {}

 protected:
  void InitializeEpisode() override {
    JointQpos(hinge_)[0] = random_.Uniform(-kPi, kPi);
  }

  double GetReward() override {
    // tolerance(zz, (_COSINE_BOUND, 1)) with no margin: an indicator.
    return Tolerance(np_, PoleZz(), cosine_bound_, 1);
  }

  void GetObservation(Observation& obs) override {
    const double orientation[2] = {PoleZz(), data_->xmat[9 * pole_ + 2]};
    obs.Add("orientation", orientation, {2});
    obs.Add("velocity", JointQvel(hinge_), {1});
  }

 private:
  double PoleZz() const { return data_->xmat[9 * pole_ + 8]; }
  int pole_;
  int hinge_;
  double cosine_bound_;
};

inline void RegisterPendulum(Registry& registry) {
  registry.Add<Task<PendulumEnv>>("PendulumSwingup-v1");
}

}  // namespace dm_control
}  // namespace envpool_lite
