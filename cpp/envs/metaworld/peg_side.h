// peg-insert-side-v3 and peg-unplug-side-v3: metaworld 3.1.1's
// envs/sawyer_peg_insertion_side_v3.py (SawyerPegInsertionSideEnvV3) and
// sawyer_peg_unplug_side_v3.py (SawyerPegUnplugSideEnvV3): insert the peg
// sideways into the box's hole, or pull the plug out of it.
#pragma once

#include "envs/metaworld/tools_common.h"

namespace envpool_lite {
namespace metaworld {

class PegInsertSideEnv : public ToolsEnv {
 public:
  static constexpr double kTargetRadius = 0.07;

  static TaskSpec Task() {
    TaskSpec t;
    t.model = "sawyer_xyz/sawyer_peg_insertion_side.xml";
    t.hand_low = {-0.5, 0.40, 0.05};
    t.hand_high = {0.5, 1, 0.5};
    t.reset_low = {0.0, 0.5, 0.02, -0.35, 0.4, -0.001};
    t.reset_high = {0.2, 0.7, 0.02, -0.25, 0.7, 0.001};
    t.goal_low = {-0.35 + 0.03, 0.4 + 0.0, -0.001 + 0.13};
    t.goal_high = {-0.25 + 0.03, 0.7 + 0.0, 0.001 + 0.13};
    t.apart = 0.1;
    return t;
  }
  static Config DefaultConfig() { return BaseConfig(Task().model); }
  static EnvSpec MakeSpec(const Config& config) {
    return BaseSpec(config, Task());
  }

  PegInsertSideEnv(const Config& config, uint64_t seed)
      : ToolsEnv(config, seed, Task()),
        peg_grasp_site_(Id(mjOBJ_SITE, "pegGrasp")),
        peg_head_site_(Id(mjOBJ_SITE, "pegHead")),
        peg_(Id(mjOBJ_BODY, "peg")),
        box_(Id(mjOBJ_BODY, "box")),
        goal_site_(Id(mjOBJ_SITE, "goal")),
        brc1_(Id(mjOBJ_SITE, "bottom_right_corner_collision_box_1")),
        tlc1_(Id(mjOBJ_SITE, "top_left_corner_collision_box_1")),
        brc2_(Id(mjOBJ_SITE, "bottom_right_corner_collision_box_2")),
        tlc2_(Id(mjOBJ_SITE, "top_left_corner_collision_box_2")) {
    hand_init_pos_ = {0, 0.6, 0.2};
    Init(seed);
  }

 protected:
  void ResetModel() override {
    ResetHand();
    const std::vector<double>& v = FrozenApart(0.1, "peg-insert-side-v3");
    const Vec3 pos_peg = {v[0], v[1], v[2]};
    const Vec3 pos_box = {v[3], v[4], v[5]};
    obj_init_pos_ = pos_peg;
    peg_head_pos_init_ = SitePos(peg_head_site_);
    SetObjXyz(obj_init_pos_);
    std::copy(pos_box.begin(), pos_box.end(), m()->body_pos + 3 * box_);
    target_pos_ = tools::Add(pos_box, {0.03, 0.0, 0.13});
    std::copy(target_pos_.begin(), target_pos_.end(),
              m()->site_pos + 3 * goal_site_);
    obj_height_ = d()->xpos[3 * peg_ + 2];
    height_target_ = obj_height_ + 0.11;  // liftThresh
    const Vec3 lifted = {obj_init_pos_[0], obj_init_pos_[1], height_target_};
    max_placing_dist_ = Norm3(lifted, target_pos_) + height_target_;
  }

  void ObjectsPosQuat(std::vector<double>* out) override {
    const Vec3 pos = SitePos(peg_grasp_site_);
    out->insert(out->end(), pos.begin(), pos.end());
    const std::array<double, 4> q =
        MatrixToQuat(d()->site_xmat + 9 * peg_grasp_site_);
    out->insert(out->end(), q.begin(), q.end());
  }

