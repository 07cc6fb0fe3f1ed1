// dm_control/suite/ball_in_cup.py: catch.
#pragma once

#include <cmath>

#include "envs/dm_control/dmc_env.h"

namespace envpool_lite {
namespace dm_control {

class BallInCupEnv : public DmcEnv {
 public:
  static Config DefaultConfig() {
    return BaseConfig("ball_in_cup", "catch", 20, 0.02);
  }

  BallInCupEnv(const Config& config, uint64_t seed)
      : DmcEnv(config, seed),
        ball_x_(JointId("ball_x")),
        ball_z_(JointId("ball_z")),
        target_(SiteId("target")),
        ball_body_(BodyId("ball")),
        ball_geom_(GeomId("ball")) {}

 protected:
  void InitializeEpisode() override {
    // A random ball position, drawn again while it penetrates something.
    bool penetrating = true;
    while (penetrating) {
      JointQpos(ball_x_)[0] = random_.Uniform(-.2, .2);
      JointQpos(ball_z_)[0] = random_.Uniform(.2, .5);
      ForwardWithoutActuation();
      penetrating = data_->ncon > 0;
    }
  }

  double GetReward() override {
    // in_target: |target - ball| (x, z) < target size - ball radius.
    const double ball_size = model_->geom_size[3 * ball_geom_];
    const double* target = data_->site_xpos + 3 * target_;
    const double* ball = data_->xpos + 3 * ball_body_;
    const double* target_size = model_->site_size + 3 * target_;
    const bool in_x =
        std::abs(target[0] - ball[0]) < target_size[0] - ball_size;
    const bool in_z =
        std::abs(target[2] - ball[2]) < target_size[2] - ball_size;
    return in_x && in_z ? 1.0 : 0.0;
  }

  void GetObservation(Observation& obs) override {
    obs.Add("position", data_->qpos, {model_->nq});
    obs.Add("velocity", data_->qvel, {model_->nv});
  }

 private:
  int ball_x_, ball_z_, target_, ball_body_, ball_geom_;
};

inline void RegisterBallInCup(Registry& registry) {
  registry.Add<Task<BallInCupEnv>>("BallInCupCatch-v1");
}

}  // namespace dm_control
}  // namespace envpool_lite
