// pick-place-v3, pick-place-wall-v3: metaworld 3.1.1's
// envs/sawyer_pick_place_v3.py (SawyerPickPlaceEnvV3) and
// sawyer_pick_place_wall_v3.py (SawyerPickPlaceWallEnvV3): pick a puck up
// and place it at a goal in the air (over a wall). PickBaseEnv also holds
// the v1 pick-and-place reward that shelf-place-v3 shares.
#pragma once

#include "envs/metaworld/sawyer_env.h"

namespace envpool_lite {
namespace metaworld {

class PickBaseEnv : public SawyerEnv {
 protected:
  // The puck's geom "objGeom" and the "goal" site, where the task has them
  // (bin-picking has neither).
  PickBaseEnv(const Config& config, uint64_t seed, TaskSpec task,
              bool has_geom_and_goal = true)
      : SawyerEnv(config, seed, std::move(task)),
        obj_(Id(mjOBJ_BODY, "obj")),
        obj_geom_(has_geom_and_goal ? Id(mjOBJ_GEOM, "objGeom") : -1),
        goal_site_(has_geom_and_goal ? Id(mjOBJ_SITE, "goal") : -1) {}

  // np.linalg.norm(goal_pos[:2] - goal_pos[3:5])
  double XyDistance(const std::vector<double>& v) const {
    const double diff[2] = {v[0] - v[3], v[1] - v[4]};
    return Norm(diff, 2);
  }

  // objHeight (the puck geom's height now), heightTarget, maxPlacingDist.
  void SetHeights(double lift_thresh) {
    obj_height_ = d()->geom_xpos[3 * obj_geom_ + 2];
    height_target_ = obj_height_ + lift_thresh;
    const Vec3 top = {obj_init_pos_[0], obj_init_pos_[1], height_target_};
    max_placing_dist_ = Norm3(top, target_pos_) + height_target_;
  }

  void GeomQuat(std::vector<double>* out) const {
    const std::array<double, 4> q =
        MatrixToQuat(d()->geom_xmat + 9 * obj_geom_);
    out->insert(out->end(), q.begin(), q.end());
  }

  // touching_main_object and tcp_open > 0 and obj[2] - 0.02 > init z.
  double GraspSuccess(const double* obs, double tcp_open) const {
    return TouchingObject(obj_geom_) && tcp_open > 0 &&
                   obs[6] - 0.02 > obj_init_pos_[2]
               ? 1.0
               : 0.0;
  }

  // compute_reward v1's reach part: -reachDist, or within 0.05 (xy) of the
  // puck... (reachDistxy < xy_radius: -reachDist, else -reachDistxy -
  // z_scale * zRew); near it (reachDist < 0.05), + max(action[-1], 0) / 50
  // (a float32 quotient).
  double ReachRewardV1(const Vec3& obj, const Vec3& finger, const float* action,
                       double xy_radius, double z_scale,
                       double* reach_dist_out) const {
    const double reach_dist = Norm3(obj, finger);
    const double xy[2] = {obj[0] - finger[0], obj[1] - finger[1]};
    const double reach_dist_xy = Norm(xy, 2);
    const double dz = finger[2] - init_tcp_[2];
    const double z_rew = Norm(&dz, 1);
    double reach_rew = reach_dist_xy < xy_radius
                           ? -reach_dist
                           : -reach_dist_xy - z_scale * z_rew;
    if (reach_dist < 0.05) {
      const float a = action[3];
      const double grip = a < 0 ? 0.0 : static_cast<double>(a / 50.0f);
      reach_rew = -reach_dist + grip;
    }
    *reach_dist_out = reach_dist;
    return reach_rew;
  }

  Vec3 FingerCom() const {
    const Vec3 r = SitePos(right_effector_), l = SitePos(left_effector_);
    return {(r[0] + l[0]) / 2, (r[1] + l[1]) / 2, (r[2] + l[2]) / 2};
  }

  // 1000 * (maxPlacingDist - placingDist) + 1000 * (exp(-d**2 / 0.01) +
  // exp(-d**2 / 0.001)), at least 0.
  double PlaceReward(double placing_dist) const {
    const double pd2 = ScalarSquare(placing_dist);
    const double rew = 1000 * (max_placing_dist_ - placing_dist) +
                       1000 * (np_.Exp(-pd2 / 0.01) + np_.Exp(-pd2 / 0.001));
    return std::max(rew, 0.0);
  }

