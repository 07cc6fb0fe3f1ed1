// Port of highway_env/vehicle/dynamics.py (highway-env 1.12.1):
// BicycleVehicle, a dynamical bicycle model with tire friction and slipping
// (lane-keeping-v0's ego vehicle), integrated with rk4.
//
// The 6x1 state column [x, y, heading, speed, lateral_speed, yaw_rate] is a
// std::array<double, 6>. Not ported: full_lateral_lpv_structure /
// full_lateral_lpv_dynamics, simulate, plot (used only by the module's demo
// main()). The linear model (lateral_lpv_*, A_lat, B_lat, derivative_linear)
// is ported with plain arithmetic; nothing in the envs reads it.
#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "envs/highway/kinematics.h"
#include "envs/highway/road.h"
#include "envs/highway/utils.h"

namespace envpool_lite::highway {

using State6 = std::array<double, 6>;

// rk4(func, state, dt=0.01, t=0): one fourth-order Runge-Kutta step.
inline State6 Rk4(const std::function<State6(double, const State6&)>& func,
                  const State6& state, double dt = 0.01, double t = 0) {
  auto axpy = [](const State6& x, const State6& f, double h) {
    State6 out;
    for (size_t i = 0; i < 6; ++i) out[i] = x[i] + f[i] * h;
    return out;
  };
  // evaluate derivative at several stages within time interval
  const State6 f1 = func(t, state);
  const State6 f2 = func(t + dt / 2, axpy(state, f1, dt / 2));
  const State6 f3 = func(t + dt / 2, axpy(state, f2, dt / 2));
  const State6 f4 = func(t + dt, axpy(state, f3, dt));
  // state + (dt / 6) * (f1 + (2 * f2) + (2 * f3) + f4)
  State6 out;
  for (size_t i = 0; i < 6; ++i) {
    out[i] = state[i] + dt / 6 * (f1[i] + 2 * f2[i] + 2 * f3[i] + f4[i]);
  }
  return out;
}

// class BicycleVehicle(Vehicle)
class BicycleVehicle : public Vehicle {
 public:
  static constexpr uint32_t kKind = kBicycleVehicle;
  using Mat2x2 = std::array<std::array<double, 2>, 2>;
  using Col2 = std::array<double, 2>;

  double MASS = 1;            // [kg]
  double LENGTH_A = 5.0 / 2;  // Vehicle.LENGTH / 2 [m]
  double LENGTH_B = 5.0 / 2;  // Vehicle.LENGTH / 2 [m]
  // 1 / 12 * MASS * (Vehicle.LENGTH**2 + Vehicle.WIDTH**2) [kg.m2]
  double INERTIA_Z = 1.0 / 12 * MASS * (Pow2(5.0) + Pow2(2.0));
  double FRICTION_FRONT = 15.0 * MASS;  // [N]
  double FRICTION_REAR = 15.0 * MASS;   // [N]
  double MAX_ANGULAR_SPEED = 2 * kPi;   // [rad/s]

  double lateral_speed = 0;
  double yaw_rate = 0;
  // self.theta (None until lateral_lpv_dynamics sets it)
  std::optional<std::array<double, 2>> theta;
  Mat2x2 A_lat{};
  Col2 B_lat{};

  // BicycleVehicle(road, position, heading=0, speed=0)
  BicycleVehicle(Road* road, const Vec2& position, double heading = 0,
                 double speed = 0)
      : Vehicle(road, position, heading, speed) {
    kinds |= kKind;
    lateral_speed = 0;
    yaw_rate = 0;
    theta = std::nullopt;
    std::tie(A_lat, B_lat) = LateralLpvDynamics();
  }

  std::shared_ptr<Vehicle> Clone() const override {
    return std::make_shared<BicycleVehicle>(*this);
  }
  std::shared_ptr<Vehicle> CreateFromSelf() const override {
    return CreateFrom<BicycleVehicle>(*this);
  }

  // property state: [x, y, heading, speed, lateral_speed, yaw_rate].
  State6 State() const {
    return {position[0], position[1], heading, speed, lateral_speed, yaw_rate};
  }

  // property derivative: derivative_func(None, state).
  State6 Derivative() const { return DerivativeFunc(0, State()); }

