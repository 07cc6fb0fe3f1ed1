// button-press-v3, button-press-wall-v3, button-press-topdown-v3 and
// button-press-topdown-wall-v3: metaworld 3.1.1's envs/sawyer_button_press*
// _v3.py: push a button into its box, from the front (along y) or from above
// (along z), with or without a wall in the way. The box is placed by moving
// its body in the model (model.body("box").pos).
#pragma once

#include <cmath>

#include "envs/metaworld/sawyer_env.h"

namespace envpool_lite {
namespace metaworld {

class ButtonPressEnvBase : public SawyerEnv {
 public:
  enum class Kind { kFront, kFrontWall, kTopdown, kTopdownWall };

  static TaskSpec MakeTask(Kind kind) {
    TaskSpec t;
    switch (kind) {
      case Kind::kFront:
        t.model = "sawyer_xyz/sawyer_button_press.xml";
        t.reset_low = {-0.1, 0.85, 0.115};
        t.reset_high = {0.1, 0.9, 0.115};
        break;
      case Kind::kFrontWall:
        t.model = "sawyer_xyz/sawyer_button_press_wall.xml";
        t.reset_low = {-0.05, 0.85, 0.1149};
        t.reset_high = {0.05, 0.9, 0.1151};
        break;
      case Kind::kTopdown:
        t.model = "sawyer_xyz/sawyer_button_press_topdown.xml";
        t.reset_low = {-0.1, 0.8, 0.115};
        t.reset_high = {0.1, 0.9, 0.115};
        break;
      case Kind::kTopdownWall:
      default:
        t.model = "sawyer_xyz/sawyer_button_press_topdown_wall.xml";
        t.reset_low = {-0.1, 0.8, 0.115};
        t.reset_high = {0.1, 0.9, 0.115};
        break;
    }
    t.hand_low = {-0.5, 0.40, 0.05};
    t.hand_high = {0.5, 1, 0.5};
    // goal_space: the hand's bounds.
    t.goal_low = t.hand_low;
    t.goal_high = t.hand_high;
    return t;
  }

 protected:
  ButtonPressEnvBase(const Config& config, uint64_t seed, Kind kind)
      : SawyerEnv(config, seed, MakeTask(kind)),
        kind_(kind),
        topdown_(kind == Kind::kTopdown || kind == Kind::kTopdownWall),
        box_(Id(mjOBJ_BODY, "box")),
        button_(Id(mjOBJ_BODY, "button")),
        hole_(Id(mjOBJ_SITE, "hole")),
        button_start_(Id(mjOBJ_SITE, "buttonStart")) {
    // hand_init_pos: a float32 array.
    hand_init_pos_ = {0.0, static_cast<double>(0.4f),
                      static_cast<double>(0.2f)};
    Init(seed);
  }

  void ResetModel() override {
    ResetHand();
    const std::vector<double>& v = StateRandVec();
    obj_init_pos_ = {v[0], v[1], v[2]};
    std::copy(obj_init_pos_.begin(), obj_init_pos_.end(),
              m()->body_pos + 3 * box_);
    if (topdown_) {
      api_.forward(m(), d());
    } else {
      // _set_obj_xyz(np.array(0)): the button's joint only.
      std::vector<double> qpos(d()->qpos, d()->qpos + m()->nq);
      std::vector<double> qvel(d()->qvel, d()->qvel + m()->nv);
      qpos[9] = 0;
      qvel[9] = 0;
      SetState(qpos, qvel);
    }
    target_pos_ = SitePos(hole_);
    const Vec3 start = SitePos(button_start_);
    const int axis = topdown_ ? 2 : 1;
    obj_to_target_init_ = std::abs(target_pos_[axis] - start[axis]);
    // button-press-wall-v3's maxDist is along z (its press is along y).
    const int max_axis = kind_ == Kind::kFrontWall ? 2 : axis;
    max_dist_ = std::abs(start[max_axis] - target_pos_[max_axis]);
  }

  void ObjectsPosQuat(std::vector<double>* out) override {
    const Vec3 p = BodyCom(button_);
    if (topdown_) {
      out->insert(out->end(), {p[0] + 0.0, p[1] + 0.0, p[2] + 0.193});
    } else {
      out->insert(out->end(), {p[0] + 0.0, p[1] + -0.193, p[2] + 0.0});
    }
    const double* q = d()->xquat + 4 * button_;
    out->insert(out->end(), q, q + 4);
  }

