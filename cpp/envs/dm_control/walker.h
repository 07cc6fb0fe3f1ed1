// dm_control/suite/walker.py: stand, walk, run.
#pragma once

#include <string>

#include "envs/dm_control/dmc_env.h"
#include "envs/dm_control/rewards.h"

namespace envpool_lite {
namespace dm_control {

template <int kTask>  // 0 stand, 1 walk, 2 run
class WalkerEnv : public DmcEnv {
  static constexpr double kMoveSpeed[3] = {0, 1, 8};  // _WALK_SPEED, _RUN_SPEED

 public:
  static Config DefaultConfig() {
    static const char* kNames[3] = {"stand", "walk", "run"};
    return BaseConfig("walker", kNames[kTask], 25, 0.025);
  }

  WalkerEnv(const Config& config, uint64_t seed)
      : DmcEnv(config, seed),
        torso_(BodyId("torso")),
        subtreelinvel_(model_->sensor_adr[SensorId("torso_subtreelinvel")]) {}

 protected:
  void InitializeEpisode() override { RandomizeLimitedAndRotationalJoints(); }

  double GetReward() override {
    const double height = TorsoHeight();
    const double standing =
        Tolerance(np_, height, kStandHeight, kInf, kStandHeight / 2);
    const double upright = (1 + data_->xmat[9 * torso_ + 8]) / 2;
    const double stand_reward = (3 * standing + upright) / 4;
    const double move_speed = kMoveSpeed[kTask];
    if (move_speed == 0) return stand_reward;
    const double move_reward =
        Tolerance(np_, data_->sensordata[subtreelinvel_], move_speed, kInf,
                  move_speed / 2, Sigmoid::kLinear, 0.5);
    return stand_reward * (5 * move_reward + 1) / 6;
  }

  void GetObservation(Observation& obs) override {
    // orientations: xmat[1:, ['xx', 'xz']].ravel()
    std::vector<double> orientations;
    for (int b = 1; b < model_->nbody; ++b) {
      orientations.push_back(data_->xmat[9 * b + 0]);
      orientations.push_back(data_->xmat[9 * b + 2]);
    }
    obs.Add("orientations", orientations);
    obs.Add("height", TorsoHeight());
    obs.Add("velocity", data_->qvel, {model_->nv});
  }

 private:
  static constexpr double kStandHeight = 1.2;
  double TorsoHeight() const { return data_->xpos[3 * torso_ + 2]; }
  int torso_;
  int subtreelinvel_;
};

inline void RegisterWalker(Registry& registry) {
  registry.Add<Task<WalkerEnv<0>>>("WalkerStand-v1");
  registry.Add<Task<WalkerEnv<1>>>("WalkerWalk-v1");
  registry.Add<Task<WalkerEnv<2>>>("WalkerRun-v1");
}

}  // namespace dm_control
}  // namespace envpool_lite
