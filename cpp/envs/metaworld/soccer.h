// soccer-v3: metaworld 3.1.1's envs/sawyer_soccer_v3.py (SawyerSoccerEnvV3):
// kick a ball into a goal that moves with the task (model body
// "goal_whole").
#pragma once

#include "envs/metaworld/sweep_caging.h"

namespace envpool_lite {
namespace metaworld {

class SoccerEnv : public SweepCagingEnv {
 public:
  static TaskSpec Task() {
    TaskSpec t;
    t.model = "sawyer_xyz/sawyer_soccer.xml";
    t.hand_low = {-0.5, 0.40, 0.05};
    t.hand_high = {0.5, 1, 0.5};
    t.reset_low = {-0.1, 0.6, 0.03, -0.1, 0.8, 0.0};
    t.reset_high = {0.1, 0.7, 0.03, 0.1, 0.9, 0.0};
    t.goal_low = {-0.1, 0.8, 0.0};
    t.goal_high = {0.1, 0.9, 0.0};
    t.apart = 0.15;
    return t;
  }
  static Config DefaultConfig() { return BaseConfig(Task().model); }
  static EnvSpec MakeSpec(const Config& config) {
    return BaseSpec(config, Task());
  }

  SoccerEnv(const Config& config, uint64_t seed)
      : SweepCagingEnv(config, seed, Task()),
        ball_(Id(mjOBJ_BODY, "soccer_ball")),
        goal_whole_(Id(mjOBJ_BODY, "goal_whole")),
        obj_geom_(Id(mjOBJ_GEOM, "objGeom")),
        goal_site_(Id(mjOBJ_SITE, "goal")) {
    hand_init_pos_ = {0.0, 0.6, 0.2};
    Init(seed);
  }

 protected:
  void ResetModel() override {
    ResetHand();
    const std::vector<double>& v = StateRandVec();
    if (XyDistance(v) < 0.15) {
      throw std::runtime_error("soccer-v3: a task's ball is too near its goal");
    }
    target_pos_ = {v[3], v[4], v[5]};
    // obj_init_pos[-1] stays init_config's 0.03.
    obj_init_pos_ = {v[0], v[1], 0.03};
    std::copy(target_pos_.begin(), target_pos_.end(),
              m()->body_pos + 3 * goal_whole_);
    SetObjXyz(obj_init_pos_);
    const double diff[2] = {obj_init_pos_[0] - target_pos_[0],
                            obj_init_pos_[1] - target_pos_[1]};
    max_push_dist_ = Norm(diff, 2);
    std::copy(target_pos_.begin(), target_pos_.end(),
              m()->site_pos + 3 * goal_site_);
  }

  void ObjectsPosQuat(std::vector<double>* out) override {
    const Vec3 pos = BodyCom(ball_);
    out->insert(out->end(), pos.begin(), pos.end());
    const std::array<double, 4> q = MatrixToQuat(d()->xmat + 9 * ball_);
    out->insert(out->end(), q.begin(), q.end());
  }

  double EvaluateState(const double* obs, const float* action,
                       Info* info) override {
    (void)action;
    const Vec3 obj = {obs[4], obs[5], obs[6]};
    const double tcp_opened = v2_ ? obs[3] : 0.0;
    double reward, tcp_to_obj, obj_to_target, object_grasped, in_place;
    if (v2_) {
      constexpr double kTargetRadius = 0.07;
      tcp_to_obj = Norm3(obj, TcpCenter());
      // np.linalg.norm((a - b) * [3.0, 1.0, 1.0])
      const double scaled[3] = {(obj[0] - target_pos_[0]) * 3.0,
                                (obj[1] - target_pos_[1]) * 1.0,
                                (obj[2] - target_pos_[2]) * 1.0};
      const double target_to_obj = Norm(scaled, 3);
      const double scaled_init[3] = {(obj[0] - obj_init_pos_[0]) * 3.0,
                                     (obj[1] - obj_init_pos_[1]) * 1.0,
                                     (obj[2] - obj_init_pos_[2]) * 1.0};
      const double target_to_obj_init = Norm(scaled_init, 3);
      in_place = Tolerance(np_, target_to_obj, 0, kTargetRadius,
                           target_to_obj_init, Sigmoid::kLongTail);
      const double goal_line = target_pos_[1] - 0.1;
      if (obj[1] > goal_line && std::abs(obj[0] - target_pos_[0]) > 0.10) {
        const double x =
            in_place - 2 * ((obj[1] - goal_line) / (1 - goal_line));
        in_place = std::min(std::max(x, 0.0), 1.0);
      }
      object_grasped = SweepCagingReward(obj, kObjRadius, 0.01, 0.005);
      reward = (3 * object_grasped) + (6.5 * in_place);
      if (target_to_obj < kTargetRadius) reward = 10.0;
      obj_to_target = Norm3(obj, target_pos_);
    } else {
      const Vec3 finger = TcpCenter();
      const double reach_dist = Norm3(finger, obj);
      const double push_diff[2] = {obj[0] - target_pos_[0],
                                   obj[1] - target_pos_[1]};
      const double push_dist = Norm(push_diff, 2);
      const double push_rew =
          reach_dist < 0.05 ? PushReward(max_push_dist_, push_dist) : 0.0;
      reward = -reach_dist + push_rew;
      tcp_to_obj = 0.0;
      obj_to_target = push_dist;
      object_grasped = 0.0;
      in_place = 0.0;
    }
    const bool grasped = TouchingObject(obj_geom_) && tcp_opened > 0 &&
                         (obj[2] - 0.02 > obj_init_pos_[2]);
    info->success = obj_to_target <= 0.07 ? 1.0 : 0.0;
    info->near_object = tcp_to_obj <= 0.03 ? 1.0 : 0.0;
    info->grasp_success = grasped ? 1.0 : 0.0;
    info->grasp_reward = object_grasped;
    info->in_place_reward = in_place;
    info->obj_to_target = obj_to_target;
    info->unscaled_reward = reward;
    return reward;
  }

 private:
  static constexpr double kObjRadius = 0.013;

  // np.linalg.norm(goal_pos[:2] - goal_pos[3:5])
  double XyDistance(const std::vector<double>& v) const {
    const double diff[2] = {v[0] - v[3], v[1] - v[4]};
    return Norm(diff, 2);
  }

  // get_state / set_state: what reset_model sets, after the base's.
  ENVPOOL_LITE_STATE_AFTER(SweepCagingEnv, max_push_dist_)

  int ball_, goal_whole_, obj_geom_, goal_site_;
  double max_push_dist_ = 0;
};

}  // namespace metaworld
}  // namespace envpool_lite
