// MyoChallenge 2022's die reorientation (envs/myo/myochallenge/reorient_v0.py,
// ReorientEnvV0): the hand, palm up, turns a die to a target position and
// orientation. At every reset the target's position (goal_pos, relative to
// where it starts) and orientation (goal_rot, three Euler angles through
// euler2quat) are drawn, then the die's friction, mass and size (the target
// and the die's geoms resized alike).
//
// Its reset calls BaseV0.reset(reset_qpos, reset_qvel) positionally, so
// BaseV0's fatigue_reset takes reset_qpos (None): the fatigue model is never
// reset between episodes in the "Fati" variants, and neither is it here.
#pragma once

#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "envs/myosuite/myo_env.h"
#include "envs/myosuite/quat_math.h"

namespace envpool_lite {
namespace myosuite {

class ChallengeReorientEnv : public MyoEnv {
 public:
  static Config DefaultConfig() {
    Config c = BaseConfig();
    c.Set("obs_keys",
          StringList{"hand_qpos_noMD5", "hand_qvel", "obj_pos", "goal_pos",
                     "pos_err", "obj_rot", "goal_rot", "rot_err"});
    c.Set("weighted_reward_keys", NamedNumbers{{"pos_dist", {100.0}},
                                               {"rot_dist", {1.0}},
                                               {"bonus", {0.0}},
                                               {"act_reg", {0.0}},
                                               {"penalty", {0.0}}});
    c.Set("goal_pos", NumberList{0.0, 0.0});
    c.Set("goal_rot", NumberList{0.785, 0.785});
    c.Set("obj_size_change", 0.0);
    c.Set("obj_mass_range", NumberList{0.108, 0.108});
    c.Set("obj_friction_change", NumberList{0.0, 0.0, 0.0});
    c.Set("pos_th", 0.025);
    c.Set("rot_th", 0.262);
    c.Set("drop_th", 0.200);
    return c;
  }

  static Layout MakeLayout(const Config& config, const mjModel* m) {
    (void)config;
    Layout l;
    l.obs = {{"hand_qpos_noMD5", m->nq - 7},
             {"hand_qpos", m->nq - 6},
             {"hand_qvel", m->nv - 6},
             {"obj_pos", 3},
             {"goal_pos", 3},
             {"pos_err", 3},
             {"obj_rot", 3},
             {"goal_rot", 3},
             {"rot_err", 3}};
    if (m->na > 0) l.obs.push_back({"act", m->na});
    l.rwd = {{"pos_dist"},        {"rot_dist"},      {"bonus"},
             {"act_reg"},         {"penalty"},       {"sparse"},
             {"solved", 1, true}, {"done", 1, true}, {"dense"}};
    return l;
  }

  static EnvSpec MakeSpec(const Config& config) {
    ModelPtr model = LoadTaskModel(config);
    const Api& api = LoadApi(config.GetString("mujoco_lib"));
    Check(config, api, model.get());
    return BaseSpec(config, model.get(), MakeLayout(config, model.get()));
  }

  ChallengeReorientEnv(const Config& config, uint64_t seed)
      : MyoEnv(config, seed, &MakeLayout) {
    const Ids ids = Check(config, api_, m());
    ids_ = ids;
    goal_pos_ = config.GetNumberList("goal_pos");
    goal_rot_ = config.GetNumberList("goal_rot");
    obj_size_change_ = config.GetFloat("obj_size_change");
    mass_range_ = config.GetNumberList("obj_mass_range");
    // The thresholds: any number but NaN (myosuite registers np.inf).
    pos_th_ = config.GetFloat("pos_th", -kInf, kInf);
    rot_th_ = config.GetFloat("rot_th", -kInf, kInf);
    drop_th_ = config.GetFloat("drop_th", -kInf, kInf);
    // _setup, from the env's data as MujocoEnv.__init__ left it.
    const double* x = d()->site_xpos;
    for (int i = 0; i < 3; ++i) {
      goal_init_pos_[i] = x[3 * ids_.goal_site + i];
      goal_obj_offset_[i] =
          x[3 * ids_.goal_site + i] - x[3 * ids_.object_site + i];
    }
    for (int i = 0; i < 3; ++i) {
      target_default_size_[i] = m()->geom_size[3 * ids_.target_geom + i];
    }
    const int n = ids_.gidn - ids_.gid0;
    object_default_size_.assign(m()->geom_size + 3 * ids_.gid0,
                                m()->geom_size + 3 * ids_.gidn);
    object_default_pos_.assign(m()->geom_pos + 3 * ids_.gid0,
                               m()->geom_pos + 3 * ids_.gidn);
    // obj_friction_range: the model's frictions -/+ the change (broadcast
    // over the die's geoms).
    const NumberList& change = config.GetNumberList("obj_friction_change");
    friction_low_.resize(3 * n);
    friction_high_.resize(3 * n);
    for (int g = 0; g < n; ++g) {
      for (int k = 0; k < 3; ++k) {
        const double f = m()->geom_friction[3 * (ids_.gid0 + g) + k];
        const double c = change.size() == 1 ? change[0] : change[k];
        friction_low_[3 * g + k] = f - c;
        friction_high_[3 * g + k] = f + c;
      }
    }
    Setup();
    // init_qpos[:-7] *= 0 (the hand fully open), init_qpos[0] = -1.5 (the
    // palm up).
    for (int i = 0; i + 7 < m()->nq; ++i) init_qpos_[i] *= 0.0;
    init_qpos_[0] = -1.5;
  }

