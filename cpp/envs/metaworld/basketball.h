// basketball-v3: metaworld 3.1.1's envs/sawyer_basketball_v3.py
// (SawyerBasketballEnvV3): pick up the ball and put it through the hoop.
//
// Its _target_pos is a view of the goal site's data.site_xpos (not a copy):
// reset_model moves the hoop, then writes the site's world position into
// its model position (relative to the hoop), so the goal the observation
// and the reward read is wherever MuJoCo's kinematics last put the site.
#pragma once

#include "envs/metaworld/tools_common.h"

namespace envpool_lite {
namespace metaworld {

class BasketballEnv : public ToolsEnv {
 public:
  static constexpr double kTargetRadius = 0.08;

  static TaskSpec Task() {
    TaskSpec t;
    t.model = "sawyer_xyz/sawyer_basketball.xml";
    t.hand_low = {-0.5, 0.40, 0.05};
    t.hand_high = {0.5, 1, 0.5};
    t.reset_low = {-0.1, 0.6, 0.0299, -0.1, 0.85, 0.0};
    t.reset_high = {0.1, 0.7, 0.0301, 0.1, 0.9 + 1e-7, 0.0};
    t.goal_low = {-0.1 + 0, 0.85 + -0.083, 0.0 + 0.2499};
    t.goal_high = {0.1 + 0, (0.9 + 1e-7) + -0.083, 0.0 + 0.2501};
    t.apart = 0.15;
    return t;
  }
  static Config DefaultConfig() { return BaseConfig(Task().model); }
  static EnvSpec MakeSpec(const Config& config) {
    return BaseSpec(config, Task());
  }

  BasketballEnv(const Config& config, uint64_t seed)
      : ToolsEnv(config, seed, Task()),
        ball_(Id(mjOBJ_BODY, "bsktball")),
        basket_(Id(mjOBJ_BODY, "basket_goal")),
        goal_site_(Id(mjOBJ_SITE, "goal")),
        obj_geom_(Id(mjOBJ_GEOM, "objGeom")) {
    // hand_init_pos: float32 (0, 0.6, 0.2)
    hand_init_pos_ = {0.0, static_cast<double>(0.6f),
                      static_cast<double>(0.2f)};
    Init(seed);
  }

 protected:
  void ResetModel() override {
    ResetHand();
    const std::vector<double>& v = FrozenApart(0.15, "basketball-v3");
    // obj_init_pos[-1]: the init_config's float32 0.03, kept.
    obj_init_pos_ = {v[0], v[1], static_cast<double>(0.03f)};
    std::copy(v.begin() + 3, v.begin() + 6, m()->body_pos + 3 * basket_);
    SetObjXyz(obj_init_pos_);
    target_pos_ = SitePos(goal_site_);
    std::copy(target_pos_.begin(), target_pos_.end(),
              m()->site_pos + 3 * goal_site_);
    obj_height_ = d()->geom_xpos[3 * obj_geom_ + 2];
    height_target_ = obj_height_ + 0.3;  // liftThresh
    const Vec3 lifted = {obj_init_pos_[0], obj_init_pos_[1], height_target_};
    max_placing_dist_ = Norm3(lifted, target_pos_) + height_target_;
  }

  void ObjectsPosQuat(std::vector<double>* out) override {
    // _target_pos, the live view, as _get_obs reads it.
    target_pos_ = SitePos(goal_site_);
    const double* p = d()->xpos + 3 * ball_;
    out->insert(out->end(), p, p + 3);
    const double* q = d()->xquat + 4 * ball_;
    out->insert(out->end(), q, q + 4);
  }