  // compute_reward v1 of pick-place (and shelf-place, pick-place-wall):
  // reach, pick (up to heightTarget), place; returns placingDist.
  double PickPlaceRewardV1(const double* obs, const float* action,
                           double* placing_dist_out) const {
    const Vec3 obj = {obs[4], obs[5], obs[6]};
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
      pick_rew = 100 * height_target_;
    } else if (reach_dist < 0.1 && obj[2] > obj_height_ + 0.005) {
      pick_rew = 100 * std::min(height_target_, obj[2]);
    }
    double place_rew = 0;
    if (pick_completed && reach_dist < 0.1 && !obj_dropped) {
      place_rew = PlaceReward(placing_dist);
    }
    *placing_dist_out = placing_dist;
    return reach_rew + pick_rew + place_rew;
  }

  // evaluate_state's info of a v1 reward (compute_reward returns reward,
  // 0.0, 0.0, placingDist, 0.0, 0.0).
  static void V1Info(double reward, double placing_dist, double radius,
                     Info* info) {
    info->success = placing_dist <= radius ? 1.0 : 0.0;
    info->near_object = 1.0;  // 0.0 <= 0.03
    info->grasp_success = 0.0;
    info->grasp_reward = 0.0;
    info->in_place_reward = 0.0;
    info->obj_to_target = placing_dist;
    info->unscaled_reward = reward;
  }

  // get_state / set_state: what reset_model sets, after the base's.
  ENVPOOL_LITE_STATE_AFTER(SawyerEnv, obj_height_, height_target_,
                           max_placing_dist_)

  int obj_, obj_geom_, goal_site_;
  double obj_height_ = 0, height_target_ = 0, max_placing_dist_ = 0;
};

class PickPlaceV3Env : public PickBaseEnv {
 public:
  static TaskSpec Task() {
    TaskSpec t;
    t.model = "sawyer_xyz/sawyer_pick_place_v3.xml";
    t.hand_low = {-0.5, 0.40, 0.05};
    t.hand_high = {0.5, 1, 0.5};
    t.reset_low = {-0.1, 0.6, 0.02, -0.1, 0.8, 0.05};
    t.reset_high = {0.1, 0.7, 0.02, 0.1, 0.9, 0.3};
    t.goal_low = {-0.1, 0.8, 0.05};
    t.goal_high = {0.1, 0.9, 0.3};
    t.apart = 0.15;
    return t;
  }
  static Config DefaultConfig() { return BaseConfig(Task().model); }
  static EnvSpec MakeSpec(const Config& config) {
    return BaseSpec(config, Task());
  }

  PickPlaceV3Env(const Config& config, uint64_t seed)
      : PickBaseEnv(config, seed, Task()) {
    hand_init_pos_ = {0.0, 0.6, 0.2};
    Init(seed);
  }

 protected:
  void ResetModel() override {
    ResetHand();
    const std::vector<double>& v = StateRandVec();
    if (XyDistance(v) < 0.15) {
      throw std::runtime_error("pick-place-v3: a task's goal is too near");
    }
    target_pos_ = {v[3], v[4], v[5]};
    obj_init_pos_ = {v[0], v[1], v[2]};
    init_tcp_ = TcpCenter();
    SetObjXyz(obj_init_pos_);
    std::copy(target_pos_.begin(), target_pos_.end(),
              m()->site_pos + 3 * goal_site_);
    SetHeights(0.04);
  }

  void ObjectsPosQuat(std::vector<double>* out) override {
    const Vec3 pos = BodyCom(obj_);
    out->insert(out->end(), pos.begin(), pos.end());
    GeomQuat(out);
  }

