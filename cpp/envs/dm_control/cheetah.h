// dm_control/suite/cheetah.py: run.
#pragma once

#include "envs/dm_control/dmc_env.h"
#include "envs/dm_control/rewards.h"

namespace envpool_lite {
namespace dm_control {

class CheetahEnv : public DmcEnv {
 public:
  static Config DefaultConfig() { return BaseConfig("cheetah", "run", 10, 0); }

  CheetahEnv(const Config& config, uint64_t seed)
      : DmcEnv(config, seed),
        subtreelinvel_(model_->sensor_adr[SensorId("torso_subtreelinvel")]) {}

 protected:
  void InitializeEpisode() override {
    // qpos[is_limited] = random.uniform(lower, upper), then 200 steps to
    // settle, and time 0.
    for (int j = 0; j < model_->njnt; ++j) {
      if (model_->jnt_limited[j] == 1) {
        JointQpos(j)[0] = random_.Uniform(model_->jnt_range[2 * j],
                                          model_->jnt_range[2 * j + 1]);
      }
    }
    if (reports_reset_state()) drawn_qpos_ = Qpos();
    PhysicsStep(200);
    data_->time = 0;
  }

  double GetReward() override {
    const double speed = data_->sensordata[subtreelinvel_];
    return Tolerance(np_, speed, kRunSpeed, kInf, kRunSpeed, Sigmoid::kLinear,
                     0);
  }

  void GetObservation(Observation& obs) override {
    obs.Add("position", data_->qpos + 1, {model_->nq - 1});
    obs.Add("velocity", data_->qvel, {model_->nv});
  }

  // qpos0: the drawn qpos, before the 200 settling steps (EnvPool's tests
  // step them again).
  void RecordResetState(ResetState& out) override {
    out.Add("qpos0", std::move(drawn_qpos_));
  }

 private:
  static constexpr double kRunSpeed = 10;
  int subtreelinvel_;
  std::vector<double> drawn_qpos_;  // with report_reset_state
};

inline void RegisterCheetah(Registry& registry) {
  registry.Add<Task<CheetahEnv>>("CheetahRun-v1");
}

}  // namespace dm_control
}  // namespace envpool_lite
