// push-v3, push-wall-v3, push-back-v3: metaworld 3.1.1's
// envs/sawyer_push_v3.py (SawyerPushEnvV3), sawyer_push_wall_v3.py
// (SawyerPushWallEnvV3) and sawyer_push_back_v3.py (SawyerPushBackEnvV3):
// push a puck on the table to a goal (around a wall; back towards the arm).
#pragma once

#include "envs/metaworld/sawyer_env.h"

namespace envpool_lite {
namespace metaworld {

// What the three share: the puck (body "obj", geom "objGeom"), a rand_vec
// (puck x, y, z, goal x, y, z) redrawn while the puck is within 0.15 of the
// goal in x, y, and the v1 reward.
class PushBaseEnv : public SawyerEnv {
 protected:
  PushBaseEnv(const Config& config, uint64_t seed, TaskSpec task)
      : SawyerEnv(config, seed, std::move(task)),
        obj_(Id(mjOBJ_BODY, "obj")),
        obj_geom_(Id(mjOBJ_GEOM, "objGeom")),
        goal_site_(Id(mjOBJ_SITE, "goal")) {}

  // reset_model's rand_vec (frozen: the loop would not end were it near).
  const std::vector<double>& CheckedRandVec() const {
    const std::vector<double>& v = StateRandVec();
    if (XyDistance(v) < 0.15) {
      throw std::runtime_error("Meta-World push: a task's goal is too near");
    }
    return v;
  }

  // _set_obj_xyz, the goal site; maxPushDist.
  void PlacePuckAndGoal() {
    SetObjXyz(obj_init_pos_);
    std::copy(target_pos_.begin(), target_pos_.end(),
              m()->site_pos + 3 * goal_site_);
    const double diff[2] = {obj_init_pos_[0] - target_pos_[0],
                            obj_init_pos_[1] - target_pos_[1]};
    max_push_dist_ = Norm(diff, 2);
  }

  // The puck's quaternion: Rotation.from_matrix(geom xmat).as_quat().
  void PushQuat(std::vector<double>* out) const {
    const std::array<double, 4> q =
        MatrixToQuat(d()->geom_xmat + 9 * obj_geom_);
    out->insert(out->end(), q.begin(), q.end());
  }

  // compute_reward v1: -reachDist, plus within 0.05 of the puck the push
  // reward (at least 0); returns pushDist.
  double PushRewardV1(const double* obs, double* push_dist) const {
    const Vec3 r = SitePos(right_effector_), l = SitePos(left_effector_);
    const Vec3 finger = {(r[0] + l[0]) / 2, (r[1] + l[1]) / 2,
                         (r[2] + l[2]) / 2};
    const Vec3 obj = {obs[4], obs[5], obs[6]};
    const double reach_dist = Norm3(finger, obj);
    const double xy[2] = {obj[0] - target_pos_[0], obj[1] - target_pos_[1]};
    const double pd = Norm(xy, 2);
    double push_rew = 0;
    if (reach_dist < 0.05) {
      const double pd2 = ScalarSquare(pd);  // pushDist**2
      push_rew = 1000 * (max_push_dist_ - pd) +
                 1000 * (np_.Exp(-pd2 / 0.01) + np_.Exp(-pd2 / 0.001));
      push_rew = std::max(push_rew, 0.0);
    }
    *push_dist = pd;
    return -reach_dist + push_rew;
  }

  // evaluate_state's info of a v1 reward (compute_reward returns reward,
  // 0.0, 0.0, pushDist, 0.0, 0.0): near_object is 0.0 <= 0.03.
  static void V1Info(double reward, double push_dist, double success_radius,
                     Info* info) {
    info->success = push_dist <= success_radius ? 1.0 : 0.0;
    info->near_object = 1.0;
    info->grasp_success = 0.0;
    info->grasp_reward = 0.0;
    info->in_place_reward = 0.0;
    info->obj_to_target = push_dist;
    info->unscaled_reward = reward;
  }

  // touching_main_object and tcp_opened > 0 and obj[2] - 0.02 > init z.
  double GraspSuccess(const double* obs, double tcp_opened) const {
    return TouchingObject(obj_geom_) && tcp_opened > 0 &&
                   obs[6] - 0.02 > obj_init_pos_[2]
               ? 1.0
               : 0.0;
  }

