// HalfCheetah, Hopper, Walker2d and Swimmer (-v4 and -v5): the forward-moving
// tasks whose reward is forward_reward_weight * x_velocity (+ a healthy
// reward) - ctrl_cost_weight * sum(action**2), bit-exact with gymnasium
// 1.4.0's
// gymnasium/envs/mujoco/{half_cheetah,hopper,walker2d,swimmer}_v{4,5}.py. One
// class with a small table per task.
//
// The control cost is a float32 (np.sum(np.square(action)) of the float32
// action, times the weight as a float32, under numpy 2's promotion rules),
// so gymnasium's reward_ctrl info is a float32, and the reward a float64.
#pragma once

#include <cmath>
#include <limits>
#include <string>

#include "refkit/gymnasium/mujoco_env.h"

namespace envpool_lite {

enum class PlanarTask { kHalfCheetah, kHopper, kWalker2d, kSwimmer };

template <PlanarTask T, int V>
class PlanarEnv : public mujoco::MujocoEnv {
  static constexpr bool kHealthy =
      T == PlanarTask::kHopper || T == PlanarTask::kWalker2d;
  static constexpr bool kXY = T == PlanarTask::kSwimmer;  // 2 skipped qpos
  static constexpr double kInf = std::numeric_limits<double>::infinity();

 public:
  static Config DefaultConfig() {
    const char* xml = "";
    int64_t frame_skip = 0;
    double ctrl = 0, noise = 0;
    switch (T) {
      case PlanarTask::kHalfCheetah:
        xml = "half_cheetah.xml", frame_skip = 5, ctrl = 0.1, noise = 0.1;
        break;
      case PlanarTask::kHopper:
        xml = "hopper.xml", frame_skip = 4, ctrl = 1e-3, noise = 5e-3;
        break;
      case PlanarTask::kWalker2d:
        xml = V == 5 ? "walker2d_v5.xml" : "walker2d.xml", frame_skip = 4,
        ctrl = 1e-3, noise = 5e-3;
        break;
      case PlanarTask::kSwimmer:
        xml = "swimmer.xml", frame_skip = 4, ctrl = 1e-4, noise = 0.1;
        break;
    }
    Config c{{"max_episode_steps", int64_t{1000}},
             {"mujoco_model", std::string(xml)},
             {"mujoco_lib", std::string()},
             {"report_reset_state", false},
             {"numpy_blas", std::string()},
             {"forward_reward_weight", 1.0},
             {"ctrl_cost_weight", ctrl},
             {"reset_noise_scale", noise},
             {"exclude_current_positions_from_observation", true}};
    if (V == 5) {
      c.Set("xml_file", std::string(xml));
      c.Set("frame_skip", frame_skip);
    }
    if (kHealthy) {
      c.Set("healthy_reward", 1.0);
      c.Set("terminate_when_unhealthy", true);
      if (T == PlanarTask::kHopper) {
        c.Set("healthy_state_range", std::vector<double>{-100.0, 100.0});
        c.Set("healthy_z_range", std::vector<double>{0.7, kInf});
        c.Set("healthy_angle_range", std::vector<double>{-0.2, 0.2});
      } else {
        c.Set("healthy_z_range", std::vector<double>{0.8, 2.0});
        c.Set("healthy_angle_range", std::vector<double>{-1.0, 1.0});
      }
    }
    return c;
  }

  static int DefaultFrameSkip() {
    return T == PlanarTask::kHalfCheetah ? 5 : 4;
  }

