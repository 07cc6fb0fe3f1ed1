// MyoSuite's torso posing tasks (envs/myo/myobase/torso_v0.py,
// TorsoEnvV0): hold the lumbar spine's 18 joints at a pose, the middles of
// target_jnt_range (or the given target_jnt_value), which nothing redraws;
// the start is the initial pose (reset_type "init") or every joint drawn
// in its range ("random"). The torso, and the torso with an exosuit.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "envs/myosuite/myo_env.h"

namespace envpool_lite {
namespace myosuite {

class TorsoEnv : public MyoEnv {
 public:
  static Config DefaultConfig() {
    Config c = BaseConfig();
    c.Set("obs_keys", StringList{"qpos", "qvel", "pose_err"});
    c.Set("weighted_reward_keys", NamedNumbers{{"pose", {1.0}},
                                               {"bonus", {4.0}},
                                               {"act_reg", {1.0}},
                                               {"penalty", {50.0}},
                                               {"done", {0.0}}});
    c.Set("viz_site_targets", StringList{});
    c.Set("target_jnt_range", NamedNumbers{});
    c.Set("target_jnt_value", NumberList{});
    c.Set("reset_type", std::string("init"));
    c.Set("pose_thd", 0.25);
    return c;
  }

  static Layout MakeLayout(const Config& config, const mjModel* m) {
    Layout l;
    l.obs = {{"qpos", m->nq},
             {"qvel", m->nv},
             {"act", m->na > 0 ? m->na : m->nq},
             {"pose_err", PoseErrSize(Target(config).size(), m)}};
    l.rwd = {{"pose"},   {"bonus"},           {"penalty"},       {"act_reg"},
             {"sparse"}, {"solved", 1, true}, {"done", 1, true}, {"dense"}};
    return l;
  }

  static EnvSpec MakeSpec(const Config& config) {
    ModelPtr model = LoadTaskModel(config);
    const Api& api = LoadApi(config.GetString("mujoco_lib"));
    Check(config, api, model.get());
    return BaseSpec(config, model.get(), MakeLayout(config, model.get()));
  }

  TorsoEnv(const Config& config, uint64_t seed)
      : MyoEnv(config, seed, &MakeLayout) {
    Check(config, api_, m());
    pose_thd_ = config.GetFloat("pose_thd");
    reset_random_ = config.GetString("reset_type") == "random";
    target_ = Target(config);
    jnt_init_.assign(static_cast<std::size_t>(m()->njnt), 0.0);
    Setup();
  }

  // TorsoEnvV0.reset: the initial pose, or every joint drawn in its range
  // (np_random.uniform of the ranges' lows and highs: one draw per joint).
  void Reset() override {
    if (reset_random_) {
      for (int j = 0; j < m()->njnt; ++j) {
        jnt_init_[j] =
            rng_.Uniform(m()->jnt_range[2 * j], m()->jnt_range[2 * j + 1]);
      }
      ResetTo(jnt_init_.data(), init_qvel_.data());
    } else {
      ResetToInit();
    }
  }

 protected:
  // get_obs_dict: pose_err = target_jnt_value - qpos[:18].
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
    const int n = PoseErrSize(target_.size(), m());
    const int joints = std::min(nq, kPoseJoints);
    for (int i = 0; i < n; ++i) {
      err[i] =
          target_[target_.size() == 1 ? 0 : i] - d()->qpos[joints == 1 ? 0 : i];
    }
  }