  double EvaluateState(const double* obs, const float* action,
                       Info* info) override {
    if (!v2_) return EvaluateV1(obs, action, info);
    const Vec3 tcp = TcpCenter();
    const Vec3 obj = tools::At(obs + 4);
    const Vec3 obj_head = SitePos(peg_head_site_);
    const double tcp_opened = obs[3];
    const Vec3& target = target_pos_;
    const double tcp_to_obj = Norm3(obj, tcp);
    const Vec3 head_err = tools::Sub(obj_head, target);
    const double scaled[3] = {head_err[0] * 1.0, head_err[1] * 2.0,
                              head_err[2] * 2.0};
    const double obj_to_target = Norm(scaled, 3);
    const Vec3 init_err = tools::Sub(peg_head_pos_init_, target);
    const double init_scaled[3] = {init_err[0] * 1.0, init_err[1] * 2.0,
                                   init_err[2] * 2.0};
    const double in_place_margin = Norm(init_scaled, 3);
    const double in_place_tol = Tolerance(np_, obj_to_target, 0, kTargetRadius,
                                          in_place_margin, Sigmoid::kLongTail);
    const PyFloat box1 =
        RectPrismTolerance(obj_head, SitePos(tlc1_), SitePos(brc1_));
    const PyFloat box2 =
        RectPrismTolerance(obj_head, SitePos(tlc2_), SitePos(brc2_));
    const PyFloat collision_boxes = HamacherProduct(box2, box1);
    const PyFloat in_place =
        HamacherProduct(PyFloat(in_place_tol), collision_boxes);
    PyFloat object_grasped = GripperCagingRewardPy(
        action, obj, 0.0075, 0.03, 0.01, 0.005, 1.0, true, false);
    const bool lifted =
        tcp_to_obj < 0.08 && tcp_opened > 0 && obj[2] - 0.01 > obj_init_pos_[2];
    if (lifted) object_grasped = PyFloat(1.0);
    PyFloat reward = HamacherProduct(object_grasped, in_place);
    if (lifted) reward = reward + (PyFloat(1.0) + PyFloat(5.0) * in_place);
    if (obj_to_target <= 0.07) reward = PyFloat(10.0);
    const bool grasp_success =
        tcp_to_obj < 0.02 && tcp_opened > 0 && obj[2] - 0.01 > obj_init_pos_[2];
    info->success = obj_to_target <= 0.07 ? 1.0 : 0.0;
    info->near_object = tcp_to_obj <= 0.03 ? 1.0 : 0.0;
    info->grasp_success = grasp_success ? 1.0 : 0.0;
    info->grasp_reward = object_grasped.v;
    info->in_place_reward = in_place.v;
    info->obj_to_target = obj_to_target;
    info->unscaled_reward = reward.v;
    return reward.v;
  }

 private:
  // reward_utils.rect_prism_tolerance(curr, zero, one): the product of the
  // three scales (an np.float64) inside the prism, else 1.0.
  static PyFloat RectPrismTolerance(const Vec3& curr, const Vec3& one,
                                    const Vec3& zero) {
    auto in_range = [](double a, double b, double c) {
      return c >= b ? (b <= a && a <= c) : (c <= a && a <= b);
    };
    const bool in_prism = in_range(curr[0], zero[0], one[0]) &&
                          in_range(curr[1], zero[1], one[1]) &&
                          in_range(curr[2], zero[2], one[2]);
    if (!in_prism) return PyFloat(1.0);
    const Vec3 diff = tools::Sub(one, zero);
    const double x_scale = (curr[0] - zero[0]) / diff[0];
    const double y_scale = (curr[1] - zero[1]) / diff[1];
    const double z_scale = (curr[2] - zero[2]) / diff[2];
    return PyFloat::F64(x_scale * y_scale * z_scale);
  }

