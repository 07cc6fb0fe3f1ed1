// MyoSuite's posing tasks (envs/myo/myobase/pose_v0.py, PoseEnvV0): drive
// the joints to a target pose, drawn at every reset from target_jnt_range
// (target_type "generate") or given (target_jnt_value, "fixed"); the
// tips' target sites (viz_site_targets) are moved to where the tips are in
// the target pose. Elbow, finger and hand models; the elbow with an
// exoskeleton may carry a weight of random mass (weight_bodyname,
// weight_range).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "envs/myosuite/myo_env.h"

namespace envpool_lite {
namespace myosuite {

class PoseEnv : public MyoEnv {
 public:
  static Config DefaultConfig() {
    Config c = BaseConfig();
    c.Set("obs_keys", StringList{"qpos", "qvel", "pose_err"});
    c.Set("weighted_reward_keys", NamedNumbers{{"pose", {1.0}},
                                               {"bonus", {4.0}},
                                               {"act_reg", {1.0}},
                                               {"penalty", {50.0}}});
    c.Set("viz_site_targets", StringList{});
    c.Set("target_jnt_range", NamedNumbers{});
    c.Set("target_jnt_value", NumberList{});
    c.Set("reset_type", std::string("init"));
    c.Set("target_type", std::string("generate"));
    c.Set("pose_thd", 0.35);
    c.Set("weight_bodyname", std::string());
    c.Set("weight_range", NumberList{});
    return c;
  }

  static Layout MakeLayout(const Config& config, const mjModel* m) {
    (void)config;
    Layout l;
    l.obs = {{"qpos", m->nq},
             {"qvel", m->nv},
             {"act", m->na > 0 ? m->na : m->nq},
             {"pose_err", m->nq}};
    l.rwd = {{"pose"},   {"bonus"},           {"penalty"},       {"act_reg"},
             {"sparse"}, {"solved", 1, true}, {"done", 1, true}, {"dense"}};
    return l;
  }

  static EnvSpec MakeSpec(const Config& config) {
    ModelPtr model = LoadTaskModel(config);
    const Api& api = LoadApi(config.GetString("mujoco_lib"));
    ReadTargets(config, api, model.get());
    return BaseSpec(config, model.get(), MakeLayout(config, model.get()));
  }

  PoseEnv(const Config& config, uint64_t seed)
      : MyoEnv(config, seed, &MakeLayout) {
    pose_thd_ = config.GetFloat("pose_thd");
    const Targets t = ReadTargets(config, api_, m());
    target_jnt_ids_ = t.joints;
    target_low_ = t.low;
    target_high_ = t.high;
    target_jnt_value_ = t.value;
    fixed_ = t.fixed;
    const std::string& reset = config.GetString("reset_type");
    reset_random_ = reset == "random";
    for (const std::string& site : config.GetStringList("viz_site_targets")) {
      tip_sids_.push_back(SiteId(api_, m(), site, "viz_site_targets"));
      target_sids_.push_back(
          SiteId(api_, m(), site + "_target", "viz_site_targets"));
    }
    const std::string& body = config.GetString("weight_bodyname");
    if (!body.empty()) {
      weight_body_ = api_.name2id(m(), mjOBJ_BODY, body.c_str());
      weight_range_ = config.GetNumberList("weight_range");
    }
    jnt_init_.assign(static_cast<std::size_t>(m()->njnt), 0.0);
    Setup();
  }

  void Reset() override {
    if (weight_body_ >= 0) {
      // A weight of random mass, its sphere sized by it.
      const double w = rng_.Uniform(weight_range_[0], weight_range_[1]);
      m()->body_mass[weight_body_] = w;
      const int g = m()->body_geomadr[weight_body_];
      m()->geom_size[3 * g] = 0.01 + 2.5 * w / 100;
    }
    UpdateTarget();
    if (reset_random_) {
      // Every joint uniformly in its range.
      const int nj = m()->njnt;
      for (int j = 0; j < nj; ++j) {
        jnt_init_[j] =
            rng_.Uniform(m()->jnt_range[2 * j], m()->jnt_range[2 * j + 1]);
      }
      ResetTo(jnt_init_.data(), init_qvel_.data());
    } else {
      ResetToInit();
    }
  }

