// hand-insert-v3: metaworld 3.1.1's envs/sawyer_hand_insert_v3.py
// (SawyerHandInsertEnvV3): push a block on the table into a hole.
#pragma once

#include "envs/metaworld/pick_place.h"

namespace envpool_lite {
namespace metaworld {

class HandInsertV3Env : public PickBaseEnv {
 public:
  static TaskSpec Task() {
    TaskSpec t;
    t.model = "sawyer_xyz/sawyer_table_with_hole.xml";
    t.hand_low = {-0.5, 0.40, -0.15};
    t.hand_high = {0.5, 1, 0.5};
    t.reset_low = {-0.1, 0.6, 0.05, -0.04, 0.8, -0.0201};
    t.reset_high = {0.1, 0.7, 0.05, 0.04, 0.88, -0.0199};
    t.goal_low = {-0.04, 0.8, -0.0201};
    t.goal_high = {0.04, 0.88, -0.0199};
    t.apart = 0.15;
    return t;
  }
  static Config DefaultConfig() { return BaseConfig(Task().model); }
  static EnvSpec MakeSpec(const Config& config) {
    return BaseSpec(config, Task());
  }

  HandInsertV3Env(const Config& config, uint64_t seed)
      : PickBaseEnv(config, seed, Task()) {
    // hand_init_pos is a float32 array.
    hand_init_pos_ = {0.0, static_cast<double>(0.6f),
                      static_cast<double>(0.2f)};
    Init(seed);
  }

 protected:
  void ResetModel() override {
    ResetHand();
    const std::vector<double>& v = StateRandVec();
    if (XyDistance(v) < 0.15) {
      throw std::runtime_error("hand-insert-v3: a task's goal is too near");
    }
    // obj_init_pos[-1]: init_config's 0.05, kept from reset to reset.
    obj_init_pos_ = {v[0], v[1], 0.05};
    target_pos_ = {v[3], v[4], v[5]};
    SetObjXyz(obj_init_pos_);
    std::copy(target_pos_.begin(), target_pos_.end(),
              m()->site_pos + 3 * goal_site_);
    // np.abs(hand_init_pos[-1] (float32) - target[-1])
    max_reach_dist_ = std::abs(hand_init_pos_[2] - target_pos_[2]);
  }

  // get_body_com("obj"), data.body("obj").xquat
  void ObjectsPosQuat(std::vector<double>* out) override {
    const Vec3 pos = BodyCom(obj_);
    out->insert(out->end(), pos.begin(), pos.end());
    const double* q = d()->xquat + 4 * obj_;
    out->insert(out->end(), q, q + 4);
  }

  double EvaluateState(const double* obs, const float* action,
                       Info* info) override {
    const Vec3 obj = {obs[4], obs[5], obs[6]};
    if (!v2_) {
      const Vec3 finger = FingerCom();
      const double xy[2] = {finger[0] - target_pos_[0],
                            finger[1] - target_pos_[1]};
      const double reach_dist = Norm(xy, 2);
      const double reach_dist_z = std::abs(finger[2] - target_pos_[2]);
      double near_rew = 0.0;
      if (reach_dist < 0.05) {
        const double z2 = ScalarSquare(reach_dist_z);
        near_rew = 1000 * (max_reach_dist_ - reach_dist_z) +
                   1000 * (np_.Exp(-z2 / 0.01) + np_.Exp(-z2 / 0.001));
      }
      near_rew = std::max(near_rew, 0.0);
      const double reward = -reach_dist + near_rew;
      const double obj_to_target = Norm3(obj_init_pos_, target_pos_);
      info->success = obj_to_target <= 0.05 ? 1.0 : 0.0;
      info->near_object = 1.0;  // 0.0 <= 0.03
      info->grasp_success = 0.0;
      info->grasp_reward = 0.0;
      info->in_place_reward = 0.0;
      info->obj_to_target = obj_to_target;
      info->unscaled_reward = reward;
      return reward;
    }
    const double target_to_obj = Norm3(obj, target_pos_);
    const double target_to_obj_init = Norm3(obj_init_pos_, target_pos_);
    const double in_place = Tolerance(np_, target_to_obj, 0, 0.05,
                                      target_to_obj_init, Sigmoid::kLongTail);
    const PyFloat object_grasped =
        GripperCagingRewardPy(action, obj, 0.015, 0.05, 0.01, 0.005, 1.0, true);
    PyFloat reward = HamacherProduct(object_grasped, PyFloat(in_place));
    const double tcp_opened = obs[3];
    const double tcp_to_obj = Norm3(obj, TcpCenter());
    if (tcp_to_obj < 0.02 && tcp_opened > 0) {
      reward = reward + PyFloat(1.0 + 7.0 * in_place);
    }
    if (target_to_obj < 0.05) reward = PyFloat(10.0);
    info->success = target_to_obj <= 0.05 ? 1.0 : 0.0;
    info->near_object = tcp_to_obj <= 0.03 ? 1.0 : 0.0;
    info->grasp_success = GraspSuccess(obs, tcp_opened);
    info->grasp_reward = object_grasped.v;
    info->in_place_reward = in_place;
    info->obj_to_target = target_to_obj;
    info->unscaled_reward = reward.v;
    return reward.v;
  }

  // get_state / set_state: what reset_model sets, after the base's.
  ENVPOOL_LITE_STATE_AFTER(PickBaseEnv, max_reach_dist_)

  double max_reach_dist_ = 0;
};

}  // namespace metaworld
}  // namespace envpool_lite