  double EvaluateV1(const double* obs, const float* action, Info* info) {
    const Vec3 obj = tools::At(obs + 4);
    const Vec3 peg_head = SitePos(peg_head_site_);
    const Vec3 finger = TcpCenter();
    const Vec3& goal = target_pos_;
    const double reach_dist = Norm3(obj, finger);
    const double placing_dist_head = Norm3(peg_head, goal);
    const double placing_dist = Norm3(obj, goal);
    const double reach_dist_xy = NormXy(obj, finger);
    const double z_rew = Norm1(finger[2] - init_tcp_[2]);
    const double reach_rew =
        V1Reach(reach_dist, reach_dist_xy, z_rew, 1.0, 0.05, 0.05, action[3]);
    const bool pick_completed = obj[2] >= height_target_ - 0.01;
    const bool obj_dropped = obj[2] < obj_height_ + 0.005 &&
                             placing_dist > 0.02 && reach_dist > 0.02;
    double pick_rew = 0;
    if (pick_completed && !obj_dropped) {
      pick_rew = 100 * height_target_;
    } else if (reach_dist < 0.1 && obj[2] > obj_height_ + 0.005) {
      pick_rew = 100 * std::min(height_target_, obj[2]);
    }
    const bool cond = pick_completed && reach_dist < 0.1 && !obj_dropped;
    double place_rew = 0;
    if (cond) {
      place_rew =
          placing_dist_head <= 0.05
              ? tools::PlaceReward(np_, max_placing_dist_, placing_dist)
              : tools::PlaceReward(np_, max_placing_dist_, placing_dist_head);
      place_rew = std::max(place_rew, 0.0);
    }
    const double reward = reach_rew + pick_rew + place_rew;
    info->success = placing_dist <= 0.07 ? 1.0 : 0.0;
    info->near_object = 1.0;  // float(0.0 <= 0.03)
    info->grasp_success = 0.0;
    info->grasp_reward = 0.0;
    info->in_place_reward = 0.0;
    info->obj_to_target = placing_dist;
    info->unscaled_reward = reward;
    return reward;
  }

  // get_state / set_state: what reset_model sets, after the base's.
  ENVPOOL_LITE_STATE_AFTER(ToolsEnv, peg_head_pos_init_, obj_height_,
                           height_target_, max_placing_dist_)

  int peg_grasp_site_, peg_head_site_, peg_, box_, goal_site_, brc1_, tlc1_,
      brc2_, tlc2_;
  Vec3 peg_head_pos_init_{};
  double obj_height_ = 0, height_target_ = 0, max_placing_dist_ = 0;
};

class PegUnplugSideEnv : public ToolsEnv {
 public:
  static TaskSpec Task() {
    TaskSpec t;
    t.model = "sawyer_xyz/sawyer_peg_unplug_side.xml";
    t.hand_low = {-0.5, 0.40, 0.05};
    t.hand_high = {0.5, 1, 0.5};
    t.reset_low = {-0.25, 0.6, -0.001};
    t.reset_high = {-0.15, 0.8, 0.001};
    t.goal_low = {-0.25 + 0.194, 0.6 + 0.0, -0.001 + 0.131};
    t.goal_high = {-0.15 + 0.194, 0.8 + 0.0, 0.001 + 0.131};
    return t;
  }
  static Config DefaultConfig() { return BaseConfig(Task().model); }
  static EnvSpec MakeSpec(const Config& config) {
    return BaseSpec(config, Task());
  }

  PegUnplugSideEnv(const Config& config, uint64_t seed)
      : ToolsEnv(config, seed, Task()),
        peg_end_site_(Id(mjOBJ_SITE, "pegEnd")),
        plug_(Id(mjOBJ_BODY, "plug1")),
        box_(Id(mjOBJ_BODY, "box")),
        goal_site_(Id(mjOBJ_SITE, "goal")) {
    hand_init_pos_ = {0, 0.6, 0.2};
    Init(seed);
  }

 protected:
  void ResetModel() override {
    ResetHand();
    const std::vector<double>& v = StateRandVec();
    const Vec3 pos_box = {v[0], v[1], v[2]};
    std::copy(pos_box.begin(), pos_box.end(), m()->body_pos + 3 * box_);
    const Vec3 pos_plug = tools::Add(pos_box, {0.044, 0.0, 0.131});
    // _set_obj_xyz: the plug's position, its quaternion upright, its linear
    // velocity zero.
    std::vector<double> qpos(d()->qpos, d()->qpos + m()->nq);
    std::vector<double> qvel(d()->qvel, d()->qvel + m()->nv);
    for (int i = 0; i < 3; ++i) qpos[9 + i] = pos_plug[i];
    const double quat[4] = {1.0, 0.0, 0.0, 0.0};
    std::copy(quat, quat + 4, qpos.begin() + 12);
    for (int i = 9; i < 12; ++i) qvel[i] = 0;
    SetState(qpos, qvel);
    obj_init_pos_ = SitePos(peg_end_site_);
    target_pos_ = tools::Add(pos_plug, {0.15, 0.0, 0.0});
    std::copy(target_pos_.begin(), target_pos_.end(),
              m()->site_pos + 3 * goal_site_);
    max_placing_dist_ = Norm3(target_pos_, obj_init_pos_);
  }