  // SawyerPickPlaceEnvV3._gripper_caging_reward(action, obj_pos): its
  // init_left_pad / init_right_pad are the pads' live positions.
  PyFloat CagingReward(const float* action, const Vec3& obj_pos) const {
    const double pad_success_margin = 0.05;
    const double x_z_success_margin = 0.005;
    const double obj_radius = 0.015;
    const Vec3 tcp = TcpCenter();
    const Vec3 left_pad = BodyCom(left_pad_);
    const Vec3 right_pad = BodyCom(right_pad_);
    const double delta_left = left_pad[1] - obj_pos[1];
    const double delta_right = obj_pos[1] - right_pad[1];
    const double right_margin =
        std::abs(std::abs(obj_pos[1] - right_pad[1]) - pad_success_margin);
    const double left_margin =
        std::abs(std::abs(obj_pos[1] - left_pad[1]) - pad_success_margin);
    const double right_caging =
        Tolerance(np_, delta_right, obj_radius, pad_success_margin,
                  right_margin, Sigmoid::kLongTail);
    const double left_caging =
        Tolerance(np_, delta_left, obj_radius, pad_success_margin, left_margin,
                  Sigmoid::kLongTail);
    const PyFloat y_caging =
        HamacherProduct(PyFloat(left_caging), PyFloat(right_caging));
    const double xz[3] = {(tcp[0] + 0.0) - (obj_pos[0] + 0.0),
                          (tcp[1] + -tcp[1]) - (obj_pos[1] + -obj_pos[1]),
                          (tcp[2] + 0.0) - (obj_pos[2] + 0.0)};
    const double tcp_obj_norm_x_z = Norm(xz, 3);
    const double init_xz[3] = {
        (obj_init_pos_[0] + 0.0) - (init_tcp_[0] + 0.0),
        (obj_init_pos_[1] + -obj_init_pos_[1]) - (init_tcp_[1] + -init_tcp_[1]),
        (obj_init_pos_[2] + 0.0) - (init_tcp_[2] + 0.0)};
    const double margin = Norm(init_xz, 3) - x_z_success_margin;
    const double x_z_caging =
        Tolerance(np_, tcp_obj_norm_x_z, 0, x_z_success_margin, margin,
                  Sigmoid::kLongTail);
    // min(max(0, action[-1]), 1): 0 (int), the float32, or 1 (int).
    const float a = action[3];
    PyFloat gripper_closed(0.0);
    if (a > 0) gripper_closed = 1.0f < a ? PyFloat(1.0) : PyFloat::F32(a);
    const PyFloat caging = HamacherProduct(y_caging, PyFloat(x_z_caging));
    const PyFloat gripping =
        caging > PyFloat(0.97) ? gripper_closed : PyFloat(0.0);
    const PyFloat caging_and_gripping = HamacherProduct(caging, gripping);
    return (caging_and_gripping + caging) / PyFloat(2.0);
  }

  double EvaluateState(const double* obs, const float* action,
                       Info* info) override {
    if (!v2_) {
      double placing_dist;
      const double reward = PickPlaceRewardV1(obs, action, &placing_dist);
      V1Info(reward, placing_dist, 0.07, info);
      return reward;
    }
    const Vec3 obj = {obs[4], obs[5], obs[6]};
    const double tcp_opened = obs[3];
    const double obj_to_target = Norm3(obj, target_pos_);
    const double tcp_to_obj = Norm3(obj, TcpCenter());
    const double in_place_margin = Norm3(obj_init_pos_, target_pos_);
    const double in_place = Tolerance(np_, obj_to_target, 0, 0.05,
                                      in_place_margin, Sigmoid::kLongTail);
    const PyFloat object_grasped = CagingReward(action, obj);
    PyFloat reward = HamacherProduct(object_grasped, PyFloat(in_place));
    if (tcp_to_obj < 0.02 && tcp_opened > 0 &&
        obj[2] - 0.01 > obj_init_pos_[2]) {
      reward = reward + PyFloat(1.0 + 5.0 * in_place);
    }
    if (obj_to_target < 0.05) reward = PyFloat(10.0);
    info->success = obj_to_target <= 0.07 ? 1.0 : 0.0;
    info->near_object = tcp_to_obj <= 0.03 ? 1.0 : 0.0;
    info->grasp_success = GraspSuccess(obs, tcp_opened);
    info->grasp_reward = object_grasped.v;
    info->in_place_reward = in_place;
    info->obj_to_target = obj_to_target;
    info->unscaled_reward = reward.v;
    return reward.v;
  }
};

class PickPlaceWallV3Env : public PickBaseEnv {
 public:
  static TaskSpec Task() {
    TaskSpec t;
    t.model = "sawyer_xyz/sawyer_pick_place_wall_v3.xml";
    t.hand_low = {-0.5, 0.40, 0.05};
    t.hand_high = {0.5, 1, 0.5};
    t.reset_low = {-0.05, 0.6, 0.015, -0.05, 0.85, 0.05};
    t.reset_high = {0.05, 0.65, 0.015, 0.05, 0.9, 0.3};
    t.goal_low = {-0.05, 0.85, 0.05};
    t.goal_high = {0.05, 0.9, 0.3};
    t.apart = 0.15;
    return t;
  }
  static Config DefaultConfig() { return BaseConfig(Task().model); }
  static EnvSpec MakeSpec(const Config& config) {
    return BaseSpec(config, Task());
  }

