// hammer-v3: metaworld 3.1.1's envs/sawyer_hammer_v3.py (SawyerHammerEnvV3):
// pick up the hammer and drive the nail into the box. Two objects observed:
// the hammer and the nail.
#pragma once

#include "envs/metaworld/tools_common.h"

namespace envpool_lite {
namespace metaworld {

class HammerEnv : public ToolsEnv {
 public:
  static constexpr double kHammerHandleLength = 0.14;

  static TaskSpec Task() {
    TaskSpec t;
    t.model = "sawyer_xyz/sawyer_hammer.xml";
    t.hand_low = {-0.5, 0.40, 0.05};
    t.hand_high = {0.5, 1, 0.5};
    t.reset_low = {-0.1, 0.4, 0.0};
    t.reset_high = {0.1, 0.5, 0.0};
    t.goal_low = {0.2399, 0.7399, 0.109};
    t.goal_high = {0.2401, 0.7401, 0.111};
    return t;
  }
  static Config DefaultConfig() { return BaseConfig(Task().model); }
  static EnvSpec MakeSpec(const Config& config) {
    return BaseSpec(config, Task());
  }

  HammerEnv(const Config& config, uint64_t seed)
      : ToolsEnv(config, seed, Task()),
        hammer_(Id(mjOBJ_BODY, "hammer")),
        nail_link_(Id(mjOBJ_BODY, "nail_link")),
        box_(Id(mjOBJ_BODY, "box")),
        goal_site_(Id(mjOBJ_SITE, "goal")),
        nail_head_site_(Id(mjOBJ_SITE, "nailHead")),
        hammer_head_geom_(Id(mjOBJ_GEOM, "HammerHead")) {
    nail_qpos_adr_ = m()->jnt_qposadr[Id(mjOBJ_JOINT, "NailSlideJoint")];
    hand_init_pos_ = {0, 0.4, 0.2};
    Init(seed);
  }

 protected:
  void ResetModel() override {
    ResetHand();
    const double box_pos[3] = {0.24, 0.85, 0.0};
    std::copy(box_pos, box_pos + 3, m()->body_pos + 3 * box_);
    target_pos_ = SitePos(goal_site_);
    const std::vector<double>& v = StateRandVec();
    const Vec3 hammer_init_pos = {v[0], v[1], v[2]};
    obj_init_pos_ = hammer_init_pos;
    SetObjXyz(hammer_init_pos);  // _set_hammer_xyz
    hammer_height_ = d()->xpos[3 * hammer_ + 2];
    height_target_ = hammer_height_ + 0.09;  // liftThresh
    const Vec3 lifted = {hammer_init_pos[0], hammer_init_pos[1],
                         height_target_};
    max_hammer_dist_ = Norm3(lifted, obj_init_pos_) + height_target_ +
                       std::abs(obj_init_pos_[1] - target_pos_[1]);
  }

  void ObjectsPosQuat(std::vector<double>* out) override {
    for (int body : {hammer_, nail_link_}) {
      const double* p = d()->xpos + 3 * body;
      out->insert(out->end(), p, p + 3);
      const double* q = d()->xquat + 4 * body;
      out->insert(out->end(), q, q + 4);
    }
  }

