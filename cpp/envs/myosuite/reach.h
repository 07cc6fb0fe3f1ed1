// MyoSuite's reaching tasks (envs/myo/myobase/reach_v0.py, ReachEnvV0):
// bring each tip site to its target site, whose position is drawn at every
// reset uniformly in target_reach_range ({tip: (low xyz, high xyz)}).
// Finger and hand models.
#pragma once

#include <limits>
#include <string>
#include <vector>

#include "envs/myosuite/myo_env.h"

namespace envpool_lite {
namespace myosuite {

class ReachEnv : public MyoEnv {
 public:
  static Config DefaultConfig() {
    Config c = BaseConfig();
    c.Set("obs_keys", StringList{"qpos", "qvel", "tip_pos", "reach_err"});
    c.Set(
        "weighted_reward_keys",
        NamedNumbers{{"reach", {1.0}}, {"bonus", {4.0}}, {"penalty", {50.0}}});
    c.Set("target_reach_range", NamedNumbers{});
    c.Set("far_th", 0.35);
    // myosuite's edit_fn, by name: "" (none) or "arm_reaching"
    // (model_edit.h; the myoArmReach ids).
    c.Set("model_edit", std::string());
    return c;
  }

  static Layout MakeLayout(const Config& config, const mjModel* m) {
    const int n = 3 * static_cast<int>(
                          config.GetNamedNumbers("target_reach_range").size());
    Layout l;
    l.obs = {{"qpos", m->nq}, {"qvel", m->nv}};
    if (m->na > 0) l.obs.push_back({"act", m->na});
    l.obs.push_back({"tip_pos", n});
    l.obs.push_back({"target_pos", n});
    l.obs.push_back({"reach_err", n});
    l.rwd = {{"reach"},  {"bonus"},           {"act_reg"},       {"penalty"},
             {"sparse"}, {"solved", 1, true}, {"done", 1, true}, {"dense"}};
    return l;
  }

  static EnvSpec MakeSpec(const Config& config) {
    ModelPtr model = LoadTaskModel(config);
    const Api& api = LoadApi(config.GetString("mujoco_lib"));
    Sites(config, api, model.get(), nullptr, nullptr);
    return BaseSpec(config, model.get(), MakeLayout(config, model.get()));
  }

  ReachEnv(const Config& config, uint64_t seed)
      : MyoEnv(config, seed, &MakeLayout) {
    far_th_ = config.GetFloat("far_th");
    Sites(config, api_, m(), &tip_sids_, &target_sids_);
    for (const auto& [site, span] :
         config.GetNamedNumbers("target_reach_range")) {
      (void)site;
      ranges_.push_back(span);
    }
    Setup();
  }

  void Reset() override {
    // generate_target_pose, then sync_sims of the env's data onto itself.
    for (std::size_t s = 0; s < ranges_.size(); ++s) {
      double* pos = m()->site_pos + 3 * target_sids_[s];
      for (int i = 0; i < 3; ++i) {
        pos[i] = rng_.Uniform(ranges_[s][i], ranges_[s][3 + i]);
      }
    }
    api_.forward(m(), d());
    api_.forward(m(), d());
    ResetToInit();
  }

 protected:
  void ObsDict() override {
    std::copy(d()->qpos, d()->qpos + m()->nq, Obs("qpos"));
    double* qvel = Obs("qvel");
    for (int i = 0; i < m()->nv; ++i) qvel[i] = d()->qvel[i] * dt_;
    if (m()->na > 0) std::copy(d()->act, d()->act + m()->na, Obs("act"));
    double* tip = Obs("tip_pos");
    double* target = Obs("target_pos");
    double* err = Obs("reach_err");
    for (std::size_t s = 0; s < tip_sids_.size(); ++s) {
      for (int i = 0; i < 3; ++i) {
        tip[3 * s + i] = d()->site_xpos[3 * tip_sids_[s] + i];
        target[3 * s + i] = d()->site_xpos[3 * target_sids_[s] + i];
      }
    }
    const int n = 3 * static_cast<int>(tip_sids_.size());
    for (int i = 0; i < n; ++i) err[i] = target[i] - tip[i];
  }

  void RewardDict() override {
    const int n = 3 * static_cast<int>(tip_sids_.size());
    const double reach_dist = Norm(Obs("reach_err"), n, scratch_.data());
    const double act_mag = ActMag();
    const double sites = static_cast<double>(tip_sids_.size());
    const double far_th = d()->time > 2 * dt_
                              ? far_th_ * sites
                              : std::numeric_limits<double>::infinity();
    const double near_th = sites * 0.0125;
    Rwd("reach") = -1.0 * reach_dist;
    Rwd("bonus") = 1.0 * static_cast<double>(reach_dist < 2 * near_th) +
                   1.0 * static_cast<double>(reach_dist < near_th);
    Rwd("act_reg") = -1.0 * act_mag;
    Rwd("penalty") = -1.0 * static_cast<double>(reach_dist > far_th);
    Rwd("sparse") = -1.0 * reach_dist;
    Rwd("solved") = reach_dist < near_th ? 1.0 : 0.0;
    Rwd("done") = reach_dist > far_th ? 1.0 : 0.0;
  }

 protected:
  // The tip sites and their "<tip>_target" sites; each range 6 numbers.
  static void Sites(const Config& config, const Api& api, const mjModel* m,
                    std::vector<int>* tips, std::vector<int>* targets) {
    const NamedNumbers& ranges = config.GetNamedNumbers("target_reach_range");
    if (ranges.empty()) {
      throw std::invalid_argument("option 'target_reach_range' is empty");
    }
    for (const auto& [site, span] : ranges) {
      if (span.size() != 6) {
        throw std::invalid_argument(
            "option 'target_reach_range': ((low x, y, z), (high x, y, z)) "
            "needed for '" +
            site + "'");
      }
      for (int i = 0; i < 3; ++i) {
        if (!(span[i] <= span[3 + i])) {
          throw std::invalid_argument(
              "option 'target_reach_range': low above high for '" + site + "'");
        }
      }
      const int tip = SiteId(api, m, site, "target_reach_range");
      const int target = SiteId(api, m, site + "_target", "target_reach_range");
      if (tips != nullptr) tips->push_back(tip);
      if (targets != nullptr) targets->push_back(target);
    }
  }

  double far_th_ = 0.35;
  std::vector<int> tip_sids_, target_sids_;
  std::vector<std::vector<double>> ranges_;
};

}  // namespace myosuite
}  // namespace envpool_lite
