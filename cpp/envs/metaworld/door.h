// door-open-v3 and door-close-v3: metaworld 3.1.1's envs/sawyer_door_v3.py
// (SawyerDoorEnvV3) and sawyer_door_close_v3.py (SawyerDoorCloseEnvV3): swing
// the door (model sawyer_door_pull.xml) open, or closed from open.
#pragma once

#include "envs/metaworld/articulated_common.h"

namespace envpool_lite {
namespace metaworld {

// What both share: the door placed at the rand_vec, its joint set, the
// handle geom observed.
class DoorBaseEnv : public SawyerEnv {
 protected:
  static TaskSpec DoorTask(Vec3 goal_low, Vec3 goal_high) {
    TaskSpec t;
    t.model = "sawyer_xyz/sawyer_door_pull.xml";
    t.hand_low = {-0.5, 0.40, 0.05};
    t.hand_high = {0.5, 1, 0.5};
    t.reset_low = {0.0, 0.85, 0.15};
    t.reset_high = {0.1, 0.95, 0.15};
    t.goal_low = goal_low;
    t.goal_high = goal_high;
    return t;
  }

  DoorBaseEnv(const Config& config, uint64_t seed, TaskSpec task)
      : SawyerEnv(config, seed, std::move(task)),
        handle_(Id(mjOBJ_GEOM, "handle")),
        door_(Id(mjOBJ_BODY, "door")),
        goal_site_(Id(mjOBJ_SITE, "goal")) {
    const int joint = Id(mjOBJ_JOINT, "doorjoint");
    door_qpos_adr_ = m()->jnt_qposadr[joint];
    door_qvel_adr_ = m()->jnt_dofadr[joint];
  }

  // reset_model: the door at obj_init_pos, the goal at obj_init_pos +
  // goal_offset, the door joint at `angle` (_set_obj_xyz), maxPullDist.
  void PlaceDoor(const Vec3& goal_offset, double angle) {
    ResetHand();
    const std::vector<double>& v = StateRandVec();
    obj_init_pos_ = {v[0], v[1], v[2]};
    target_pos_ = articulated::Add(obj_init_pos_, goal_offset);
    std::copy(obj_init_pos_.begin(), obj_init_pos_.end(),
              m()->body_pos + 3 * door_);
    std::copy(target_pos_.begin(), target_pos_.end(),
              m()->site_pos + 3 * goal_site_);
    std::vector<double> qpos(d()->qpos, d()->qpos + m()->nq);
    std::vector<double> qvel(d()->qvel, d()->qvel + m()->nv);
    qpos[door_qpos_adr_] = angle;
    qvel[door_qvel_adr_] = 0;
    SetState(qpos, qvel);
    const double* h = d()->geom_xpos + 3 * handle_;
    const double diff[2] = {h[0] - target_pos_[0], h[1] - target_pos_[1]};
    max_pull_dist_ = Norm(diff, 2);
  }

  void ObjectsPosQuat(std::vector<double>* out) override {
    const double* p = d()->geom_xpos + 3 * handle_;
    out->insert(out->end(), p, p + 3);
    const std::array<double, 4> q = MatrixToQuat(d()->geom_xmat + 9 * handle_);
    out->insert(out->end(), q.begin(), q.end());
  }

  // The v1 reward (both files): -reachDist, plus the pull term once the
  // fingers are within 0.05 of the handle; *pull_dist the handle's x-y
  // distance to the goal.
  double V1Reward(const double* obs, double* pull_dist) const {
    const double diff[2] = {obs[4] - target_pos_[0], obs[5] - target_pos_[1]};
    *pull_dist = Norm(diff, 2);
    const double reach_dist = Norm3(articulated::At(obs + 4), TcpCenter());
    const double pull_rew =
        reach_dist < 0.05 ? articulated::V1Pull(np_, max_pull_dist_, *pull_dist,
                                                0.01, 0.001, true)
                          : 0.0;
    return -reach_dist + pull_rew;
  }

  // get_state / set_state: what reset_model sets, after the base's.
  ENVPOOL_LITE_STATE_AFTER(SawyerEnv, max_pull_dist_)

  int handle_, door_, goal_site_, door_qpos_adr_, door_qvel_adr_;
  double max_pull_dist_ = 0;
};

class DoorOpenEnv : public DoorBaseEnv {
 public:
  static TaskSpec Task() {
    return DoorTask({-0.3, 0.4, 0.1499}, {-0.2, 0.5, 0.1501});
  }
  static Config DefaultConfig() { return BaseConfig(Task().model); }
  static EnvSpec MakeSpec(const Config& config) {
    return BaseSpec(config, Task());
  }

  DoorOpenEnv(const Config& config, uint64_t seed)
      : DoorBaseEnv(config, seed, Task()) {
    hand_init_pos_ = {0, 0.6, 0.2};
    Init(seed);
  }

 protected:
  void ResetModel() override { PlaceDoor({-0.3, -0.45, 0.0}, 0.0); }

