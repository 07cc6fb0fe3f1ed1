// handle-press-v3, handle-press-side-v3, handle-pull-v3 and
// handle-pull-side-v3: metaworld 3.1.1's envs/sawyer_handle_{press,pull}
// [_side]_v3.py: press a handle down or pull it up, on a box in front of the
// arm (sawyer_handle_press.xml) or at its side
// (sawyer_handle_press_sideways.xml). The box is placed by moving its body
// in the model (model.body("box").pos); the handle's joint is qpos[9].
#pragma once

#include <cmath>

#include "envs/metaworld/sawyer_env.h"

namespace envpool_lite {
namespace metaworld {

class HandleEnvBase : public SawyerEnv {
 public:
  enum class Kind { kPress, kPressSide, kPull, kPullSide };

  static TaskSpec MakeTask(Kind kind) {
    TaskSpec t;
    const bool side = kind == Kind::kPressSide || kind == Kind::kPullSide;
    t.model = side ? "sawyer_xyz/sawyer_handle_press_sideways.xml"
                   : "sawyer_xyz/sawyer_handle_press.xml";
    t.hand_low = {-0.5, 0.40, 0.05};
    t.hand_high = {0.5, 1.0, 0.5};
    switch (kind) {
      case Kind::kPress:
        t.reset_low = {-0.1, 0.8, -0.001};
        t.reset_high = {0.1, 0.9, 0.001};
        t.goal_low = {-0.1, 0.55, 0.04};
        t.goal_high = {0.1, 0.70, 0.08};
        break;
      case Kind::kPressSide:
        t.reset_low = {-0.35, 0.65, -0.001};
        t.reset_high = {-0.25, 0.75, 0.001};
        t.goal_low = t.hand_low;
        t.goal_high = t.hand_high;
        break;
      case Kind::kPull:
        t.reset_low = {-0.1, 0.8, -0.001};
        t.reset_high = {0.1, 0.9, 0.001};
        t.goal_low = {-0.1, 0.55, 0.04};
        t.goal_high = {0.1, 0.70, 0.18};
        break;
      case Kind::kPullSide:
      default:
        t.reset_low = {-0.35, 0.65, 0.0};
        t.reset_high = {-0.25, 0.75, 0.0};
        t.goal_low = t.hand_low;
        t.goal_high = t.hand_high;
        break;
    }
    return t;
  }

 protected:
  HandleEnvBase(const Config& config, uint64_t seed, Kind kind)
      : SawyerEnv(config, seed, MakeTask(kind)),
        kind_(kind),
        press_(kind == Kind::kPress || kind == Kind::kPressSide),
        box_(Id(mjOBJ_BODY, "box")),
        handle_start_(Id(mjOBJ_SITE, "handleStart")),
        object_site_(Id(mjOBJ_SITE, kind == Kind::kPull       ? "handleRight"
                                    : kind == Kind::kPullSide ? "handleCenter"
                                                              : "handleStart")),
        goal_site_(Id(mjOBJ_SITE, press_ ? "goalPress" : "goalPull")) {
    hand_init_pos_ = {0, 0.6, 0.2};
    Init(seed);
  }

  void ResetModel() override {
    ResetHand();
    const std::vector<double>& v = StateRandVec();
    obj_init_pos_ = {v[0], v[1], v[2]};
    std::copy(obj_init_pos_.begin(), obj_init_pos_.end(),
              m()->body_pos + 3 * box_);
    // _set_obj_xyz(x): the handle's joint only.
    std::vector<double> qpos(d()->qpos, d()->qpos + m()->nq);
    std::vector<double> qvel(d()->qvel, d()->qvel + m()->nv);
    qpos[9] = press_ ? -0.001 : -0.1;
    qvel[9] = 0;
    SetState(qpos, qvel);
    target_pos_ = SitePos(goal_site_);
    if (kind_ == Kind::kPull) {
      // model.site("handleStart").pos: the site's position in its body.
      max_dist_ =
          std::abs(m()->site_pos[3 * handle_start_ + 2] - target_pos_[2]);
    } else {
      max_dist_ = std::abs(SitePos(handle_start_)[2] - target_pos_[2]);
    }
    handle_init_pos_ = SitePos(object_site_);
    // handle-pull-side-v3's obj_init_pos: the handle's centre.
    if (kind_ == Kind::kPullSide) obj_init_pos_ = handle_init_pos_;
  }

