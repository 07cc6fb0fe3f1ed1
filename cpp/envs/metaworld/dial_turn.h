// dial-turn-v3: metaworld 3.1.1's envs/sawyer_dial_turn_v3.py
// (SawyerDialTurnEnvV3): turn the dial (model sawyer_dial.xml).
#pragma once

#include "envs/metaworld/articulated_common.h"

namespace envpool_lite {
namespace metaworld {

class DialTurnEnv : public SawyerEnv {
 public:
  static TaskSpec Task() {
    TaskSpec t;
    t.model = "sawyer_xyz/sawyer_dial.xml";
    t.hand_low = {-0.5, 0.40, 0.05};
    t.hand_high = {0.5, 1, 0.5};
    t.reset_low = {-0.1, 0.7, 0.0};
    t.reset_high = {0.1, 0.8, 0.0};
    t.goal_low = {-0.1, 0.73, 0.0299};
    t.goal_high = {0.1, 0.83, 0.0301};
    return t;
  }
  static Config DefaultConfig() { return BaseConfig(Task().model); }
  static EnvSpec MakeSpec(const Config& config) {
    return BaseSpec(config, Task());
  }

  DialTurnEnv(const Config& config, uint64_t seed)
      : SawyerEnv(config, seed, Task()),
        dial_(Id(mjOBJ_BODY, "dial")),
        goal_site_(Id(mjOBJ_SITE, "goal")),
        knob_qpos_adr_(m()->jnt_qposadr[Id(mjOBJ_JOINT, "knob_Joint_1")]) {
    hand_init_pos_ = articulated::F32(0, 0.6, 0.2);
    Init(seed);
  }

 protected:
  static constexpr double kTargetRadius = 0.07;

  void ResetModel() override {
    ResetHand();
    const std::vector<double>& v = StateRandVec();
    obj_init_pos_ = {v[0], v[1], v[2]};
    target_pos_ = articulated::Add(obj_init_pos_, {0, 0.03, 0.03});
    std::copy(obj_init_pos_.begin(), obj_init_pos_.end(),
              m()->body_pos + 3 * dial_);
    dial_push_position_ = PushPosition();
    std::copy(target_pos_.begin(), target_pos_.end(),
              m()->site_pos + 3 * goal_site_);
    max_pull_dist_ = std::abs(target_pos_[1] - obj_init_pos_[1]);
  }

  // _get_pos_objects: the dial's centre plus 0.05 * (sin, -cos, 0) of its
  // angle (np.sin / np.cos of a 1-element array).
  Vec3 DialPos() const {
    const Vec3 center = BodyCom(dial_);
    const double angle = d()->qpos[knob_qpos_adr_];
    Vec3 offset = {np_.Sin(angle), -np_.Cos(angle), 0.0};
    const double dial_radius = 0.05;
    for (double& x : offset) x *= dial_radius;
    return articulated::Add(center, offset);
  }
  Vec3 PushPosition() const {
    return articulated::Add(DialPos(), {0.05, 0.02, 0.09});
  }

  void ObjectsPosQuat(std::vector<double>* out) override {
    const Vec3 p = DialPos();
    out->insert(out->end(), p.begin(), p.end());
    const double* q = d()->xquat + 4 * dial_;
    out->insert(out->end(), q, q + 4);
  }

  double EvaluateState(const double* obs, const float* action,
                       Info* info) override {
    if (!v2_) {
      const double pull_dist = std::abs(obs[5] - target_pos_[1]);
      const double reach_dist = Norm3(articulated::At(obs + 4), TcpCenter());
      const double pull_rew =
          reach_dist < 0.05
              ? articulated::V1Pull(np_, max_pull_dist_, pull_dist, 0.001,
                                    0.0001, true)
              : 0.0;
      const double reward = -reach_dist + pull_rew;
      info->success = pull_dist <= kTargetRadius ? 1.0 : 0.0;
      info->near_object = 1.0;
      info->grasp_success = 1.0;
      info->grasp_reward = 0.0;
      info->in_place_reward = 0.0;
      info->obj_to_target = pull_dist;
      info->unscaled_reward = reward;
      return reward;
    }
    const Vec3 obj = DialPos();
    const Vec3 push_position = PushPosition();
    const Vec3 tcp = TcpCenter();
    const double target_to_obj = Norm3(obj, target_pos_);
    const double target_to_obj_init = Norm3(dial_push_position_, target_pos_);
    const double in_place = Tolerance(
        np_, target_to_obj, 0, kTargetRadius,
        std::abs(target_to_obj_init - kTargetRadius), Sigmoid::kLongTail);
    const double reach_radius = 0.005;
    const double tcp_to_obj = Norm3(push_position, tcp);
    const double tcp_to_obj_init = Norm3(dial_push_position_, init_tcp_);
    const double reach0 =
        Tolerance(np_, tcp_to_obj, 0, reach_radius,
                  std::abs(tcp_to_obj_init - reach_radius), Sigmoid::kGaussian);
    const articulated::Num reach =
        articulated::HamacherGripper(reach0, action[3]);
    articulated::Num reward = articulated::Hamacher(reach, in_place);
    // 10 * reward
    reward.value =
        reward.f32
            ? static_cast<double>(10.0f * static_cast<float>(reward.value))
            : 10 * reward.value;
    info->success = target_to_obj <= kTargetRadius ? 1.0 : 0.0;
    info->near_object = tcp_to_obj <= 0.01 ? 1.0 : 0.0;
    info->grasp_success = 1.0;
    info->grasp_reward = reach.value;
    info->in_place_reward = in_place;
    info->obj_to_target = target_to_obj;
    info->unscaled_reward = reward.value;
    return reward.value;
  }

 private:
  // get_state / set_state: what reset_model sets, after the base's.
  ENVPOOL_LITE_STATE_AFTER(SawyerEnv, dial_push_position_, max_pull_dist_)

  int dial_, goal_site_, knob_qpos_adr_;
  Vec3 dial_push_position_{};
  double max_pull_dist_ = 0;
};

}  // namespace metaworld
}  // namespace envpool_lite