  double EvaluateState(const double* obs, const float* action,
                       Info* info) override {
    const bool success = d()->qpos[nail_qpos_adr_] > 0.09;
    if (!v2_) return EvaluateV1(obs, action, success, info);
    const Vec3 hammer = tools::At(obs + 4);
    const Vec3 hammer_head = tools::Add(hammer, {0.16, 0.06, 0.0});
    Vec3 hammer_threshed = hammer;
    if (std::abs(hammer[0] - obs[0]) < kHammerHandleLength / 2.0) {
      hammer_threshed[0] = obs[0];
    }
    static const double kIdeal[4] = {1.0, 0.0, 0.0, 0.0};
    const double reward_quat = RewardQuat(obs, kIdeal, 0.4);
    const PyFloat reward_grab = GripperCagingRewardPy(
        action, hammer_threshed, 0.015, 0.02, 0.01, 0.01, 1.0, true, false);
    // _reward_pos(hammer_head, target_pos)
    const Vec3 pos_error = tools::Sub(target_pos_, hammer_head);
    const bool lifted = hammer_head[2] > 0.02;
    const double reward_in_place =
        0.1 * (lifted ? 1.0 : 0.0) +
        0.9 * Tolerance(np_, Norm(pos_error.data(), 3), 0, 0.02, 0.2,
                        Sigmoid::kLongTail);
    PyFloat reward =
        (PyFloat(2.0) * reward_grab + PyFloat(6.0) * PyFloat(reward_in_place)) *
        PyFloat(reward_quat);
    if (success && reward > PyFloat(5.0)) reward = PyFloat(10.0);
    info->success = success ? 1.0 : 0.0;
    info->near_object = reward_quat;
    info->grasp_success = reward_grab.v >= 0.5 ? 1.0 : 0.0;
    info->grasp_reward = reward_grab.v;
    info->in_place_reward = reward_in_place;
    info->obj_to_target = 0;
    info->unscaled_reward = reward.v;
    return reward.v;
  }

 private:
  double EvaluateV1(const double* obs, const float* action, bool success,
                    Info* info) {
    const Vec3 hammer = tools::At(obs + 4);
    const Vec3 hammer_head = tools::At(d()->geom_xpos + 3 * hammer_head_geom_);
    const Vec3 obj = SitePos(nail_head_site_);
    const Vec3 finger = TcpCenter();
    const double hammer_dist = Norm3(obj, hammer_head);
    const double screw_dist = std::abs(obj[1] - target_pos_[1]);
    const double reach_dist = Norm3(hammer, finger);
    double reach_rew = -reach_dist;
    if (reach_dist < 0.05) reach_rew = tools::ReachGrip(reach_dist, action[3]);
    const bool pick_completed = hammer[2] >= height_target_ - 0.01;
    const bool obj_dropped = hammer[2] < hammer_height_ + 0.005 &&
                             hammer_dist > 0.02 && reach_dist > 0.02;
    double pick_rew = 0;
    if (pick_completed && !obj_dropped) {
      pick_rew = 100 * height_target_;
    } else if (reach_dist < 0.1 && hammer[2] > hammer_height_ + 0.005) {
      pick_rew = 100 * std::min(height_target_, hammer[2]);
    }
    double hammer_rew = 0;
    if (pick_completed && reach_dist < 0.1 && !obj_dropped) {
      const double sum = hammer_dist + screw_dist;
      const double s2 = ScalarSquare(sum);
      hammer_rew = 1000 * (max_hammer_dist_ - hammer_dist - screw_dist) +
                   1000 * (np_.Exp(-s2 / 0.01) + np_.Exp(-s2 / 0.001));
      hammer_rew = std::max(hammer_rew, 0.0);
    }
    const double reward = reach_rew + pick_rew + hammer_rew;
    info->success = success ? 1.0 : 0.0;
    info->near_object = 0.0;
    info->grasp_success = 0.0;
    info->grasp_reward = 0.0;
    info->in_place_reward = 0.0;
    info->obj_to_target = 0;
    info->unscaled_reward = reward;
    return reward;
  }

  // get_state / set_state: what reset_model sets, after the base's.
  ENVPOOL_LITE_STATE_AFTER(ToolsEnv, hammer_height_, height_target_,
                           max_hammer_dist_)

  int hammer_, nail_link_, box_, goal_site_, nail_head_site_, hammer_head_geom_;
  int nail_qpos_adr_ = 0;
  double hammer_height_ = 0, height_target_ = 0, max_hammer_dist_ = 0;
};

}  // namespace metaworld
}  // namespace envpool_lite
