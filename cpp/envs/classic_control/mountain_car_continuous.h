// MountainCarContinuous-v0, bit-exact with gymnasium 1.4.0's
// gymnasium/envs/classic_control/continuous_mountain_car.py.
//
// Its step() mixes np.float32 (the action, and the state after a step),
// np.float64 (the state right after reset) and Python floats, and numpy 2's
// promotion rules (NEP 50) make the precision of each operation depend on
// which is which: np.float32 <op> Python float is computed in float32
// (comparisons too), anything with an np.float64 in float64. PyNum below
// carries that type along with the value.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>

#include "core/env.h"
#include "refkit/numpy/math.h"
#include "refkit/numpy/random.h"

namespace envpool_lite {

namespace mountain_car_continuous {

// A Python-level number in gymnasium's step(). Every value of every kind is
// exact in a double.
struct PyNum {
  enum Kind { kPython, kF32, kF64 };  // Python float, np.float32, np.float64
  double value;
  Kind kind;
};

inline PyNum Py(double v) { return {v, PyNum::kPython}; }
inline PyNum F32(float v) { return {v, PyNum::kF32}; }
inline PyNum F64(double v) { return {v, PyNum::kF64}; }

// The result kind of a binary operation under NEP 50.
inline PyNum::Kind Promote(const PyNum& a, const PyNum& b) {
  if (a.kind == PyNum::kF64 || b.kind == PyNum::kF64) return PyNum::kF64;
  if (a.kind == PyNum::kF32 || b.kind == PyNum::kF32) return PyNum::kF32;
  return PyNum::kPython;
}

inline PyNum Add(const PyNum& a, const PyNum& b) {
  const PyNum::Kind k = Promote(a, b);
  if (k == PyNum::kF32) {
    return F32(static_cast<float>(a.value) + static_cast<float>(b.value));
  }
  return {a.value + b.value, k};
}

inline PyNum Sub(const PyNum& a, const PyNum& b) {
  const PyNum::Kind k = Promote(a, b);
  if (k == PyNum::kF32) {
    return F32(static_cast<float>(a.value) - static_cast<float>(b.value));
  }
  return {a.value - b.value, k};
}

inline PyNum Mul(const PyNum& a, const PyNum& b) {
  const PyNum::Kind k = Promote(a, b);
  if (k == PyNum::kF32) {
    return F32(static_cast<float>(a.value) * static_cast<float>(b.value));
  }
  return {a.value * b.value, k};
}

// a < b, a > b, ... in the promoted precision.
inline int Compare(const PyNum& a, const PyNum& b) {
  double x = a.value, y = b.value;
  if (Promote(a, b) == PyNum::kF32) {
    x = static_cast<float>(x);
    y = static_cast<float>(y);
  }
  return x < y ? -1 : (x > y ? 1 : 0);  // no NaNs here
}

}  // namespace mountain_car_continuous

class MountainCarContinuousEnv : public Env {
 public:
  static Config DefaultConfig() {
    return {{"max_episode_steps", int64_t{999}}, {"goal_velocity", 0.0}};
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
    spec.action = MakeBox<float>("action", {1}, {kMinAction}, {kMaxAction});
    spec.max_episode_steps = config.GetInt("max_episode_steps");
    return spec;
  }

  MountainCarContinuousEnv(const Config& config, uint64_t seed)
      : goal_velocity_(config.GetFloat(
            "goal_velocity", -std::numeric_limits<double>::infinity(),
            std::numeric_limits<double>::infinity())),
        rng_(seed) {}

  void Seed(uint64_t seed) override { rng_.Seed(seed); }

  void Reset() override {
    // np.array([self.np_random.uniform(low=-0.6, high=-0.4), 0]): float64.
    position_ = mountain_car_continuous::F64(rng_.Uniform(-0.6, -0.4));
    velocity_ = mountain_car_continuous::F64(0.0);
  }

  StepResult Step(const void* action) override {
    using namespace mountain_car_continuous;
    const float a = *static_cast<const float*>(action);
    const PyNum act = F32(a);
    PyNum position = position_;
    PyNum velocity = velocity_;

    // force = min(max(action[0], self.min_action), self.max_action): Python's
    // builtins return the np.float32 action itself or the Python bound.
    PyNum force = Compare(Py(kMinAction), act) > 0 ? Py(kMinAction) : act;
    if (Compare(Py(kMaxAction), force) < 0) force = Py(kMaxAction);

    // velocity += force * self.power - 0.0025 * math.cos(3 * position)
    const PyNum pos3 = Mul(Py(3), position);
    const PyNum gravity = Py(0.0025 * std::cos(pos3.value));
    velocity = Add(velocity, Sub(Mul(force, Py(kPower)), gravity));
    if (Compare(velocity, Py(kMaxSpeed)) > 0) velocity = Py(kMaxSpeed);
    if (Compare(velocity, Py(-kMaxSpeed)) < 0) velocity = Py(-kMaxSpeed);
    position = Add(position, velocity);
    if (Compare(position, Py(kMaxPosition)) > 0) position = Py(kMaxPosition);
    if (Compare(position, Py(kMinPosition)) < 0) position = Py(kMinPosition);
    if (Compare(position, Py(kMinPosition)) == 0 &&
        Compare(velocity, Py(0)) < 0) {
      velocity = Py(0);
    }

    StepResult result;
    result.terminated = Compare(position, Py(kGoalPosition)) >= 0 &&
                        Compare(velocity, Py(goal_velocity_)) >= 0;

    // reward = 100.0 if terminated else 0; reward -= math.pow(action[0], 2)
    // * 0.1, all in Python floats on the unclipped action.
    double reward = result.terminated ? 100.0 : 0.0;
    reward -= numpy_math::Pow2(static_cast<double>(a)) * 0.1;
    result.reward = static_cast<float>(reward);

    // self.state = np.array([position, velocity], dtype=np.float32)
    position_ = F32(static_cast<float>(position.value));
    velocity_ = F32(static_cast<float>(velocity.value));
    return result;
  }

  // gymnasium's self.state, and whether it is float32 (after a step) or
  // float64 (after reset), as its render() sees it.
  std::vector<double> RenderState() const override {
    return {position_.value, velocity_.value,
            position_.kind == mountain_car_continuous::PyNum::kF32 ? 1.0 : 0.0};
  }

  void WriteObs(const Row& row) override {
    float* obs = row.Obs<float>();
    obs[0] = static_cast<float>(position_.value);
    obs[1] = static_cast<float>(velocity_.value);
  }

  ENVPOOL_LITE_STATE(rng_, position_, velocity_)

 private:
  static constexpr double kMinAction = -1.0;
  static constexpr double kMaxAction = 1.0;
  static constexpr double kMinPosition = -1.2;
  static constexpr double kMaxPosition = 0.6;
  static constexpr double kMaxSpeed = 0.07;
  static constexpr double kGoalPosition = 0.45;
  static constexpr double kPower = 0.0015;

  double goal_velocity_;
  NumpyRandom rng_;
  mountain_car_continuous::PyNum position_ = mountain_car_continuous::F64(0);
  mountain_car_continuous::PyNum velocity_ = mountain_car_continuous::F64(0);
};

}  // namespace envpool_lite
