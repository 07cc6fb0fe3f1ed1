// bin-picking-v3: metaworld 3.1.1's envs/sawyer_bin_picking_v3.py
// (SawyerBinPickingEnvV3): move a block from one bin into the other.
#pragma once

#include "envs/metaworld/pick_place.h"

namespace envpool_lite {
namespace metaworld {

class BinPickingV3Env : public PickBaseEnv {
 public:
  static TaskSpec Task() {
    TaskSpec t;
    t.model = "sawyer_xyz/sawyer_bin_picking.xml";
    t.hand_low = {-0.5, 0.40, 0.07};
    t.hand_high = {0.5, 1, 0.5};
    t.reset_low = {-0.21, 0.65, 0.02, 0.1199, 0.699, -0.001};
    t.reset_high = {-0.03, 0.75, 0.02, 0.1201, 0.701, 0.001};
    t.goal_low = {0.1199, 0.699, -0.001};
    t.goal_high = {0.1201, 0.701, 0.001};
    return t;
  }
  static Config DefaultConfig() { return BaseConfig(Task().model); }
  static EnvSpec MakeSpec(const Config& config) {
    return BaseSpec(config, Task());
  }

  BinPickingV3Env(const Config& config, uint64_t seed)
      : PickBaseEnv(config, seed, Task(), false),
        bin_goal_(Id(mjOBJ_BODY, "bin_goal")) {
    hand_init_pos_ = {0.0, 0.6, 0.2};
    Init(seed);
  }

 protected:
  // reset_model draws one rand_vec (the default DrawRandVec).
  void ResetModel() override {
    ResetHand();
    const double obj_height = BodyCom(obj_)[2];
    const std::vector<double>& v = StateRandVec();
    obj_init_pos_ = {v[0], v[1], obj_height};
    SetObjXyz(obj_init_pos_);
    // _target_pos: get_body_com("bin_goal"), a view of a fixed body's xpos.
    target_pos_ = BodyCom(bin_goal_);
    has_target_to_obj_init_ = false;
    obj_height_ = BodyCom(obj_)[2];
    height_target_ = obj_height_ + 0.1;
    const double xy[2] = {obj_init_pos_[0] - target_pos_[0],
                          obj_init_pos_[1] - target_pos_[1]};
    max_placing_dist_ = Norm(xy, 2) + height_target_;
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
    if (!v2_) return RewardV1(obj, action, info);
    const Vec3 hand = {obs[0], obs[1], obs[2]};
    const double target_to_obj = Norm3(obj, target_pos_);
    if (!has_target_to_obj_init_) {
      target_to_obj_init_ = target_to_obj;
      has_target_to_obj_init_ = true;
    }
    const double in_place = Tolerance(np_, target_to_obj, 0, 0.05,
                                      target_to_obj_init_, Sigmoid::kLongTail);
    const double threshold = 0.03;
    const double r0[2] = {hand[0] - obj_init_pos_[0],
                          hand[1] - obj_init_pos_[1]};
    const double r1[2] = {hand[0] - target_pos_[0], hand[1] - target_pos_[1]};
    const double radii[2] = {Norm(r0, 2), Norm(r1, 2)};
    double floors[2];
    for (int i = 0; i < 2; ++i) {
      floors[i] = radii[i] > threshold
                      ? 0.02 * np_.Log(radii[i] - threshold) + 0.2
                      : 0.0;
    }
    // min([a, b]): b only when b < a.
    const double floor = floors[1] < floors[0] ? floors[1] : floors[0];
    const double above_floor =
        hand[2] >= floor ? 1.0
                         : Tolerance(np_, std::max(floor - hand[2], 0.0), 0.0,
                                     0.01, 0.05, Sigmoid::kLongTail);
    const PyFloat object_grasped =
        GripperCagingRewardPy(action, obj, 0.015, 0.05, 0.01, 0.01, 0.7, true);
    PyFloat reward = HamacherProduct(object_grasped, PyFloat(in_place));
    const bool near_object = Norm3(obj, hand) < 0.04;
    const bool pinched_without_obj = obs[3] < 0.43;
    const bool lifted = obj[2] - 0.02 > obj_init_pos_[2];
    const bool grasp_success = near_object && lifted && !pinched_without_obj;
    if (grasp_success) {
      reward =
          reward + PyFloat(1.0 + 5.0 * HamacherProduct(above_floor, in_place));
    }
    if (target_to_obj < 0.05) reward = PyFloat(10.0);
    info->success = target_to_obj <= 0.05 ? 1.0 : 0.0;
    info->near_object = near_object ? 1.0 : 0.0;
    info->grasp_success = grasp_success ? 1.0 : 0.0;
    info->grasp_reward = object_grasped.v;
    info->in_place_reward = in_place;
    info->obj_to_target = target_to_obj;
    info->unscaled_reward = reward.v;
    return reward.v;
  }

