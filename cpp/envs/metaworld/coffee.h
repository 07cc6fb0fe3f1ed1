// coffee-button-v3, coffee-pull-v3 and coffee-push-v3: metaworld 3.1.1's
// envs/sawyer_coffee_{button,pull,push}_v3.py, on sawyer_coffee.xml (the mug
// on a free joint first in qpos, the coffee machine a body the task moves in
// the model): press the machine's button; pull the mug away from the
// machine; push the mug under it.
#pragma once

#include <cmath>

#include "envs/metaworld/sawyer_env.h"

namespace envpool_lite {
namespace metaworld {

class CoffeeEnvBase : public SawyerEnv {
 protected:
  static TaskSpec BaseTask() {
    TaskSpec t;
    t.model = "sawyer_xyz/sawyer_coffee.xml";
    t.hand_low = {-0.5, 0.40, 0.05};
    t.hand_high = {0.5, 1, 0.5};
    return t;
  }

  CoffeeEnvBase(const Config& config, uint64_t seed, TaskSpec task)
      : SawyerEnv(config, seed, std::move(task)),
        machine_(Id(mjOBJ_BODY, "coffee_machine")) {
    hand_init_pos_ = {0.0, 0.4, 0.2};
  }

  // The coffee tasks' _set_obj_xyz: the mug's position, qpos[0:3]; zero
  // velocities at qvel[9:15] (as metaworld writes them).
  void SetMugXyz(const Vec3& pos) {
    std::vector<double> qpos(d()->qpos, d()->qpos + m()->nq);
    std::vector<double> qvel(d()->qvel, d()->qvel + m()->nv);
    for (int i = 0; i < 3; ++i) qpos[i] = pos[i];
    for (int i = 9; i < 15; ++i) qvel[i] = 0;
    SetState(qpos, qvel);
  }

  void SetMachinePos(const Vec3& pos) {
    std::copy(pos.begin(), pos.end(), m()->body_pos + 3 * machine_);
  }

  // v1's press/pull reward term: 1000 * (max - dist) + 1000 * (exp(-dist**2
  // / 0.01) + exp(-dist**2 / 0.001)).
  double V1Term(double max_dist, double dist) const {
    const double d2 = ScalarSquare(dist);
    return 1000 * (max_dist - dist) +
           1000 * (np_.Exp(-d2 / 0.01) + np_.Exp(-d2 / 0.001));
  }

  int machine_;
};

// coffee-button-v3
class CoffeeButtonEnv : public CoffeeEnvBase {
 public:
  static constexpr double kMaxDist = 0.03;

  static TaskSpec Task() {
    TaskSpec t = BaseTask();
    const Vec3 obj_low{-0.1, 0.8, -0.001}, obj_high{0.1, 0.9, +0.001};
    t.reset_low = {obj_low[0], obj_low[1], obj_low[2]};
    t.reset_high = {obj_high[0], obj_high[1], obj_high[2]};
    // obj_low + np.array([-0.001, -0.22 + max_dist, 0.299]), ...
    const double dy = -0.22 + kMaxDist;
    t.goal_low = {obj_low[0] + -0.001, obj_low[1] + dy, obj_low[2] + 0.299};
    t.goal_high = {obj_high[0] + +0.001, obj_high[1] + dy, obj_high[2] + 0.301};
    return t;
  }
  static Config DefaultConfig() { return BaseConfig(Task().model); }
  static EnvSpec MakeSpec(const Config& config) {
    return BaseSpec(config, Task());
  }

  CoffeeButtonEnv(const Config& config, uint64_t seed)
      : CoffeeEnvBase(config, seed, Task()),
        button_start_(Id(mjOBJ_SITE, "buttonStart")) {
    Init(seed);
  }

 protected:
  void ResetModel() override {
    ResetHand();
    const std::vector<double>& v = StateRandVec();
    obj_init_pos_ = {v[0], v[1], v[2]};
    SetMachinePos(obj_init_pos_);
    const Vec3 pos_mug = {v[0] + 0.0, v[1] + -0.22, v[2] + 0.0};
    SetMugXyz(pos_mug);
    const Vec3 pos_button = {v[0] + 0.0, v[1] + -0.22, v[2] + 0.3};
    target_pos_ = {pos_button[0] + 0.0, pos_button[1] + kMaxDist,
                   pos_button[2] + 0.0};
    max_dist_ = std::abs(SitePos(button_start_)[1] - target_pos_[1]);
  }

  void ObjectsPosQuat(std::vector<double>* out) override {
    const Vec3 p = SitePos(button_start_);
    out->insert(out->end(), p.begin(), p.end());
    out->insert(out->end(), {1.0, 0.0, 0.0, 0.0});
  }

