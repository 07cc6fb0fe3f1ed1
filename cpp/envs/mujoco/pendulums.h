// InvertedPendulum-v4/v5 and InvertedDoublePendulum-v4/v5, bit-exact with
// gymnasium 1.4.0's gymnasium/envs/mujoco/inverted_pendulum_v{4,5}.py and
// inverted_double_pendulum_v{4,5}.py.
#pragma once

#include <cmath>
#include <string>

#include "refkit/gymnasium/mujoco_env.h"
#include "refkit/numpy/math.h"

namespace envpool_lite {

template <int V>
class InvertedPendulumEnv : public mujoco::MujocoEnv {
 public:
  static Config DefaultConfig() {
    Config c{{"max_episode_steps", int64_t{1000}},
             {"mujoco_model", std::string("inverted_pendulum.xml")},
             {"mujoco_lib", std::string()},
             {"report_reset_state", false},
             {"numpy_blas", std::string()}};
    if (V == 5) {
      c.Set("xml_file", std::string("inverted_pendulum.xml"));
      c.Set("frame_skip", int64_t{2});
      c.Set("reset_noise_scale", 0.01);
    }
    return c;
  }
  static std::vector<ArraySpec> Info(const Config&) {
    if (V == 5) return {mujoco::I64("reward_survive")};
    return {};
  }
  static EnvSpec MakeSpec(const Config& config) {
    if (V == 5) {
      mujoco::GetFrameSkip(config);
      mujoco::GetNoiseScale(config);
    }
    mujoco::ModelSizes s = mujoco::ReadModelSizes(config);
    return mujoco::MakeMujocoSpec(config, s, s.nq + s.nv, Info(config));
  }

  InvertedPendulumEnv(const Config& config, uint64_t seed)
      : MujocoEnv(config, seed,
                  V == 5 ? static_cast<int>(mujoco::GetFrameSkip(config)) : 2),
        noise_(V == 5 ? mujoco::GetNoiseScale(config) : 0.01) {
    SetInfoSpecs(Info(config));
    reads_cfrc_ext_ = false;
  }

  void Reset() override {
    ResetData();
    ClearInfo();
    std::vector<double> qpos = PlusUniform(init_qpos_, -noise_, noise_);
    std::vector<double> qvel = PlusUniform(init_qvel_, -noise_, noise_);
    SetState(qpos, qvel);
  }

  StepResult Step(const void* action) override {
    DoSimulation(static_cast<const float*>(action));
    // terminated = not np.isfinite(obs).all() or np.abs(obs[1]) > 0.2
    const bool terminated = !StateFinite() || std::fabs(data_->qpos[1]) > 0.2;
    StepResult r;
    r.terminated = terminated;
    r.reward = V == 5 ? (terminated ? 0.0 : 1.0) : 1.0;
    if (V == 5) SetInfo("reward_survive", r.reward);
    return r;
  }

 protected:
  void WriteObservation(double* obs) const override {
    for (int i = 0; i < model_->nq; ++i) *obs++ = data_->qpos[i];
    for (int i = 0; i < model_->nv; ++i) *obs++ = data_->qvel[i];
  }

 private:
  double noise_;
};

template <int V>
class InvertedDoublePendulumEnv : public mujoco::MujocoEnv {
 public:
  static Config DefaultConfig() {
    Config c{{"max_episode_steps", int64_t{1000}},
             {"mujoco_model", std::string("inverted_double_pendulum.xml")},
             {"mujoco_lib", std::string()},
             {"report_reset_state", false},
             {"numpy_blas", std::string()}};
    if (V == 5) {
      c.Set("xml_file", std::string("inverted_double_pendulum.xml"));
      c.Set("frame_skip", int64_t{5});
      c.Set("healthy_reward", 10.0);
      c.Set("reset_noise_scale", 0.1);
    }
    return c;
  }
  static std::vector<ArraySpec> Info(const Config&) {
    if (V == 5) {
      return {mujoco::F64("reward_survive"), mujoco::F64("distance_penalty"),
              mujoco::F64("velocity_penalty")};
    }
    return {};
  }
  static EnvSpec MakeSpec(const Config& config) {
    if (V == 5) {
      mujoco::GetFrameSkip(config);
      mujoco::GetNoiseScale(config);
      config.GetFloat("healthy_reward");
    }
    mujoco::ModelSizes s = mujoco::ReadModelSizes(config);
    // qpos[:1], sin(qpos[1:]), cos(qpos[1:]), clip(qvel), clip(qfrc_constraint)
    // ([:1] in v5)
    const int64_t n = 1 + 2 * (s.nq - 1) + s.nv + (V == 5 ? 1 : s.nv);
    return mujoco::MakeMujocoSpec(config, s, n, Info(config));
  }

  InvertedDoublePendulumEnv(const Config& config, uint64_t seed)
      : MujocoEnv(config, seed,
                  V == 5 ? static_cast<int>(mujoco::GetFrameSkip(config)) : 5),
        noise_(V == 5 ? mujoco::GetNoiseScale(config) : 0.1),
        healthy_reward_(V == 5 ? config.GetFloat("healthy_reward") : 10.0) {
    SetInfoSpecs(Info(config));
    reads_cfrc_ext_ = false;
  }

  void Reset() override {
    ResetData();
    ClearInfo();
    // init_qpos + uniform(-s, s, nq), init_qvel + standard_normal(nv) * s
    std::vector<double> qpos = PlusUniform(init_qpos_, -noise_, noise_);
    std::vector<double> qvel = PlusNormalScaled(init_qvel_, noise_);
    SetState(qpos, qvel);
  }

  StepResult Step(const void* action) override {
    using numpy_math::Pow2;
    DoSimulation(static_cast<const float*>(action));
    const double x = data_->site_xpos[0], y = data_->site_xpos[2];
    const bool terminated = y <= 1;
    const double v1 = data_->qvel[1], v2 = data_->qvel[2];
    const double dist_penalty = 0.01 * Pow2(x) + Pow2(y - 2);
    const double vel_penalty = 0.001 * Pow2(v1) + 0.005 * Pow2(v2);
    // v4: alive_bonus = 10, terminated or not.
    const double alive_bonus =
        V == 5 ? healthy_reward_ * (terminated ? 0.0 : 1.0) : 10.0;
    StepResult r;
    r.terminated = terminated;
    r.reward = alive_bonus - dist_penalty - vel_penalty;
    if (V == 5) {
      SetInfo("reward_survive", alive_bonus);
      SetInfo("distance_penalty", -dist_penalty);
      SetInfo("velocity_penalty", -vel_penalty);
    }
    return r;
  }

 protected:
  void WriteObservation(double* obs) const override {
    const int nq = model_->nq, nv = model_->nv;
    *obs++ = data_->qpos[0];
    for (int i = 1; i < nq; ++i) *obs++ = std::sin(data_->qpos[i]);
    for (int i = 1; i < nq; ++i) *obs++ = std::cos(data_->qpos[i]);
    for (int i = 0; i < nv; ++i) *obs++ = mujoco::Clip(data_->qvel[i], -10, 10);
    const int nc = V == 5 ? 1 : nv;
    for (int i = 0; i < nc; ++i) {
      *obs++ = mujoco::Clip(data_->qfrc_constraint[i], -10, 10);
    }
  }

 private:
  double noise_;
  double healthy_reward_;
};

}  // namespace envpool_lite