  // compute_reward v1.
  double RewardV1(const Vec3& obj, const float* action, Info* info) const {
    const Vec3 finger = FingerCom();
    const Vec3& goal = target_pos_;
    const double reach_dist = Norm3(obj, finger);
    const double pxy[2] = {obj[0] - goal[0], obj[1] - goal[1]};
    const double placing_dist = Norm(pxy, 2);
    const double rxy[2] = {obj[0] - finger[0], obj[1] - finger[1]};
    const double reach_dist_xy = Norm(rxy, 2);
    const double dz = finger[2] - init_tcp_[2];
    const double z_rew = Norm(&dz, 1);
    double reach_rew =
        reach_dist_xy < 0.06 ? -reach_dist : -reach_dist_xy - z_rew;
    const float a = action[3];
    if (reach_dist < 0.05) {
      const double grip = a < 0 ? 0.0 : static_cast<double>(a / 50.0f);
      reach_rew = -reach_dist + grip;
    }
    const bool pick_completed = obj[2] >= height_target_ - 0.01;
    const bool obj_dropped = obj[2] < obj_height_ + 0.005 &&
                             placing_dist > 0.02 && reach_dist > 0.02;
    const bool near_goal_xy =
        std::abs(obj[0] - goal[0]) < 0.05 && std::abs(obj[1] - goal[1]) < 0.05;
    const bool place_completed = near_goal_xy && obj[2] < obj_height_ + 0.05;
    double pick_rew = 0;
    if (place_completed || (pick_completed && !obj_dropped)) {
      pick_rew = 100 * height_target_;
    } else if (reach_dist < 0.1 && obj[2] > obj_height_ + 0.005) {
      pick_rew = 100 * std::min(height_target_, obj[2]);
    }
    const double pd2 = ScalarSquare(placing_dist);
    double place_rew = 1000 * (max_placing_dist_ - placing_dist) +
                       1000 * (np_.Exp(-pd2 / 0.01) + np_.Exp(-pd2 / 0.001));
    place_rew = std::max(place_rew, 0.0);
    // -200 * action[-1]: a float32.
    const double release = static_cast<double>(-200.0f * a);
    double reward;
    if (place_completed) {
      reward = release + place_rew;
    } else {
      const bool cond = pick_completed && reach_dist < 0.1 && !obj_dropped;
      if (cond) {
        if (near_goal_xy) place_rew = release + place_rew;
      } else {
        place_rew = 0;
      }
      reward = reach_rew + pick_rew + place_rew;
    }
    info->success = placing_dist <= 0.05 ? 1.0 : 0.0;
    info->near_object = 0.0;
    info->grasp_success = 0.0;
    info->grasp_reward = 0.0;
    info->in_place_reward = 0.0;
    info->obj_to_target = placing_dist;
    info->unscaled_reward = reward;
    return reward;
  }

  // get_state / set_state: what reset_model sets, after the base's.
  ENVPOOL_LITE_STATE_AFTER(PickBaseEnv, has_target_to_obj_init_,
                           target_to_obj_init_)

  int bin_goal_;
  bool has_target_to_obj_init_ = false;
  double target_to_obj_init_ = 0;
};

}  // namespace metaworld
}  // namespace envpool_lite
