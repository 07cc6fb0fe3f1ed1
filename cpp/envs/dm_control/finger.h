// dm_control/suite/finger.py: spin, turn_easy, turn_hard.
#pragma once

#include <stdexcept>
#include <string>

#include "envs/dm_control/dmc_env.h"

namespace envpool_lite {
namespace dm_control {

template <int kTask>  // 0 spin, 1 turn_easy, 2 turn_hard
class FingerEnv : public DmcEnv {
  // _EASY_TARGET_SIZE, _HARD_TARGET_SIZE
  static constexpr double kTargetRadius[3] = {0, 0.07, 0.03};

 public:
  static Config DefaultConfig() {
    static const char* kNames[3] = {"spin", "turn_easy", "turn_hard"};
    return BaseConfig("finger", kNames[kTask], 20, 0.02);
  }

  FingerEnv(const Config& config, uint64_t seed)
      : DmcEnv(config, seed),
        target_site_(SiteId("target")),
        tip_site_(SiteId("tip")),
        hinge_(JointId("hinge")),
        cap1_(GeomId("cap1")),
        proximal_(SensorAdr("proximal")),
        distal_(SensorAdr("distal")),
        proximal_velocity_(SensorAdr("proximal_velocity")),
        distal_velocity_(SensorAdr("distal_velocity")),
        hinge_velocity_(SensorAdr("hinge_velocity")),
        tip_(SensorAdr("tip")),
        target_(SensorAdr("target")),
        spinner_(SensorAdr("spinner")),
        touchtop_(SensorAdr("touchtop")),
        touchbottom_(SensorAdr("touchbottom")) {}

 protected:
  void InitializeEpisode() override {
    if (kTask == 0) {
      model_->site_rgba[4 * target_site_ + 3] = 0;
      model_->site_rgba[4 * tip_site_ + 3] = 0;
      model_->dof_damping[model_->jnt_dofadr[hinge_]] = .03;
    } else {
      // The target on the circle the tip draws, at a random angle.
      const double target_angle = random_.Uniform(-kPi, kPi);
      target_angle_ = target_angle;
      const double hinge_x = data_->xanchor[3 * hinge_ + 0];
      const double hinge_z = data_->xanchor[3 * hinge_ + 2];
      const double* size = model_->geom_size + 3 * cap1_;
      const double radius = size[0] + size[1] + size[2];
      model_->site_pos[3 * target_site_ + 0] =
          hinge_x + radius * np_.Sin(target_angle);
      model_->site_pos[3 * target_site_ + 2] =
          hinge_z + radius * np_.Cos(target_angle);
      model_->site_size[3 * target_site_ + 0] = kTargetRadius[kTask];
    }
    // _set_random_joint_angles: random joints until no contact (1000 tries).
    constexpr int kMaxAttempts = 1000;
    for (int attempt = 0;; ++attempt) {
      if (attempt == kMaxAttempts) {
        throw std::runtime_error(
            "Could not find a collision-free state after " +
            std::to_string(kMaxAttempts) + " attempts");
      }
      RandomizeLimitedAndRotationalJoints();
      ForwardWithoutActuation();
      if (data_->ncon == 0) break;
    }
  }

  double GetReward() override {
    if (kTask == 0) {
      return data_->sensordata[hinge_velocity_] <= -kSpinVelocity ? 1.0 : 0.0;
    }
    return DistToTarget() <= 0 ? 1.0 : 0.0;
  }

  void GetObservation(Observation& obs) override {
    const double* s = data_->sensordata;
    double tip[2];
    TipPosition(tip);
    const double position[4] = {s[proximal_], s[distal_], tip[0], tip[1]};
    obs.Add("position", position, {4});
    const double velocity[3] = {s[proximal_velocity_], s[distal_velocity_],
                                s[hinge_velocity_]};
    obs.Add("velocity", velocity, {3});
    const double touch_in[2] = {s[touchtop_], s[touchbottom_]};
    double touch[2];
    for (int i = 0; i < 2; ++i) touch[i] = np_.Log1p(touch_in[i]);
    obs.Add("touch", touch, {2});
    if (kTask != 0) {
      double target[2];
      TargetPosition(target);
      obs.Add("target_position", target, {2});
      obs.Add("dist_to_target", DistToTarget());
    }
  }

  // target: turn's target angle (0 for spin).
  void RecordResetState(ResetState& out) override {
    out.Add("qpos0", data_->qpos, model_->nq);
    out.Add("target", std::vector<double>{target_angle_});
  }

 private:
  static constexpr double kSpinVelocity = 15.0;

  int SensorAdr(const char* name) const {
    return model_->sensor_adr[SensorId(name)];
  }
  // (x, z) of a framepos sensor relative to the spinner's.
  void RelativeXZ(int adr, double* out) const {
    const double* s = data_->sensordata;
    out[0] = s[adr + 0] - s[spinner_ + 0];
    out[1] = s[adr + 2] - s[spinner_ + 2];
  }
  void TipPosition(double* out) const { RelativeXZ(tip_, out); }
  void TargetPosition(double* out) const { RelativeXZ(target_, out); }
  double DistToTarget() const {
    double tip[2], target[2];
    TipPosition(tip);
    TargetPosition(target);
    const double to_target[2] = {target[0] - tip[0], target[1] - tip[1]};
    return Norm(to_target, 2) - model_->site_size[3 * target_site_ + 0];
  }

  int target_site_, tip_site_, hinge_, cap1_;
  int proximal_, distal_, proximal_velocity_, distal_velocity_, hinge_velocity_,
      tip_, target_, spinner_, touchtop_, touchbottom_;
  double target_angle_ = 0;  // turn's, this episode
};

inline void RegisterFinger(Registry& registry) {
  registry.Add<Task<FingerEnv<0>>>("FingerSpin-v1");
  registry.Add<Task<FingerEnv<1>>>("FingerTurnEasy-v1");
  registry.Add<Task<FingerEnv<2>>>("FingerTurnHard-v1");
}

}  // namespace dm_control
}  // namespace envpool_lite
