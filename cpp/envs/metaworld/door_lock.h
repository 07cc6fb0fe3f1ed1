// door-lock-v3 and door-unlock-v3: metaworld 3.1.1's
// envs/sawyer_door_lock_v3.py (SawyerDoorLockEnvV3) and
// sawyer_door_unlock_v3.py (SawyerDoorUnlockEnvV3): turn the lock of the door
// (model sawyer_door_lock.xml) down, or back.
#pragma once

#include "envs/metaworld/articulated_common.h"

namespace envpool_lite {
namespace metaworld {

class DoorLockBaseEnv : public SawyerEnv {
 protected:
  static TaskSpec LockTask(Vec3 goal_low, Vec3 goal_high) {
    TaskSpec t;
    t.model = "sawyer_xyz/sawyer_door_lock.xml";
    t.hand_low = {-0.5, 0.40, -0.15};
    t.hand_high = {0.5, 1, 0.5};
    t.reset_low = {-0.1, 0.8, 0.15};
    t.reset_high = {0.1, 0.85, 0.15};
    t.goal_low = goal_low;
    t.goal_high = goal_high;
    return t;
  }

  DoorLockBaseEnv(const Config& config, uint64_t seed, TaskSpec task,
                  const char* start_site)
      : SawyerEnv(config, seed, std::move(task)),
        door_(Id(mjOBJ_BODY, "door")),
        door_link_(Id(mjOBJ_BODY, "door_link")),
        lock_link_(Id(mjOBJ_BODY, "lock_link")),
        start_site_(Id(mjOBJ_SITE, start_site)) {
    hand_init_pos_ = articulated::F32(0, 0.6, 0.2);
  }

  // The door at the rand_vec (model.body("door").pos).
  void PlaceDoor() {
    const std::vector<double>& v = StateRandVec();
    std::copy(v.begin(), v.begin() + 3, m()->body_pos + 3 * door_);
  }

  // obj_init_pos is data.body("lock_link").xpos itself (a view: it follows
  // the lock); the goal and maxPullDist are taken from it at reset.
  Vec3 LockPos() const { return BodyCom(lock_link_); }
  void SetGoal(const Vec3& offset) {
    const Vec3 lock = LockPos();
    target_pos_ = articulated::Add(lock, offset);
    max_pull_dist_ = Norm3(target_pos_, lock);
  }

  void ObjectsPosQuat(std::vector<double>* out) override {
    const Vec3 p = SitePos(start_site_);
    out->insert(out->end(), p.begin(), p.end());
    const double* q = d()->xquat + 4 * door_link_;
    out->insert(out->end(), q, q + 4);
  }

  // The v1 reward (both files); *pull_dist the lock's distance to the goal.
  double V1Reward(const double* obs, double* pull_dist) const {
    const Vec3 obj = articulated::At(obs + 4);
    *pull_dist = Norm3(obj, target_pos_);
    const double reach_dist = Norm3(obj, TcpCenter());
    const double pull_rew =
        reach_dist < 0.05 ? articulated::V1Pull(np_, max_pull_dist_, *pull_dist,
                                                0.01, 0.001, true)
                          : 0.0;
    return -reach_dist + pull_rew;
  }

  // evaluate_state's info (both files) from compute_reward's values.
  static void FillInfo(Info* info, double reward, double tcp_to_obj,
                       double tcp_open, double obj_to_target, double near,
                       double pressed) {
    info->success = obj_to_target <= 0.02 ? 1.0 : 0.0;
    info->near_object = tcp_to_obj <= 0.05 ? 1.0 : 0.0;
    info->grasp_success = tcp_open > 0 ? 1.0 : 0.0;
    info->grasp_reward = near;
    info->in_place_reward = pressed;
    info->obj_to_target = obj_to_target;
    info->unscaled_reward = reward;
  }

  static constexpr double kLockLength = 0.1;
  // get_state / set_state: what reset_model sets, after the base's.
  ENVPOOL_LITE_STATE_AFTER(SawyerEnv, max_pull_dist_)

  int door_, door_link_, lock_link_, start_site_;
  double max_pull_dist_ = 0;
};

class DoorLockEnv : public DoorLockBaseEnv {
 public:
  static TaskSpec Task() {
    return LockTask({-0.5, 0.40, -0.15}, {0.5, 1, 0.5});
  }
  static Config DefaultConfig() { return BaseConfig(Task().model); }
  static EnvSpec MakeSpec(const Config& config) {
    return BaseSpec(config, Task());
  }