  ENVPOOL_LITE_STATE_AFTER(MyoEnv, target_jnt_value_)

 protected:
  void ObsDict() override {
    const int nq = m()->nq;
    std::copy(d()->qpos, d()->qpos + nq, Obs("qpos"));
    double* qvel = Obs("qvel");
    for (int i = 0; i < m()->nv; ++i) qvel[i] = d()->qvel[i] * dt_;
    double* act = Obs("act");
    if (m()->na > 0) {
      std::copy(d()->act, d()->act + m()->na, act);
    } else {
      std::fill(act, act + nq, 0.0);
    }
    double* err = Obs("pose_err");
    const std::size_t n = target_jnt_value_.size();
    for (int i = 0; i < nq; ++i) {
      err[i] = target_jnt_value_[n == 1 ? 0 : i] - d()->qpos[i];
    }
  }

  void RewardDict() override {
    const int nq = m()->nq;
    const double pose_dist = Norm(Obs("pose_err"), nq, scratch_.data());
    double act_mag =
        Norm(Obs("act"), m()->na > 0 ? m()->na : nq, scratch_.data());
    if (m()->na != 0) act_mag = act_mag / static_cast<double>(m()->na);
    const double far_th = 4 * kPiValue / 2;
    Rwd("pose") = -1.0 * pose_dist;
    Rwd("bonus") = 1.0 * static_cast<double>(pose_dist < pose_thd_) +
                   1.0 * static_cast<double>(pose_dist < 1.5 * pose_thd_);
    Rwd("penalty") = -1.0 * static_cast<double>(pose_dist > far_th);
    Rwd("act_reg") = -1.0 * act_mag;
    Rwd("sparse") = -1.0 * pose_dist;
    Rwd("solved") = pose_dist < pose_thd_ ? 1.0 : 0.0;
    Rwd("done") = pose_dist > far_th ? 1.0 : 0.0;
  }

 private:
  static constexpr double kPiValue = 3.141592653589793;

  struct Targets {
    std::vector<int> joints;
    std::vector<double> low, high, value;
    bool fixed = false;
  };

