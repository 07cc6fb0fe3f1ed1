// The _gripper_caging_reward that sweep-into-v3, sweep-v3 and soccer-v3
// override (metaworld 3.1.1's envs/sawyer_sweep_into_goal_v3.py,
// sawyer_sweep_v3.py, sawyer_soccer_v3.py): caging and gripping in y between
// the pads, caging in x-z, their mean; the action is not used.
#pragma once

#include "envs/metaworld/sawyer_env.h"

namespace envpool_lite {
namespace metaworld {

class SweepCagingEnv : public SawyerEnv {
 protected:
  using SawyerEnv::SawyerEnv;

  // grip_success_margin = obj_radius + grip_extra; x_z_success_margin.
  // init_left_pad / init_right_pad are views of data.xpos (get_body_com at
  // __init__): the pads' current positions.
  double SweepCagingReward(const Vec3& obj_pos, double obj_radius,
                           double grip_extra, double x_z_success_margin) {
    constexpr double kPadSuccessMargin = 0.05;
    const double grip_success_margin = obj_radius + grip_extra;
    const Vec3 tcp = TcpCenter();
    const Vec3 left_pad = BodyCom(left_pad_);
    const Vec3 right_pad = BodyCom(right_pad_);
    const double delta_left = left_pad[1] - obj_pos[1];
    const double delta_right = obj_pos[1] - right_pad[1];
    const double right_margin =
        std::abs(std::abs(obj_pos[1] - right_pad[1]) - kPadSuccessMargin);
    const double left_margin =
        std::abs(std::abs(obj_pos[1] - left_pad[1]) - kPadSuccessMargin);
    const double right_caging =
        Tolerance(np_, delta_right, obj_radius, kPadSuccessMargin, right_margin,
                  Sigmoid::kLongTail);
    const double left_caging =
        Tolerance(np_, delta_left, obj_radius, kPadSuccessMargin, left_margin,
                  Sigmoid::kLongTail);
    const double right_gripping =
        Tolerance(np_, delta_right, obj_radius, grip_success_margin,
                  right_margin, Sigmoid::kLongTail);
    const double left_gripping =
        Tolerance(np_, delta_left, obj_radius, grip_success_margin, left_margin,
                  Sigmoid::kLongTail);
    const double y_caging = HamacherProduct(right_caging, left_caging);
    const double y_gripping = HamacherProduct(right_gripping, left_gripping);
    // tcp + [0, -tcp[1], 0] etc.: the y component is exactly 0.
    const double tcp_obj[3] = {(tcp[0] + 0.0) - (obj_pos[0] + 0.0),
                               (tcp[1] + -tcp[1]) - (obj_pos[1] + -obj_pos[1]),
                               (tcp[2] + 0.0) - (obj_pos[2] + 0.0)};
    const double tcp_obj_norm_x_z = Norm(tcp_obj, 3);
    const double init_obj_tcp[3] = {
        (obj_init_pos_[0] + 0.0) - (init_tcp_[0] + 0.0),
        (obj_init_pos_[1] + -obj_init_pos_[1]) - (init_tcp_[1] + -init_tcp_[1]),
        (obj_init_pos_[2] + 0.0) - (init_tcp_[2] + 0.0)};
    const double margin = Norm(init_obj_tcp, 3) - x_z_success_margin;
    const double x_z_caging =
        Tolerance(np_, tcp_obj_norm_x_z, 0, x_z_success_margin, margin,
                  Sigmoid::kLongTail);
    const double caging = HamacherProduct(y_caging, x_z_caging);
    const double gripping = caging > 0.95 ? y_gripping : 0.0;
    return (caging + gripping) / 2;
  }

  // v1's 1000 * (max_dist - dist) + 1000 * (exp(-dist**2 / 0.01) +
  // exp(-dist**2 / 0.001)), at least 0.
  double PushReward(double max_dist, double dist) const {
    const double d2 = ScalarSquare(dist);
    const double rew = 1000 * (max_dist - dist) +
                       1000 * (np_.Exp(-d2 / 0.01) + np_.Exp(-d2 / 0.001));
    return std::max(rew, 0.0);
  }
};

}  // namespace metaworld
}  // namespace envpool_lite