  static std::vector<ArraySpec> Info(const Config&) {
    using mujoco::F32;
    using mujoco::F64;
    if (T == PlanarTask::kSwimmer) {
      if (V == 5) {
        return {F64("x_position"),           F64("y_position"),
                F64("distance_from_origin"), F64("x_velocity"),
                F64("y_velocity"),           F64("reward_forward"),
                F32("reward_ctrl")};
      }
      return {F64("reward_fwd"), F32("reward_ctrl"),          F64("x_position"),
              F64("y_position"), F64("distance_from_origin"), F64("x_velocity"),
              F64("y_velocity"), F64("forward_reward")};
    }
    if (T == PlanarTask::kHalfCheetah) {
      return {F64("x_position"), F64("x_velocity"),
              F64(V == 5 ? "reward_forward" : "reward_run"),
              F32("reward_ctrl")};
    }
    if (V == 5) {
      return {F64("x_position"),  F64("z_distance_from_origin"),
              F64("x_velocity"),  F64("reward_forward"),
              F32("reward_ctrl"), F64("reward_survive")};
    }
    return {F64("x_position"), F64("x_velocity")};
  }

  static EnvSpec MakeSpec(const Config& config) {
    if (V == 5) mujoco::GetFrameSkip(config);
    mujoco::GetNoiseScale(config);
    config.GetFloat("forward_reward_weight");
    config.GetFloat("ctrl_cost_weight");
    if (kHealthy) {
      config.GetFloat("healthy_reward");
      if (T == PlanarTask::kHopper)
        mujoco::GetRange(config, "healthy_state_range");
      mujoco::GetRange(config, "healthy_z_range");
      mujoco::GetRange(config, "healthy_angle_range");
    }
    mujoco::ModelSizes s = mujoco::ReadModelSizes(config);
    const int64_t skipped =
        config.GetBool("exclude_current_positions_from_observation")
            ? (kXY ? 2 : 1)
            : 0;
    return mujoco::MakeMujocoSpec(config, s, s.nq + s.nv - skipped,
                                  Info(config));
  }

  PlanarEnv(const Config& config, uint64_t seed)
      : MujocoEnv(config, seed,
                  V == 5 ? static_cast<int>(mujoco::GetFrameSkip(config))
                         : DefaultFrameSkip()),
        forward_weight_(config.GetFloat("forward_reward_weight")),
        ctrl_weight_(static_cast<float>(config.GetFloat("ctrl_cost_weight"))),
        noise_(mujoco::GetNoiseScale(config)),
        exclude_(config.GetBool("exclude_current_positions_from_observation")) {
    SetInfoSpecs(Info(config));
    reads_cfrc_ext_ = false;
    if (kHealthy) {
      healthy_reward_ = config.GetFloat("healthy_reward");
      terminate_ = config.GetBool("terminate_when_unhealthy");
      if (T == PlanarTask::kHopper) {
        state_range_ = mujoco::GetRange(config, "healthy_state_range");
      }
      z_range_ = mujoco::GetRange(config, "healthy_z_range");
      angle_range_ = mujoco::GetRange(config, "healthy_angle_range");
    }
  }

  void Reset() override {
    ResetData();
    ClearInfo();
    std::vector<double> qpos = PlusUniform(init_qpos_, -noise_, noise_);
    std::vector<double> qvel =
        T == PlanarTask::kHalfCheetah
            ? PlusScaledNormal(init_qvel_, noise_)  // noise * standard_normal
            : PlusUniform(init_qvel_, -noise_, noise_);
    SetState(qpos, qvel);
    if (V == 5) {
      SetInfo("x_position", data_->qpos[0]);
      if (kHealthy) {
        SetInfo("z_distance_from_origin", data_->qpos[1] - init_qpos_[1]);
      }
      if (kXY) {
        SetInfo("y_position", data_->qpos[1]);
        SetInfo("distance_from_origin", Norm(data_->qpos, 2));
      }
    }
  }

