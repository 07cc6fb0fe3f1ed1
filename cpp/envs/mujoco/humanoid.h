// Humanoid-v4/v5 and HumanoidStandup-v4/v5, bit-exact with gymnasium 1.4.0's
// gymnasium/envs/mujoco/humanoid_v{4,5}.py and humanoidstandup_v{4,5}.py;
// EnvPool's Humanoid-v3 and HumanoidStandup-v2: v4 with no
// mj_rnePostConstraint (refkit/gymnasium/mujoco_env.h), so the observation's
// cfrc_ext part is zero (and so is Humanoid-v3's contact cost in EnvPool: v4's
// reward). Their control cost sums data.ctrl (float64), so it is a float64.
#pragma once

#include <cmath>
#include <limits>
#include <string>

#include "refkit/gymnasium/mujoco_env.h"

namespace envpool_lite {

template <bool kStandup, int V>
class HumanoidFamilyEnv : public mujoco::MujocoEnv {
  static constexpr double kInf = std::numeric_limits<double>::infinity();

 public:
  static Config DefaultConfig() {
    const std::string xml = kStandup ? "humanoidstandup.xml" : "humanoid.xml";
    Config c{{"max_episode_steps", int64_t{1000}},
             {"mujoco_model", xml},
             {"mujoco_lib", std::string()},
             {"report_reset_state", false},
             {"numpy_blas", std::string()}};
    if (V == 5) {
      c.Set("xml_file", xml);
      c.Set("frame_skip", int64_t{5});
      c.Set("include_cinert_in_observation", true);
      c.Set("include_cvel_in_observation", true);
      c.Set("include_qfrc_actuator_in_observation", true);
      c.Set("include_cfrc_ext_in_observation", true);
      if (kStandup) {
        c.Set("uph_cost_weight", 1.0);
        c.Set("impact_cost_weight", 5e-7);
        c.Set("impact_cost_range", std::vector<double>{-kInf, 10.0});
      } else {
        c.Set("contact_cost_weight", 5e-7);
        c.Set("contact_cost_range", std::vector<double>{-kInf, 10.0});
      }
    }
    if (V == 5 || !kStandup) {
      c.Set("ctrl_cost_weight", 0.1);
      c.Set("reset_noise_scale", 1e-2);
      c.Set("exclude_current_positions_from_observation", true);
    }
    if (!kStandup) {
      c.Set("forward_reward_weight", 1.25);
      c.Set("healthy_reward", 5.0);
      c.Set("terminate_when_unhealthy", true);
      c.Set("healthy_z_range", std::vector<double>{1.0, 2.0});
    }
    return c;
  }

  static std::vector<ArraySpec> Info(const Config&, int ntendon) {
    using mujoco::F64;
    if (kStandup) {
      if (V == 5) {
        return {F64("x_position"),
                F64("y_position"),
                F64("z_distance_from_origin"),
                F64("tendon_length", ntendon),
                F64("tendon_velocity", ntendon),
                F64("reward_linup"),
                F64("reward_quadctrl"),
                F64("reward_impact")};
      }
      return {F64("reward_linup"), F64("reward_quadctrl"),
              F64("reward_impact")};
    }
    if (V == 5) {
      return {F64("x_position"),
              F64("y_position"),
              F64("tendon_length", ntendon),
              F64("tendon_velocity", ntendon),
              F64("distance_from_origin"),
              F64("x_velocity"),
              F64("y_velocity"),
              F64("reward_survive"),
              F64("reward_forward"),
              F64("reward_ctrl"),
              F64("reward_contact")};
    }
    return {F64("reward_linvel"), F64("reward_quadctrl"),
            F64("reward_alive"),  F64("x_position"),
            F64("y_position"),    F64("distance_from_origin"),
            F64("x_velocity"),    F64("y_velocity"),
            F64("forward_reward")};
  }

  static bool Flag(const Config& config, const char* name) {
    return V == 5 ? config.GetBool(name) : true;
  }

  static EnvSpec MakeSpec(const Config& config) {
    if (V == 5) {
      mujoco::GetFrameSkip(config);
      if (kStandup) {
        config.GetFloat("uph_cost_weight");
        config.GetFloat("impact_cost_weight");
        mujoco::GetRange(config, "impact_cost_range");
      } else {
        config.GetFloat("contact_cost_weight");
        mujoco::GetRange(config, "contact_cost_range");
      }
    }
    if (V == 5 || !kStandup) {
      config.GetFloat("ctrl_cost_weight");
      mujoco::GetNoiseScale(config);
    }
    if (!kStandup) {
      config.GetFloat("forward_reward_weight");
      config.GetFloat("healthy_reward");
      mujoco::GetRange(config, "healthy_z_range");
    }
    mujoco::ModelSizes s = mujoco::ReadModelSizes(config);
    // v5 leaves out the world body's rows and the free joint's qfrc_actuator
    const int64_t bodies = V == 5 ? s.nbody - 1 : s.nbody;
    int64_t n = s.nq + s.nv;
    if (Exclude(config)) n -= 2;
    if (Flag(config, "include_cinert_in_observation")) n += bodies * 10;
    if (Flag(config, "include_cvel_in_observation")) n += bodies * 6;
    if (Flag(config, "include_qfrc_actuator_in_observation")) {
      n += V == 5 ? s.nv - 6 : s.nv;
    }
    if (Flag(config, "include_cfrc_ext_in_observation")) n += bodies * 6;
    return mujoco::MakeMujocoSpec(config, s, n, Info(config, s.ntendon));
  }

