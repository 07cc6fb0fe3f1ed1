// faucet-open-v3 and faucet-close-v3: metaworld 3.1.1's
// envs/sawyer_faucet_open_v3.py (SawyerFaucetOpenEnvV3) and
// sawyer_faucet_close_v3.py (SawyerFaucetCloseEnvV3): turn the faucet's
// handle (model sawyer_faucet.xml) one way or the other.
#pragma once

#include "envs/metaworld/articulated_common.h"

namespace envpool_lite {
namespace metaworld {

class FaucetBaseEnv : public SawyerEnv {
 protected:
  static constexpr double kHandleLength = 0.175;
  static constexpr double kTargetRadius = 0.07;

  static TaskSpec FaucetTask(double x_low, double x_high) {
    TaskSpec t;
    t.model = "sawyer_xyz/sawyer_faucet.xml";
    t.hand_low = {-0.5, 0.40, -0.15};
    t.hand_high = {0.5, 1, 0.5};
    t.reset_low = {x_low, 0.8, 0.0};
    t.reset_high = {x_high, 0.85, 0.0};
    t.goal_low = t.hand_low;
    t.goal_high = t.hand_high;
    return t;
  }

  // open: the open goal's site and the open handle; else the closing ones.
  FaucetBaseEnv(const Config& config, uint64_t seed, TaskSpec task, bool open)
      : SawyerEnv(config, seed, std::move(task)),
        open_(open),
        base_(Id(mjOBJ_BODY, "faucetBase")),
        goal_site_(Id(mjOBJ_SITE, open ? "goal_open" : "goal_close")),
        handle_site_(
            Id(mjOBJ_SITE, open ? "handleStartOpen" : "handleStartClose")) {
    hand_init_pos_ = {0.0, 0.4, 0.2};
    Init(seed);
  }

  void ResetModel() override {
    ResetHand();
    const std::vector<double>& v = StateRandVec();
    obj_init_pos_ = {v[0], v[1], v[2]};
    std::copy(obj_init_pos_.begin(), obj_init_pos_.end(),
              m()->body_pos + 3 * base_);
    target_pos_ = articulated::Add(
        obj_init_pos_, {open_ ? +kHandleLength : -kHandleLength, 0.0, 0.125});
    if (!open_) api_.forward(m(), d());
    std::copy(target_pos_.begin(), target_pos_.end(),
              m()->site_pos + 3 * goal_site_);
    max_pull_dist_ = Norm3(target_pos_, obj_init_pos_);
  }

  void ObjectsPosQuat(std::vector<double>* out) override {
    const Vec3 p = articulated::Add(SitePos(handle_site_), {0.0, 0.0, -0.01});
    out->insert(out->end(), p.begin(), p.end());
    const double* q = d()->xquat + 4 * base_;
    out->insert(out->end(), q, q + 4);
  }

  double EvaluateState(const double* obs, const float* action,
                       Info* info) override {
    (void)action;
    if (!v2_) {
      const Vec3 obj = articulated::At(obs + 4);
      const double pull_dist = Norm3(obj, target_pos_);
      const double reach_dist = Norm3(obj, TcpCenter());
      const double pull_rew =
          reach_dist < 0.05 ? articulated::V1Pull(np_, max_pull_dist_,
                                                  pull_dist, 0.01, 0.001, true)
                            : 0.0;
      const double reward = -reach_dist + pull_rew;
      info->success = pull_dist <= 0.07 ? 1.0 : 0.0;
      info->near_object = 1.0;
      info->grasp_success = 1.0;
      info->grasp_reward = 0.0;
      info->in_place_reward = 0.0;
      info->obj_to_target = pull_dist;
      info->unscaled_reward = reward;
      return reward;
    }
    // The open task reads the handle 0.04 before and 0.03 above.
    const Vec3 obj =
        open_ ? articulated::Add(articulated::At(obs + 4), {-0.04, 0.0, 0.03})
              : articulated::At(obs + 4);
    const Vec3 tcp = TcpCenter();
    const double target_to_obj = Norm3(obj, target_pos_);
    const double target_to_obj_init = Norm3(obj_init_pos_, target_pos_);
    const double in_place = Tolerance(
        np_, target_to_obj, 0, kTargetRadius,
        std::abs(target_to_obj_init - kTargetRadius), Sigmoid::kLongTail);
    const double reach_radius = 0.01;
    const double tcp_to_obj = Norm3(obj, tcp);
    const double tcp_to_obj_init = Norm3(obj_init_pos_, init_tcp_);
    const double reach =
        Tolerance(np_, tcp_to_obj, 0, reach_radius,
                  std::abs(tcp_to_obj_init - reach_radius), Sigmoid::kGaussian);
    double reward = 2 * reach + 3 * in_place;
    reward *= 2;
    if (target_to_obj <= kTargetRadius) reward = 10;
    info->success = target_to_obj <= 0.07 ? 1.0 : 0.0;
    info->near_object = tcp_to_obj <= 0.01 ? 1.0 : 0.0;
    info->grasp_success = 1.0;
    info->grasp_reward = reach;
    info->in_place_reward = in_place;
    info->obj_to_target = target_to_obj;
    info->unscaled_reward = reward;
    return reward;
  }

  // get_state / set_state: what reset_model sets, after the base's.
  ENVPOOL_LITE_STATE_AFTER(SawyerEnv, max_pull_dist_)

  bool open_;
  int base_, goal_site_, handle_site_;
  double max_pull_dist_ = 0;
};

class FaucetOpenEnv : public FaucetBaseEnv {
 public:
  static TaskSpec Task() { return FaucetTask(-0.05, 0.05); }
  static Config DefaultConfig() { return BaseConfig(Task().model); }
  static EnvSpec MakeSpec(const Config& config) {
    return BaseSpec(config, Task());
  }
  FaucetOpenEnv(const Config& config, uint64_t seed)
      : FaucetBaseEnv(config, seed, Task(), true) {}
};

class FaucetCloseEnv : public FaucetBaseEnv {
 public:
  static TaskSpec Task() { return FaucetTask(-0.1, 0.1); }
  static Config DefaultConfig() { return BaseConfig(Task().model); }
  static EnvSpec MakeSpec(const Config& config) {
    return BaseSpec(config, Task());
  }
  FaucetCloseEnv(const Config& config, uint64_t seed)
      : FaucetBaseEnv(config, seed, Task(), false) {}
};

}  // namespace metaworld
}  // namespace envpool_lite