  double EvaluateState(const double* obs, const float* action,
                       Info* info) override {
    (void)action;
    const Vec3 obj = {obs[4], obs[5], obs[6]};
    double reward, tcp_to_obj, tcp_open, obj_to_target, near_button,
        button_pressed;
    if (v2_) {
      const Vec3 tcp = TcpCenter();
      tcp_to_obj = Norm3(obj, tcp);
      const double tcp_to_obj_init = Norm3(obj, init_tcp_);
      obj_to_target = std::abs(target_pos_[1] - obj[1]);
      const double tcp_closed = std::max(obs[3], 0.0);
      near_button = Tolerance(np_, tcp_to_obj, 0, 0.05, tcp_to_obj_init,
                              Sigmoid::kLongTail);
      button_pressed =
          Tolerance(np_, obj_to_target, 0, 0.005, kMaxDist, Sigmoid::kLongTail);
      reward = 2 * HamacherProduct(tcp_closed, near_button);
      if (tcp_to_obj <= 0.05) reward += 8 * button_pressed;
      tcp_open = obs[3];
    } else {
      const Vec3 finger = SitePos(left_effector_);
      const double press_dist = std::abs(obj[1] - target_pos_[1]);
      const double reach_dist = Norm3(obj, finger);
      double press_rew = 0;
      if (reach_dist < 0.05) press_rew = V1Term(max_dist_, press_dist);
      press_rew = std::max(press_rew, 0.0);
      reward = -reach_dist + press_rew;
      tcp_to_obj = 0.0;
      tcp_open = 0.0;
      obj_to_target = press_dist;
      near_button = 0.0;
      button_pressed = 0.0;
    }
    info->success = obj_to_target <= 0.02 ? 1.0 : 0.0;
    info->near_object = tcp_to_obj <= 0.05 ? 1.0 : 0.0;
    info->grasp_success = tcp_open > 0 ? 1.0 : 0.0;
    info->grasp_reward = near_button;
    info->in_place_reward = button_pressed;
    info->obj_to_target = obj_to_target;
    info->unscaled_reward = reward;
    return reward;
  }

 private:
  // get_state / set_state: what reset_model sets, after the base's.
  ENVPOOL_LITE_STATE_AFTER(CoffeeEnvBase, max_dist_)

  int button_start_;
  double max_dist_ = 0;
};

// coffee-pull-v3 (kPull) and coffee-push-v3: the mug from its start to its
// goal (0.15 apart at least in x, y); the machine behind the mug's start
// (pull) or behind its goal (push).
class CoffeeMugEnvBase : public CoffeeEnvBase {
 protected:
  static TaskSpec MugTask(bool pull) {
    TaskSpec t = BaseTask();
    const Vec3 obj_low =
        pull ? Vec3{-0.05, 0.7, -0.001} : Vec3{-0.1, 0.55, -0.001};
    const Vec3 obj_high =
        pull ? Vec3{0.05, 0.75, +0.001} : Vec3{0.1, 0.65, +0.001};
    const Vec3 goal_low =
        pull ? Vec3{-0.1, 0.55, -0.001} : Vec3{-0.05, 0.7, -0.001};
    const Vec3 goal_high =
        pull ? Vec3{0.1, 0.65, +0.001} : Vec3{0.05, 0.75, +0.001};
    t.reset_low = {obj_low[0],  obj_low[1],  obj_low[2],
                   goal_low[0], goal_low[1], goal_low[2]};
    t.reset_high = {obj_high[0],  obj_high[1],  obj_high[2],
                    goal_high[0], goal_high[1], goal_high[2]};
    t.goal_low = goal_low;
    t.goal_high = goal_high;
    t.apart = 0.15;
    return t;
  }

  CoffeeMugEnvBase(const Config& config, uint64_t seed, bool pull)
      : CoffeeEnvBase(config, seed, MugTask(pull)),
        pull_(pull),
        obj_(Id(mjOBJ_BODY, "obj")),
        mug_(Id(mjOBJ_GEOM, "mug")),
        mug_goal_(Id(mjOBJ_SITE, "mug_goal")) {}

  void ResetModel() override {
    ResetHand();
    const std::vector<double>& v = StateRandVec();
    if (XyDistance(v) < 0.15) {
      throw std::runtime_error("coffee: a task's goal is too near its mug");
    }
    const Vec3 mug_init = {v[0], v[1], v[2]};
    const Vec3 mug_goal = {v[3], v[4], v[5]};
    SetMugXyz(mug_init);
    obj_init_pos_ = mug_init;
    const Vec3& at = pull_ ? mug_init : mug_goal;
    SetMachinePos({at[0] + 0.0, at[1] + 0.22, at[2] + 0.0});
    target_pos_ = mug_goal;
    std::copy(target_pos_.begin(), target_pos_.end(),
              m()->site_pos + 3 * mug_goal_);
    const double diff[2] = {obj_init_pos_[0] - target_pos_[0],
                            obj_init_pos_[1] - target_pos_[1]};
    max_dist_ = Norm(diff, 2);
  }

  void ObjectsPosQuat(std::vector<double>* out) override {
    const Vec3 p = BodyCom(obj_);
    out->insert(out->end(), p.begin(), p.end());
    const std::array<double, 4> q = MatrixToQuat(d()->geom_xmat + 9 * mug_);
    out->insert(out->end(), q.begin(), q.end());
  }

