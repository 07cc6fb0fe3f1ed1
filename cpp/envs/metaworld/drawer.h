// drawer-open-v3 and drawer-close-v3: metaworld 3.1.1's
// envs/sawyer_drawer_open_v3.py (SawyerDrawerOpenEnvV3) and
// sawyer_drawer_close_v3.py (SawyerDrawerCloseEnvV3): pull the drawer
// (model sawyer_drawer.xml) open, or push it closed.
#pragma once

#include "envs/metaworld/articulated_common.h"

namespace envpool_lite {
namespace metaworld {

class DrawerBaseEnv : public SawyerEnv {
 protected:
  static TaskSpec DrawerTask() {
    TaskSpec t;
    t.model = "sawyer_xyz/sawyer_drawer.xml";
    t.hand_low = {-0.5, 0.40, 0.05};
    t.hand_high = {0.5, 1, 0.5};
    t.reset_low = {-0.1, 0.9, 0.0};
    t.reset_high = {0.1, 0.9, 0.0};
    t.goal_low = t.hand_low;
    t.goal_high = t.hand_high;
    return t;
  }

  DrawerBaseEnv(const Config& config, uint64_t seed)
      : SawyerEnv(config, seed, DrawerTask()),
        drawer_(Id(mjOBJ_BODY, "drawer")),
        drawer_link_(Id(mjOBJ_BODY, "drawer_link")),
        goal_site_(Id(mjOBJ_SITE, "goal")) {
    hand_init_pos_ = articulated::F32(0, 0.6, 0.2);
  }

  // obj_init_pos = the rand_vec, the drawer placed there.
  void PlaceDrawer() {
    const std::vector<double>& v = StateRandVec();
    obj_init_pos_ = {v[0], v[1], v[2]};
    std::copy(obj_init_pos_.begin(), obj_init_pos_.end(),
              m()->body_pos + 3 * drawer_);
  }
  void PlaceGoal() {
    std::copy(target_pos_.begin(), target_pos_.end(),
              m()->site_pos + 3 * goal_site_);
  }

  // The v1 reward (both files): -reachDist plus, within 0.05 of the
  // handle, the pull term of the handle's y distance to the goal.
  double V1Reward(const double* obs, double max_dist, double* pull_dist) const {
    const double reach_dist = Norm3(articulated::At(obs + 4), TcpCenter());
    *pull_dist = std::abs(obs[5] - target_pos_[1]);
    const double pull_rew =
        reach_dist < 0.05
            ? articulated::V1Pull(np_, max_dist, *pull_dist, 0.01, 0.001, true)
            : 0.0;
    return -reach_dist + pull_rew;
  }

  int drawer_, drawer_link_, goal_site_;
};

class DrawerOpenEnv : public DrawerBaseEnv {
 public:
  static TaskSpec Task() { return DrawerTask(); }
  static Config DefaultConfig() { return BaseConfig(Task().model); }
  static EnvSpec MakeSpec(const Config& config) {
    return BaseSpec(config, Task());
  }

  DrawerOpenEnv(const Config& config, uint64_t seed)
      : DrawerBaseEnv(config, seed) {
    Init(seed);
  }

 protected:
  static constexpr double kMaxDist = 0.2;

  void ResetModel() override {
    ResetHand();
    PlaceDrawer();
    target_pos_ =
        articulated::Add(obj_init_pos_, {0.0, -0.16 - kMaxDist, 0.09});
    PlaceGoal();
  }

  void ObjectsPosQuat(std::vector<double>* out) override {
    const Vec3 p = articulated::Add(BodyCom(drawer_link_), {0.0, -0.16, 0.0});
    out->insert(out->end(), p.begin(), p.end());
    const double* q = d()->xquat + 4 * drawer_link_;
    out->insert(out->end(), q, q + 4);
  }