  static bool Exclude(const Config& config) {
    return (V == 5 || !kStandup)
               ? config.GetBool("exclude_current_positions_from_observation")
               : true;
  }

  HumanoidFamilyEnv(const Config& config, uint64_t seed)
      : MujocoEnv(config, seed,
                  V == 5 ? static_cast<int>(mujoco::GetFrameSkip(config)) : 5),
        exclude_(Exclude(config)),
        cinert_(Flag(config, "include_cinert_in_observation")),
        cvel_(Flag(config, "include_cvel_in_observation")),
        qfrc_actuator_(Flag(config, "include_qfrc_actuator_in_observation")),
        cfrc_ext_(Flag(config, "include_cfrc_ext_in_observation")) {
    SetInfoSpecs(Info(config, model_->ntendon));
    reads_cfrc_ext_ = mujoco::PostConstraint(V);
    const bool has_common = V == 5 || !kStandup;
    ctrl_weight_ = has_common ? config.GetFloat("ctrl_cost_weight") : 0.1;
    noise_ = has_common ? mujoco::GetNoiseScale(config) : 0.01;
    if (V == 5) {
      const char* w = kStandup ? "impact_cost_weight" : "contact_cost_weight";
      const char* range = kStandup ? "impact_cost_range" : "contact_cost_range";
      contact_weight_ = config.GetFloat(w);
      contact_range_ = mujoco::GetRange(config, range);
    }
    if (!kStandup) {
      forward_weight_ = config.GetFloat("forward_reward_weight");
      healthy_reward_ = config.GetFloat("healthy_reward");
      terminate_ = config.GetBool("terminate_when_unhealthy");
      z_range_ = mujoco::GetRange(config, "healthy_z_range");
    }
    // mass_center's denominator: model.body_mass.sum()
    mass_sum_ = mujoco::PairwiseSum(model_->body_mass,
                                    static_cast<int64_t>(model_->nbody));
  }

  void Reset() override {
    ResetData();
    ClearInfo();
    std::vector<double> qpos = PlusUniform(init_qpos_, -noise_, noise_);
    std::vector<double> qvel = PlusUniform(init_qvel_, -noise_, noise_);
    SetState(qpos, qvel);
    if (V == 5) {
      SetInfo("x_position", data_->qpos[0]);
      SetInfo("y_position", data_->qpos[1]);
      SetInfo("tendon_length", data_->ten_length, model_->ntendon);
      SetInfo("tendon_velocity", data_->ten_velocity, model_->ntendon);
      if (kStandup) {
        SetInfo("z_distance_from_origin", data_->qpos[2] - init_qpos_[2]);
      } else {
        SetInfo("distance_from_origin", Norm(data_->qpos, 2));
      }
    }
  }

  StepResult Step(const void* action) override {
    return kStandup ? StepStandup(action) : StepHumanoid(action);
  }

 protected:
  StepResult StepHumanoid(const void* action) {
    double before[2], after[2];
    MassCenter(before);
    DoSimulation(static_cast<const float*>(action));
    MassCenter(after);
    const double x_velocity = (after[0] - before[0]) / dt_;
    const double y_velocity = (after[1] - before[1]) / dt_;
    const double z = data_->qpos[2];
    const bool healthy = z_range_.low < z && z < z_range_.high;
    const double forward_reward = forward_weight_ * x_velocity;
    const double healthy_reward =
        ((V == 5 ? healthy : (healthy || terminate_)) ? 1.0 : 0.0) *
        healthy_reward_;
    const double rewards = forward_reward + healthy_reward;
    const double ctrl_cost = CtrlCost();
    StepResult r;
    r.terminated = !healthy && terminate_;
    if (V == 5) {
      const double contact_cost = ContactCost();
      r.reward = rewards - (ctrl_cost + contact_cost);
      SetInfo("x_position", data_->qpos[0]);
      SetInfo("y_position", data_->qpos[1]);
      SetInfo("tendon_length", data_->ten_length, model_->ntendon);
      SetInfo("tendon_velocity", data_->ten_velocity, model_->ntendon);
      SetInfo("distance_from_origin", Norm(data_->qpos, 2));
      SetInfo("x_velocity", x_velocity);
      SetInfo("y_velocity", y_velocity);
      SetInfo("reward_survive", healthy_reward);
      SetInfo("reward_forward", forward_reward);
      SetInfo("reward_ctrl", -ctrl_cost);
      SetInfo("reward_contact", -contact_cost);
    } else {
      r.reward = rewards - ctrl_cost;
      SetInfo("reward_linvel", forward_reward);
      SetInfo("reward_quadctrl", -ctrl_cost);
      SetInfo("reward_alive", healthy_reward);
      SetInfo("x_position", after[0]);
      SetInfo("y_position", after[1]);
      SetInfo("distance_from_origin", Norm(after, 2));
      SetInfo("x_velocity", x_velocity);
      SetInfo("y_velocity", y_velocity);
      SetInfo("forward_reward", forward_reward);
    }
    return r;
  }

