// plate-slide-v3, plate-slide-side-v3, plate-slide-back-v3 and
// plate-slide-back-side-v3: metaworld 3.1.1's envs/sawyer_plate_slide*_v3.py
// (SawyerPlateSlide{,Side,Back,BackSide}EnvV3): slide a puck (two slide
// joints, qpos[9:11]) into a goal; the four differ in model, spaces, where
// the puck starts and the shape of the v2 reward.
#pragma once

#include "envs/metaworld/sawyer_env.h"

namespace envpool_lite {
namespace metaworld {

enum class PlateSlideKind { kSlide, kSide, kBack, kBackSide };

template <PlateSlideKind K>
class PlateSlideEnv : public SawyerEnv {
 public:
  static TaskSpec Task() {
    TaskSpec t;
    const bool sideway =
        K == PlateSlideKind::kSide || K == PlateSlideKind::kBackSide;
    t.model = sideway ? "sawyer_xyz/sawyer_plate_slide_sideway.xml"
                      : "sawyer_xyz/sawyer_plate_slide.xml";
    t.hand_low = {-0.5, 0.40, 0.05};
    t.hand_high = {0.5, 1, 0.5};
    // _random_reset_space: hstack(obj_low, goal_low) .. (obj_high, goal_high)
    switch (K) {
      case PlateSlideKind::kSlide:
        t.goal_low = {-0.1, 0.85, 0.0};
        t.goal_high = {0.1, 0.9, 0.0};
        t.reset_low = {0.0, 0.6, 0.0};
        t.reset_high = {0.0, 0.6, 0.0};
        break;
      case PlateSlideKind::kSide:
        t.goal_low = {-0.3, 0.54, 0.0};
        t.goal_high = {-0.25, 0.66, 0.0};
        t.reset_low = {0.0, 0.6, 0.0};
        t.reset_high = {0.0, 0.6, 0.0};
        break;
      case PlateSlideKind::kBack:
        t.goal_low = {-0.1, 0.6, 0.015};
        t.goal_high = {0.1, 0.6, 0.015};
        t.reset_low = {0.0, 0.85, 0.0};
        t.reset_high = {0.0, 0.85, 0.0};
        break;
      case PlateSlideKind::kBackSide:
      default:
        t.goal_low = {-0.05, 0.6, 0.015};
        t.goal_high = {0.15, 0.6, 0.015};
        t.reset_low = {-0.25, 0.6, 0.0};
        t.reset_high = {-0.25, 0.6, 0.0};
        break;
    }
    t.reset_low.insert(t.reset_low.end(), t.goal_low.begin(), t.goal_low.end());
    t.reset_high.insert(t.reset_high.end(), t.goal_high.begin(),
                        t.goal_high.end());
    return t;
  }
  static Config DefaultConfig() { return BaseConfig(Task().model); }
  static EnvSpec MakeSpec(const Config& config) {
    return BaseSpec(config, Task());
  }

  PlateSlideEnv(const Config& config, uint64_t seed)
      : SawyerEnv(config, seed, Task()),
        puck_geom_(Id(mjOBJ_GEOM, "puck")),
        puck_goal_(Id(mjOBJ_BODY, "puck_goal")),
        goal_site_(Id(mjOBJ_SITE, "goal")) {
    // init_config's hand_init_pos: a float32 array.
    hand_init_pos_ = {static_cast<double>(0.0f), static_cast<double>(0.6f),
                      static_cast<double>(0.2f)};
    Init(seed);
  }

 protected:
  void ResetModel() override {
    ResetHand();
    const std::vector<double>& v = StateRandVec();
    obj_init_pos_ = {v[0], v[1], v[2]};
    target_pos_ = {v[3], v[4], v[5]};
    // model.body("puck_goal").pos (plate-slide: the goal; back-side: the
    // puck's start); side and back write data.body(...).xpos, which the
    // set_state below recomputes.
    if (K == PlateSlideKind::kSlide) {
      std::copy(target_pos_.begin(), target_pos_.end(),
                m()->body_pos + 3 * puck_goal_);
    } else if (K == PlateSlideKind::kBackSide) {
      std::copy(obj_init_pos_.begin(), obj_init_pos_.end(),
                m()->body_pos + 3 * puck_goal_);
    }
    // _set_obj_xyz: qpos[9:11] = pos, set_state.
    double pos[2] = {0.0, 0.0};
    if (K == PlateSlideKind::kBack) pos[1] = 0.15;
    if (K == PlateSlideKind::kBackSide) pos[0] = -0.15;
    std::vector<double> qpos(d()->qpos, d()->qpos + m()->nq);
    std::vector<double> qvel(d()->qvel, d()->qvel + m()->nv);
    qpos[9] = pos[0];
    qpos[10] = pos[1];
    SetState(qpos, qvel);
    std::copy(target_pos_.begin(), target_pos_.end(),
              m()->site_pos + 3 * goal_site_);
    // maxDist (v1)
    double diff[2];
    if (K == PlateSlideKind::kSlide || K == PlateSlideKind::kSide) {
      diff[0] = obj_init_pos_[0] - target_pos_[0];
      diff[1] = obj_init_pos_[1] - target_pos_[1];
    } else {
      const double* p = d()->geom_xpos + 3 * puck_geom_;
      diff[0] = p[0] - target_pos_[0];
      diff[1] = p[1] - target_pos_[1];
    }
    max_dist_ = Norm(diff, 2);
  }

