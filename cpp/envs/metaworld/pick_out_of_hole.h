// pick-out-of-hole-v3: metaworld 3.1.1's envs/sawyer_pick_out_of_hole_v3.py
// (SawyerPickOutOfHoleEnvV3): lift a puck out of a hole in the table to a
// goal in the air.
#pragma once

#include "envs/metaworld/pick_place.h"

namespace envpool_lite {
namespace metaworld {

class PickOutOfHoleV3Env : public PickBaseEnv {
 public:
  static TaskSpec Task() {
    TaskSpec t;
    t.model = "sawyer_xyz/sawyer_pick_out_of_hole.xml";
    t.hand_low = {-0.5, 0.40, -0.05};
    t.hand_high = {0.5, 1, 0.5};
    t.reset_low = {0, 0.75, 0.02, -0.1, 0.5, 0.15};
    t.reset_high = {0, 0.75, 0.02, 0.1, 0.6, 0.3};
    t.goal_low = {-0.1, 0.5, 0.15};
    t.goal_high = {0.1, 0.6, 0.3};
    t.apart = 0.15;
    return t;
  }
  static Config DefaultConfig() { return BaseConfig(Task().model); }
  static EnvSpec MakeSpec(const Config& config) {
    return BaseSpec(config, Task());
  }

  PickOutOfHoleV3Env(const Config& config, uint64_t seed)
      : PickBaseEnv(config, seed, Task()) {
    hand_init_pos_ = {0.0, 0.6, 0.2};
    Init(seed);
  }

 protected:
  void ResetModel() override {
    ResetHand();
    const std::vector<double>& v = StateRandVec();
    if (XyDistance(v) < 0.15) {
      throw std::runtime_error(
          "pick-out-of-hole-v3: a task's goal is too near");
    }
    obj_init_pos_ = {v[0], v[1], v[2]};
    SetObjXyz(obj_init_pos_);
    target_pos_ = {v[3], v[4], v[5]};
    std::copy(target_pos_.begin(), target_pos_.end(),
              m()->site_pos + 3 * goal_site_);
    SetHeights(0.11);
  }

  // get_body_com("obj"), data.body("obj").xquat
  void ObjectsPosQuat(std::vector<double>* out) override {
    const Vec3 pos = BodyCom(obj_);
    out->insert(out->end(), pos.begin(), pos.end());
    const double* q = d()->xquat + 4 * obj_;
    out->insert(out->end(), q, q + 4);
  }

  double EvaluateState(const double* obs, const float* action,
                       Info* info) override {
    const Vec3 obj = {obs[4], obs[5], obs[6]};
    if (!v2_) {
      const Vec3 finger = FingerCom();
      const double placing_dist = Norm3(obj, target_pos_);
      double reach_dist;
      const double reach_rew =
          ReachRewardV1(obj, finger, action, 0.05, 2.0, &reach_dist);
      const bool pick_completed = obj[2] >= height_target_ - 0.01;
      const bool obj_dropped = obj[2] < obj_height_ + 0.005 &&
                               placing_dist > 0.02 && reach_dist > 0.02;
      double pick_rew = 0;
      if (pick_completed && !obj_dropped) {
        pick_rew = 100 * (height_target_ - obj_height_ + 0.02);
      } else if (reach_dist < 0.1 && obj[2] > obj_height_ + 0.005) {
        pick_rew =
            100 * (std::min(height_target_, obj[2]) - obj_height_ + 0.02);
      }
      double place_rew = 0;
      if (pick_completed && reach_dist < 0.1 && !obj_dropped) {
        place_rew = PlaceReward(placing_dist);
      }
      const double reward = reach_rew + pick_rew + place_rew;
      V1Info(reward, placing_dist, 0.07, info);
      return reward;
    }
    const Vec3 gripper = TcpCenter();
    const double obj_to_target = Norm3(obj, target_pos_);
    const double tcp_to_obj = Norm3(obj, gripper);
    const double in_place_margin = Norm3(obj_init_pos_, target_pos_);
    const double threshold = 0.03;
    const double xy[2] = {gripper[0] - obj_init_pos_[0],
                          gripper[1] - obj_init_pos_[1]};
    const double radius = Norm(xy, 2);
    const double floor =
        radius <= threshold ? 0.0 : 0.015 * np_.Log(radius - threshold) + 0.15;
    const double above_floor =
        gripper[2] >= floor ? 1.0
                            : Tolerance(np_, std::max(floor - gripper[2], 0.0),
                                        0.0, 0.01, 0.02, Sigmoid::kLongTail);
    const PyFloat object_grasped =
        GripperCagingRewardPy(action, obj, 0.015, 0.02, 0.01, 0.03, 0.1, true);
    const double in_place = Tolerance(np_, obj_to_target, 0, 0.02,
                                      in_place_margin, Sigmoid::kLongTail);
    PyFloat reward = HamacherProduct(object_grasped, PyFloat(in_place));
    const bool near_object = tcp_to_obj < 0.04;
    const bool pinched_without_obj = obs[3] < 0.33;
    const bool lifted = obj[2] - 0.02 > obj_init_pos_[2];
    const bool grasp_success = near_object && lifted && !pinched_without_obj;
    if (grasp_success) {
      reward =
          reward + PyFloat(1.0 + 5.0 * HamacherProduct(in_place, above_floor));
    }
    if (obj_to_target < 0.05) reward = PyFloat(10.0);
    info->success = obj_to_target <= 0.07 ? 1.0 : 0.0;
    info->near_object = tcp_to_obj <= 0.03 ? 1.0 : 0.0;
    info->grasp_success = grasp_success ? 1.0 : 0.0;
    info->grasp_reward = object_grasped.v;
    info->in_place_reward = in_place;
    info->obj_to_target = obj_to_target;
    info->unscaled_reward = reward.v;
    return reward.v;
  }
};

}  // namespace metaworld
}  // namespace envpool_lite