  void ObjectsPosQuat(std::vector<double>* out) override {
    const Vec3 p = SitePos(object_site_);
    out->insert(out->end(), p.begin(), p.end());
    out->insert(out->end(), {0.0, 0.0, 0.0, 0.0});
  }

  double EvaluateState(const double* obs, const float* action,
                       Info* info) override {
    if (!v2_) {
      // v1: the left finger's reach, the press along z.
      const Vec3 obj = {obs[4], obs[5], obs[6]};
      const Vec3 finger = SitePos(left_effector_);
      const double press_dist = std::abs(obj[2] - target_pos_[2]);
      const double reach_dist = Norm3(obj, finger);
      double press_rew = 0;
      if (reach_dist < 0.05) {
        const double d2 = ScalarSquare(press_dist);
        press_rew = 1000 * (max_dist_ - press_dist) +
                    1000 * (np_.Exp(-d2 / 0.01) + np_.Exp(-d2 / 0.001));
      }
      press_rew = std::max(press_rew, 0.0);
      const double reward = -reach_dist + press_rew;
      const double radius = kind_ == Kind::kPullSide ? 0.08
                            : kind_ == Kind::kPull   ? 0.05
                                                     : 0.02;
      info->success = press_dist <= radius ? 1.0 : 0.0;
      info->near_object = 1.0;  // tcp_to_obj 0.0 <= 0.05
      info->grasp_success = press_ ? 1.0 : 0.0;
      info->grasp_reward = 0.0;
      info->in_place_reward = 0.0;
      info->obj_to_target = press_dist;
      info->unscaled_reward = reward;
      return reward;
    }
    return press_ ? PressReward(info) : PullReward(obs, action, info);
  }

 private:
  // handle-press(-side)-v3's compute_reward v2 (TARGET_RADIUS 0.02).
  double PressReward(Info* info) {
    constexpr double kRadius = 0.02;
    const Vec3 obj = SitePos(object_site_);
    const Vec3 tcp = TcpCenter();
    const Vec3& target = target_pos_;
    const double dz = obj[2] - target[2];
    const double target_to_obj = Norm(&dz, 1);
    const double dz_init = handle_init_pos_[2] - target[2];
    const double target_to_obj_init = Norm(&dz_init, 1);
    const double in_place =
        Tolerance(np_, target_to_obj, 0, kRadius,
                  std::abs(target_to_obj_init - kRadius), Sigmoid::kLongTail);
    constexpr double kHandleRadius = 0.02;
    const double tcp_to_obj = Norm3(obj, tcp);
    const double tcp_to_obj_init = Norm3(handle_init_pos_, init_tcp_);
    const double reach = Tolerance(np_, tcp_to_obj, 0, kHandleRadius,
                                   std::abs(tcp_to_obj_init - kHandleRadius),
                                   Sigmoid::kLongTail);
    double reward = HamacherProduct(reach, in_place);
    reward = target_to_obj <= kRadius ? 1.0 : reward;
    reward *= 10;
    info->success = target_to_obj <= kRadius ? 1.0 : 0.0;
    info->near_object = tcp_to_obj <= 0.05 ? 1.0 : 0.0;
    info->grasp_success = 1.0;
    info->grasp_reward = reach;
    info->in_place_reward = in_place;
    info->obj_to_target = target_to_obj;
    info->unscaled_reward = reward;
    return reward;
  }