  // ReorientEnvV0.reset: the draws in its order (goal position 3, goal
  // rotation 3, friction one per value, mass 1, size 1), the model edits,
  // then MujocoEnv._reset without BaseV0's fatigue reset.
  void Reset() override {
    double* body_pos = m()->body_pos + 3 * ids_.goal_body;
    for (int i = 0; i < 3; ++i) {
      body_pos[i] =
          goal_init_pos_[i] + rng_.Uniform(goal_pos_[0], goal_pos_[1]);
    }
    double euler[3];
    for (double& e : euler) e = rng_.Uniform(goal_rot_[0], goal_rot_[1]);
    Euler2Quat(np_, euler, m()->body_quat + 4 * ids_.goal_body);
    const int n = ids_.gidn - ids_.gid0;
    for (int i = 0; i < 3 * n; ++i) {
      m()->geom_friction[3 * ids_.gid0 + i] =
          rng_.Uniform(friction_low_[i], friction_high_[i]);
    }
    m()->body_mass[ids_.object_body] =
        rng_.Uniform(mass_range_[0], mass_range_[1]);
    const double del_size = rng_.Uniform(-obj_size_change_, obj_size_change_);
    for (int i = 0; i < 3; ++i) {
      m()->geom_size[3 * ids_.target_geom + i] =
          target_default_size_[i] + del_size;
    }
    double* size = m()->geom_size + 3 * ids_.gid0;
    for (int g = 0; g + 3 < n; ++g) {
      size[3 * g + 1] = object_default_size_[3 * g + 1] + del_size;
    }
    for (int g = n - 3; g < n; ++g) {
      for (int k = 0; k < 3; ++k) {
        size[3 * g + k] = object_default_size_[3 * g + k] + del_size;
      }
    }
    // geom_pos = gpos / abs(gpos + 1e-16) * (abs(default_pos) + del_size).
    double* pos = m()->geom_pos + 3 * ids_.gid0;
    for (int i = 0; i < 3 * n; ++i) {
      const double gpos = pos[i];
      pos[i] = gpos / std::fabs(gpos + 1e-16) *
               (std::fabs(object_default_pos_[i]) + del_size);
    }
    // Robot.reset to init_qpos, init_qvel; the observation.
    api_.reset_data(m(), robot());
    std::copy(init_qpos_.begin(), init_qpos_.end(), robot()->qpos);
    std::copy(init_qvel_.begin(), init_qvel_.end(), robot()->qvel);
    api_.forward(m(), robot());
    GetObs();
    // myosuite's reset computes no rewards: the success indicator keeps
    // the colour of the last step.
    float* rgba = m()->site_rgba + 4 * ids_.indicator_site;
    const float kept[2] = {rgba[0], rgba[1]};
    ComputeRewards();
    rgba[0] = kept[0];
    rgba[1] = kept[1];
  }

 protected:
  // get_obs_dict.
  void ObsDict() override {
    const int nq = m()->nq, nv = m()->nv;
    std::copy(d()->qpos, d()->qpos + nq - 7, Obs("hand_qpos_noMD5"));
    std::copy(d()->qpos, d()->qpos + nq - 6, Obs("hand_qpos"));
    double* qvel = Obs("hand_qvel");
    for (int i = 0; i + 6 < nv; ++i) qvel[i] = d()->qvel[i] * dt_;
    double* obj_pos = Obs("obj_pos");
    double* goal_pos = Obs("goal_pos");
    double* pos_err = Obs("pos_err");
    const double* x = d()->site_xpos;
    for (int i = 0; i < 3; ++i) {
      obj_pos[i] = x[3 * ids_.object_site + i];
      goal_pos[i] = x[3 * ids_.goal_site + i];
      pos_err[i] = goal_pos[i] - obj_pos[i] - goal_obj_offset_[i];
    }
    double* obj_rot = Obs("obj_rot");
    double* goal_rot = Obs("goal_rot");
    double* rot_err = Obs("rot_err");
    Mat2Euler(np_, d()->site_xmat + 9 * ids_.object_site, obj_rot);
    Mat2Euler(np_, d()->site_xmat + 9 * ids_.goal_site, goal_rot);
    for (int i = 0; i < 3; ++i) rot_err[i] = goal_rot[i] - obj_rot[i];
    if (m()->na > 0) std::copy(d()->act, d()->act + m()->na, Obs("act"));
  }