  double EvaluateState(const double* obs, const float* action,
                       Info* info) override {
    const Vec3 obj = {obs[4], obs[5], obs[6]};
    const Vec3& target = target_pos_;
    PyFloat reward;
    double tcp_to_obj, tcp_open, obj_to_target, in_place;
    PyFloat object_grasped;
    if (v2_) {
      // Emphasize X and Y errors: scale (2, 2, 1).
      const double scaled[3] = {(obj[0] - target[0]) * 2.0,
                                (obj[1] - target[1]) * 2.0,
                                (obj[2] - target[2]) * 1.0};
      const double target_to_obj = Norm(scaled, 3);
      const double scaled_init[3] = {(obj_init_pos_[0] - target[0]) * 2.0,
                                     (obj_init_pos_[1] - target[1]) * 2.0,
                                     (obj_init_pos_[2] - target[2]) * 1.0};
      const double target_to_obj_init = Norm(scaled_init, 3);
      in_place = Tolerance(np_, target_to_obj, 0, 0.05, target_to_obj_init,
                           Sigmoid::kLongTail);
      tcp_open = obs[3];
      tcp_to_obj = Norm3(obj, TcpCenter());
      object_grasped = GripperCagingRewardPy(action, obj, 0.02, 0.05, 0.04,
                                             0.05, 0.7, false, true);
      reward = HamacherProduct(object_grasped, PyFloat(in_place));
      if (tcp_to_obj < 0.04 && tcp_open > 0) {
        reward = reward + PyFloat(1.0 + 5.0 * in_place);
      }
      if (target_to_obj < 0.05) reward = PyFloat(10.0);
      obj_to_target = Norm3(obj, target);
    } else {
      const Vec3 r = SitePos(right_effector_), l = SitePos(left_effector_);
      const Vec3 finger = {(r[0] + l[0]) / 2, (r[1] + l[1]) / 2,
                           (r[2] + l[2]) / 2};
      const double reach_dist = Norm3(finger, obj);
      const double xy[2] = {obj[0] - target[0], obj[1] - target[1]};
      const double dist = Norm(xy, 2);
      double reach_rew = -reach_dist;
      if (pull_) {
        // reachDistxy: the norm of (obj x, obj y, init_tcp z).
        const double v[3] = {obj[0], obj[1], init_tcp_[2]};
        const double reach_dist_xy = Norm(v, 3);
        if (reach_dist_xy < 0.05) {
          reach_rew = -reach_dist + 0.1;
          if (reach_dist < 0.05) {
            // max(action[-1], 0) / 50: a float32 (or the int 0).
            const float a = action[3];
            const float grip = 0 > a ? 0.0f : a;
            reach_rew += static_cast<double>(grip / 50.0f);
          }
        } else {
          reach_rew = -reach_dist_xy;
        }
      }
      double dist_rew = 0;
      if (reach_dist < 0.05) {
        dist_rew = std::max(V1Term(max_dist_, dist), 0.0);
      }
      reward = PyFloat(reach_rew + dist_rew);
      tcp_to_obj = 0.0;
      tcp_open = 0.0;
      obj_to_target = Norm3(obj, target);
      object_grasped = PyFloat(0.0);
      in_place = 0.0;
    }
    const bool touching = TouchingObject(mug_);
    info->success = obj_to_target <= 0.07 ? 1.0 : 0.0;
    info->near_object = tcp_to_obj <= 0.03 ? 1.0 : 0.0;
    info->grasp_success = touching && tcp_open > 0 ? 1.0 : 0.0;
    info->grasp_reward = object_grasped.v;
    info->in_place_reward = in_place;
    info->obj_to_target = obj_to_target;
    info->unscaled_reward = reward.v;
    return reward.v;
  }

 private:
  // np.linalg.norm(pos_mug_init[:2] - pos_mug_goal[:2])
  double XyDistance(const std::vector<double>& v) const {
    const double diff[2] = {v[0] - v[3], v[1] - v[4]};
    return Norm(diff, 2);
  }

  // get_state / set_state: what reset_model sets, after the base's.
  ENVPOOL_LITE_STATE_AFTER(CoffeeEnvBase, max_dist_)

  bool pull_;
  int obj_, mug_, mug_goal_;
  double max_dist_ = 0;
};

class CoffeePullEnv : public CoffeeMugEnvBase {
 public:
  static TaskSpec Task() { return MugTask(true); }
  static Config DefaultConfig() { return BaseConfig(Task().model); }
  static EnvSpec MakeSpec(const Config& config) {
    return BaseSpec(config, MugTask(true));
  }
  CoffeePullEnv(const Config& config, uint64_t seed)
      : CoffeeMugEnvBase(config, seed, true) {
    Init(seed);
  }
};

class CoffeePushEnv : public CoffeeMugEnvBase {
 public:
  static TaskSpec Task() { return MugTask(false); }
  static Config DefaultConfig() { return BaseConfig(Task().model); }
  static EnvSpec MakeSpec(const Config& config) {
    return BaseSpec(config, MugTask(false));
  }
  CoffeePushEnv(const Config& config, uint64_t seed)
      : CoffeeMugEnvBase(config, seed, false) {
    Init(seed);
  }
};

}  // namespace metaworld
}  // namespace envpool_lite
