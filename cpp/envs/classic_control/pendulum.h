// Pendulum-v1, bit-exact with gymnasium 1.4.0's
// gymnasium/envs/classic_control/pendulum.py. The state is float64; the
// clipped torque u is an np.float32, which under numpy 2's promotion rules
// (NEP 50) keeps `0.001 * (u**2)` and `3.0 / (m * l**2) * u` in float32.
#pragma once

#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "core/env.h"
#include "refkit/numpy/math.h"
#include "refkit/numpy/random.h"

namespace envpool_lite {

class PendulumEnv : public Env {
 public:
  // version 1 is gymnasium's Pendulum-v1; version 0 (EnvPool's Pendulum-v0,
  // after gym 0.21's) moves the angle by the speed before clipping it.
  static Config DefaultConfig() {
    return {{"max_episode_steps", int64_t{200}},
            {"g", 10.0},
            {"version", int64_t{1}}};
  }

  static EnvSpec MakeSpec(const Config& config) {
    config.GetFloat("g");  // finite
    config.GetInt("version", 0, 1);
    EnvSpec spec;
    spec.obs = MakeBox<float>("obs", {3}, {-1.0, -1.0, -kMaxSpeed},
                              {1.0, 1.0, kMaxSpeed});
    spec.action = MakeBox<float>("action", {1}, {-kMaxTorque}, {kMaxTorque});
    spec.max_episode_steps = config.GetInt("max_episode_steps");
    return spec;
  }

  PendulumEnv(const Config& config, uint64_t seed)
      : g_(config.GetFloat("g")),
        version_(config.GetInt("version")),
        rng_(seed) {}

  void Seed(uint64_t seed) override { rng_.Seed(seed); }

  void Reset() override {
    // high = np.array([np.pi, 1.0]); self.np_random.uniform(-high, high)
    th_ = rng_.Uniform(-kPi, kPi);
    thdot_ = rng_.Uniform(-1.0, 1.0);
    last_u_ = std::nan("");  // self.last_u = None
  }

  StepResult Step(const void* action) override {
    const double th = th_, thdot = thdot_;
    const double g = g_, m = kMass, l = kLength, dt = kDt;

    // u = np.clip(u, -self.max_torque, self.max_torque)[0]: float32.
    const float max_torque = static_cast<float>(kMaxTorque);
    float u = *static_cast<const float*>(action);
    if (u < -max_torque) u = -max_torque;
    if (u > max_torque) u = max_torque;

    // costs = angle_normalize(th) ** 2 + 0.1 * thdot**2 + 0.001 * (u**2)
    const float u_cost = static_cast<float>(0.001) * numpy_math::Pow2(u);
    const double costs = numpy_math::Pow2(AngleNormalize(th)) +
                         0.1 * numpy_math::Pow2(thdot) +
                         static_cast<double>(u_cost);

    // newthdot = thdot + (3 * g / (2 * l) * np.sin(th)
    //                     + 3.0 / (m * l**2) * u) * dt
    const float u_acc = static_cast<float>(3.0 / (m * (l * l))) * u;
    double newthdot =
        thdot +
        (3 * g / (2 * l) * std::sin(th) + static_cast<double>(u_acc)) * dt;
    const double unclipped = newthdot;
    newthdot = newthdot < -kMaxSpeed ? -kMaxSpeed : newthdot;
    newthdot = newthdot > kMaxSpeed ? kMaxSpeed : newthdot;
    const double newth = th + (version_ == 0 ? unclipped : newthdot) * dt;
    th_ = newth;
    thdot_ = newthdot;
    last_u_ = u;

    StepResult result;
    result.reward = static_cast<float>(-costs);
    return result;
  }

  // gymnasium's self.state and self.last_u (NaN for None), which its
  // render() draws.
  std::vector<double> RenderState() const override {
    return {th_, thdot_, last_u_};
  }

  void WriteObs(const Row& row) override {
    float* obs = row.Obs<float>();
    obs[0] = static_cast<float>(std::cos(th_));
    obs[1] = static_cast<float>(std::sin(th_));
    obs[2] = static_cast<float>(thdot_);
  }

  ENVPOOL_LITE_STATE(rng_, th_, thdot_, last_u_)

 private:
  static constexpr double kPi = numpy_math::kPi;
  static constexpr double kMaxSpeed = 8;
  static constexpr double kMaxTorque = 2.0;
  static constexpr double kDt = 0.05;
  static constexpr double kMass = 1.0;
  static constexpr double kLength = 1.0;

  // ((x + np.pi) % (2 * np.pi)) - np.pi, with Python's floor modulo.
  static double AngleNormalize(double x) {
    return numpy_math::FloorMod(x + kPi, 2 * kPi) - kPi;
  }

  double g_;
  int64_t version_;
  NumpyRandom rng_;
  double th_ = 0.0;
  double thdot_ = 0.0;
  double last_u_ = 0.0;
};

}  // namespace envpool_lite
