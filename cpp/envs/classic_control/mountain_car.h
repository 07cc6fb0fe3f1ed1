// MountainCar-v0, bit-exact with gymnasium 1.4.0's
// gymnasium/envs/classic_control/mountain_car.py. The state stays float64
// throughout, as in gymnasium; the observation is its float32 cast.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>

#include "core/env.h"
#include "refkit/numpy/random.h"

namespace envpool_lite {

class MountainCarEnv : public Env {
 public:
  static Config DefaultConfig() {
    return {{"max_episode_steps", int64_t{200}}, {"goal_velocity", 0.0}};
  }

  static EnvSpec MakeSpec(const Config& config) {
    // Any number but NaN (inf: the goal is never reached).
    config.GetFloat("goal_velocity", -std::numeric_limits<double>::infinity(),
                    std::numeric_limits<double>::infinity());
    const double pos_lo = static_cast<float>(kMinPosition);
    const double pos_hi = static_cast<float>(kMaxPosition);
    const double speed = static_cast<float>(kMaxSpeed);
    EnvSpec spec;
    spec.obs = MakeBox<float>("obs", {2}, {pos_lo, -speed}, {pos_hi, speed});
    spec.action = MakeDiscrete("action", 3);
    spec.max_episode_steps = config.GetInt("max_episode_steps");
    return spec;
  }

  MountainCarEnv(const Config& config, uint64_t seed)
      : goal_velocity_(config.GetFloat(
            "goal_velocity", -std::numeric_limits<double>::infinity(),
            std::numeric_limits<double>::infinity())),
        rng_(seed) {}

  void Seed(uint64_t seed) override { rng_.Seed(seed); }

  void Reset() override {
    // np.array([self.np_random.uniform(low=-0.6, high=-0.4), 0])
    position_ = rng_.Uniform(-0.6, -0.4);
    velocity_ = 0.0;
  }

  StepResult Step(const void* action) override {
    const int32_t a = *static_cast<const int32_t*>(action);
    double position = position_, velocity = velocity_;
    velocity += static_cast<double>(a - 1) * kForce +
                std::cos(3 * position) * (-kGravity);
    velocity = Clip(velocity, -kMaxSpeed, kMaxSpeed);
    position += velocity;
    position = Clip(position, kMinPosition, kMaxPosition);
    if (position == kMinPosition && velocity < 0) velocity = 0;
    position_ = position;
    velocity_ = velocity;

    StepResult result;
    result.terminated = position >= kGoalPosition && velocity >= goal_velocity_;
    result.reward = -1.0f;
    return result;
  }

  // gymnasium's self.state (float64), which its render() draws.
  std::vector<double> RenderState() const override {
    return {position_, velocity_};
  }

  void WriteObs(const Row& row) override {
    float* obs = row.Obs<float>();
    obs[0] = static_cast<float>(position_);
    obs[1] = static_cast<float>(velocity_);
  }

  ENVPOOL_LITE_STATE(rng_, position_, velocity_)

 private:
  static constexpr double kMinPosition = -1.2;
  static constexpr double kMaxPosition = 0.6;
  static constexpr double kMaxSpeed = 0.07;
  static constexpr double kGoalPosition = 0.5;
  static constexpr double kForce = 0.001;
  static constexpr double kGravity = 0.0025;

  // np.clip: minimum(maximum(x, lo), hi); the state is never NaN.
  static double Clip(double x, double lo, double hi) {
    const double y = x < lo ? lo : x;
    return y > hi ? hi : y;
  }

  double goal_velocity_;
  NumpyRandom rng_;
  double position_ = 0.0;
  double velocity_ = 0.0;
};

}  // namespace envpool_lite
