// Ant-v4 and Ant-v5, bit-exact with gymnasium 1.4.0's
// gymnasium/envs/mujoco/ant_v{4,5}.py; Ant-v3, EnvPool's: v4 with
// use_contact_forces=True and no mj_rnePostConstraint (mujoco_env.h), so the
// observation's 84 contact forces and the contact cost are zero.
#pragma once

#include <cmath>
#include <string>

#include "refkit/gymnasium/mujoco_env.h"

namespace envpool_lite {

template <int V>
class AntEnv : public mujoco::MujocoEnv {
 public:
  static Config DefaultConfig() {
    Config c{{"max_episode_steps", int64_t{1000}},
             {"mujoco_model", std::string("ant.xml")},
             {"mujoco_lib", std::string()},
             {"report_reset_state", false},
             {"numpy_blas", std::string()},
             {"xml_file", std::string("ant.xml")},
             {"ctrl_cost_weight", 0.5},
             {"contact_cost_weight", 5e-4},
             {"healthy_reward", 1.0},
             {"terminate_when_unhealthy", true},
             {"healthy_z_range", std::vector<double>{0.2, 1.0}},
             {"contact_force_range", std::vector<double>{-1.0, 1.0}},
             {"reset_noise_scale", 0.1},
             {"exclude_current_positions_from_observation", true}};
    if (V == 5) {
      c.Set("frame_skip", int64_t{5});
      c.Set("forward_reward_weight", 1.0);
      c.Set("main_body", int64_t{1});
      c.Set("include_cfrc_ext_in_observation", true);
    } else {
      c.Set("use_contact_forces", V == 3);
    }
    return c;
  }

  static bool Contact(const Config& config) {
    return V == 5 ? config.GetBool("include_cfrc_ext_in_observation")
                  : config.GetBool("use_contact_forces");
  }

  static std::vector<ArraySpec> Info(const Config& config) {
    using mujoco::F32;
    using mujoco::F64;
    if (V == 5) {
      return {F64("x_position"),           F64("y_position"),
              F64("distance_from_origin"), F64("x_velocity"),
              F64("y_velocity"),           F64("reward_forward"),
              F32("reward_ctrl"),          F64("reward_contact"),
              F64("reward_survive")};
    }
    // v4 with use_contact_forces reports -contact_cost (a float64) as
    // reward_ctrl, as gymnasium's does.
    return {F64("reward_forward"),
            Contact(config) ? F64("reward_ctrl") : F32("reward_ctrl"),
            F64("reward_survive"),
            F64("x_position"),
            F64("y_position"),
            F64("distance_from_origin"),
            F64("x_velocity"),
            F64("y_velocity"),
            F64("forward_reward")};
  }

  static int64_t ObsSize(const Config& config, const mujoco::ModelSizes& s) {
    int64_t n = s.nq + s.nv;
    if (config.GetBool("exclude_current_positions_from_observation")) n -= 2;
    if (Contact(config)) n += (V == 5 ? s.nbody - 1 : s.nbody) * 6;
    return n;
  }

  static EnvSpec MakeSpec(const Config& config) {
    if (V == 5) {
      mujoco::GetFrameSkip(config);
      config.GetFloat("forward_reward_weight");
    }
    mujoco::GetNoiseScale(config);
    config.GetFloat("ctrl_cost_weight");
    config.GetFloat("contact_cost_weight");
    config.GetFloat("healthy_reward");
    mujoco::GetRange(config, "healthy_z_range");
    mujoco::GetRange(config, "contact_force_range");
    mujoco::ModelSizes s = mujoco::ReadModelSizes(config);
    if (V == 5) {
      config.GetInt("main_body", 0, s.nbody - 1);
    }
    return mujoco::MakeMujocoSpec(config, s, ObsSize(config, s), Info(config));
  }

  AntEnv(const Config& config, uint64_t seed)
      : MujocoEnv(config, seed,
                  V == 5 ? static_cast<int>(mujoco::GetFrameSkip(config)) : 5),
        forward_weight_(V == 5 ? config.GetFloat("forward_reward_weight")
                               : 1.0),
        ctrl_weight_(static_cast<float>(config.GetFloat("ctrl_cost_weight"))),
        contact_weight_(config.GetFloat("contact_cost_weight")),
        healthy_reward_(config.GetFloat("healthy_reward")),
        terminate_(config.GetBool("terminate_when_unhealthy")),
        z_range_(mujoco::GetRange(config, "healthy_z_range")),
        force_range_(mujoco::GetRange(config, "contact_force_range")),
        noise_(mujoco::GetNoiseScale(config)),
        exclude_(config.GetBool("exclude_current_positions_from_observation")),
        contact_(Contact(config)) {
    SetInfoSpecs(Info(config));
    // The contact cost or the obs (v3: left zero).
    reads_cfrc_ext_ = mujoco::PostConstraint(V) && (V == 5 || contact_);
    main_body_ =
        V == 5
            ? static_cast<int>(config.GetInt("main_body", 0, model_->nbody - 1))
            : BodyId("torso");
  }