  // np.linalg.norm(goal_pos[:2] - goal_pos[3:5])
  double XyDistance(const std::vector<double>& v) const {
    const double diff[2] = {v[0] - v[3], v[1] - v[4]};
    return Norm(diff, 2);
  }

  // get_state / set_state: what reset_model sets, after the base's.
  ENVPOOL_LITE_STATE_AFTER(SawyerEnv, max_push_dist_)

  int obj_, obj_geom_, goal_site_;
  double max_push_dist_ = 0;
};

class PushV3Env : public PushBaseEnv {
 public:
  static TaskSpec Task() {
    TaskSpec t;
    t.model = "sawyer_xyz/sawyer_push_v3.xml";
    t.hand_low = {-0.5, 0.40, 0.05};
    t.hand_high = {0.5, 1, 0.5};
    t.reset_low = {-0.1, 0.6, 0.02, -0.1, 0.8, 0.01};
    t.reset_high = {0.1, 0.7, 0.02, 0.1, 0.9, 0.02};
    t.goal_low = {-0.1, 0.8, 0.01};
    t.goal_high = {0.1, 0.9, 0.02};
    t.apart = 0.15;
    return t;
  }
  static Config DefaultConfig() { return BaseConfig(Task().model); }
  static EnvSpec MakeSpec(const Config& config) {
    return BaseSpec(config, Task());
  }

  PushV3Env(const Config& config, uint64_t seed)
      : PushBaseEnv(config, seed, Task()) {
    hand_init_pos_ = {0.0, 0.6, 0.2};
    Init(seed);
  }

 protected:
  void ResetModel() override {
    ResetHand();
    // fix_extreme_obj_pos: the puck body's height now.
    const double z = BodyCom(obj_)[2];
    const std::vector<double>& v = CheckedRandVec();
    target_pos_ = {v[3], v[4], z};
    obj_init_pos_ = {v[0], v[1], z};
    PlacePuckAndGoal();
  }

  void ObjectsPosQuat(std::vector<double>* out) override {
    const Vec3 pos = BodyCom(obj_);
    out->insert(out->end(), pos.begin(), pos.end());
    PushQuat(out);
  }

  double EvaluateState(const double* obs, const float* action,
                       Info* info) override {
    if (!v2_) {
      double push_dist;
      const double reward = PushRewardV1(obs, &push_dist);
      V1Info(reward, push_dist, 0.05, info);
      return reward;
    }
    const Vec3 obj = {obs[4], obs[5], obs[6]};
    const double tcp_opened = obs[3];
    const double tcp_to_obj = Norm3(obj, TcpCenter());
    const double target_to_obj = Norm3(obj, target_pos_);
    const double target_to_obj_init = Norm3(obj_init_pos_, target_pos_);
    const double in_place = Tolerance(np_, target_to_obj, 0, 0.05,
                                      target_to_obj_init, Sigmoid::kLongTail);
    const PyFloat object_grasped =
        GripperCagingRewardPy(action, obj, 0.015, 0.05, 0.01, 0.005, 1.0, true);
    PyFloat reward = PyFloat(2.0) * object_grasped;
    if (tcp_to_obj < 0.02 && tcp_opened > 0) {
      reward = reward + ((PyFloat(1.0) + reward) + PyFloat(5.0 * in_place));
    }
    if (target_to_obj < 0.05) reward = PyFloat(10.0);
    info->success = target_to_obj <= 0.05 ? 1.0 : 0.0;
    info->near_object = tcp_to_obj <= 0.03 ? 1.0 : 0.0;
    info->grasp_success = GraspSuccess(obs, tcp_opened);
    info->grasp_reward = object_grasped.v;
    info->in_place_reward = in_place;
    info->obj_to_target = target_to_obj;
    info->unscaled_reward = reward.v;
    return reward.v;
  }
};

class PushWallV3Env : public PushBaseEnv {
 public:
  static TaskSpec Task() {
    TaskSpec t;
    t.model = "sawyer_xyz/sawyer_push_wall_v3.xml";
    t.hand_low = {-0.5, 0.40, 0.05};
    t.hand_high = {0.5, 1, 0.5};
    t.reset_low = {-0.05, 0.6, 0.015, -0.05, 0.85, 0.01};
    t.reset_high = {0.05, 0.65, 0.015, 0.05, 0.9, 0.02};
    t.goal_low = {-0.05, 0.85, 0.01};
    t.goal_high = {0.05, 0.9, 0.02};
    t.apart = 0.15;
    return t;
  }
  static Config DefaultConfig() { return BaseConfig(Task().model); }
  static EnvSpec MakeSpec(const Config& config) {
    return BaseSpec(config, Task());
  }

