// assembly-v3 and disassemble-v3: metaworld 3.1.1's
// envs/sawyer_assembly_peg_v3.py (SawyerNutAssemblyEnvV3) and
// sawyer_disassemble_peg_v3.py (SawyerNutDisassembleEnvV3), both on
// sawyer_assembly_peg.xml: put the round nut (grasped by its wrench handle)
// onto the peg, or lift it off.
#pragma once

#include "envs/metaworld/tools_common.h"

namespace envpool_lite {
namespace metaworld {

// What both share: the nut observed at its handle site RoundNut-8 with the
// body's quaternion, the peg moved in the model.
class NutEnv : public ToolsEnv {
 protected:
  static constexpr double kWrenchHandleLength = 0.02;

  NutEnv(const Config& config, uint64_t seed, TaskSpec task)
      : ToolsEnv(config, seed, std::move(task)),
        nut_handle_site_(Id(mjOBJ_SITE, "RoundNut-8")),
        nut_center_site_(Id(mjOBJ_SITE, "RoundNut")),
        nut_(Id(mjOBJ_BODY, "RoundNut")),
        peg_(Id(mjOBJ_BODY, "peg")),
        peg_top_site_(Id(mjOBJ_SITE, "pegTop")) {}

  void ObjectsPosQuat(std::vector<double>* out) override {
    const Vec3 pos = SitePos(nut_handle_site_);
    out->insert(out->end(), pos.begin(), pos.end());
    const double* q = d()->xquat + 4 * nut_;
    out->insert(out->end(), q, q + 4);
  }

  // compute_reward v2's shared part: the wrench position with its x set to
  // the hand's when within half the handle's length, its quaternion reward.
  Vec3 WrenchThreshed(const double* obs) const {
    Vec3 wrench = tools::At(obs + 4);
    if (std::abs(obs[4] - obs[0]) < kWrenchHandleLength / 2.0) {
      wrench[0] = obs[0];
    }
    return wrench;
  }
  double NutQuat(const double* obs) const {
    static const double kIdeal[4] = {0.707, 0, 0, 0.707};
    return RewardQuat(obs, kIdeal, 0.4);
  }

  // get_state / set_state: what reset_model sets, after the base's.
  ENVPOOL_LITE_STATE_AFTER(ToolsEnv, obj_height_, height_target_,
                           max_placing_dist_)

  int nut_handle_site_, nut_center_site_, nut_, peg_, peg_top_site_;
  // reset_model's v1 state.
  double obj_height_ = 0, height_target_ = 0, max_placing_dist_ = 0;
};

class AssemblyEnv : public NutEnv {
 public:
  static TaskSpec Task() {
    TaskSpec t;
    t.model = "sawyer_xyz/sawyer_assembly_peg.xml";
    t.hand_low = {-0.5, 0.40, 0.05};
    t.hand_high = {0.5, 1, 0.5};
    t.reset_low = {0, 0.6, 0.02, -0.1, 0.75, 0.1};
    t.reset_high = {0, 0.6, 0.02, 0.1, 0.85, 0.1};
    t.goal_low = {-0.1, 0.75, 0.1};
    t.goal_high = {0.1, 0.85, 0.1};
    t.apart = 0.1;
    return t;
  }
  static Config DefaultConfig() { return BaseConfig(Task().model); }
  static EnvSpec MakeSpec(const Config& config) {
    return BaseSpec(config, Task());
  }

  AssemblyEnv(const Config& config, uint64_t seed)
      : NutEnv(config, seed, Task()) {
    // hand_init_pos: float32 (0, 0.6, 0.2)
    hand_init_pos_ = {0.0, static_cast<double>(0.6f),
                      static_cast<double>(0.2f)};
    Init(seed);
  }

 protected:
  void ResetModel() override {
    ResetHand();
    const std::vector<double>& v = FrozenApart(0.1, "assembly-v3");
    obj_init_pos_ = {v[0], v[1], v[2]};
    target_pos_ = {v[3], v[4], v[5]};
    const Vec3 peg_pos = tools::Sub(target_pos_, {0.0, 0.0, 0.05});
    SetObjXyz(obj_init_pos_);
    std::copy(peg_pos.begin(), peg_pos.end(), m()->body_pos + 3 * peg_);
    std::copy(target_pos_.begin(), target_pos_.end(),
              m()->site_pos + 3 * peg_top_site_);
    // v1
    obj_height_ = d()->site_xpos[3 * nut_handle_site_ + 2];
    height_target_ = obj_height_ + 0.1;
    const Vec3 lifted = {obj_init_pos_[0], obj_init_pos_[1], height_target_};
    max_placing_dist_ = Norm3(lifted, target_pos_) + height_target_;
  }