  double EvaluateState(const double* obs, const float* action,
                       Info* info) override {
    target_pos_ = SitePos(goal_site_);
    if (!v2_) return EvaluateV1(obs, action, info);
    const Vec3 obj = tools::At(obs + 4);
    Vec3 target = target_pos_;
    target[2] = 0.3;
    const Vec3 err = tools::Sub(obj, target);
    const double scaled[3] = {err[0] * 1.0, err[1] * 1.0, err[2] * 2.0};
    const double target_to_obj = Norm(scaled, 3);
    const Vec3 init_err = tools::Sub(obj_init_pos_, target);
    const double init_scaled[3] = {init_err[0] * 1.0, init_err[1] * 1.0,
                                   init_err[2] * 2.0};
    const double target_to_obj_init = Norm(init_scaled, 3);
    const double in_place = Tolerance(np_, target_to_obj, 0, kTargetRadius,
                                      target_to_obj_init, Sigmoid::kLongTail);
    const double tcp_opened = obs[3];
    const double tcp_to_obj = Norm3(obj, TcpCenter());
    PyFloat object_grasped = GripperCagingRewardPy(
        action, obj, 0.025, 0.06, 0.01, 0.005, 1.0, true, false);
    const bool lifted = tcp_to_obj < 0.035 && tcp_opened > 0 &&
                        obj[2] - 0.01 > obj_init_pos_[2];
    if (lifted) object_grasped = PyFloat(1.0);
    PyFloat reward = HamacherProduct(object_grasped, PyFloat(in_place));
    if (lifted) reward = reward + (PyFloat(1.0) + PyFloat(5.0 * in_place));
    if (target_to_obj < kTargetRadius) reward = PyFloat(10.0);
    info->success = target_to_obj <= kTargetRadius ? 1.0 : 0.0;
    info->near_object = tcp_to_obj <= 0.05 ? 1.0 : 0.0;
    info->grasp_success =
        (tcp_opened > 0 && obj[2] - 0.03 > obj_init_pos_[2]) ? 1.0 : 0.0;
    info->grasp_reward = object_grasped.v;
    info->in_place_reward = in_place;
    info->obj_to_target = target_to_obj;
    info->unscaled_reward = reward.v;
    return reward.v;
  }

 private:
  double EvaluateV1(const double* obs, const float* action, Info* info) {
    const Vec3 obj = tools::At(obs + 4);
    const Vec3 finger = TcpCenter();
    const Vec3& goal = target_pos_;
    const double reach_dist = Norm3(obj, finger);
    const double placing_dist = Norm3(obj, goal);
    const double reach_dist_xy = NormXy(obj, finger);
    const double z_rew = Norm1(finger[2] - init_tcp_[2]);
    const double reach_rew =
        V1Reach(reach_dist, reach_dist_xy, z_rew, 2.0, 0.05, 0.05, action[3]);
    const bool pick_completed = obj[2] >= height_target_ - 0.01;
    const bool obj_dropped = obj[2] < obj_height_ + 0.005 &&
                             placing_dist > 0.02 && reach_dist > 0.02;
    double pick_rew = 0;
    if (pick_completed && !obj_dropped) {
      pick_rew = 100 * height_target_;
    } else if (reach_dist < 0.1 && obj[2] > obj_height_ + 0.005) {
      pick_rew = 100 * std::min(height_target_, obj[2]);
    }
    double place_rew = 0;
    if (pick_completed && reach_dist < 0.1 && !obj_dropped) {
      place_rew = tools::PlaceReward(np_, max_placing_dist_, placing_dist);
      place_rew = std::max(place_rew, 0.0);
    }
    const double reward = reach_rew + pick_rew + place_rew;
    info->success = placing_dist <= kTargetRadius ? 1.0 : 0.0;
    info->near_object = 1.0;  // float(0.0 <= 0.05)
    info->grasp_success = 0.0;
    info->grasp_reward = 0.0;
    info->in_place_reward = 0.0;
    info->obj_to_target = placing_dist;
    info->unscaled_reward = reward;
    return reward;
  }

  // get_state / set_state: what reset_model sets, after the base's.
  ENVPOOL_LITE_STATE_AFTER(ToolsEnv, obj_height_, height_target_,
                           max_placing_dist_)

  int ball_, basket_, goal_site_, obj_geom_;
  double obj_height_ = 0, height_target_ = 0, max_placing_dist_ = 0;
};

}  // namespace metaworld
}  // namespace envpool_lite