  PushWallV3Env(const Config& config, uint64_t seed)
      : PushBaseEnv(config, seed, Task()) {
    hand_init_pos_ = {0.0, 0.6, 0.2};
    Init(seed);
  }

 protected:
  void ResetModel() override {
    ResetHand();
    // adjust_initObjPos: the puck geom's height now.
    const double z = d()->geom_xpos[3 * obj_geom_ + 2];
    const std::vector<double>& v = CheckedRandVec();
    target_pos_ = {v[3], v[4], z};
    obj_init_pos_ = {v[0], v[1], z};
    PlacePuckAndGoal();
  }

  void ObjectsPosQuat(std::vector<double>* out) override {
    const double* pos = d()->geom_xpos + 3 * obj_geom_;
    out->insert(out->end(), pos, pos + 3);
    PushQuat(out);
  }

  double EvaluateState(const double* obs, const float* action,
                       Info* info) override {
    if (!v2_) {
      double push_dist;
      const double reward = PushRewardV1(obs, &push_dist);
      V1Info(reward, push_dist, 0.07, info);
      return reward;
    }
    const Vec3 obj = {obs[4], obs[5], obs[6]};
    const double tcp_opened = obs[3];
    const Vec3 midpoint = {-0.05, 0.77, obj[2]};
    const double tcp_to_obj = Norm3(obj, TcpCenter());
    const double to_mid[3] = {(obj[0] - midpoint[0]) * 3.0,
                              (obj[1] - midpoint[1]) * 1.0,
                              (obj[2] - midpoint[2]) * 1.0};
    const double obj_to_midpoint = Norm(to_mid, 3);
    const double to_mid_init[3] = {(obj_init_pos_[0] - midpoint[0]) * 3.0,
                                   (obj_init_pos_[1] - midpoint[1]) * 1.0,
                                   (obj_init_pos_[2] - midpoint[2]) * 1.0};
    const double obj_to_midpoint_init = Norm(to_mid_init, 3);
    const double obj_to_target = Norm3(obj, target_pos_);
    const double obj_to_target_init = Norm3(obj_init_pos_, target_pos_);
    const double in_place_part1 =
        Tolerance(np_, obj_to_midpoint, 0, 0.05, obj_to_midpoint_init,
                  Sigmoid::kLongTail);
    const double in_place_part2 = Tolerance(
        np_, obj_to_target, 0, 0.05, obj_to_target_init, Sigmoid::kLongTail);
    const PyFloat object_grasped =
        GripperCagingRewardPy(action, obj, 0.015, 0.05, 0.01, 0.005, 1.0, true);
    const PyFloat two_grasped = PyFloat(2.0) * object_grasped;
    PyFloat reward = two_grasped;
    if (tcp_to_obj < 0.02 && tcp_opened > 0) {
      reward = (two_grasped + PyFloat(1.0)) + PyFloat(4.0 * in_place_part1);
      if (obj[1] > 0.75) {
        reward = ((two_grasped + PyFloat(1.0)) + PyFloat(4.0)) +
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

class PushBackV3Env : public PushBaseEnv {
 public:
  static TaskSpec Task() {
    TaskSpec t;
    t.model = "sawyer_xyz/sawyer_push_back_v3.xml";
    t.hand_low = {-0.5, 0.40, 0.05};
    t.hand_high = {0.5, 1, 0.5};
    t.reset_low = {-0.1, 0.8, 0.02, -0.1, 0.6, 0.0199};
    t.reset_high = {0.1, 0.85, 0.02, 0.1, 0.7, 0.0201};
    t.goal_low = {-0.1, 0.6, 0.0199};
    t.goal_high = {0.1, 0.7, 0.0201};
    t.apart = 0.15;
    return t;
  }
  static Config DefaultConfig() { return BaseConfig(Task().model); }
  static EnvSpec MakeSpec(const Config& config) {
    return BaseSpec(config, Task());
  }

  PushBackV3Env(const Config& config, uint64_t seed)
      : PushBaseEnv(config, seed, Task()) {
    // hand_init_pos is a float32 array.
    hand_init_pos_ = {0.0, static_cast<double>(0.6f),
                      static_cast<double>(0.2f)};
    Init(seed);
  }

 protected:
  static constexpr double kObjRadius = 0.007;

  void ResetModel() override {
    ResetHand();
    // adjust_initObjPos: the puck geom's height now.
    const double z = d()->geom_xpos[3 * obj_geom_ + 2];
    const std::vector<double>& v = CheckedRandVec();
    target_pos_ = {v[3], v[4], z};
    obj_init_pos_ = {v[0], v[1], z};
    PlacePuckAndGoal();
  }

  void ObjectsPosQuat(std::vector<double>* out) override {
    const double* pos = d()->geom_xpos + 3 * obj_geom_;
    out->insert(out->end(), pos, pos + 3);
    PushQuat(out);
  }

  // SawyerPushBackEnvV3._gripper_caging_reward(action, obj_pos, obj_radius):
  // its init_left_pad / init_right_pad are the pads' live positions
  // (get_body_com's views).
  double CagingReward(const Vec3& obj_pos, double obj_radius) const {
    const double pad_success_margin = 0.05;
    const double grip_success_margin = obj_radius + 0.003;
    const double x_z_success_margin = 0.01;
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
    const double right_gripping =
        Tolerance(np_, delta_right, obj_radius, grip_success_margin,
                  right_margin, Sigmoid::kLongTail);
    const double left_gripping =
        Tolerance(np_, delta_left, obj_radius, grip_success_margin, left_margin,
                  Sigmoid::kLongTail);
    const double y_caging = HamacherProduct(right_caging, left_caging);
    const double y_gripping = HamacherProduct(right_gripping, left_gripping);
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
    const double caging = HamacherProduct(y_caging, x_z_caging);
    const double gripping = caging > 0.95 ? y_gripping : 0.0;
    return (caging + gripping) / 2;
  }

  double EvaluateState(const double* obs, const float* action,
                       Info* info) override {
    (void)action;
    if (!v2_) {
      double push_dist;
      const double reward = PushRewardV1(obs, &push_dist);
      V1Info(reward, push_dist, 0.07, info);
      return reward;
    }
    const Vec3 obj = {obs[4], obs[5], obs[6]};
    const double tcp_opened = obs[3];
    const double tcp_to_obj = Norm3(obj, TcpCenter());
    const double target_to_obj = Norm3(obj, target_pos_);
    const double target_to_obj_init = Norm3(obj_init_pos_, target_pos_);
    const double in_place = Tolerance(np_, target_to_obj, 0, 0.05,
                                      target_to_obj_init, Sigmoid::kLongTail);
    const double object_grasped = CagingReward(obj, kObjRadius);
    double reward = HamacherProduct(object_grasped, in_place);
    if (tcp_to_obj < 0.01 && (0 < tcp_opened && tcp_opened < 0.55) &&
        target_to_obj_init - target_to_obj > 0.01) {
      reward += 1.0 + 5.0 * in_place;
    }
    if (target_to_obj < 0.05) reward = 10.0;
    info->success = target_to_obj <= 0.07 ? 1.0 : 0.0;
    info->near_object = tcp_to_obj <= 0.03 ? 1.0 : 0.0;
    info->grasp_success = GraspSuccess(obs, tcp_opened);
    info->grasp_reward = object_grasped;
    info->in_place_reward = in_place;
    info->obj_to_target = target_to_obj;
    info->unscaled_reward = reward;
    return reward;
  }
};

}  // namespace metaworld
}  // namespace envpool_lite
