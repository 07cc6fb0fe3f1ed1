// Acrobot-v1, bit-exact with gymnasium 1.4.0's
// gymnasium/envs/classic_control/acrobot.py (book dynamics, no torque noise,
// one rk4 step of dt = 0.2 per env step).
#pragma once

#include <cmath>
#include <cstdint>

#include "core/env.h"
#include "refkit/numpy/math.h"
#include "refkit/numpy/random.h"

namespace envpool_lite {

class AcrobotEnv : public Env {
 public:
  // report_state (internal): EnvPool's info["state"], the two angles as
  // float32, for the envpool module (gymnasium's info is empty).
  static Config DefaultConfig() {
    return {{"max_episode_steps", int64_t{500}}, {"report_state", false}};
  }

  static EnvSpec MakeSpec(const Config& config) {
    // gymnasium's float32 bounds: [1, 1, 1, 1, 4 pi, 9 pi].
    const double v1 = static_cast<float>(kMaxVel1);
    const double v2 = static_cast<float>(kMaxVel2);
    EnvSpec spec;
    spec.obs = MakeBox<float>("obs", {6}, {-1.0, -1.0, -1.0, -1.0, -v1, -v2},
                              {1.0, 1.0, 1.0, 1.0, v1, v2});
    spec.action = MakeDiscrete("action", 3);
    spec.max_episode_steps = config.GetInt("max_episode_steps");
    if (config.GetBool("report_state")) {
      spec.info.push_back(MakeBox<float>("state", {2}, {}, {}));
    }
    return spec;
  }

  AcrobotEnv(const Config& config, uint64_t seed)
      : rng_(seed), report_state_(config.GetBool("report_state")) {}

  void Seed(uint64_t seed) override { rng_.Seed(seed); }

  void Reset() override {
    // self.np_random.uniform(low=-0.1, high=0.1, size=(4,)).astype(float32)
    for (double& s : state_) {
      s = static_cast<float>(rng_.Uniform(-0.1, 0.1));
    }
    state_is_f32_ = true;
  }

  StepResult Step(const void* action) override {
    const int32_t a = *static_cast<const int32_t*>(action);
    // AVAIL_TORQUE = [-1.0, 0.0, +1]; np.append makes it a float64.
    const double torque = a == 0 ? -1.0 : (a == 1 ? 0.0 : 1.0);

    // rk4(self._dsdt, s_augmented, [0, self.dt]), keeping numpy's order of
    // element-wise operations. The torque's derivative is 0, so it stays
    // constant and is passed alongside.
    const double dt = kDt;  // t[1] - t[0] with t = [0, self.dt]
    const double dt2 = dt / 2.0;
    const double* y0 = state_;
    double k1[4], k2[4], k3[4], k4[4], y[4];
    Dsdt(y0, torque, k1);
    for (int i = 0; i < 4; ++i) y[i] = y0[i] + dt2 * k1[i];
    Dsdt(y, torque, k2);
    for (int i = 0; i < 4; ++i) y[i] = y0[i] + dt2 * k2[i];
    Dsdt(y, torque, k3);
    for (int i = 0; i < 4; ++i) y[i] = y0[i] + dt * k3[i];
    Dsdt(y, torque, k4);
    double ns[4];
    for (int i = 0; i < 4; ++i) {
      ns[i] = y0[i] + dt / 6.0 * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]);
    }

    state_[0] = Wrap(ns[0], -kPi, kPi);
    state_[1] = Wrap(ns[1], -kPi, kPi);
    state_[2] = Bound(ns[2], -kMaxVel1, kMaxVel1);
    state_[3] = Bound(ns[3], -kMaxVel2, kMaxVel2);
    state_is_f32_ = false;