  PickPlaceWallV3Env(const Config& config, uint64_t seed)
      : PickBaseEnv(config, seed, Task()) {
    hand_init_pos_ = {0.0, 0.6, 0.2};
    Init(seed);
  }

 protected:
  void ResetModel() override {
    ResetHand();
    const std::vector<double>& v = StateRandVec();
    if (XyDistance(v) < 0.15) {
      throw std::runtime_error("pick-place-wall-v3: a task's goal is too near");
    }
    target_pos_ = {v[3], v[4], v[5]};
    obj_init_pos_ = {v[0], v[1], v[2]};
    SetObjXyz(obj_init_pos_);
    std::copy(target_pos_.begin(), target_pos_.end(),
              m()->site_pos + 3 * goal_site_);
    SetHeights(0.04);
  }

  void ObjectsPosQuat(std::vector<double>* out) override {
    const double* pos = d()->geom_xpos + 3 * obj_geom_;
    out->insert(out->end(), pos, pos + 3);
    GeomQuat(out);
  }

  double EvaluateState(const double* obs, const float* action,
                       Info* info) override {
    if (!v2_) {
      double placing_dist;
      const double reward = PickPlaceRewardV1(obs, action, &placing_dist);
      V1Info(reward, placing_dist, 0.07, info);
      return reward;
    }
    const Vec3 obj = {obs[4], obs[5], obs[6]};
    const double tcp_opened = obs[3];
    const Vec3 midpoint = {target_pos_[0], 0.77, 0.25};
    const double tcp_to_obj = Norm3(obj, TcpCenter());
    const double to_mid[3] = {(obj[0] - midpoint[0]) * 1.0,
                              (obj[1] - midpoint[1]) * 1.0,
                              (obj[2] - midpoint[2]) * 3.0};
    const double obj_to_midpoint = Norm(to_mid, 3);
    const double to_mid_init[3] = {(obj_init_pos_[0] - midpoint[0]) * 1.0,
                                   (obj_init_pos_[1] - midpoint[1]) * 1.0,
                                   (obj_init_pos_[2] - midpoint[2]) * 3.0};
    const double obj_to_midpoint_init = Norm(to_mid_init, 3);
    const double obj_to_target = Norm3(obj, target_pos_);
    const double obj_to_target_init = Norm3(obj_init_pos_, target_pos_);
    const double in_place_part1 =
        Tolerance(np_, obj_to_midpoint, 0, 0.05, obj_to_midpoint_init,
                  Sigmoid::kLongTail);
    const double in_place_part2 = Tolerance(
        np_, obj_to_target, 0, 0.05, obj_to_target_init, Sigmoid::kLongTail);
    const PyFloat object_grasped =
        GripperCagingRewardPy(action, obj, 0.015, 0.05, 0.01, 0.005);
    const PyFloat grasped_in_place =
        HamacherProduct(object_grasped, PyFloat(in_place_part1));
    PyFloat reward = grasped_in_place;
    if (tcp_to_obj < 0.02 && tcp_opened > 0 &&
        obj[2] - 0.015 > obj_init_pos_[2]) {
      reward =
          (grasped_in_place + PyFloat(1.0)) + PyFloat(4.0 * in_place_part1);
      if (obj[1] > 0.75) {
        reward = ((grasped_in_place + PyFloat(1.0)) + PyFloat(4.0)) +
                 PyFloat(3.0 * in_place_part2);
      }
    }
    if (obj_to_target < 0.05) reward = PyFloat(10.0);
    info->success = obj_to_target <= 0.07 ? 1.0 : 0.0;
    info->near_object = tcp_to_obj <= 0.03 ? 1.0 : 0.0;
    info->grasp_success = GraspSuccess(obs, tcp_opened);
    info->grasp_reward = object_grasped.v;
    info->in_place_reward = in_place_part2;
    info->obj_to_target = obj_to_target;
    info->unscaled_reward = reward.v;
    return reward.v;
  }
};

}  // namespace metaworld
}  // namespace envpool_lite