  StepResult StepStandup(const void* action) {
    DoSimulation(static_cast<const float*>(action));
    const double pos_after = data_->qpos[2];
    const double uph_cost = (pos_after - 0) / model_->opt.timestep;
    const double quad_ctrl_cost = CtrlCost();
    double quad_impact_cost;
    if (V == 5) {
      quad_impact_cost = ContactCost();
    } else {
      // min(5e-7 * np.square(cfrc_ext).sum(), 10)
      const double c =
          5e-7 * mujoco::SumOfSquares(data_->cfrc_ext,
                                      static_cast<int64_t>(model_->nbody) * 6);
      quad_impact_cost = 10 < c ? 10.0 : c;
    }
    StepResult r;
    r.reward = uph_cost - quad_ctrl_cost - quad_impact_cost + 1;
    if (V == 5) {
      SetInfo("x_position", data_->qpos[0]);
      SetInfo("y_position", data_->qpos[1]);
      SetInfo("z_distance_from_origin", data_->qpos[2] - init_qpos_[2]);
      SetInfo("tendon_length", data_->ten_length, model_->ntendon);
      SetInfo("tendon_velocity", data_->ten_velocity, model_->ntendon);
    }
    SetInfo("reward_linup", uph_cost);
    SetInfo("reward_quadctrl", -quad_ctrl_cost);
    SetInfo("reward_impact", -quad_impact_cost);
    return r;
  }

  // ctrl_cost_weight * np.sum(np.square(data.ctrl))
  double CtrlCost() const {
    return ctrl_weight_ *
           mujoco::SumOfSquares(data_->ctrl, static_cast<int64_t>(model_->nu));
  }

  // np.clip(weight * np.sum(np.square(cfrc_ext)), low, high)
  double ContactCost() const {
    const double c =
        contact_weight_ *
        mujoco::SumOfSquares(data_->cfrc_ext,
                             static_cast<int64_t>(model_->nbody) * 6);
    return mujoco::Clip(c, contact_range_.low, contact_range_.high);
  }

  // mass_center: np.einsum('b,bj->j', body_mass, xipos) / body_mass.sum()
  void MassCenter(double out[2]) const {
    for (int j = 0; j < 2; ++j) {
      double num = 0.0;
      for (int b = 0; b < model_->nbody; ++b) {
        num += model_->body_mass[b] * data_->xipos[3 * b + j];
      }
      out[j] = num / mass_sum_;
    }
  }

  void WriteObservation(double* obs) const override {
    const int first = V == 5 ? 1 : 0;  // v5 leaves out the world body
    const int nbody = model_->nbody;
    for (int i = exclude_ ? 2 : 0; i < model_->nq; ++i) *obs++ = data_->qpos[i];
    for (int i = 0; i < model_->nv; ++i) *obs++ = data_->qvel[i];
    if (cinert_) {
      for (int i = first * 10; i < nbody * 10; ++i) *obs++ = data_->cinert[i];
    }
    if (cvel_) {
      for (int i = first * 6; i < nbody * 6; ++i) *obs++ = data_->cvel[i];
    }
    if (qfrc_actuator_) {
      for (int i = V == 5 ? 6 : 0; i < model_->nv; ++i) {
        *obs++ = data_->qfrc_actuator[i];
      }
    }
    if (cfrc_ext_) {
      for (int i = first * 6; i < nbody * 6; ++i) *obs++ = data_->cfrc_ext[i];
    }
  }

 private:
  bool exclude_, cinert_, cvel_, qfrc_actuator_, cfrc_ext_;
  double ctrl_weight_ = 0.1;
  double noise_ = 0.01;
  double contact_weight_ = 0.0;
  mujoco::Range contact_range_{0, 0};
  double forward_weight_ = 0.0;
  double healthy_reward_ = 0.0;
  bool terminate_ = false;
  mujoco::Range z_range_{0, 0};
  double mass_sum_ = 1.0;
};

template <int V>
using HumanoidEnv = HumanoidFamilyEnv<false, V>;
template <int V>
using HumanoidStandupEnv = HumanoidFamilyEnv<true, V>;

}  // namespace envpool_lite
