// lever-pull-v3: metaworld 3.1.1's envs/sawyer_lever_pull_v3.py
// (SawyerLeverPullEnvV3): lift the lever (model sawyer_lever_pull.xml) up.
#pragma once

#include "envs/metaworld/articulated_common.h"

namespace envpool_lite {
namespace metaworld {

class LeverPullEnv : public SawyerEnv {
 public:
  static TaskSpec Task() {
    TaskSpec t;
    t.model = "sawyer_xyz/sawyer_lever_pull.xml";
    t.hand_low = {-0.5, 0.40, -0.15};
    t.hand_high = {0.5, 1, 0.5};
    t.reset_low = {-0.1, 0.7, 0.0};
    t.reset_high = {0.1, 0.8, 0.0};
    t.goal_low = t.hand_low;
    t.goal_high = t.hand_high;
    return t;
  }
  static Config DefaultConfig() { return BaseConfig(Task().model); }
  static EnvSpec MakeSpec(const Config& config) {
    return BaseSpec(config, Task());
  }

  LeverPullEnv(const Config& config, uint64_t seed)
      : SawyerEnv(config, seed, Task()),
        lever_(Id(mjOBJ_BODY, "lever")),
        obj_geom_(Id(mjOBJ_GEOM, "objGeom")),
        goal_site_(Id(mjOBJ_SITE, "goal")),
        lever_start_(Id(mjOBJ_SITE, "leverStart")),
        axis_qpos_adr_(m()->jnt_qposadr[Id(mjOBJ_JOINT, "LeverAxis")]) {
    hand_init_pos_ = articulated::F32(0, 0.4, 0.2);
    Init(seed);
  }

 protected:
  static constexpr double kLeverRadius = 0.2;

  void ResetModel() override {
    ResetHand();
    const std::vector<double>& v = StateRandVec();
    obj_init_pos_ = {v[0], v[1], v[2]};
    std::copy(obj_init_pos_.begin(), obj_init_pos_.end(),
              m()->body_pos + 3 * lever_);
    lever_pos_init_ =
        articulated::Add(obj_init_pos_, {0.12, -kLeverRadius, 0.25});
    target_pos_ =
        articulated::Add(obj_init_pos_, {0.12, 0.0, 0.25 + kLeverRadius});
    std::copy(target_pos_.begin(), target_pos_.end(),
              m()->site_pos + 3 * goal_site_);
    max_pull_dist_ = Norm3(target_pos_, obj_init_pos_);
  }

  void ObjectsPosQuat(std::vector<double>* out) override {
    const Vec3 p = SitePos(lever_start_);
    out->insert(out->end(), p.begin(), p.end());
    const std::array<double, 4> q =
        MatrixToQuat(d()->geom_xmat + 9 * obj_geom_);
    out->insert(out->end(), q.begin(), q.end());
  }

  double EvaluateState(const double* obs, const float* action,
                       Info* info) override {
    (void)action;
    constexpr double kPi = 3.141592653589793;
    double reward, shoulder_to_lever = 0, ready_to_lift = 0, lever_error,
                   lever_engagement = 0;
    if (v2_) {
      using articulated::Add;
      using articulated::Mul;
      using articulated::Sub;
      const Vec3 gripper = articulated::At(obs);
      const Vec3 lever = articulated::At(obs + 4);
      const Vec3 scale = {4.0, 1.0, 4.0};
      const Vec3 offset = {0.0, 0.055, 0.07};
      const Vec3 stl = Mul(Sub(Add(gripper, offset), lever), scale);
      const Vec3 stl_init =
          Mul(Sub(Add(init_tcp_, offset), lever_pos_init_), scale);
      shoulder_to_lever = Norm(stl.data(), 3);
      ready_to_lift = Tolerance(np_, shoulder_to_lever, 0, 0.02,
                                Norm(stl_init.data(), 3), Sigmoid::kLongTail);
      const double lever_angle = -d()->qpos[axis_qpos_adr_];
      const double lever_angle_desired = kPi / 2.0;
      lever_error = std::abs(lever_angle - lever_angle_desired);
      lever_engagement =
          Tolerance(np_, lever_error, 0, kPi / 48.0, (kPi / 2.0) - (kPi / 12.0),
                    Sigmoid::kLongTail);
      const double obj_to_target = Norm3(lever, target_pos_);
      const double in_place_margin = Norm3(lever_pos_init_, target_pos_);
      const double in_place = Tolerance(np_, obj_to_target, 0, 0.04,
                                        in_place_margin, Sigmoid::kLongTail);
      reward = 10.0 * HamacherProduct(ready_to_lift, in_place);
    } else {
      const Vec3 obj = articulated::At(obs + 4);
      const double pull_dist = Norm3(obj, target_pos_);
      const double reach_dist = Norm3(obj, TcpCenter());
      const double pull_rew =
          reach_dist < 0.05 ? articulated::V1Pull(np_, max_pull_dist_,
                                                  pull_dist, 0.01, 0.001, true)
                            : 0.0;
      reward = -reach_dist + pull_rew;
      lever_error = pull_dist;
    }
    info->success = lever_error <= kPi / 24 ? 1.0 : 0.0;
    info->near_object = shoulder_to_lever < 0.03 ? 1.0 : 0.0;
    info->grasp_success = ready_to_lift > 0.9 ? 1.0 : 0.0;
    info->grasp_reward = ready_to_lift;
    info->in_place_reward = lever_engagement;
    info->obj_to_target = shoulder_to_lever;
    info->unscaled_reward = reward;
    return reward;
  }

 private:
  // get_state / set_state: what reset_model sets, after the base's.
  ENVPOOL_LITE_STATE_AFTER(SawyerEnv, lever_pos_init_, max_pull_dist_)

  int lever_, obj_geom_, goal_site_, lever_start_, axis_qpos_adr_;
  Vec3 lever_pos_init_{};
  double max_pull_dist_ = 0;
};

}  // namespace metaworld
}  // namespace envpool_lite
