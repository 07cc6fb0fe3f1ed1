// sweep-v3: metaworld 3.1.1's envs/sawyer_sweep_v3.py (SawyerSweepEnvV3):
// sweep a cube off the table's right edge; the rand_vec is the cube's start
// only, the goal's y follows it.
#pragma once

#include "envs/metaworld/sweep_caging.h"

namespace envpool_lite {
namespace metaworld {

class SweepEnv : public SweepCagingEnv {
 public:
  static TaskSpec Task() {
    TaskSpec t;
    t.model = "sawyer_xyz/sawyer_sweep_v3.xml";
    t.hand_low = {-0.5, 0.40, 0.05};
    t.hand_high = {0.5, 1.0, 0.5};
    t.reset_low = {-0.1, 0.6, 0.02};
    t.reset_high = {0.1, 0.7, 0.02};
    t.goal_low = {0.49, 0.6, 0.00};
    t.goal_high = {0.51, 0.7, 0.02};
    return t;
  }
  static Config DefaultConfig() { return BaseConfig(Task().model); }
  static EnvSpec MakeSpec(const Config& config) {
    return BaseSpec(config, Task());
  }

  SweepEnv(const Config& config, uint64_t seed)
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
    target_pos_ = {0.5, 0.65, 0.01};
    const std::vector<double>& v = StateRandVec();
    obj_init_pos_ = {v[0], v[1], 0.02};
    target_pos_[1] = v[1];
    SetObjXyz(obj_init_pos_);
    std::copy(target_pos_.begin(), target_pos_.end(),
              m()->site_pos + 3 * goal_site_);
    const double diff[2] = {obj_init_pos_[0] - target_pos_[0],
                            obj_init_pos_[1] - target_pos_[1]};
    max_push_dist_ = Norm(diff, 2);
  }

  // data.body("obj").xpos and .xquat
  void ObjectsPosQuat(std::vector<double>* out) override {
    const Vec3 pos = BodyCom(obj_);
    out->insert(out->end(), pos.begin(), pos.end());
    const double* q = d()->xquat + 4 * obj_;
    out->insert(out->end(), q, q + 4);
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
      obj_to_target = Norm3(obj, target_pos_);
      tcp_to_obj = Norm3(obj, tcp);
      const double in_place_margin = Norm3(obj_init_pos_, target_pos_);
      in_place = Tolerance(np_, obj_to_target, 0, kTargetRadius,
                           in_place_margin, Sigmoid::kLongTail);
      object_grasped = SweepCagingReward(obj, kObjRadius, 0.01, 0.005);
      reward = (2 * object_grasped) +
               (6 * HamacherProduct(object_grasped, in_place));
      if (obj_to_target < kTargetRadius) reward = 10.0;
    } else {
      const Vec3 finger = TcpCenter();
      const double reach_dist = Norm3(obj, finger);
      const double push_diff[2] = {obj[0] - target_pos_[0],
                                   obj[1] - target_pos_[1]};
      double push_dist = Norm(push_diff, 2);
      double reach_rew = -reach_dist;
      const bool reach_completed = reach_dist < 0.05;
      if (obj[2] < obj_init_pos_[2] - 0.05) {
        reach_rew = 0.0;
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

  // get_state / set_state: what reset_model sets, after the base's.
  ENVPOOL_LITE_STATE_AFTER(SweepCagingEnv, max_push_dist_)

  int obj_, obj_geom_, goal_site_;
  double max_push_dist_ = 0;
};

}  // namespace metaworld
}  // namespace envpool_lite