  // get_reward_dict, and the success indicator's colour it sets.
  void RewardDict() override {
    const double pos_dist = std::fabs(Norm(Obs("pos_err"), 3, scratch_.data()));
    const double rot_dist = std::fabs(Norm(Obs("rot_err"), 3, scratch_.data()));
    const double act_mag = ActMag();
    const bool drop = pos_dist > drop_th_;
    Rwd("pos_dist") = -1.0 * pos_dist;
    Rwd("rot_dist") = -1.0 * rot_dist;
    Rwd("bonus") = 1.0 * static_cast<double>(pos_dist < 2 * pos_th_) +
                   1.0 * static_cast<double>(pos_dist < pos_th_);
    Rwd("act_reg") = -1.0 * act_mag;
    Rwd("penalty") = -1.0 * static_cast<double>(drop);
    Rwd("sparse") = -rot_dist - 10.0 * pos_dist;
    const bool solved = pos_dist < pos_th_ && rot_dist < rot_th_ && !drop;
    Rwd("solved") = solved ? 1.0 : 0.0;
    Rwd("done") = drop ? 1.0 : 0.0;
    float* rgba = m()->site_rgba + 4 * ids_.indicator_site;
    rgba[0] = solved ? 0.0f : 2.0f;
    rgba[1] = solved ? 2.0f : 0.0f;
  }

 private:
  struct Ids {
    int object_site = -1, goal_site = -1, indicator_site = -1;
    int goal_body = -1, object_body = -1, target_geom = -1;
    int gid0 = 0, gidn = 0;
  };

  static Ids Check(const Config& config, const Api& api, const mjModel* m) {
    Ids ids;
    ids.object_site = SiteId(api, m, "object_o", "mujoco_model");
    ids.goal_site = SiteId(api, m, "target_o", "mujoco_model");
    ids.indicator_site = SiteId(api, m, "target_ball", "mujoco_model");
    ids.goal_body = api.name2id(m, mjOBJ_BODY, "target");
    ids.object_body = api.name2id(m, mjOBJ_BODY, "Object");
    ids.target_geom = api.name2id(m, mjOBJ_GEOM, "target_dice");
    if (ids.goal_body < 0 || ids.object_body < 0 || ids.target_geom < 0) {
      throw std::invalid_argument(
          "option 'mujoco_model': the die task needs the bodies 'target' and "
          "'Object' and the geom 'target_dice'");
    }
    ids.gid0 = m->body_geomadr[ids.object_body];
    ids.gidn = ids.gid0 + m->body_geomnum[ids.object_body];
    if (ids.gidn - ids.gid0 < 3 || m->nq < 7 || m->nv < 6) {
      throw std::invalid_argument(
          "option 'mujoco_model': the die task needs the die's free joint "
          "last and at least three geoms on the die");
    }
    for (const char* name : {"goal_pos", "goal_rot", "obj_mass_range"}) {
      const NumberList& v = config.GetNumberList(name);
      if (v.size() != 2) {
        throw std::invalid_argument(std::string("option '") + name +
                                    "': (low, high) expected, got " +
                                    std::to_string(v.size()) + " values");
      }
      CheckUniform(name, v[0], v[1]);
    }
    for (const char* name : {"pos_th", "rot_th", "drop_th"}) {
      config.GetFloat(name, -kInf, kInf);
    }
    // get_reward_dict's "solved" ((a < th) and (b < th) and (not drop), of
    // (1, 1) arrays in a step) is a bare bool whenever both thresholds are
    // met: np.sum of the weighted terms then fails in myosuite
    // ("inhomogeneous shape") when it is weighted.
    for (const auto& [name, w] :
         config.GetNamedNumbers("weighted_reward_keys")) {
      (void)w;
      if (name != "solved") continue;
      throw std::invalid_argument(
          "option 'weighted_reward_keys': 'solved' cannot be weighted in this "
          "task (myosuite's ReorientEnvV0 fails summing it once it is met: its "
          "shape is "
          "not the other terms')");
    }
    const double size = config.GetFloat("obj_size_change");
    CheckUniform("obj_size_change", -size, size);
    const NumberList& change = config.GetNumberList("obj_friction_change");
    if (change.size() != 3 && change.size() != 1) {
      throw std::invalid_argument(
          "option 'obj_friction_change': three values (sliding, torsional, "
          "rolling) expected (numpy cannot broadcast " +
          std::to_string(change.size()) + " against the die's frictions)");
    }
    const int g0 = ids.gid0, gn = ids.gidn;
    for (int g = g0; g < gn; ++g) {
      for (int k = 0; k < 3; ++k) {
        const double f = m->geom_friction[3 * g + k];
        const double c = change.size() == 1 ? change[0] : change[k];
        CheckUniform("obj_friction_change", f - c, f + c);
      }
    }
    return ids;
  }

  Ids ids_;
  NumberList goal_pos_, goal_rot_, mass_range_;
  double obj_size_change_ = 0.0;
  double pos_th_ = 0.025, rot_th_ = 0.262, drop_th_ = 0.2;
  double goal_init_pos_[3] = {0, 0, 0};
  double goal_obj_offset_[3] = {0, 0, 0};
  double target_default_size_[3] = {0, 0, 0};
  std::vector<double> object_default_size_, object_default_pos_;
  std::vector<double> friction_low_, friction_high_;
};

}  // namespace myosuite
}  // namespace envpool_lite