  // get_reward_dict.
  void RewardDict() override {
    const int n = PoseErrSize(target_.size(), m());
    const double pose_dist = Norm(Obs("pose_err"), n, scratch_.data());
    double act_mag =
        Norm(Obs("act"), m()->na > 0 ? m()->na : m()->nq, scratch_.data());
    if (m()->na != 0) act_mag = act_mag / static_cast<double>(m()->na);
    const double far_th = kPiValue;
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
  // obs_dict["pose_err"] reads qpos[:18]: the torso's lumbar joints.
  static constexpr int kPoseJoints = 18;

  // The target pose: np.mean(target_jnt_range, axis=1) (the middles, in
  // the option's order), else target_jnt_value.
  static std::vector<double> Target(const Config& config) {
    const NamedNumbers& range = config.GetNamedNumbers("target_jnt_range");
    std::vector<double> t;
    if (!range.empty()) {
      for (const auto& [name, lh] : range) {
        (void)name;
        t.push_back(lh.size() == 2 ? (lh[0] + lh[1]) / 2.0 : 0.0);
      }
    } else {
      t = config.GetNumberList("target_jnt_value");
    }
    return t;
  }

  // The size of target - qpos[:18], as numpy broadcasts them (0 where they
  // do not broadcast: Check refuses those).
  static int PoseErrSize(std::size_t target, const mjModel* m) {
    const int joints = std::min(static_cast<int>(m->nq), kPoseJoints);
    const int t = static_cast<int>(target);
    if (t == joints || joints == 1) return t;
    if (t == 1) return joints;
    return 0;
  }

  static void Check(const Config& config, const Api& api, const mjModel* m) {
    const NamedNumbers& range = config.GetNamedNumbers("target_jnt_range");
    const NumberList& value = config.GetNumberList("target_jnt_value");
    if (!range.empty() && !value.empty()) {
      throw std::invalid_argument(
          "options 'target_jnt_range' and 'target_jnt_value': give one");
    }
    if (range.empty() && value.empty()) {
      throw std::invalid_argument(
          "option 'target_jnt_range' or 'target_jnt_value' is needed");
    }
    for (const auto& [name, lh] : range) {
      if (api.name2id(m, mjOBJ_JOINT, name.c_str()) < 0) {
        throw std::invalid_argument(
            "option 'target_jnt_range': the model has no joint '" + name + "'");
      }
      if (lh.size() != 2 || !(lh[0] <= lh[1])) {
        throw std::invalid_argument(
            "option 'target_jnt_range': (low, high) with low <= high needed "
            "for '" +
            name + "'");
      }
    }
    const std::size_t n = Target(config).size();
    if (PoseErrSize(n, m) == 0) {
      throw std::invalid_argument(
          std::string(range.empty() ? "option 'target_jnt_value'"
                                    : "option 'target_jnt_range'") +
          ": the target pose has " + std::to_string(n) +
          " joints, the model's " + "first " +
          std::to_string(std::min(static_cast<int>(m->nq), kPoseJoints)) +
          " positions are posed (pose_err = target - qpos[:18])");
    }
    const std::string& reset = config.GetString("reset_type");
    if (reset == "none") {
      // TorsoEnvV0.reset returns the bare observation there, which
      // gymnasium's reset (an (obs, info) pair) cannot take.
      throw std::invalid_argument(
          "option 'reset_type' = 'none' is not supported: myosuite 2.12.2's "
          "TorsoEnvV0.reset returns a bare observation for it, which "
          "gymnasium's reset rejects");
    }
    if (reset != "init" && reset != "random") {
      throw std::invalid_argument(
          "option 'reset_type' must be 'init' or 'random', got '" + reset +
          "'");
    }
    if (reset == "random" && m->njnt != m->nq) {
      // jnt_init (one value per joint) becomes qpos in myosuite.
      throw std::invalid_argument(
          "option 'reset_type' = 'random' needs one position per joint (this "
          "model has " +
          std::to_string(m->njnt) + " joints, " + std::to_string(m->nq) +
          " positions)");
    }
    for (const std::string& site : config.GetStringList("viz_site_targets")) {
      SiteId(api, m, site, "viz_site_targets");
      SiteId(api, m, site + "_target", "viz_site_targets");
    }
  }

  double pose_thd_ = 0.25;
  bool reset_random_ = false;
  std::vector<double> target_;
  std::vector<double> jnt_init_;
};

}  // namespace myosuite
}  // namespace envpool_lite