  // derivative_func(time, state): the state derivative (Rajamani, Lateral
  // Vehicle Dynamics, chapter 2).
  State6 DerivativeFunc(double time, const State6& state) const {
    const double heading_ = state[2];
    const double speed_ = state[3];
    const double lateral_speed_ = state[4];
    const double yaw_rate_ = state[5];
    const double delta_f = action.steering;
    const double delta_r = 0;
    const double theta_vf =
        Np().Arctan2(lateral_speed_ + LENGTH_A * yaw_rate_, speed_);  // (2.27)
    const double theta_vr =
        Np().Arctan2(lateral_speed_ - LENGTH_B * yaw_rate_, speed_);  // (2.28)
    double f_yf = 2 * FRICTION_FRONT * (delta_f - theta_vf);          // (2.25)
    double f_yr = 2 * FRICTION_REAR * (delta_r - theta_vr);           // (2.26)
    if (std::abs(speed_) < 1) {
      // Low speed dynamics: damping of lateral speed and yaw rate
      f_yf = -MASS * lateral_speed_ - INERTIA_Z / LENGTH_A * yaw_rate_;
      f_yr = -MASS * lateral_speed_ + INERTIA_Z / LENGTH_A * yaw_rate_;
    }
    const double d_lateral_speed =
        1 / MASS * (f_yf + f_yr) - yaw_rate_ * speed_;  // (2.21)
    const double d_yaw_rate =
        1 / INERTIA_Z * (LENGTH_A * f_yf - LENGTH_B * f_yr);  // (2.22)
    // R @ [speed, lateral_speed]: BLAS dgemv
    const Vec2 v =
        MatVec(RotationMatrix(heading_), Vec2{speed_, lateral_speed_});
    return {v[0],      v[1], yaw_rate_, action.acceleration, d_lateral_speed,
            d_yaw_rate};
  }

  // step(dt): rk4 on derivative_func, then the lane update. (As in Python,
  // impacts are not applied to a BicycleVehicle.)
  void Step(double dt) override {
    ClipActions();
    const State6 new_state =
        Rk4([this](double t, const State6& s) { return DerivativeFunc(t, s); },
            State(), dt);
    position = Vec2{new_state[0], new_state[1]};
    heading = new_state[2];
    speed = new_state[3];
    lateral_speed = new_state[4];
    yaw_rate = new_state[5];

    OnStateUpdate();
  }

  // clip_actions(): Vehicle's, then the steering to [-pi/2, pi/2] (the
  // linearisation) and the yaw rate to +-MAX_ANGULAR_SPEED.
  void ClipActions() override {
    Vehicle::ClipActions();
    action.steering = Clip(action.steering, -kPi / 2, kPi / 2);
    yaw_rate = Clip(yaw_rate, -MAX_ANGULAR_SPEED, MAX_ANGULAR_SPEED);
  }

  // lateral_lpv_structure(): A0, phi, B with dx = (A0 + theta^T phi) x + B u
  // for the state [lateral speed v, yaw rate r].
  struct LpvStructure {
    Mat2x2 A0;
    std::array<Mat2x2, 2> phi;
    Col2 B;
  };
  LpvStructure LateralLpvStructure() const {
    LpvStructure out;
    out.B = {2 * FRICTION_FRONT / MASS, FRICTION_FRONT * LENGTH_A / INERTIA_Z};
    const double speed_body_x = speed;
    out.A0 = {Col2{0, -speed_body_x}, Col2{0, 0}};
    if (std::abs(speed_body_x) < 1) {
      out.phi = {};
      out.B = {out.B[0] * 0, out.B[1] * 0};
      return out;
    }
    out.phi[0] = {
        Col2{-2 / (MASS * speed_body_x), -2 * LENGTH_A / (MASS * speed_body_x)},
        Col2{-2 * LENGTH_A / (INERTIA_Z * speed_body_x),
             -2 * Pow2(LENGTH_A) / (INERTIA_Z * speed_body_x)}};
    out.phi[1] = {
        Col2{-2 / (MASS * speed_body_x), 2 * LENGTH_B / (MASS * speed_body_x)},
        Col2{2 * LENGTH_B / (INERTIA_Z * speed_body_x),
             -2 * Pow2(LENGTH_B) / (INERTIA_Z * speed_body_x)}};
    return out;
  }

  // lateral_lpv_dynamics(): A = A0 + tensordot(theta, phi), B. (numpy's
  // tensordot goes through BLAS; plain sums here, unobserved by the envs.)
  std::pair<Mat2x2, Col2> LateralLpvDynamics() {
    const LpvStructure s = LateralLpvStructure();
    theta = std::array<double, 2>{FRICTION_FRONT, FRICTION_REAR};
    Mat2x2 a;
    for (size_t i = 0; i < 2; ++i) {
      for (size_t j = 0; j < 2; ++j) {
        a[i][j] = s.A0[i][j] +
                  ((*theta)[0] * s.phi[0][i][j] + (*theta)[1] * s.phi[1][i][j]);
      }
    }
    return {a, s.B};
  }
};

}  // namespace envpool_lite::highway