  // handle-pull(-side)-v3's compute_reward v2 (TARGET_RADIUS 0.05, the base
  // class's).
  double PullReward(const double* obs, const float* action, Info* info) {
    constexpr double kRadius = 0.05;
    const Vec3 obj = {obs[4], obs[5], obs[6]};
    const Vec3& target = target_pos_;
    double target_to_obj, target_to_obj_init;
    PyFloat object_grasped;
    if (kind_ == Kind::kPullSide) {
      // scale (1, 1, 1)
      const double diff[3] = {(obj[0] - target[0]) * 1.0,
                              (obj[1] - target[1]) * 1.0,
                              (obj[2] - target[2]) * 1.0};
      target_to_obj = Norm(diff, 3);
      const double diff_init[3] = {(obj_init_pos_[0] - target[0]) * 1.0,
                                   (obj_init_pos_[1] - target[1]) * 1.0,
                                   (obj_init_pos_[2] - target[2]) * 1.0};
      target_to_obj_init = Norm(diff_init, 3);
    } else {
      target_to_obj = std::abs(target[2] - obj[2]);
      target_to_obj_init = std::abs(target[2] - obj_init_pos_[2]);
    }
    const double in_place = Tolerance(np_, target_to_obj, 0, kRadius,
                                      target_to_obj_init, Sigmoid::kLongTail);
    if (kind_ == Kind::kPullSide) {
      object_grasped = GripperCagingRewardPy(action, obj, 0.032, 0.06, 0.01,
                                             0.01, 1.0, true, false);
    } else {
      object_grasped = GripperCagingRewardPy(action, obj, 0.022, 0.05, 0.01,
                                             0.01, 1.0, true, false);
    }
    PyFloat reward = HamacherProduct(object_grasped, PyFloat(in_place));
    const double tcp_opened = obs[3];
    const double tcp_to_obj = Norm3(obj, TcpCenter());
    // handle-pull-v3 compares obj[1] (sic) with obj_init_pos[2].
    const double lifted = kind_ == Kind::kPullSide ? obj[2] : obj[1];
    if (tcp_to_obj < 0.035 && tcp_opened > 0 &&
        lifted - 0.01 > obj_init_pos_[2]) {
      reward = reward + PyFloat(1.0 + 5.0 * in_place);
    }
    if (target_to_obj < kRadius) reward = PyFloat(10.0);
    const double success_radius = kind_ == Kind::kPullSide ? 0.08 : kRadius;
    info->success = target_to_obj <= success_radius ? 1.0 : 0.0;
    info->near_object = tcp_to_obj <= 0.05 ? 1.0 : 0.0;
    info->grasp_success =
        tcp_opened > 0 && obj[2] - 0.03 > obj_init_pos_[2] ? 1.0 : 0.0;
    info->grasp_reward = object_grasped.v;
    info->in_place_reward = in_place;
    info->obj_to_target = target_to_obj;
    info->unscaled_reward = reward.v;
    return reward.v;
  }

  // get_state / set_state: what reset_model sets, after the base's.
  ENVPOOL_LITE_STATE_AFTER(SawyerEnv, max_dist_, handle_init_pos_)

  Kind kind_;
  bool press_;
  int box_, handle_start_, object_site_, goal_site_;
  double max_dist_ = 0;
  Vec3 handle_init_pos_{};
};

template <HandleEnvBase::Kind K>
class HandleEnvT : public HandleEnvBase {
 public:
  static TaskSpec Task() { return MakeTask(K); }
  static Config DefaultConfig() { return BaseConfig(Task().model); }
  static EnvSpec MakeSpec(const Config& config) {
    return BaseSpec(config, MakeTask(K));
  }
  HandleEnvT(const Config& config, uint64_t seed)
      : HandleEnvBase(config, seed, K) {}
};

using HandlePressEnv = HandleEnvT<HandleEnvBase::Kind::kPress>;
using HandlePressSideEnv = HandleEnvT<HandleEnvBase::Kind::kPressSide>;
using HandlePullEnv = HandleEnvT<HandleEnvBase::Kind::kPull>;
using HandlePullSideEnv = HandleEnvT<HandleEnvBase::Kind::kPullSide>;

}  // namespace metaworld
}  // namespace envpool_lite