  double EvaluateState(const double* obs, const float* action,
                       Info* info) override {
    if (!v2_) return EvaluateV1(obs, action, info);
    const Vec3 wrench_center = SitePos(nut_center_site_);
    const Vec3 wrench_threshed = WrenchThreshed(obs);
    const double reward_quat = NutQuat(obs);
    const PyFloat reward_grab = GripperCagingRewardPy(
        action, wrench_threshed, 0.015, 0.02, 0.01, 0.01, 1.0, false, true);
    bool success;
    const double reward_in_place = RewardPos(wrench_center, &success);
    PyFloat reward =
        (PyFloat(2.0) * reward_grab + PyFloat(6.0) * PyFloat(reward_in_place)) *
        PyFloat(reward_quat);
    if (success) reward = PyFloat(10.0);
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
  // _reward_pos(wrench_center, target_pos)
  double RewardPos(const Vec3& wrench_center, bool* success) const {
    Vec3 pos_error = tools::Sub(target_pos_, wrench_center);
    const double radius = Norm(pos_error.data(), 2);
    const bool aligned = radius < 0.02;
    const bool hooked = pos_error[2] > 0.0;
    *success = aligned && hooked;
    const double threshold = *success ? 0.02 : 0.01;
    double target_height = 0.0;
    if (radius > threshold) {
      target_height = 0.02 * np_.Log(radius - threshold) + 0.2;
    }
    pos_error[2] = target_height - wrench_center[2];
    const Vec3 scaled = {pos_error[0] * 1.0, pos_error[1] * 1.0,
                         pos_error[2] * 3.0};
    const bool lifted = wrench_center[2] > 0.02 || radius < threshold;
    return 0.1 * (lifted ? 1.0 : 0.0) +
           0.9 * Tolerance(np_, Norm(scaled.data(), 3), 0, 0.02, 0.4,
                           Sigmoid::kLongTail);
  }

  double EvaluateV1(const double* obs, const float* action, Info* info) {
    const Vec3 grasp = tools::At(obs + 4);
    const Vec3 obj = BodyCom(nut_);
    const Vec3 finger = TcpCenter();
    const Vec3& goal = target_pos_;
    const double reach_dist = Norm3(grasp, finger);
    const double placing_dist = NormXy(obj, goal);
    const double placing_dist_final = std::abs(obj[2] - obj_height_);
    const double reach_dist_xy = NormXy(grasp, finger);
    const double z_rew = Norm1(finger[2] - init_tcp_[2]);
    const double reach_rew =
        V1Reach(reach_dist, reach_dist_xy, z_rew, 1.0, 0.04, 0.04, action[3]);
    const bool pick_completed =
        obj[2] >= height_target_ - 0.01 && reach_dist < 0.03;
    const bool obj_dropped = obj[2] < obj_height_ + 0.005 &&
                             placing_dist > 0.02 && reach_dist > 0.02;
    const bool place_completed =
        std::abs(obj[0] - goal[0]) < 0.03 && std::abs(obj[1] - goal[1]) < 0.03;
    double pick_rew = 0;
    if (place_completed || (pick_completed && !obj_dropped)) {
      pick_rew = 100 * height_target_;
    } else if (reach_dist < 0.04 && obj[2] > obj_height_ + 0.005) {
      pick_rew = 100 * std::min(height_target_, obj[2]);
    }
    double place_rew = tools::PlaceReward(np_, max_placing_dist_, placing_dist);
    if (place_completed) {
      const double f2 = ScalarSquare(placing_dist_final);
      place_rew += 2000 * (height_target_ - placing_dist_final) +
                   2000 * (np_.Exp(-f2 / 0.003) + np_.Exp(-f2 / 0.0003));
    }
    place_rew = std::max(place_rew, 0.0);
    const bool cond = place_completed ||
                      (pick_completed && reach_dist < 0.04 && !obj_dropped);
    if (!cond) place_rew = 0;
    const double reward = reach_rew + pick_rew + place_rew;
    const bool success = std::abs(obj[0] - goal[0]) < 0.03 &&
                         std::abs(obj[1] - goal[1]) < 0.03 &&
                         placing_dist_final <= 0.04;
    info->success = success ? 1.0 : 0.0;
    info->near_object = 0.0;
    info->grasp_success = 0.0;
    info->grasp_reward = 0.0;
    info->in_place_reward = 0.0;
    info->obj_to_target = 0;
    info->unscaled_reward = reward;
    return reward;
  }
};

class DisassembleEnv : public NutEnv {
 public:
  static TaskSpec Task() {
    TaskSpec t;
    t.model = "sawyer_xyz/sawyer_assembly_peg.xml";
    t.hand_low = {-0.5, 0.40, 0.05};
    t.hand_high = {0.5, 1, 0.5};
    t.reset_low = {0.0, 0.6, 0.025, -0.1, 0.6, 0.1699};
    t.reset_high = {0.1, 0.75, 0.02501, 0.1, 0.75, 0.1701};
    t.goal_low = {-0.1 + 0.0, 0.6 + 0.0, 0.1699 + 0.005};
    t.goal_high = {0.1 + 0.0, 0.75 + 0.0, 0.1701 + 0.005};
    t.apart = 0.1;
    return t;
  }
  static Config DefaultConfig() { return BaseConfig(Task().model); }
  static EnvSpec MakeSpec(const Config& config) {
    return BaseSpec(config, Task());
  }

