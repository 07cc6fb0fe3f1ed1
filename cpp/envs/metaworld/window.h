// window-open-v3 and window-close-v3: metaworld 3.1.1's
// envs/sawyer_window_open_v3.py (SawyerWindowOpenEnvV3) and
// sawyer_window_close_v3.py (SawyerWindowCloseEnvV3): slide the window
// (model sawyer_window_horizontal.xml) open, or closed.
#pragma once

#include "envs/metaworld/articulated_common.h"

namespace envpool_lite {
namespace metaworld {

class WindowBaseEnv : public SawyerEnv {
 protected:
  static constexpr double kTargetRadius = 0.05;
  static constexpr double kMaxPullDist = 0.2;

  static TaskSpec WindowTask(Vec3 reset_low, Vec3 reset_high) {
    TaskSpec t;
    t.model = "sawyer_xyz/sawyer_window_horizontal.xml";
    t.hand_low = {-0.5, 0.40, 0.05};
    t.hand_high = {0.5, 1, 0.5};
    t.reset_low.assign(reset_low.begin(), reset_low.end());
    t.reset_high.assign(reset_high.begin(), reset_high.end());
    t.goal_low = t.hand_low;
    t.goal_high = t.hand_high;
    return t;
  }

  // open: handleOpenStart, the window slid from 0 and a long-tailed reach;
  // else handleCloseStart, slid from 0.2, a gaussian reach.
  WindowBaseEnv(const Config& config, uint64_t seed, TaskSpec task, bool open)
      : SawyerEnv(config, seed, std::move(task)),
        open_(open),
        window_(Id(mjOBJ_BODY, "window")),
        goal_site_(Id(mjOBJ_SITE, "goal")),
        handle_site_(
            Id(mjOBJ_SITE, open ? "handleOpenStart" : "handleCloseStart")),
        slide_qpos_adr_(m()->jnt_qposadr[Id(mjOBJ_JOINT, "window_slide")]) {
    hand_init_pos_ = articulated::F32(0, 0.4, 0.2);
    Init(seed);
  }

  void ResetModel() override {
    ResetHand();
    const std::vector<double>& v = StateRandVec();
    obj_init_pos_ = {v[0], v[1], v[2]};
    target_pos_ = open_ ? articulated::Add(obj_init_pos_, {0.2, 0.0, 0.0})
                        : obj_init_pos_;
    std::copy(obj_init_pos_.begin(), obj_init_pos_.end(),
              m()->body_pos + 3 * window_);
    // The handle where it was before the window moved (no mj_forward).
    handle_pos_init_ =
        open_ ? SitePos(handle_site_)
              : articulated::Add(SitePos(handle_site_), {0.2, 0.0, 0.0});
    d()->qpos[slide_qpos_adr_] = open_ ? 0.0 : 0.2;
    std::copy(target_pos_.begin(), target_pos_.end(),
              m()->site_pos + 3 * goal_site_);
  }

  void ObjectsPosQuat(std::vector<double>* out) override {
    const Vec3 p = SitePos(handle_site_);
    out->insert(out->end(), p.begin(), p.end());
    out->insert(out->end(), 4, 0.0);
  }

  double EvaluateState(const double* obs, const float* action,
                       Info* info) override {
    (void)action;
    if (!v2_) {
      const double pull_dist = std::abs(obs[4] - target_pos_[0]);
      const double reach_dist = Norm3(articulated::At(obs + 4), TcpCenter());
      const double pull_rew =
          reach_dist < 0.05 ? articulated::V1Pull(np_, kMaxPullDist, pull_dist,
                                                  0.01, 0.001, false)
                            : 0.0;
      const double reward = -reach_dist + pull_rew;
      info->success = pull_dist <= kTargetRadius ? 1.0 : 0.0;
      info->near_object = 1.0;
      info->grasp_success = 1.0;
      info->grasp_reward = 0.0;
      info->in_place_reward = 0.0;
      info->obj_to_target = pull_dist;
      info->unscaled_reward = reward;
      return reward;
    }
    const Vec3 obj = SitePos(handle_site_);
    const Vec3 tcp = TcpCenter();
    const double dx = obj[0] - target_pos_[0];
    const double target_to_obj = Norm(&dx, 1);
    const double dx_init =
        (open_ ? obj_init_pos_[0] : handle_pos_init_[0]) - target_pos_[0];
    const double target_to_obj_init = Norm(&dx_init, 1);
    const double in_place = Tolerance(
        np_, target_to_obj, 0, kTargetRadius,
        std::abs(target_to_obj_init - kTargetRadius), Sigmoid::kLongTail);
    const double handle_radius = 0.02;
    const double tcp_to_obj = Norm3(obj, tcp);
    const double tcp_to_obj_init = Norm3(handle_pos_init_, init_tcp_);
    const double reach =
        Tolerance(np_, tcp_to_obj, 0, handle_radius,
                  std::abs(tcp_to_obj_init - handle_radius),
                  open_ ? Sigmoid::kLongTail : Sigmoid::kGaussian);
    const double reward = 10 * HamacherProduct(reach, in_place);
    info->success = target_to_obj <= kTargetRadius ? 1.0 : 0.0;
    info->near_object = tcp_to_obj <= 0.05 ? 1.0 : 0.0;
    info->grasp_success = 1.0;
    info->grasp_reward = reach;
    info->in_place_reward = in_place;
    info->obj_to_target = target_to_obj;
    info->unscaled_reward = reward;
    return reward;
  }

  // get_state / set_state: what reset_model sets, after the base's.
  ENVPOOL_LITE_STATE_AFTER(SawyerEnv, handle_pos_init_)

  bool open_;
  int window_, goal_site_, handle_site_, slide_qpos_adr_;
  Vec3 handle_pos_init_{};
};

class WindowOpenEnv : public WindowBaseEnv {
 public:
  static TaskSpec Task() {
    return WindowTask({-0.1, 0.7, 0.16}, {0.1, 0.9, 0.16});
  }
  static Config DefaultConfig() { return BaseConfig(Task().model); }
  static EnvSpec MakeSpec(const Config& config) {
    return BaseSpec(config, Task());
  }
  WindowOpenEnv(const Config& config, uint64_t seed)
      : WindowBaseEnv(config, seed, Task(), true) {}
};

class WindowCloseEnv : public WindowBaseEnv {
 public:
  static TaskSpec Task() {
    return WindowTask({0.0, 0.75, 0.2}, {0.0, 0.9, 0.2});
  }
  static Config DefaultConfig() { return BaseConfig(Task().model); }
  static EnvSpec MakeSpec(const Config& config) {
    return BaseSpec(config, Task());
  }
  WindowCloseEnv(const Config& config, uint64_t seed)
      : WindowBaseEnv(config, seed, Task(), false) {}
};

}  // namespace metaworld
}  // namespace envpool_lite