    StepResult result;
    result.terminated =
        -std::cos(state_[0]) - std::cos(state_[1] + state_[0]) > 1.0;
    result.reward = result.terminated ? 0.0f : -1.0f;
    return result;
  }

  // gymnasium's self.state, and whether it is float32 (right after reset)
  // or float64, as its render() sees it.
  std::vector<double> RenderState() const override {
    return {state_[0], state_[1], state_[2], state_[3],
            state_is_f32_ ? 1.0 : 0.0};
  }

  void WriteObs(const Row& row) override {
    float* obs = row.Obs<float>();
    if (state_is_f32_) {
      // Right after reset the state is a float32 array, so np.cos / np.sin
      // run numpy's float32 kernels.
      const float t1 = static_cast<float>(state_[0]);
      const float t2 = static_cast<float>(state_[1]);
      obs[0] = numpy_math::Cos(t1);
      obs[1] = numpy_math::Sin(t1);
      obs[2] = numpy_math::Cos(t2);
      obs[3] = numpy_math::Sin(t2);
    } else {
      obs[0] = static_cast<float>(std::cos(state_[0]));
      obs[1] = static_cast<float>(std::sin(state_[0]));
      obs[2] = static_cast<float>(std::cos(state_[1]));
      obs[3] = static_cast<float>(std::sin(state_[1]));
    }
    obs[4] = static_cast<float>(state_[2]);
    obs[5] = static_cast<float>(state_[3]);
    if (report_state_) {
      row.Info<float>(0)[0] = static_cast<float>(state_[0]);
      row.Info<float>(0)[1] = static_cast<float>(state_[1]);
    }
  }

  ENVPOOL_LITE_STATE(rng_, state_, state_is_f32_)

 private:
  static constexpr double kPi = numpy_math::kPi;
  static constexpr double kDt = 0.2;
  static constexpr double kLinkLength1 = 1.0;
  static constexpr double kLinkMass1 = 1.0;
  static constexpr double kLinkMass2 = 1.0;
  static constexpr double kLinkComPos1 = 0.5;
  static constexpr double kLinkComPos2 = 0.5;
  static constexpr double kLinkMoi = 1.0;
  static constexpr double kMaxVel1 = 4 * kPi;
  static constexpr double kMaxVel2 = 9 * kPi;

  // _dsdt, book version, with Python's evaluation order. `x ** 2` on a
  // float64 goes through libm pow (numpy_math::Pow2); squares of the Python
  // constants are exact either way.
  static void Dsdt(const double* s, double a, double* out) {
    const double m1 = kLinkMass1, m2 = kLinkMass2, l1 = kLinkLength1;
    const double lc1 = kLinkComPos1, lc2 = kLinkComPos2;
    const double I1 = kLinkMoi, I2 = kLinkMoi;
    const double g = 9.8;
    const double theta1 = s[0], theta2 = s[1], dtheta1 = s[2], dtheta2 = s[3];
    const double d1 =
        m1 * (lc1 * lc1) +
        m2 * (l1 * l1 + lc2 * lc2 + 2 * l1 * lc2 * std::cos(theta2)) + I1 + I2;
    const double d2 = m2 * (lc2 * lc2 + l1 * lc2 * std::cos(theta2)) + I2;
    const double phi2 = m2 * lc2 * g * std::cos(theta1 + theta2 - kPi / 2.0);
    const double phi1 =
        -m2 * l1 * lc2 * numpy_math::Pow2(dtheta2) * std::sin(theta2) -
        2 * m2 * l1 * lc2 * dtheta2 * dtheta1 * std::sin(theta2) +
        (m1 * lc1 + m2 * l1) * g * std::cos(theta1 - kPi / 2) + phi2;
    const double ddtheta2 =
        (a + d2 / d1 * phi1 -
         m2 * l1 * lc2 * numpy_math::Pow2(dtheta1) * std::sin(theta2) - phi2) /
        (m2 * (lc2 * lc2) + I2 - numpy_math::Pow2(d2) / d1);
    const double ddtheta1 = -(d2 * ddtheta2 + phi1) / d1;
    out[0] = dtheta1;
    out[1] = dtheta2;
    out[2] = ddtheta1;
    out[3] = ddtheta2;
  }

  // gymnasium's wrap(): shift by whole periods into [m, M].
  static double Wrap(double x, double m, double M) {
    const double diff = M - m;
    while (x > M) x = x - diff;
    while (x < m) x = x + diff;
    return x;
  }

  // gymnasium's bound(): min(max(x, m), M) with Python's builtins.
  static double Bound(double x, double m, double M) {
    const double lo = m > x ? m : x;
    return M < lo ? M : lo;
  }

  NumpyRandom rng_;
  bool report_state_;  // the envpool module's info["state"]
  double state_[4] = {0.0, 0.0, 0.0, 0.0};
  bool state_is_f32_ = true;  // reset leaves a float32 state
};

}  // namespace envpool_lite
