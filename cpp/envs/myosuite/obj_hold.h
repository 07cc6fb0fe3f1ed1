// MyoSuite's object holding tasks (envs/myo/myobase/obj_hold_v0.py,
// ObjHoldFixedEnvV0 and ObjHoldRandomEnvV0): the hand, palm up, holds an
// object at a goal site. The random variant draws at every reset the goal
// (within 3 cm of where the object starts on each axis) and the object's
// size (the model's last geom and the goal site, 2 to 3 cm on each axis).
#pragma once

#include <string>
#include <vector>

#include "envs/myosuite/myo_env.h"

namespace envpool_lite {
namespace myosuite {

class ObjHoldFixedEnv : public MyoEnv {
 public:
  static Config DefaultConfig() {
    Config c = BaseConfig();
    c.Set("obs_keys",
          StringList{"hand_qpos", "hand_qvel", "obj_pos", "obj_err"});
    c.Set("weighted_reward_keys",
          NamedNumbers{
              {"goal_dist", {100.0}}, {"bonus", {4.0}}, {"penalty", {10.0}}});
    return c;
  }

  static Layout MakeLayout(const Config& config, const mjModel* m) {
    (void)config;
    Layout l;
    l.obs = {{"hand_qpos", m->nq - 7},
             {"hand_qvel", m->nv - 6},
             {"obj_pos", 3},
             {"obj_err", 3}};
    if (m->na > 0) l.obs.push_back({"act", m->na});
    l.rwd = {{"goal_dist"}, {"bonus"},           {"act_reg"},       {"penalty"},
             {"sparse"},    {"solved", 1, true}, {"done", 1, true}, {"dense"}};
    return l;
  }

  static EnvSpec MakeSpec(const Config& config) {
    ModelPtr model = LoadTaskModel(config);
    const Api& api = LoadApi(config.GetString("mujoco_lib"));
    Check(api, model.get());
    return BaseSpec(config, model.get(), MakeLayout(config, model.get()));
  }

  ObjHoldFixedEnv(const Config& config, uint64_t seed)
      : MyoEnv(config, seed, &MakeLayout) {
    Check(api_, m());
    object_sid_ = SiteId(api_, m(), "object", "mujoco_model");
    goal_sid_ = SiteId(api_, m(), "goal", "mujoco_model");
    // _setup: where the object is in the model as loaded (the env's data,
    // after MujocoEnv.__init__'s mj_forward).
    object_init_pos_.assign(d()->site_xpos + 3 * object_sid_,
                            d()->site_xpos + 3 * object_sid_ + 3);
    Setup();
    // init_qpos[:-7] *= 0 (the hand fully open), init_qpos[0] = -1.5 (the
    // palm up).
    for (int i = 0; i + 7 < m()->nq; ++i) init_qpos_[i] *= 0.0;
    init_qpos_[0] = -1.5;
  }

  void Reset() override { ResetToInit(); }

 protected:
  // get_obs_dict.
  void ObsDict() override {
    const int nq = m()->nq, nv = m()->nv;
    std::copy(d()->qpos, d()->qpos + nq - 7, Obs("hand_qpos"));
    double* hand_qvel = Obs("hand_qvel");
    for (int i = 0; i + 6 < nv; ++i) hand_qvel[i] = d()->qvel[i] * dt_;
    double* obj_pos = Obs("obj_pos");
    double* obj_err = Obs("obj_err");
    const double* x = d()->site_xpos;
    for (int i = 0; i < 3; ++i) {
      obj_pos[i] = x[3 * object_sid_ + i];
      obj_err[i] = x[3 * goal_sid_ + i] - x[3 * object_sid_ + i];
    }
    if (m()->na > 0) std::copy(d()->act, d()->act + m()->na, Obs("act"));
  }

  // get_reward_dict.
  void RewardDict() override {
    const double goal_dist =
        std::fabs(Norm(Obs("obj_err"), 3, scratch_.data()));
    const double act_mag = ActMag();
    const double goal_th = 0.010;
    const bool drop = goal_dist > 0.300;
    Rwd("goal_dist") = -1.0 * goal_dist;
    Rwd("bonus") = 1.0 * static_cast<double>(goal_dist < 2 * goal_th) +
                   1.0 * static_cast<double>(goal_dist < goal_th);
    Rwd("act_reg") = -1.0 * act_mag;
    Rwd("penalty") = -1.0 * static_cast<double>(drop);
    Rwd("sparse") = -goal_dist;
    Rwd("solved") = goal_dist < goal_th ? 1.0 : 0.0;
    Rwd("done") = drop ? 1.0 : 0.0;
  }

  static void Check(const Api& api, const mjModel* m) {
    SiteId(api, m, "object", "mujoco_model");
    SiteId(api, m, "goal", "mujoco_model");
    if (m->nq < 7 || m->nv < 6 || m->ngeom < 1) {
      throw std::invalid_argument(
          "option 'mujoco_model': the holding task needs the object's free "
          "joint last");
    }
  }

  int object_sid_ = -1, goal_sid_ = -1;
  std::vector<double> object_init_pos_;
};

class ObjHoldRandomEnv : public ObjHoldFixedEnv {
 public:
  ObjHoldRandomEnv(const Config& config, uint64_t seed)
      : ObjHoldFixedEnv(config, seed) {}

  // ObjHoldRandomEnvV0.reset: the goal drawn about the object's start
  // (np_random.uniform of three lows and highs: one draw each, in order),
  // then the object's size (three more), given to the model's last geom and
  // the goal site; sync_sims of the env's data onto itself (mj_forward);
  // the reset.
  void Reset() override {
    double* goal = m()->site_pos + 3 * goal_sid_;
    for (int i = 0; i < 3; ++i) {
      goal[i] = object_init_pos_[i] + rng_.Uniform(-0.030, 0.030);
    }
    double size[3];
    for (double& s : size) s = rng_.Uniform(0.020, 0.030);
    double* geom = m()->geom_size + 3 * (m()->ngeom - 1);
    double* site = m()->site_size + 3 * goal_sid_;
    for (int i = 0; i < 3; ++i) geom[i] = site[i] = size[i];
    api_.forward(m(), d());
    ResetToInit();
  }
};

}  // namespace myosuite
}  // namespace envpool_lite