  DisassembleEnv(const Config& config, uint64_t seed)
      : NutEnv(config, seed, Task()) {
    // hand_init_pos: float32 (0, 0.4, 0.2)
    hand_init_pos_ = {0.0, static_cast<double>(0.4f),
                      static_cast<double>(0.2f)};
    Init(seed);
  }

 protected:
  void ResetModel() override {
    ResetHand();
    const std::vector<double>& v = FrozenApart(0.1, "disassemble-v3");
    obj_init_pos_ = {v[0], v[1], v[2]};
    target_pos_ = tools::Add(obj_init_pos_, {0, 0, 0.15});
    const Vec3 peg_pos = tools::Add(obj_init_pos_, {0.0, 0.0, 0.03});
    const Vec3 peg_top_pos = tools::Add(obj_init_pos_, {0.0, 0.0, 0.08});
    std::copy(peg_pos.begin(), peg_pos.end(), m()->body_pos + 3 * peg_);
    std::copy(peg_top_pos.begin(), peg_top_pos.end(),
              m()->site_pos + 3 * peg_top_site_);
    api_.forward(m(), d());
    SetObjXyz(obj_init_pos_);
    // v1
    obj_height_ = d()->xpos[3 * nut_ + 2];
    height_target_ = obj_height_ + 0.05;
    const Vec3 lifted = {obj_init_pos_[0], obj_init_pos_[1], height_target_};
    max_placing_dist_ = Norm3(lifted, target_pos_) + height_target_;
  }

  double EvaluateState(const double* obs, const float* action,
                       Info* info) override {
    if (!v2_) return EvaluateV1(obs, action, info);
    const Vec3 wrench_center = SitePos(nut_center_site_);
    const Vec3 wrench_threshed = WrenchThreshed(obs);
    const double reward_quat = NutQuat(obs);
    const PyFloat reward_grab = GripperCagingRewardPy(
        action, wrench_threshed, 0.015, 0.02, 0.01, 0.01, 1.0, true, false);
    // _reward_pos(wrench_center, target_pos)
    const Vec3 pos_error =
        tools::Sub(tools::Add(target_pos_, {0.0, 0.0, 0.1}), wrench_center);
    const bool lifted = wrench_center[2] > 0.02;
    const double reward_in_place =
        0.1 * (lifted ? 1.0 : 0.0) +
        0.9 * Tolerance(np_, Norm(pos_error.data(), 3), 0, 0.02, 0.2,
                        Sigmoid::kLongTail);
    PyFloat reward =
        (PyFloat(2.0) * reward_grab + PyFloat(6.0) * PyFloat(reward_in_place)) *
        PyFloat(reward_quat);
    const bool success = obs[6] > target_pos_[2];
    if (success) reward = PyFloat(10.0);
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
  double EvaluateV1(const double* obs, const float* action, Info* info) {
    const Vec3 obj = tools::At(obs + 4);  // graspPos and objPos
    const Vec3 finger = TcpCenter();
    const Vec3& goal = target_pos_;
    const double reach_dist = Norm3(obj, finger);
    const double reach_dist_xy = NormXy(obj, finger);
    const double z_dist = std::abs(finger[2] - init_tcp_[2]);
    const double placing_dist = Norm3(obj, goal);
    double reach_rew =
        V1Reach(reach_dist, reach_dist_xy, z_dist, 2.0, 0.04, 0.04, action[3]);
    const bool pick_completed =
        obj[2] >= height_target_ - 0.01 && reach_dist < 0.04;
    const bool obj_dropped = obj[2] < obj_height_ + 0.005 &&
                             placing_dist > 0.02 && reach_dist > 0.02;
    double pick_rew = 0;
    if (pick_completed && !obj_dropped) {
      pick_rew = 100 * height_target_;
    } else if (reach_dist < 0.04 && obj[2] > obj_height_ + 0.005) {
      pick_rew = 100 * std::min(height_target_, obj[2]);
    }
    double place_rew = tools::PlaceReward(np_, max_placing_dist_, placing_dist);
    place_rew = std::max(place_rew, 0.0);
    const bool cond = pick_completed && reach_dist < 0.03 && !obj_dropped;
    if (!cond) place_rew = 0;
    const double* peg_pos = m()->body_pos + 3 * peg_;
    const Vec3 nut_pos = BodyCom(nut_);
    if (std::abs(nut_pos[0] - peg_pos[0]) > 0.05 ||
        std::abs(nut_pos[1] - peg_pos[1]) > 0.05) {
      reach_rew = 0;
      pick_rew = height_target_ * 100;
    }
    const double reward = reach_rew + pick_rew + place_rew;
    const bool success = obs[6] > target_pos_[2];
    info->success = success ? 1.0 : 0.0;
    info->near_object = 0.0;
    info->grasp_success = 0.0;
    info->grasp_reward = 0.0;
    info->in_place_reward = 0.0;
    info->obj_to_target = 0;
    info->unscaled_reward = reward;
    return reward;
  }
};

}  // namespace metaworld
}  // namespace envpool_lite