  void ObjectsPosQuat(std::vector<double>* out) override {
    const double* p = d()->geom_xpos + 3 * puck_geom_;
    out->insert(out->end(), p, p + 3);
    const std::array<double, 4> q =
        MatrixToQuat(d()->geom_xmat + 9 * puck_geom_);
    out->insert(out->end(), q.begin(), q.end());
  }

  double EvaluateState(const double* obs, const float* action,
                       Info* info) override {
    (void)action;
    const Vec3 obj = {obs[4], obs[5], obs[6]};
    double reward, tcp_to_obj, obj_to_target, object_grasped, in_place;
    if (v2_) {
      constexpr double kTargetRadius = 0.05;
      const Vec3 tcp = TcpCenter();
      obj_to_target = Norm3(obj, target_pos_);
      const double in_place_margin = Norm3(obj_init_pos_, target_pos_);
      tcp_to_obj = Norm3(tcp, obj);
      const double grasped_margin = Norm3(init_tcp_, obj_init_pos_);
      if (K == PlateSlideKind::kSlide) {
        in_place = Tolerance(np_, obj_to_target, 0, kTargetRadius,
                             in_place_margin, Sigmoid::kLongTail);
        object_grasped = Tolerance(np_, tcp_to_obj, 0, kTargetRadius,
                                   grasped_margin, Sigmoid::kLongTail);
        reward = 8 * HamacherProduct(object_grasped, in_place);
      } else {
        in_place =
            Tolerance(np_, obj_to_target, 0, kTargetRadius,
                      in_place_margin - kTargetRadius, Sigmoid::kLongTail);
        object_grasped =
            Tolerance(np_, tcp_to_obj, 0, kTargetRadius,
                      grasped_margin - kTargetRadius, Sigmoid::kLongTail);
        reward = 1.5 * object_grasped;
        if (tcp[2] <= 0.03 && tcp_to_obj < 0.07) {
          reward = 2.0 + (7.0 * in_place);
        }
      }
      if (obj_to_target < kTargetRadius) reward = 10.0;
    } else {
      const Vec3 finger = TcpCenter();  // (right + left) / 2
      const double reach_dist = Norm3(obj, finger);
      const double pull_diff[2] = {obj[0] - target_pos_[0],
                                   obj[1] - target_pos_[1]};
      const double pull_dist = Norm(pull_diff, 2);
      double pull_rew = 0;
      if (reach_dist < 0.05) {
        const double d2 = ScalarSquare(pull_dist);
        pull_rew = 1000 * (max_dist_ - pull_dist) +
                   1000 * (np_.Exp(-d2 / 0.01) + np_.Exp(-d2 / 0.001));
        pull_rew = std::max(pull_rew, 0.0);
      }
      reward = -reach_dist + pull_rew;
      tcp_to_obj = 0.0;
      obj_to_target = pull_dist;
      object_grasped = 0.0;
      in_place = 0.0;
    }
    info->success = obj_to_target <= 0.07 ? 1.0 : 0.0;
    info->near_object = tcp_to_obj <= 0.03 ? 1.0 : 0.0;
    info->grasp_success = 0.0;
    info->grasp_reward = object_grasped;
    info->in_place_reward = in_place;
    info->obj_to_target = obj_to_target;
    info->unscaled_reward = reward;
    return reward;
  }

 private:
  // get_state / set_state: what reset_model sets, after the base's.
  ENVPOOL_LITE_STATE_AFTER(SawyerEnv, max_dist_)

  int puck_geom_, puck_goal_, goal_site_;
  double max_dist_ = 0;
};

using PlateSlideV3Env = PlateSlideEnv<PlateSlideKind::kSlide>;
using PlateSlideSideV3Env = PlateSlideEnv<PlateSlideKind::kSide>;
using PlateSlideBackV3Env = PlateSlideEnv<PlateSlideKind::kBack>;
using PlateSlideBackSideV3Env = PlateSlideEnv<PlateSlideKind::kBackSide>;

}  // namespace metaworld
}  // namespace envpool_lite
