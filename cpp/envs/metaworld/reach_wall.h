// reach-wall-v3: metaworld 3.1.1's envs/sawyer_reach_wall_v3.py
// (SawyerReachWallEnvV3): move the gripper's centre to a goal behind a
// wall; the puck on the table is only observed.
#pragma once

#include "envs/metaworld/sawyer_env.h"

namespace envpool_lite {
namespace metaworld {

class ReachWallV3Env : public SawyerEnv {
 public:
  static TaskSpec Task() {
    TaskSpec t;
    t.model = "sawyer_xyz/sawyer_reach_wall_v3.xml";
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

  ReachWallV3Env(const Config& config, uint64_t seed)
      : SawyerEnv(config, seed, Task()),
        obj_(Id(mjOBJ_BODY, "obj")),
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
      throw std::runtime_error("reach-wall-v3: a task's goal is too near");
    }
    target_pos_ = {v[3], v[4], v[5]};
    obj_init_pos_ = {v[0], v[1], v[2]};
    SetObjXyz(obj_init_pos_);
    std::copy(target_pos_.begin(), target_pos_.end(),
              m()->site_pos + 3 * goal_site_);
    max_reach_dist_ = Norm3(init_tcp_, target_pos_);
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
    (void)obs;
    (void)action;
    double reward, reach_dist, in_place;
    if (v2_) {
      const double tcp_to_target = Norm3(TcpCenter(), target_pos_);
      const double in_place_margin = Norm3(hand_init_pos_, target_pos_);
      in_place = Tolerance(np_, tcp_to_target, 0, 0.05, in_place_margin,
                           Sigmoid::kLongTail);
      reward = 10 * in_place;
      reach_dist = tcp_to_target;
    } else {
      const Vec3 r = SitePos(right_effector_), l = SitePos(left_effector_);
      const Vec3 finger = {(r[0] + l[0]) / 2, (r[1] + l[1]) / 2,
                           (r[2] + l[2]) / 2};
      reach_dist = Norm3(finger, target_pos_);
      const double d2 = ScalarSquare(reach_dist);  // reachDist**2
      const double rew = 1000 * (max_reach_dist_ - reach_dist) +
                         1000 * (np_.Exp(-d2 / 0.01) + np_.Exp(-d2 / 0.001));
      reward = std::max(rew, 0.0);
      in_place = 0.0;
    }
    info->success = reach_dist <= 0.05 ? 1.0 : 0.0;
    info->near_object = 0.0;
    info->grasp_success = 0.0;
    info->grasp_reward = 0.0;
    info->in_place_reward = in_place;
    info->obj_to_target = reach_dist;
    info->unscaled_reward = reward;
    return reward;
  }

 private:
  // np.linalg.norm(goal_pos[:2] - goal_pos[3:5])
  double XyDistance(const std::vector<double>& v) const {
    const double diff[2] = {v[0] - v[3], v[1] - v[4]};
    return Norm(diff, 2);
  }

  // get_state / set_state: what reset_model sets, after the base's.
  ENVPOOL_LITE_STATE_AFTER(SawyerEnv, max_reach_dist_)

  int obj_, obj_geom_, goal_site_;
  double max_reach_dist_ = 0;
};

}  // namespace metaworld
}  // namespace envpool_lite
