// sweep-into-v3: metaworld 3.1.1's envs/sawyer_sweep_into_goal_v3.py
// (SawyerSweepIntoGoalEnvV3): push a cube into the hole at a fixed goal.
#pragma once

#include "envs/metaworld/sweep_caging.h"

namespace envpool_lite {
namespace metaworld {

class SweepIntoEnv : public SweepCagingEnv {
 public:
  static TaskSpec Task() {
    TaskSpec t;
    t.model = "sawyer_xyz/sawyer_table_with_hole.xml";
    t.hand_low = {-0.5, 0.40, 0.05};
    t.hand_high = {0.5, 1, 0.5};
    t.reset_low = {-0.1, 0.6, 0.02, -0.001, 0.8399, 0.0199};
    t.reset_high = {0.1, 0.7, 0.02, +0.001, 0.8401, 0.0201};
    t.goal_low = {-0.001, 0.8399, 0.0199};
    t.goal_high = {+0.001, 0.8401, 0.0201};
    t.apart = 0.15;
    t.apart_from_point = true;
    t.apart_from = {kGoal[0], kGoal[1]};
    return t;
  }
  static Config DefaultConfig() { return BaseConfig(Task().model); }
  static EnvSpec MakeSpec(const Config& config) {
    return BaseSpec(config, Task());
  }

  SweepIntoEnv(const Config& config, uint64_t seed)
      : SweepCagingEnv(config, seed, Task()),
        obj_(Id(mjOBJ_BODY, "obj")),
        obj_geom_(Id(mjOBJ_GEOM, "objGeom")),
        goal_site_(Id(mjOBJ_SITE, "goal")) {
    hand_init_pos_ = {0.0, 0.6, 0.2};
    Init(seed);
  }

 protected:
  void ResetModel() override {
    ResetHand();
    target_pos_ = kGoal;
    const double obj_z = BodyCom(obj_)[2];
    const std::vector<double>& v = StateRandVec();
    if (GoalDistance(v) < 0.15) {
      throw std::runtime_error("sweep-into-v3: a task's cube is too near");
    }
    obj_init_pos_ = {v[0], v[1], obj_z};
    SetObjXyz(obj_init_pos_);
    std::copy(target_pos_.begin(), target_pos_.end(),
              m()->site_pos + 3 * goal_site_);
    const double diff[2] = {obj_init_pos_[0] - target_pos_[0],
                            obj_init_pos_[1] - target_pos_[1]};
    max_push_dist_ = Norm(diff, 2);
  }

  void ObjectsPosQuat(std::vector<double>* out) override {
    const Vec3 pos = BodyCom(obj_);
    out->insert(out->end(), pos.begin(), pos.end());
    const std::array<double, 4> q =
        MatrixToQuat(d()->geom_xmat + 9 * obj_geom_);
    out->insert(out->end(), q.begin(), q.end());
  }

  double EvaluateState(const double* obs, const float* action,
                       Info* info) override {
    (void)action;
    const Vec3 obj = {obs[4], obs[5], obs[6]};
    const double tcp_opened = obs[3];
    double reward, tcp_to_obj, obj_to_target, object_grasped, in_place;
    if (v2_) {
      constexpr double kTargetRadius = 0.05;
      const Vec3 tcp = TcpCenter();
      const Vec3 target = {target_pos_[0], target_pos_[1], obj[2]};
      obj_to_target = Norm3(obj, target);
      tcp_to_obj = Norm3(obj, tcp);
      const double in_place_margin = Norm3(obj_init_pos_, target);
      in_place = Tolerance(np_, obj_to_target, 0, kTargetRadius,
                           in_place_margin, Sigmoid::kLongTail);
      object_grasped = SweepCagingReward(obj, kObjRadius, 0.005, 0.01);
      reward = (2 * object_grasped) +
               (6 * HamacherProduct(object_grasped, in_place));
      if (obj_to_target < kTargetRadius) reward = 10.0;
    } else {
      const Vec3 finger = TcpCenter();
      double reach_dist = Norm3(finger, obj);
      const double push_diff[2] = {obj[0] - target_pos_[0],
                                   obj[1] - target_pos_[1]};
      double push_dist = Norm(push_diff, 2);
      double reach_rew = -reach_dist;
      const bool reach_completed = reach_dist < 0.05;
      if (obj[2] < obj_init_pos_[2] - 0.05 && 0.4 < obj[1] && obj[1] < 1.0) {
        reach_rew = 0.0;
        reach_dist = 0.0;
        push_dist = 0.0;
      }
      const double push_rew =
          reach_completed ? PushReward(max_push_dist_, push_dist) : 0.0;
      reward = reach_rew + push_rew;
      tcp_to_obj = 0.0;
      obj_to_target = push_dist;
      object_grasped = 0.0;
      in_place = 0.0;
    }
    const bool grasped = v2_ && TouchingObject(obj_geom_) && tcp_opened > 0;
    info->success = obj_to_target <= 0.05 ? 1.0 : 0.0;
    info->near_object = tcp_to_obj <= 0.03 ? 1.0 : 0.0;
    info->grasp_success = grasped ? 1.0 : 0.0;
    info->grasp_reward = object_grasped;
    info->in_place_reward = in_place;
    info->obj_to_target = obj_to_target;
    info->unscaled_reward = reward;
    return reward;
  }

 private:
  static constexpr double kObjRadius = 0.02;
  static constexpr Vec3 kGoal = {0.0, 0.84, 0.02};

  // np.linalg.norm(goal_pos[:2] - self._target_pos[:2])
  double GoalDistance(const std::vector<double>& v) const {
    const double diff[2] = {v[0] - kGoal[0], v[1] - kGoal[1]};
    return Norm(diff, 2);
  }

  // get_state / set_state: what reset_model sets, after the base's.
  ENVPOOL_LITE_STATE_AFTER(SweepCagingEnv, max_push_dist_)

  int obj_, obj_geom_, goal_site_;
  double max_push_dist_ = 0;
};

}  // namespace metaworld
}  // namespace envpool_lite
