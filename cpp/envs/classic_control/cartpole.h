// CartPole-v1, bit-exact with gymnasium 1.4.0's
// gymnasium/envs/classic_control/cartpole.py (euler integrator).
// The state is float64, as in gymnasium; the observation is its float32 cast.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>

#include "core/env.h"
#include "refkit/numpy/math.h"
#include "refkit/numpy/random.h"

namespace envpool_lite {

class CartPoleEnv : public Env {
 public:
  static Config DefaultConfig() {
    return {{"max_episode_steps", int64_t{500}},
            {"sutton_barto_reward", false}};
  }

  static EnvSpec MakeSpec(const Config& config) {
    const double inf = std::numeric_limits<double>::infinity();
    // gymnasium's float32 bounds: [4.8, inf, 2 * 12 degrees, inf].
    const double x_high = static_cast<float>(kXThreshold * 2);
    const double theta_high = static_cast<float>(kThetaThreshold * 2);
    EnvSpec spec;
    spec.obs = MakeBox<float>("obs", {4}, {-x_high, -inf, -theta_high, -inf},
                              {x_high, inf, theta_high, inf});
    spec.action = MakeDiscrete("action", 2);
    spec.max_episode_steps = config.GetInt("max_episode_steps");
    config.GetBool("sutton_barto_reward");  // type check
    return spec;
  }

  CartPoleEnv(const Config& config, uint64_t seed)
      : sutton_barto_reward_(config.GetBool("sutton_barto_reward")),
        rng_(seed) {}

  void Seed(uint64_t seed) override { rng_.Seed(seed); }

  void Reset() override {
    // self.np_random.uniform(low=-0.05, high=0.05, size=(4,))
    for (double& s : state_) s = rng_.Uniform(-0.05, 0.05);
    steps_beyond_terminated_ = -1;
  }

  StepResult Step(const void* action) override {
    const int32_t a = *static_cast<const int32_t*>(action);
    double x = state_[0], x_dot = state_[1], theta = state_[2],
           theta_dot = state_[3];
    const double force = a == 1 ? kForceMag : -kForceMag;
    const double costheta = std::cos(theta);
    const double sintheta = std::sin(theta);

    const double temp =
        (force + kPolemassLength * (theta_dot * theta_dot) * sintheta) /
        kTotalMass;
    const double thetaacc =
        (kGravity * sintheta - costheta * temp) /
        (kLength *
         (4.0 / 3.0 - kMassPole * (costheta * costheta) / kTotalMass));
    const double xacc =
        temp - kPolemassLength * thetaacc * costheta / kTotalMass;

    x = x + kTau * x_dot;
    x_dot = x_dot + kTau * xacc;
    theta = theta + kTau * theta_dot;
    theta_dot = theta_dot + kTau * thetaacc;
    state_[0] = x;
    state_[1] = x_dot;
    state_[2] = theta;
    state_[3] = theta_dot;

    StepResult result;
    result.terminated = x < -kXThreshold || x > kXThreshold ||
                        theta < -kThetaThreshold || theta > kThetaThreshold;
    double reward;
    if (!result.terminated) {
      reward = sutton_barto_reward_ ? 0.0 : 1.0;
    } else if (steps_beyond_terminated_ < 0) {
      steps_beyond_terminated_ = 0;
      reward = sutton_barto_reward_ ? -1.0 : 1.0;
    } else {
      // Stepping past termination (gymnasium warns; the pool never does).
      ++steps_beyond_terminated_;
      reward = sutton_barto_reward_ ? -1.0 : 0.0;
    }
    result.reward = static_cast<float>(reward);
    return result;
  }

  // gymnasium's self.state (float64), which its render() draws.
  std::vector<double> RenderState() const override {
    return {state_, state_ + 4};
  }

  void WriteObs(const Row& row) override {
    float* obs = row.Obs<float>();
    for (int i = 0; i < 4; ++i) obs[i] = static_cast<float>(state_[i]);
  }

  ENVPOOL_LITE_STATE(rng_, state_, steps_beyond_terminated_)

 private:
  // gymnasium's constants, derived the same way (same roundings).
  static constexpr double kPi = numpy_math::kPi;
  static constexpr double kGravity = 9.8;
  static constexpr double kMassCart = 1.0;
  static constexpr double kMassPole = 0.1;
  static constexpr double kTotalMass = kMassPole + kMassCart;
  static constexpr double kLength = 0.5;
  static constexpr double kPolemassLength = kMassPole * kLength;
  static constexpr double kForceMag = 10.0;
  static constexpr double kTau = 0.02;
  static constexpr double kThetaThreshold = 12 * 2 * kPi / 360;
  static constexpr double kXThreshold = 2.4;

  bool sutton_barto_reward_;
  NumpyRandom rng_;
  double state_[4] = {0.0, 0.0, 0.0, 0.0};
  int steps_beyond_terminated_ = -1;  // -1: gymnasium's None
};

}  // namespace envpool_lite