  double EvaluateState(const double* obs, const float* action,
                       Info* info) override {
    const bool success = std::abs(obs[4] - target_pos_[0]) <= 0.08;
    double reward, grab = 0, ready = 0, opened = 0;
    if (v2_) {
      const double theta = d()->qpos[door_qpos_adr_];
      // _reward_grab_effort: float((np.clip(a[3], -1, 1) + 1.0) / 2.0) in
      // float32.
      const float a = std::min(std::max(action[3], -1.0f), 1.0f);
      grab = static_cast<double>((a + 1.0f) / 2.0f);
      RewardPos(obs, theta, &ready, &opened);
      reward = 2.0 * HamacherProduct(ready, grab) + 8.0 * opened;
      if (success) reward = 10.0;
    } else {
      double pull_dist;
      reward = V1Reward(obs, &pull_dist);
    }
    info->success = success ? 1.0 : 0.0;
    info->near_object = ready;
    info->grasp_success = grab >= 0.5 ? 1.0 : 0.0;
    info->grasp_reward = grab;
    info->in_place_reward = opened;
    info->obj_to_target = 0;
    info->unscaled_reward = reward;
    return reward;
  }

 private:
  // _reward_pos(obs, theta)
  void RewardPos(const double* obs, double theta, double* ready,
                 double* opened) const {
    constexpr double kPi = 3.141592653589793;
    const Vec3 hand = articulated::At(obs);
    const Vec3 door = {obs[4] + -0.05, obs[5] + 0.0, obs[6] + 0.0};
    const double threshold = 0.12;
    const double xy[2] = {hand[0] - door[0], hand[1] - door[1]};
    const double radius = Norm(xy, 2);
    const double floor =
        radius <= threshold ? 0.0 : 0.04 * np_.Log(radius - threshold) + 0.4;
    const double above_floor = hand[2] >= floor
                                   ? 1.0
                                   : Tolerance(np_, floor - hand[2], 0.0, 0.01,
                                               floor / 2.0, Sigmoid::kLongTail);
    const Vec3 rel =
        articulated::Sub(articulated::Sub(hand, door), {0.05, 0.03, -0.01});
    const double in_place = Tolerance(np_, Norm(rel.data(), 3), 0,
                                      threshold / 2.0, 0.5, Sigmoid::kLongTail);
    *ready = HamacherProduct(above_floor, in_place);
    const double door_angle = -theta;
    const double a = 0.2, b = 0.8;
    *opened = a * (theta < -kPi / 90.0 ? 1.0 : 0.0) +
              b * Tolerance(np_, kPi / 2.0 + kPi / 6 - door_angle, 0, 0.5,
                            kPi / 3.0, Sigmoid::kLongTail);
  }
};

class DoorCloseEnv : public DoorBaseEnv {
 public:
  static TaskSpec Task() {
    return DoorTask({0.2, 0.65, 0.1499}, {0.3, 0.75, 0.1501});
  }
  static Config DefaultConfig() { return BaseConfig(Task().model); }
  static EnvSpec MakeSpec(const Config& config) {
    return BaseSpec(config, Task());
  }

  DoorCloseEnv(const Config& config, uint64_t seed)
      : DoorBaseEnv(config, seed, Task()) {
    hand_init_pos_ = articulated::F32(-0.5, 0.6, 0.2);
    Init(seed);
  }

 protected:
  void ResetModel() override { PlaceDoor({0.2, -0.2, 0.0}, -1.5708); }

  double EvaluateState(const double* obs, const float* action,
                       Info* info) override {
    (void)action;
    double reward, obj_to_target, hand_in_place = 0;
    if (v2_) {
      const double radius = 0.05;
      const Vec3 tcp = TcpCenter();
      const Vec3 obj = articulated::At(obs + 4);
      const double tcp_to_target = Norm3(tcp, target_pos_);
      obj_to_target = Norm3(obj, target_pos_);
      const double in_place_margin = Norm3(obj_init_pos_, target_pos_);
      const double in_place = Tolerance(np_, obj_to_target, 0, radius,
                                        in_place_margin, Sigmoid::kGaussian);
      const double hand_margin = Norm3(hand_init_pos_, obj) + 0.1;
      hand_in_place = Tolerance(np_, tcp_to_target, 0, 0.25 * radius,
                                hand_margin, Sigmoid::kGaussian);
      reward = 3 * hand_in_place + 6 * in_place;
      if (obj_to_target < radius) reward = 10;
    } else {
      reward = V1Reward(obs, &obj_to_target);
    }
    info->obj_to_target = obj_to_target;
    info->in_place_reward = hand_in_place;
    info->success = obj_to_target <= 0.08 ? 1.0 : 0.0;
    info->near_object = 0.0;
    info->grasp_success = 1.0;
    info->grasp_reward = 1.0;
    info->unscaled_reward = reward;
    return reward;
  }
};

}  // namespace metaworld
}  // namespace envpool_lite
