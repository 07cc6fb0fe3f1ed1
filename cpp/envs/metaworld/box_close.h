// box-close-v3: metaworld 3.1.1's envs/sawyer_box_close_v3.py
// (SawyerBoxCloseEnvV3): pick up the lid by its handle and put it on the
// box.
#pragma once

#include "envs/metaworld/tools_common.h"

namespace envpool_lite {
namespace metaworld {

class BoxCloseEnv : public ToolsEnv {
 public:
  static TaskSpec Task() {
    TaskSpec t;
    t.model = "sawyer_xyz/sawyer_box.xml";
    t.hand_low = {-0.5, 0.40, 0.05};
    t.hand_high = {0.5, 1, 0.5};
    t.reset_low = {-0.05, 0.5, 0.02, -0.1, 0.7, 0.133};
    t.reset_high = {0.05, 0.55, 0.02, 0.1, 0.8, 0.133};
    t.goal_low = {-0.1, 0.7, 0.133};
    t.goal_high = {0.1, 0.8, 0.133};
    t.apart = 0.25;
    return t;
  }
  static Config DefaultConfig() { return BaseConfig(Task().model); }
  static EnvSpec MakeSpec(const Config& config) {
    return BaseSpec(config, Task());
  }

  BoxCloseEnv(const Config& config, uint64_t seed)
      : ToolsEnv(config, seed, Task()),
        lid_(Id(mjOBJ_BODY, "top_link")),
        box_(Id(mjOBJ_BODY, "boxbody")),
        goal_site_(Id(mjOBJ_SITE, "goal")),
        handle_geom_(Id(mjOBJ_GEOM, "BoxHandleGeom")) {
    // hand_init_pos: float32 (0, 0.6, 0.2)
    hand_init_pos_ = {0.0, static_cast<double>(0.6f),
                      static_cast<double>(0.2f)};
    Init(seed);
  }

 protected:
  void ResetModel() override {
    ResetHand();
    const double box_height = d()->xpos[3 * box_ + 2];
    const std::vector<double>& v = FrozenApart(0.25, "box-close-v3");
    // obj_init_pos[-1]: the init_config's float32 0.02.
    obj_init_pos_ = {v[0], v[1], static_cast<double>(0.02f)};
    target_pos_ = {v[3], v[4], v[5]};
    const double box_pos[3] = {target_pos_[0], target_pos_[1], box_height};
    std::copy(box_pos, box_pos + 3, m()->body_pos + 3 * box_);
    // frame_skip bare mj_steps (the controls the hand's reset left).
    for (int i = 0; i < kFrameSkip; ++i) api_.step(m(), d());
    SetObjXyz(obj_init_pos_);
    std::copy(target_pos_.begin(), target_pos_.end(),
              m()->site_pos + 3 * goal_site_);
    obj_height_ = d()->geom_xpos[3 * handle_geom_ + 2];
    height_target_ = obj_height_ + 0.12;  // liftThresh
    const Vec3 lifted = {obj_init_pos_[0], obj_init_pos_[1], height_target_};
    max_placing_dist_ = Norm3(lifted, target_pos_) + height_target_;
  }

  void ObjectsPosQuat(std::vector<double>* out) override {
    const double* p = d()->xpos + 3 * lid_;
    out->insert(out->end(), p, p + 3);
    const double* q = d()->xquat + 4 * lid_;
    out->insert(out->end(), q, q + 4);
  }

  double EvaluateState(const double* obs, const float* action,
                       Info* info) override {
    const Vec3 lid_pos = tools::At(obs + 4);
    const bool success = Norm3(lid_pos, target_pos_) < 0.08;
    if (!v2_) return EvaluateV1(obs, action, success, info);
    // _reward_grab_effort: float(np.clip((np.clip(a[3], -1, 1) + 1.0) / 2.0,
    // 0.0, 1.0)) in float32.
    const float a = std::min(std::max(action[3], -1.0f), 1.0f);
    const float effort = (a + 1.0f) / 2.0f;
    const double reward_grab =
        static_cast<double>(std::min(std::max(effort, 0.0f), 1.0f));
    static const double kIdeal[4] = {0.707, 0, 0, 0.707};
    const double reward_quat = RewardQuat(obs, kIdeal, 0.2);
    double ready_to_lift, lifted;
    RewardPos(obs, &ready_to_lift, &lifted);
    double reward =
        2.0 * HamacherProduct(reward_grab, ready_to_lift) + 8.0 * lifted;
    if (success) reward = 10.0;
    reward *= reward_quat;
    info->success = success ? 1.0 : 0.0;
    info->near_object = ready_to_lift;
    info->grasp_success = reward_grab >= 0.5 ? 1.0 : 0.0;
    info->grasp_reward = reward_grab;
    info->in_place_reward = lifted;
    info->obj_to_target = 0;
    info->unscaled_reward = reward;
    return reward;
  }

 private:
  // _reward_pos(obs, target_pos): (ready_to_lift, lifted)
  void RewardPos(const double* obs, double* ready_to_lift,
                 double* lifted) const {
    const Vec3 hand = tools::At(obs);
    const Vec3 lid = {obs[4] + 0.0, obs[5] + 0.0, obs[6] + 0.02};
    const double threshold = 0.02;
    const double radius = NormXy(hand, lid);
    const double floor =
        radius <= threshold ? 0.0 : 0.04 * np_.Log(radius - threshold) + 0.4;
    const double above_floor = hand[2] >= floor
                                   ? 1.0
                                   : Tolerance(np_, floor - hand[2], 0.0, 0.01,
                                               floor / 2.0, Sigmoid::kLongTail);
    const double in_place =
        Tolerance(np_, Norm3(hand, lid), 0, 0.02, 0.5, Sigmoid::kLongTail);
    *ready_to_lift = HamacherProduct(above_floor, in_place);
    const Vec3 pos_error = tools::Sub(target_pos_, lid);
    const double scaled[3] = {pos_error[0] * 1.0, pos_error[1] * 1.0,
                              pos_error[2] * 3.0};
    *lifted = 0.2 * (lid[2] > 0.04 ? 1.0 : 0.0) +
              0.8 * Tolerance(np_, Norm(scaled, 3), 0, 0.05, 0.25,
                              Sigmoid::kLongTail);
  }

  double EvaluateV1(const double* obs, const float* action, bool success,
                    Info* info) {
    const Vec3 obj = tools::At(obs + 4);
    const Vec3 finger = TcpCenter();
    const double placing_dist = Norm3(obj, target_pos_);
    const double reach_dist = Norm3(obj, finger);
    const double reach_dist_xy = NormXy(obj, finger);
    const double z_rew = Norm1(finger[2] - init_tcp_[2]);
    const double reach_rew =
        V1Reach(reach_dist, reach_dist_xy, z_rew, 2.0, 0.05, 0.05, action[3]);
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
      place_rew = tools::PlaceReward(np_, max_placing_dist_, placing_dist);
      place_rew = std::max(place_rew, 0.0);
    }
    const double reward = reach_rew + pick_rew + place_rew;
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
  ENVPOOL_LITE_STATE_AFTER(ToolsEnv, obj_height_, height_target_,
                           max_placing_dist_)

  int lid_, box_, goal_site_, handle_geom_;
  double obj_height_ = 0, height_target_ = 0, max_placing_dist_ = 0;
};

}  // namespace metaworld
}  // namespace envpool_lite
