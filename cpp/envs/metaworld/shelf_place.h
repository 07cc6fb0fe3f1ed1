// shelf-place-v3: metaworld 3.1.1's envs/sawyer_shelf_place_v3.py
// (SawyerShelfPlaceEnvV3): pick a block up and place it on a shelf, which
// each reset moves (the model's body_pos).
#pragma once

#include "envs/metaworld/pick_place.h"

namespace envpool_lite {
namespace metaworld {

class ShelfPlaceV3Env : public PickBaseEnv {
 public:
  static TaskSpec Task() {
    TaskSpec t;
    t.model = "sawyer_xyz/sawyer_shelf_placing.xml";
    t.hand_low = {-0.5, 0.40, 0.05};
    t.hand_high = {0.5, 1, 0.5};
    t.reset_low = {-0.1, 0.5, 0.019, -0.1, 0.8, 0.299};
    t.reset_high = {0.1, 0.6, 0.021, 0.1, 0.9, 0.301};
    t.goal_low = {-0.1, 0.8, 0.299};
    t.goal_high = {0.1, 0.9, 0.301};
    t.apart = 0.1;
    return t;
  }
  static Config DefaultConfig() { return BaseConfig(Task().model); }
  static EnvSpec MakeSpec(const Config& config) {
    return BaseSpec(config, Task());
  }

  ShelfPlaceV3Env(const Config& config, uint64_t seed)
      : PickBaseEnv(config, seed, Task()), shelf_(Id(mjOBJ_BODY, "shelf")) {
    // hand_init_pos is a float32 array.
    hand_init_pos_ = {0.0, static_cast<double>(0.6f),
                      static_cast<double>(0.2f)};
    Init(seed);
  }

 protected:
  void ResetModel() override {
    ResetHand();
    // adjust_initObjPos: the block body's height now.
    const double z = BodyCom(obj_)[2];
    const std::vector<double>& v = StateRandVec();
    if (XyDistance(v) < 0.1) {
      throw std::runtime_error("shelf-place-v3: a task's goal is too near");
    }
    // base_shelf_pos = goal_pos - [0, 0, 0, 0, 0, 0.3]
    const double base[6] = {v[0] - 0, v[1] - 0, v[2] - 0,
                            v[3] - 0, v[4] - 0, v[5] - 0.3};
    obj_init_pos_ = {base[0], base[1], z};
    std::copy(base + 3, base + 6, m()->body_pos + 3 * shelf_);
    api_.forward(m(), d());
    const double* site = m()->site_pos + 3 * goal_site_;
    const double* shelf = m()->body_pos + 3 * shelf_;
    target_pos_ = {site[0] + shelf[0], site[1] + shelf[1], site[2] + shelf[2]};
    SetObjXyz(obj_init_pos_);
    SetHeights(0.04);
  }

  void ObjectsPosQuat(std::vector<double>* out) override {
    const Vec3 pos = BodyCom(obj_);
    out->insert(out->end(), pos.begin(), pos.end());
    GeomQuat(out);
  }

  double EvaluateState(const double* obs, const float* action,
                       Info* info) override {
    if (!v2_) {
      double placing_dist;
      const double reward = PickPlaceRewardV1(obs, action, &placing_dist);
      V1Info(reward, placing_dist, 0.07, info);
      return reward;
    }
    constexpr double kRadius = 0.05;
    const Vec3 obj = {obs[4], obs[5], obs[6]};
    const double tcp_opened = obs[3];
    const Vec3& target = target_pos_;
    const double obj_to_target = Norm3(obj, target);
    const double tcp_to_obj = Norm3(obj, TcpCenter());
    const double in_place_margin = Norm3(obj_init_pos_, target);
    // in_place: a Python float, an np.float64 once clipped.
    PyFloat in_place(Tolerance(np_, obj_to_target, 0, kRadius, in_place_margin,
                               Sigmoid::kLongTail));
    const PyFloat object_grasped =
        GripperCagingRewardPy(action, obj, 0.02, 0.05, 0.01, 0.01);
    PyFloat reward = HamacherProduct(object_grasped, in_place);
    const bool low = 0.0 < obj[2] && obj[2] < 0.24;
    const bool within_x =
        target[0] - 0.15 < obj[0] && obj[0] < target[0] + 0.15;
    if (low && within_x &&
        (target[1] - 3 * kRadius < obj[1] && obj[1] < target[1])) {
      const double z_scaling = (0.24 - obj[2]) / 0.24;
      const double y_scaling =
          (obj[1] - (target[1] - 3 * kRadius)) / (3 * kRadius);
      const double bound_loss = HamacherProduct(y_scaling, z_scaling);
      const double clipped =
          std::min(std::max(in_place.v - bound_loss, 0.0), 1.0);
      in_place = PyFloat::F64(clipped);
    }
    if (low && within_x && obj[1] > target[1]) in_place = PyFloat(0.0);
    if (tcp_to_obj < 0.025 && tcp_opened > 0 &&
        obj[2] - 0.01 > obj_init_pos_[2]) {
      reward = reward + (PyFloat(1.0) + PyFloat(5.0) * in_place);
    }
    if (obj_to_target < kRadius) reward = PyFloat(10.0);
    info->success = obj_to_target <= 0.07 ? 1.0 : 0.0;
    info->near_object = tcp_to_obj <= 0.03 ? 1.0 : 0.0;
    info->grasp_success = GraspSuccess(obs, tcp_opened);
    info->grasp_reward = object_grasped.v;
    info->in_place_reward = in_place.v;
    info->obj_to_target = obj_to_target;
    info->unscaled_reward = reward.v;
    return reward.v;
  }

  int shelf_;
};

}  // namespace metaworld
}  // namespace envpool_lite