  double EvaluateState(const double* obs, const float* action,
                       Info* info) override {
    (void)action;
    if (!v2_) {
      double pull_dist;
      const double reward = V1Reward(obs, kMaxDist, &pull_dist);
      info->success = pull_dist <= 0.03 ? 1.0 : 0.0;
      info->near_object = 1.0;
      info->grasp_success = 0.0;
      info->grasp_reward = 0.0;
      info->in_place_reward = 0.0;
      info->obj_to_target = pull_dist;
      info->unscaled_reward = reward;
      return reward;
    }
    using articulated::Mul;
    using articulated::Sub;
    const Vec3 gripper = articulated::At(obs);
    const Vec3 handle = articulated::At(obs + 4);
    const double handle_error = Norm3(handle, target_pos_);
    const double opening =
        Tolerance(np_, handle_error, 0, 0.02, kMaxDist, Sigmoid::kLongTail);
    const Vec3 handle_pos_init =
        articulated::Add(target_pos_, {0.0, kMaxDist, 0.0});
    const Vec3 scale = {3.0, 3.0, 1.0};
    const Vec3 gripper_error = Mul(Sub(handle, gripper), scale);
    const Vec3 gripper_error_init = Mul(Sub(handle_pos_init, init_tcp_), scale);
    const double caging =
        Tolerance(np_, Norm(gripper_error.data(), 3), 0, 0.01,
                  Norm(gripper_error_init.data(), 3), Sigmoid::kLongTail);
    double reward = caging + opening;
    reward *= 5.0;
    info->success = handle_error <= 0.03 ? 1.0 : 0.0;
    info->near_object = Norm3(handle, gripper) <= 0.03 ? 1.0 : 0.0;
    info->grasp_success = obs[3] > 0 ? 1.0 : 0.0;
    info->grasp_reward = caging;
    info->in_place_reward = opening;
    info->obj_to_target = handle_error;
    info->unscaled_reward = reward;
    return reward;
  }
};

class DrawerCloseEnv : public DrawerBaseEnv {
 public:
  static TaskSpec Task() { return DrawerTask(); }
  static Config DefaultConfig() { return BaseConfig(Task().model); }
  static EnvSpec MakeSpec(const Config& config) {
    return BaseSpec(config, Task());
  }

  DrawerCloseEnv(const Config& config, uint64_t seed)
      : DrawerBaseEnv(config, seed) {
    Init(seed);
  }

 protected:
  static constexpr double kMaxDist = 0.15;
  // evaluate_state and compute_reward read self.TARGET_RADIUS, SawyerXYZEnv's
  // 0.05 (the class's own _TARGET_RADIUS, 0.04, is not used).
  static constexpr double kTargetRadius = 0.05;

  void ResetModel() override {
    ResetHand();
    PlaceDrawer();
    target_pos_ = articulated::Add(obj_init_pos_, {0.0, -0.16, 0.09});
    // _set_obj_xyz(-maxDist): qpos[9] only.
    std::vector<double> qpos(d()->qpos, d()->qpos + m()->nq);
    std::vector<double> qvel(d()->qvel, d()->qvel + m()->nv);
    qpos[9] = -kMaxDist;
    SetState(qpos, qvel);
    obj_init_pos_ = HandlePos();
    PlaceGoal();
  }

  Vec3 HandlePos() const {
    return articulated::Add(BodyCom(drawer_link_), {0.0, -0.16, 0.05});
  }

  void ObjectsPosQuat(std::vector<double>* out) override {
    const Vec3 p = HandlePos();
    out->insert(out->end(), p.begin(), p.end());
    out->insert(out->end(), 4, 0.0);
  }

  double EvaluateState(const double* obs, const float* action,
                       Info* info) override {
    if (!v2_) {
      double pull_dist;
      const double reward = V1Reward(obs, kMaxDist, &pull_dist);
      info->success = pull_dist <= kTargetRadius + 0.015 ? 1.0 : 0.0;
      info->near_object = 1.0;
      info->grasp_success = 1.0;
      info->grasp_reward = 0.0;
      info->in_place_reward = 0.0;
      info->obj_to_target = pull_dist;
      info->unscaled_reward = reward;
      return reward;
    }
    const Vec3 obj = articulated::At(obs + 4);
    const Vec3 tcp = TcpCenter();
    const double target_to_obj = Norm3(obj, target_pos_);
    const double target_to_obj_init = Norm3(obj_init_pos_, target_pos_);
    const double in_place = Tolerance(
        np_, target_to_obj, 0, kTargetRadius,
        std::abs(target_to_obj_init - kTargetRadius), Sigmoid::kLongTail);
    const double handle_reach_radius = 0.005;
    const double tcp_to_obj = Norm3(obj, tcp);
    const double tcp_to_obj_init = Norm3(obj_init_pos_, init_tcp_);
    const double reach0 = Tolerance(
        np_, tcp_to_obj, 0, handle_reach_radius,
        std::abs(tcp_to_obj_init - handle_reach_radius), Sigmoid::kGaussian);
    const articulated::Num reach =
        articulated::HamacherGripper(reach0, action[3]);
    articulated::Num reward = articulated::Hamacher(reach, in_place);
    if (target_to_obj <= kTargetRadius + 0.015) reward = {1.0, false};
    // reward *= 10
    reward.value =
        reward.f32
            ? static_cast<double>(static_cast<float>(reward.value) * 10.0f)
            : reward.value * 10;
    info->success = target_to_obj <= kTargetRadius + 0.015 ? 1.0 : 0.0;
    info->near_object = tcp_to_obj <= 0.01 ? 1.0 : 0.0;
    info->grasp_success = 1.0;
    info->grasp_reward = reach.value;
    info->in_place_reward = in_place;
    info->obj_to_target = target_to_obj;
    info->unscaled_reward = reward.value;
    return reward.value;
  }
};

}  // namespace metaworld
}  // namespace envpool_lite
