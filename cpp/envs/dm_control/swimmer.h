// dm_control/suite/swimmer.py: swimmer6, swimmer15 (the model, generated
// for the number of links, comes from Python with the task).
#pragma once

#include <vector>

#include "envs/dm_control/dmc_env.h"
#include "envs/dm_control/rewards.h"

namespace envpool_lite {
namespace dm_control {

template <int kLinks>
class SwimmerEnv : public DmcEnv {
 public:
  static Config DefaultConfig() {
    return BaseConfig("swimmer", kLinks == 6 ? "swimmer6" : "swimmer15", 30,
                      0.03);
  }

  SwimmerEnv(const Config& config, uint64_t seed)
      : DmcEnv(config, seed),
        target_(GeomId("target")),
        nose_(GeomId("nose")),
        head_(BodyId("head")),
        target_light_(Id(mjOBJ_LIGHT, "target_light")) {}

 protected:
  void InitializeEpisode() override {
    RandomizeLimitedAndRotationalJoints();
    // The target: near (a box of .3) with probability .2, else within 2.
    const bool close_target = random_.RandomSample() < .2;
    const double target_box = close_target ? .3 : 2;
    const double xpos = random_.Uniform(-target_box, target_box);
    const double ypos = random_.Uniform(-target_box, target_box);
    model_->geom_pos[3 * target_ + 0] = xpos;
    model_->geom_pos[3 * target_ + 1] = ypos;
    model_->light_pos[3 * target_light_ + 0] = xpos;
    model_->light_pos[3 * target_light_ + 1] = ypos;
  }

  double GetReward() override {
    const double target_size = model_->geom_size[3 * target_];
    double to_target[2];
    NoseToTarget(to_target);
    return Tolerance(np_, Norm(to_target, 2), 0, target_size, 5 * target_size,
                     Sigmoid::kLongTail);
  }

  void GetObservation(Observation& obs) override {
    obs.Add("joints", data_->qpos + 3, {model_->nq - 3});
    double to_target[2];
    NoseToTarget(to_target);
    obs.Add("to_target", to_target, {2});
    // sensordata[12:] as rows of 6 (velocimeter, gyro): vx, vy, wz of each.
    std::vector<double> body_velocities;
    for (int i = 12; i + 6 <= model_->nsensordata; i += 6) {
      body_velocities.push_back(data_->sensordata[i + 0]);
      body_velocities.push_back(data_->sensordata[i + 1]);
      body_velocities.push_back(data_->sensordata[i + 5]);
    }
    obs.Add("body_velocities", body_velocities);
  }

  void RecordResetState(ResetState& out) override {
    out.Add("qpos0", data_->qpos, model_->nq);
    out.Add("target0", model_->geom_pos + 3 * target_, 2);  // x, y
  }

 private:
  // nose_to_target: (target - nose).dot(head's xmat)[:2] (numpy's dgemv).
  void NoseToTarget(double* out) const {
    const double* target = data_->geom_xpos + 3 * target_;
    const double* nose = data_->geom_xpos + 3 * nose_;
    const double v[3] = {target[0] - nose[0], target[1] - nose[1],
                         target[2] - nose[2]};
    double local[3];
    blas_.VecMat3(v, data_->xmat + 9 * head_, local);
    out[0] = local[0];
    out[1] = local[1];
  }

  int target_, nose_, head_, target_light_;
};

inline void RegisterSwimmer(Registry& registry) {
  registry.Add<Task<SwimmerEnv<6>>>("SwimmerSwimmer6-v1");
  registry.Add<Task<SwimmerEnv<15>>>("SwimmerSwimmer15-v1");
}

}  // namespace dm_control
}  // namespace envpool_lite