  DoorLockEnv(const Config& config, uint64_t seed)
      : DoorLockBaseEnv(config, seed, Task(), "lockStartLock") {
    Init(seed);
  }

 protected:
  void ResetModel() override {
    ResetHand();
    PlaceDoor();
    for (int i = 0; i < kFrameSkip; ++i) api_.step(m(), d());
    SetGoal({0.0, -0.04, -0.1});
  }

  double EvaluateState(const double* obs, const float* action,
                       Info* info) override {
    (void)action;
    if (!v2_) {
      double pull_dist;
      const double reward = V1Reward(obs, &pull_dist);
      FillInfo(info, reward, 0.0, 0.0, pull_dist, 0.0, 0.0);
      return reward;
    }
    const Vec3 obj = articulated::At(obs + 4);
    const Vec3 scale = {0.25, 1.0, 0.5};
    // tcp is the left pad, and init_left_pad is a view of the same
    // position: the margin equals the distance.
    const Vec3 rel =
        articulated::Mul(articulated::Sub(obj, BodyCom(left_pad_)), scale);
    const double tcp_to_obj = Norm(rel.data(), 3);
    const double tcp_to_obj_init = tcp_to_obj;
    const double obj_to_target = std::abs(target_pos_[2] - obj[2]);
    const double tcp_opened = std::max(obs[3], 0.0);
    const double near_lock = Tolerance(np_, tcp_to_obj, 0, 0.01,
                                       tcp_to_obj_init, Sigmoid::kLongTail);
    const double lock_pressed = Tolerance(np_, obj_to_target, 0, 0.005,
                                          kLockLength, Sigmoid::kLongTail);
    double reward = 2 * HamacherProduct(tcp_opened, near_lock);
    reward += 8 * lock_pressed;
    FillInfo(info, reward, tcp_to_obj, obs[3], obj_to_target, near_lock,
             lock_pressed);
    return reward;
  }
};

class DoorUnlockEnv : public DoorLockBaseEnv {
 public:
  static TaskSpec Task() {
    return LockTask({0.0, 0.64, 0.2100}, {0.2, 0.7, 0.2111});
  }
  static Config DefaultConfig() { return BaseConfig(Task().model); }
  static EnvSpec MakeSpec(const Config& config) {
    return BaseSpec(config, Task());
  }

  DoorUnlockEnv(const Config& config, uint64_t seed)
      : DoorLockBaseEnv(config, seed, Task(), "lockStartUnlock") {
    Init(seed);
  }

 protected:
  void ResetModel() override {
    ResetHand();
    PlaceDoor();
    // _set_obj_xyz(1.5708): qpos[9], qvel[9].
    std::vector<double> qpos(d()->qpos, d()->qpos + m()->nq);
    std::vector<double> qvel(d()->qvel, d()->qvel + m()->nv);
    qpos[9] = 1.5708;
    qvel[9] = 0;
    SetState(qpos, qvel);
    SetGoal({0.1, -0.04, 0.0});
  }

  double EvaluateState(const double* obs, const float* action,
                       Info* info) override {
    (void)action;
    if (!v2_) {
      double pull_dist;
      const double reward = V1Reward(obs, &pull_dist);
      FillInfo(info, reward, 0.0, 0.0, pull_dist, 0.0, 0.0);
      return reward;
    }
    using articulated::Add;
    using articulated::Mul;
    using articulated::Sub;
    const Vec3 gripper = articulated::At(obs);
    const Vec3 lock = articulated::At(obs + 4);
    const Vec3 offset = {0.0, 0.055, 0.07};
    const Vec3 scale = {0.25, 1.0, 0.5};
    const Vec3 shoulder_to_lock = Mul(Sub(Add(gripper, offset), lock), scale);
    // obj_init_pos: the lock's current position (a view).
    const Vec3 shoulder_to_lock_init =
        Mul(Sub(Add(init_tcp_, offset), LockPos()), scale);
    const double dist = Norm(shoulder_to_lock.data(), 3);
    const double ready_to_push =
        Tolerance(np_, dist, 0, 0.02, Norm(shoulder_to_lock_init.data(), 3),
                  Sigmoid::kLongTail);
    const double obj_to_target = std::abs(target_pos_[0] - lock[0]);
    const double pushed = Tolerance(np_, obj_to_target, 0, 0.005, kLockLength,
                                    Sigmoid::kLongTail);
    const double reward = 2 * ready_to_push + 8 * pushed;
    FillInfo(info, reward, dist, obs[3], obj_to_target, ready_to_push, pushed);
    return reward;
  }
};

}  // namespace metaworld
}  // namespace envpool_lite