  void Reset() override {
    ResetData();
    ClearInfo();
    std::vector<double> qpos = PlusUniform(init_qpos_, -noise_, noise_);
    std::vector<double> qvel = PlusScaledNormal(init_qvel_, noise_);
    SetState(qpos, qvel);
    if (V == 5) {
      SetInfo("x_position", data_->qpos[0]);
      SetInfo("y_position", data_->qpos[1]);
      SetInfo("distance_from_origin", Norm(data_->qpos, 2));
    }
  }

  StepResult Step(const void* action) override {
    const float* a = static_cast<const float*>(action);
    const double* xpos = BodyXpos(main_body_);
    const double before[2] = {xpos[0], xpos[1]};
    DoSimulation(a);
    const double after[2] = {xpos[0], xpos[1]};
    const double x_velocity = (after[0] - before[0]) / dt_;
    const double y_velocity = (after[1] - before[1]) / dt_;
    const bool healthy = IsHealthy();
    const float ctrl_cost = ctrl_weight_ * mujoco::SumOfSquares(a, model_->nu);
    StepResult r;
    if (V == 5) {
      const double forward_reward = x_velocity * forward_weight_;
      const double healthy_reward = (healthy ? 1.0 : 0.0) * healthy_reward_;
      const double rewards = forward_reward + healthy_reward;
      const double contact_cost = ContactCost();
      const double costs = static_cast<double>(ctrl_cost) + contact_cost;
      r.reward = rewards - costs;
      r.terminated = !healthy && terminate_;
      SetInfo("x_position", data_->qpos[0]);
      SetInfo("y_position", data_->qpos[1]);
      SetInfo("distance_from_origin", Norm(data_->qpos, 2));
      SetInfo("x_velocity", x_velocity);
      SetInfo("y_velocity", y_velocity);
      SetInfo("reward_forward", forward_reward);
      SetInfo("reward_ctrl", -ctrl_cost);
      SetInfo("reward_contact", -contact_cost);
      SetInfo("reward_survive", healthy_reward);
    } else {
      const double forward_reward = x_velocity;
      const double healthy_reward =
          ((healthy || terminate_) ? 1.0 : 0.0) * healthy_reward_;
      const double rewards = forward_reward + healthy_reward;
      double costs = ctrl_cost;
      SetInfo("reward_forward", forward_reward);
      SetInfo("reward_ctrl", -ctrl_cost);
      SetInfo("reward_survive", healthy_reward);
      SetInfo("x_position", after[0]);
      SetInfo("y_position", after[1]);
      SetInfo("distance_from_origin", Norm(after, 2));
      SetInfo("x_velocity", x_velocity);
      SetInfo("y_velocity", y_velocity);
      SetInfo("forward_reward", forward_reward);
      if (contact_) {
        const double contact_cost = ContactCost();
        costs = costs + contact_cost;
        SetInfo("reward_ctrl", -contact_cost);
      }
      r.reward = rewards - costs;
      r.terminated = terminate_ ? !healthy : false;
    }
    return r;
  }

 protected:
  // np.isfinite(state_vector()).all() and min_z <= qpos[2] <= max_z
  bool IsHealthy() const {
    const double z = data_->qpos[2];
    return StateFinite() && z_range_.low <= z && z <= z_range_.high;
  }

  // contact_cost_weight * np.sum(np.square(np.clip(cfrc_ext, lo, hi)))
  double ContactCost() const {
    const int n = model_->nbody * 6;
    std::vector<double> clipped(n);
    for (int i = 0; i < n; ++i) {
      clipped[i] =
          mujoco::Clip(data_->cfrc_ext[i], force_range_.low, force_range_.high);
    }
    return contact_weight_ * mujoco::SumOfSquares(clipped.data(), n);
  }

  void WriteObservation(double* obs) const override {
    for (int i = exclude_ ? 2 : 0; i < model_->nq; ++i) *obs++ = data_->qpos[i];
    for (int i = 0; i < model_->nv; ++i) *obs++ = data_->qvel[i];
    if (contact_) {
      // v5: clipped cfrc_ext[1:]; v4: all of clipped cfrc_ext
      for (int i = V == 5 ? 6 : 0; i < model_->nbody * 6; ++i) {
        *obs++ = mujoco::Clip(data_->cfrc_ext[i], force_range_.low,
                              force_range_.high);
      }
    }
  }

 private:
  double forward_weight_;
  float ctrl_weight_;
  double contact_weight_;
  double healthy_reward_;
  bool terminate_;
  mujoco::Range z_range_, force_range_;
  double noise_;
  bool exclude_;
  bool contact_;
  int main_body_ = 1;
};

}  // namespace envpool_lite