  // target_jnt_range ({joint: (low, high)}: the targets drawn in it, first
  // the middles) or target_jnt_value (the targets given), and target_type.
  static Targets ReadTargets(const Config& config, const Api& api,
                             const mjModel* m) {
    Targets t;
    const NamedNumbers& range = config.GetNamedNumbers("target_jnt_range");
    const NumberList& value = config.GetNumberList("target_jnt_value");
    const std::string& type = config.GetString("target_type");
    if (type != "generate" && type != "fixed") {
      throw std::invalid_argument(
          "option 'target_type' must be 'generate' or 'fixed', got '" + type +
          "'");
    }
    t.fixed = type == "fixed";
    const std::string& reset = config.GetString("reset_type");
    if (reset == "none") {
      // PoseEnvV0.reset returns the bare observation there, which
      // gymnasium's reset (an (obs, info) pair) cannot take: myosuite
      // 2.12.2 cannot run it, so there is nothing to match.
      throw std::invalid_argument(
          "option 'reset_type' = 'none' is not supported: myosuite 2.12.2's "
          "PoseEnvV0.reset returns a bare observation for it, which "
          "gymnasium's reset rejects");
    }
    if (reset != "init" && reset != "random") {
      throw std::invalid_argument(
          "option 'reset_type' must be 'init' or 'random', got '" + reset +
          "'");
    }
    if (!range.empty() && !value.empty()) {
      throw std::invalid_argument(
          "options 'target_jnt_range' and 'target_jnt_value': give one");
    }
    if (!range.empty()) {
      for (const auto& [name, lh] : range) {
        const int j = api.name2id(m, mjOBJ_JOINT, name.c_str());
        if (j < 0) {
          throw std::invalid_argument(
              "option 'target_jnt_range': the model has no joint '" + name +
              "'");
        }
        if (lh.size() != 2 || !(lh[0] <= lh[1])) {
          throw std::invalid_argument(
              "option 'target_jnt_range': (low, high) with low <= high "
              "needed for '" +
              name + "'");
        }
        t.joints.push_back(j);
        t.low.push_back(lh[0]);
        t.high.push_back(lh[1]);
        t.value.push_back((lh[0] + lh[1]) / 2.0);  // np.mean(range, axis=1)
      }
    } else if (!value.empty()) {
      if (type == "generate") {
        throw std::invalid_argument(
            "option 'target_jnt_value' needs target_type='fixed' "
            "(target_type='generate' draws from target_jnt_range)");
      }
      t.value = value;
    } else {
      throw std::invalid_argument(
          "option 'target_jnt_range' or 'target_jnt_value' is needed");
    }
    if (t.value.size() != 1 && static_cast<int>(t.value.size()) != m->nq) {
      throw std::invalid_argument(
          "the target pose has " + std::to_string(t.value.size()) +
          " joints, the model " + std::to_string(m->nq) +
          " positions (pose_err = target - qpos)");
    }
    if (reset == "random" && m->njnt != m->nq) {
      throw std::invalid_argument(
          "option 'reset_type' = 'random' needs one position per joint");
    }
    const std::string& body = config.GetString("weight_bodyname");
    if (!body.empty()) {
      if (api.name2id(m, mjOBJ_BODY, body.c_str()) < 0) {
        throw std::invalid_argument(
            "option 'weight_bodyname': the model has no body '" + body + "'");
      }
      const NumberList& w = config.GetNumberList("weight_range");
      if (w.size() != 2 || !(w[0] <= w[1])) {
        throw std::invalid_argument(
            "option 'weight_range': (low, high) with low <= high needed");
      }
    }
    return t;
  }

  // update_target(restore_sim=True): the targets (drawn, or given), the
  // joints set to them to find where the tips are, the target sites put
  // there, the joints restored.
  void UpdateTarget() {
    const int nq = m()->nq, nv = m()->nv;
    saved_qpos_.assign(d()->qpos, d()->qpos + nq);
    saved_qvel_.assign(d()->qvel, d()->qvel + nv);
    if (!fixed_) {
      for (std::size_t i = 0; i < target_low_.size(); ++i) {
        target_jnt_value_[i] = rng_.Uniform(target_low_[i], target_high_[i]);
      }
    }
    const std::size_t n = target_jnt_value_.size();
    for (int i = 0; i < nq; ++i)
      d()->qpos[i] = target_jnt_value_[n == 1 ? 0 : i];
    api_.forward(m(), d());
    for (std::size_t s = 0; s < tip_sids_.size(); ++s) {
      std::copy(d()->site_xpos + 3 * tip_sids_[s],
                d()->site_xpos + 3 * tip_sids_[s] + 3,
                m()->site_pos + 3 * target_sids_[s]);
    }
    std::copy(saved_qpos_.begin(), saved_qpos_.end(), d()->qpos);
    std::copy(saved_qvel_.begin(), saved_qvel_.end(), d()->qvel);
    api_.forward(m(), d());
  }

  double pose_thd_ = 0.35;
  std::vector<int> target_jnt_ids_;
  std::vector<double> target_low_, target_high_, target_jnt_value_;
  bool fixed_ = false;
  bool reset_random_ = false;
  std::vector<int> tip_sids_, target_sids_;
  int weight_body_ = -1;
  NumberList weight_range_;
  std::vector<double> jnt_init_;
  std::vector<double> saved_qpos_, saved_qvel_;
};

}  // namespace myosuite
}  // namespace envpool_lite
