// MyoSuite's key turning task (envs/myo/myobase/key_turn_v0.py,
// KeyTurnEnvV0): the hand turns a key held between the index finger and the
// thumb. The key's start angle is drawn at every reset in key_init_range;
// where that range is not a single value (the "Random" ids), the key's body
// is also moved by up to 1 cm on each axis from where it starts.
#pragma once

#include <string>
#include <vector>

#include "envs/myosuite/myo_env.h"

namespace envpool_lite {
namespace myosuite {

class KeyTurnEnv : public MyoEnv {
 public:
  static Config DefaultConfig() {
    Config c = BaseConfig();
    c.Set("obs_keys",
          StringList{"hand_qpos", "hand_qvel", "key_qpos", "key_qvel",
                     "IFtip_approach", "THtip_approach"});
    c.Set("weighted_reward_keys", NamedNumbers{{"key_turn", {1.0}},
                                               {"IFtip_approach", {10.0}},
                                               {"THtip_approach", {10.0}},
                                               {"act_reg", {1.0}},
                                               {"bonus", {4.0}},
                                               {"penalty", {25.0}}});
    c.Set("goal_th", 3.14);
    c.Set("key_init_range", NumberList{0.0, 0.0});
    return c;
  }

  static Layout MakeLayout(const Config& config, const mjModel* m) {
    (void)config;
    Layout l;
    l.obs = {{"hand_qpos", m->nq - 1}, {"hand_qvel", m->nv - 1},
             {"key_qpos", 1},          {"key_qvel", 1},
             {"IFtip_approach", 3},    {"THtip_approach", 3}};
    if (m->na > 0) l.obs.push_back({"act", m->na});
    l.rwd = {{"key_turn"}, {"IFtip_approach"},  {"THtip_approach"},
             {"act_reg"},  {"bonus"},           {"penalty"},
             {"sparse"},   {"solved", 1, true}, {"done", 1, true},
             {"dense"}};
    return l;
  }

  static EnvSpec MakeSpec(const Config& config) {
    ModelPtr model = LoadTaskModel(config);
    const Api& api = LoadApi(config.GetString("mujoco_lib"));
    Check(config, api, model.get());
    return BaseSpec(config, model.get(), MakeLayout(config, model.get()));
  }

  KeyTurnEnv(const Config& config, uint64_t seed)
      : MyoEnv(config, seed, &MakeLayout) {
    Check(config, api_, m());
    goal_th_ = config.GetFloat("goal_th");
    const NumberList& range = config.GetNumberList("key_init_range");
    key_low_ = range[0];
    key_high_ = range[1];
    keyhead_sid_ = SiteId(api_, m(), "keyhead", "mujoco_model");
    if_sid_ = SiteId(api_, m(), "IFtip", "mujoco_model");
    th_sid_ = SiteId(api_, m(), "THtip", "mujoco_model");
    // _setup: where the key's head is in the model as loaded (the env's
    // data, after MujocoEnv.__init__'s mj_forward).
    key_init_pos_.assign(d()->site_xpos + 3 * keyhead_sid_,
                         d()->site_xpos + 3 * keyhead_sid_ + 3);
    Setup();
    // init_qpos[:-1] *= 0: the hand fully open.
    for (int i = 0; i + 1 < m()->nq; ++i) init_qpos_[i] *= 0.0;
    qpos_.assign(init_qpos_.size(), 0.0);
  }

  // KeyTurnEnvV0.reset: the key's angle drawn (always, one draw, even from
  // a range of one value), then the key's body moved (three draws) when the
  // range is not a single value.
  void Reset() override {
    qpos_ = init_qpos_;
    qpos_[m()->nq - 1] = rng_.Uniform(key_low_, key_high_);
    if (key_low_ != key_high_) {
      double* pos = m()->body_pos + 3 * (m()->nbody - 1);
      for (int i = 0; i < 3; ++i) {
        pos[i] = key_init_pos_[i] + rng_.Uniform(-0.01, 0.01);
      }
    }
    ResetTo(qpos_.data(), init_qvel_.data());
  }