  double EvaluateState(const double* obs, const float* action,
                       Info* info) override {
    (void)action;
    const int axis = topdown_ ? 2 : 1;
    const Vec3 obj = {obs[4], obs[5], obs[6]};
    double reward, tcp_to_obj, tcp_open, obj_to_target, near_button,
        button_pressed;
    if (v2_) {
      const Vec3 tcp = TcpCenter();
      tcp_to_obj = Norm3(obj, tcp);
      const double tcp_to_obj_init = Norm3(obj, init_tcp_);
      obj_to_target = std::abs(target_pos_[axis] - obj[axis]);
      const double near_bound = kind_ == Kind::kFront ? 0.05 : 0.01;
      near_button = Tolerance(np_, tcp_to_obj, 0, near_bound, tcp_to_obj_init,
                              Sigmoid::kLongTail);
      button_pressed = Tolerance(np_, obj_to_target, 0, 0.005,
                                 obj_to_target_init_, Sigmoid::kLongTail);
      switch (kind_) {
        case Kind::kTopdown:
          reward = 5 * HamacherProduct(1 - obs[3], near_button);
          if (tcp_to_obj <= 0.03) reward += 5 * button_pressed;
          break;
        case Kind::kTopdownWall:
          reward = 5 * HamacherProduct(std::max(obs[3], 0.0), near_button);
          if (tcp_to_obj <= 0.03) reward += 5 * button_pressed;
          break;
        case Kind::kFront:
          reward = 2 * HamacherProduct(std::max(obs[3], 0.0), near_button);
          if (tcp_to_obj <= 0.05) reward += 8 * button_pressed;
          break;
        case Kind::kFrontWall:
        default:
          if (tcp_to_obj > 0.07) {
            const double tcp_status = (1 - obs[3]) / 2.0;
            reward = 2 * HamacherProduct(tcp_status, near_button);
          } else {
            reward = 2;
            reward += 2 * (1 + obs[3]);
            reward += 4 * ScalarSquare(button_pressed);
          }
          break;
      }
      tcp_open = obs[3];
    } else {
      // v1: the reach distance of the fingers' centre (topdown) or of the
      // left finger, the press distance along the press axis.
      Vec3 finger;
      if (topdown_) {
        const Vec3 r = SitePos(right_effector_), l = SitePos(left_effector_);
        finger = {(r[0] + l[0]) / 2, (r[1] + l[1]) / 2, (r[2] + l[2]) / 2};
      } else {
        finger = SitePos(left_effector_);
      }
      const double press_dist = std::abs(obj[axis] - target_pos_[axis]);
      const double reach_dist = Norm3(obj, finger);
      double press_rew = 0;
      if (reach_dist < 0.05) {
        const double p2 = ScalarSquare(press_dist);
        press_rew = 1000 * (max_dist_ - press_dist) +
                    1000 * (np_.Exp(-p2 / 0.01) + np_.Exp(-p2 / 0.001));
      }
      press_rew = std::max(press_rew, 0.0);
      reward = -reach_dist + press_rew;
      tcp_to_obj = 0.0;
      tcp_open = 0.0;
      obj_to_target = press_dist;
      near_button = 0.0;
      button_pressed = 0.0;
    }
    const double success_radius = kind_ == Kind::kFront       ? 0.02
                                  : kind_ == Kind::kFrontWall ? 0.03
                                                              : 0.024;
    info->success = obj_to_target <= success_radius ? 1.0 : 0.0;
    info->near_object = tcp_to_obj <= 0.05 ? 1.0 : 0.0;
    info->grasp_success = tcp_open > 0 ? 1.0 : 0.0;
    info->grasp_reward = near_button;
    info->in_place_reward = button_pressed;
    info->obj_to_target = obj_to_target;
    info->unscaled_reward = reward;
    return reward;
  }

 private:
  // get_state / set_state: what reset_model sets, after the base's.
  ENVPOOL_LITE_STATE_AFTER(SawyerEnv, obj_to_target_init_, max_dist_)

  Kind kind_;
  bool topdown_;
  int box_, button_, hole_, button_start_;
  double obj_to_target_init_ = 0, max_dist_ = 0;
};

template <ButtonPressEnvBase::Kind K>
class ButtonPressEnvT : public ButtonPressEnvBase {
 public:
  static TaskSpec Task() { return MakeTask(K); }
  static Config DefaultConfig() { return BaseConfig(Task().model); }
  static EnvSpec MakeSpec(const Config& config) {
    return BaseSpec(config, MakeTask(K));
  }
  ButtonPressEnvT(const Config& config, uint64_t seed)
      : ButtonPressEnvBase(config, seed, K) {}
};

using ButtonPressEnv = ButtonPressEnvT<ButtonPressEnvBase::Kind::kFront>;
using ButtonPressWallEnv =
    ButtonPressEnvT<ButtonPressEnvBase::Kind::kFrontWall>;
using ButtonPressTopdownEnv =
    ButtonPressEnvT<ButtonPressEnvBase::Kind::kTopdown>;
using ButtonPressTopdownWallEnv =
    ButtonPressEnvT<ButtonPressEnvBase::Kind::kTopdownWall>;

}  // namespace metaworld
}  // namespace envpool_lite