  void ObjectsPosQuat(std::vector<double>* out) override {
    const Vec3 pos = SitePos(peg_end_site_);
    out->insert(out->end(), pos.begin(), pos.end());
    const double* q = d()->xquat + 4 * plug_;
    out->insert(out->end(), q, q + 4);
  }

  double EvaluateState(const double* obs, const float* action,
                       Info* info) override {
    if (!v2_) return EvaluateV1(obs, action, info);
    const Vec3 tcp = TcpCenter();
    const Vec3 obj = tools::At(obs + 4);
    const double tcp_opened = obs[3];
    const Vec3& target = target_pos_;
    const double tcp_to_obj = Norm3(obj, tcp);
    const double obj_to_target = Norm3(obj, target);
    const PyFloat object_grasped = GripperCagingRewardPy(
        action, obj, 0.025, 0.05, 0.01, 0.005, 0.8, true, false);
    const double in_place_margin = Norm3(obj_init_pos_, target);
    const double in_place = Tolerance(np_, obj_to_target, 0, 0.05,
                                      in_place_margin, Sigmoid::kLongTail);
    const bool grasp_success =
        tcp_opened > 0.5 && (obj[0] - obj_init_pos_[0] > 0.015);
    PyFloat reward = PyFloat(2.0) * object_grasped;
    if (grasp_success && tcp_to_obj < 0.035) {
      reward = PyFloat(1.0) + PyFloat(2.0) * object_grasped +
               PyFloat(5.0) * PyFloat(in_place);
    }
    if (obj_to_target <= 0.05) reward = PyFloat(10.0);
    info->success = obj_to_target <= 0.07 ? 1.0 : 0.0;
    info->near_object = tcp_to_obj <= 0.03 ? 1.0 : 0.0;
    info->grasp_success = grasp_success ? 1.0 : 0.0;
    info->grasp_reward = object_grasped.v;
    info->in_place_reward = in_place;
    info->obj_to_target = obj_to_target;
    info->unscaled_reward = reward.v;
    return reward.v;
  }

 private:
  double EvaluateV1(const double* obs, const float* action, Info* info) {
    const Vec3 obj = tools::At(obs + 4);
    const Vec3 finger = TcpCenter();
    const Vec3& goal = target_pos_;
    const double reach_dist = Norm3(obj, finger);
    const double placing_dist = NormXy(obj, goal);
    const double reach_dist_xy = NormXy(obj, finger);
    const double z_rew = Norm1(finger[2] - hand_init_pos_[2]);
    const double reach_rew =
        V1Reach(reach_dist, reach_dist_xy, z_rew, 2.0, 0.05, 0.05, action[3]);
    double place_rew = 0;
    if (reach_dist < 0.05) {
      place_rew = tools::PlaceReward(np_, max_placing_dist_, placing_dist);
      place_rew = std::max(place_rew, 0.0);
    }
    const double reward = reach_rew + place_rew;
    info->success = placing_dist <= 0.07 ? 1.0 : 0.0;
    info->near_object = 1.0;  // float(0.0 <= 0.03)
    info->grasp_success = 0.0;
    info->grasp_reward = 0.0;
    info->in_place_reward = 0.0;
    info->obj_to_target = placing_dist;
    info->unscaled_reward = reward;
    return reward;
  }

  // get_state / set_state: what reset_model sets, after the base's.
  ENVPOOL_LITE_STATE_AFTER(ToolsEnv, max_placing_dist_)

  int peg_end_site_, plug_, box_, goal_site_;
  double max_placing_dist_ = 0;
};

}  // namespace metaworld
}  // namespace envpool_lite