 protected:
  // get_obs_dict.
  void ObsDict() override {
    const int nq = m()->nq, nv = m()->nv;
    std::copy(d()->qpos, d()->qpos + nq - 1, Obs("hand_qpos"));
    double* hand_qvel = Obs("hand_qvel");
    for (int i = 0; i + 1 < nv; ++i) hand_qvel[i] = d()->qvel[i] * dt_;
    *Obs("key_qpos") = d()->qpos[nq - 1];
    *Obs("key_qvel") = d()->qvel[nv - 1] * dt_;
    double* if_app = Obs("IFtip_approach");
    double* th_app = Obs("THtip_approach");
    const double* x = d()->site_xpos;
    for (int i = 0; i < 3; ++i) {
      if_app[i] = x[3 * keyhead_sid_ + i] - x[3 * if_sid_ + i];
      th_app[i] = x[3 * keyhead_sid_ + i] - x[3 * th_sid_ + i];
    }
    if (m()->na > 0) std::copy(d()->act, d()->act + m()->na, Obs("act"));
  }

  // get_reward_dict.
  void RewardDict() override {
    const double if_dist =
        std::fabs(Norm(Obs("IFtip_approach"), 3, scratch_.data()) - 0.030);
    const double th_dist =
        std::fabs(Norm(Obs("THtip_approach"), 3, scratch_.data()) - 0.030);
    const double key_pos = *Obs("key_qpos");
    const double act_mag = ActMag();
    const double far_th = 0.1;
    Rwd("key_turn") = key_pos;
    Rwd("IFtip_approach") = -1.0 * if_dist;
    Rwd("THtip_approach") = -1.0 * th_dist;
    Rwd("act_reg") = -1.0 * act_mag;
    Rwd("bonus") = 1.0 * static_cast<double>(key_pos > kPiValue / 2) +
                   1.0 * static_cast<double>(key_pos > kPiValue);
    Rwd("penalty") = -1.0 * static_cast<double>(if_dist > far_th / 2) -
                     1.0 * static_cast<double>(th_dist > far_th / 2);
    Rwd("sparse") = key_pos;
    Rwd("solved") = key_pos > goal_th_ ? 1.0 : 0.0;
    Rwd("done") = (if_dist > far_th || th_dist > far_th) ? 1.0 : 0.0;
  }

 private:
  static constexpr double kPiValue = 3.141592653589793;

  static void Check(const Config& config, const Api& api, const mjModel* m) {
    // get_reward_dict's "solved" keeps the key's position's shape (1, 1, 1)
    // where the other terms are (1, 1): np.sum of the weighted terms then
    // fails in myosuite ("inhomogeneous shape") when it is weighted.
    for (const auto& [name, w] :
         config.GetNamedNumbers("weighted_reward_keys")) {
      (void)w;
      if (name != "solved") continue;
      throw std::invalid_argument(
          "option 'weighted_reward_keys': 'solved' cannot be weighted in this "
          "task (myosuite's KeyTurnEnvV0 fails summing it: its shape is not "
          "the other terms')");
    }
    const NumberList& range = config.GetNumberList("key_init_range");
    if (range.size() != 2 || !(range[0] <= range[1])) {
      throw std::invalid_argument(
          "option 'key_init_range': (low, high) with low <= high needed");
    }
    for (const char* site : {"keyhead", "IFtip", "THtip"}) {
      SiteId(api, m, site, "mujoco_model");
    }
    if (m->nq < 1 || m->nv < 1) {
      throw std::invalid_argument(
          "option 'mujoco_model': the key turning task needs the key's joint "
          "last");
    }
  }

  double goal_th_ = 3.14;
  double key_low_ = 0.0, key_high_ = 0.0;
  int keyhead_sid_ = -1, if_sid_ = -1, th_sid_ = -1;
  std::vector<double> key_init_pos_;
  std::vector<double> qpos_;
};

}  // namespace myosuite
}  // namespace envpool_lite