  StepResult Step(const void* action) override {
    const float* a = static_cast<const float*>(action);
    const double x_before = data_->qpos[0], y_before = data_->qpos[1];
    DoSimulation(a);
    const double x_after = data_->qpos[0], y_after = data_->qpos[1];
    const double x_velocity = (x_after - x_before) / dt_;
    const double y_velocity = (y_after - y_before) / dt_;
    const double forward_reward = forward_weight_ * x_velocity;
    // float32: ctrl_cost_weight * np.sum(np.square(action))
    const float ctrl_cost = ctrl_weight_ * mujoco::SumOfSquares(a, model_->nu);
    StepResult r;
    double healthy_reward = 0.0;
    if (kHealthy) {
      const bool healthy = IsHealthy();
      // v5: is_healthy * healthy_reward; v4: float(is_healthy or
      // terminate_when_unhealthy) * healthy_reward
      healthy_reward =
          ((V == 5 ? healthy : (healthy || terminate_)) ? 1.0 : 0.0) *
          healthy_reward_;
      r.terminated = !healthy && terminate_;
      r.reward =
          (forward_reward + healthy_reward) - static_cast<double>(ctrl_cost);
    } else {
      r.reward = forward_reward - static_cast<double>(ctrl_cost);
    }
    SetInfo("x_position", x_after);
    SetInfo("x_velocity", x_velocity);
    if (T == PlanarTask::kSwimmer) {
      SetInfo("y_position", y_after);
      const double xy[2] = {x_after, y_after};
      SetInfo("distance_from_origin", Norm(xy, 2));
      SetInfo("y_velocity", y_velocity);
      SetInfo(V == 5 ? "reward_forward" : "reward_fwd", forward_reward);
      SetInfo("forward_reward", forward_reward);
      SetInfo("reward_ctrl", -ctrl_cost);
    } else if (T == PlanarTask::kHalfCheetah) {
      SetInfo(V == 5 ? "reward_forward" : "reward_run", forward_reward);
      SetInfo("reward_ctrl", -ctrl_cost);
    } else if (V == 5) {
      SetInfo("z_distance_from_origin", data_->qpos[1] - init_qpos_[1]);
      SetInfo("reward_forward", forward_reward);
      SetInfo("reward_ctrl", -ctrl_cost);
      SetInfo("reward_survive", healthy_reward);
    }
    return r;
  }

 protected:
  bool IsHealthy() const {
    const double z = data_->qpos[1], angle = data_->qpos[2];
    if (T == PlanarTask::kHopper) {
      // state_vector()[2:] strictly inside healthy_state_range
      for (int i = 2; i < model_->nq + model_->nv; ++i) {
        const double v =
            i < model_->nq ? data_->qpos[i] : data_->qvel[i - model_->nq];
        if (!(state_range_.low < v && v < state_range_.high)) return false;
      }
    }
    return z_range_.low < z && z < z_range_.high && angle_range_.low < angle &&
           angle < angle_range_.high;
  }

  void WriteObservation(double* obs) const override {
    const int skipped = exclude_ ? (kXY ? 2 : 1) : 0;
    for (int i = skipped; i < model_->nq; ++i) *obs++ = data_->qpos[i];
    for (int i = 0; i < model_->nv; ++i) {
      // Hopper and Walker2d clip the velocities to [-10, 10].
      *obs++ =
          kHealthy ? mujoco::Clip(data_->qvel[i], -10, 10) : data_->qvel[i];
    }
  }

 private:
  double forward_weight_;
  float ctrl_weight_;
  double noise_;
  bool exclude_;
  double healthy_reward_ = 0.0;
  bool terminate_ = true;
  mujoco::Range state_range_{0, 0}, z_range_{0, 0}, angle_range_{0, 0};
};

template <int V>
using HalfCheetahEnv = PlanarEnv<PlanarTask::kHalfCheetah, V>;
template <int V>
using HopperEnv = PlanarEnv<PlanarTask::kHopper, V>;
template <int V>
using Walker2dEnv = PlanarEnv<PlanarTask::kWalker2d, V>;
template <int V>
using SwimmerEnv = PlanarEnv<PlanarTask::kSwimmer, V>;

}  // namespace envpool_lite
