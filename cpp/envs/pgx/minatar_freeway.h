// pgx's MinAtar Freeway (pgx/minatar/freeway.py, "minatar-freeway"): the
// chicken starts on row 9, column 4, and crosses eight lanes of cars (rows
// 1..8) to row 0, scoring 1 per crossing (then back to row 9 with fresh
// car speeds); a car hitting it sends it back to row 9. The game ends after
// 2500 steps (terminated on the 2501st). One player; the observation is
// 10x10x7 bools: chicken, cars, then each car's trail in channel
// |speed| + 1 (2..6).
//
// A car is (x, row, timer, speed): it moves one column (right when speed
// > 0, wrapping 0..9) when its timer is 0, the timer then reloading to
// |speed|.
//
// Actions: the minimal set {0 noop, 2 up, 4 down}, or all six with
// use_minimal_action_set=False (left, right and fire then do nothing); see
// minatar_utils.h.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "core/config.h"
#include "core/env_state.h"
#include "envs/pgx/minatar_utils.h"
#include "refkit/jax/random.h"

namespace envpool_lite::pgx {

class MinAtarFreeway {
 public:
  static constexpr int kNumPlayers = 1;
  static constexpr int kNumActions = minatar::kNumFullActions;
  // MinAtarFreeway.minimal_action_set (full action ids).
  static constexpr std::array<int32_t, 3> kMinimalActionSet = {0, 2, 4};
  static constexpr int kChannels = 7;
  using ObsType = bool;
  static Config DefaultConfig() { return minatar::DefaultConfig(); }
  static void CheckConfig(const Config& config) {
    minatar::CheckConfig(config);
  }
  static int NumActions(const Config& config) {
    return minatar::NumActions(config, kMinimalActionSet);
  }
  static std::vector<int64_t> ObsShape(const Config&) {
    return {10, 10, kChannels};
  }
  static std::vector<double> ObsLow() { return {0.0}; }
  static std::vector<double> ObsHigh() { return {1.0}; }
  std::size_t ObsSize() const { return 10 * 10 * kChannels; }

  explicit MinAtarFreeway(const Config& config)
      : use_minimal_action_set_(config.GetBool("use_minimal_action_set")),
        sticky_action_prob_(minatar::StickyActionProb(config)) {}

  // _init(rng): _random_speed_directions(rng), then _init_det: car i on
  // row i + 1 at column 0 with timer |speed| (_randomize_cars,
  // initialize=True); the State defaults for the rest.
  void Init(jax_random::Key key) {
    const Speeds speeds = RandomSpeedDirections(key);
    for (int i = 0; i < 8; ++i) {
      cars_[i] = {0, i + 1, std::abs(speeds[i]), speeds[i]};
    }
    pos_ = 9;
    move_timer_ = kPlayerSpeed;
    terminate_timer_ = kTimeLimit;
    terminal_ = false;
    last_action_ = 0;
    current_player = 0;
    terminated = false;
    truncated = false;
    rewards.fill(0.0f);
    legal_action_mask.fill(true);
    step_count = 0;
  }

  // MinAtarFreeway._step (the action to its full id) then
  // _step(state, action, key): key0, key1 =
  // split(key); the sticky action from key0; speeds and directions from
  // key1 (drawn every step by pgx, used only when the chicken scores: drawn
  // here only then, which is the same value).
  void Step(int action, jax_random::Key key) {
    legal_action_mask.fill(true);
    const int32_t full =
        minatar::FullAction(use_minimal_action_set_, kMinimalActionSet, action);
    const int32_t a = minatar::StickyAction(
        minatar::SplitAt(key, 0), sticky_action_prob_, last_action_, full);
    StepDet(a, minatar::SplitAt(key, 1));
  }

  // _observe: the chicken at (pos, 4); each car at (row, x) in channel 1
  // and its trail one column behind it (wrapping) in channel |speed| + 1
  // (fori_loop over the cars in order; all writes set true).
  void Observe(int, bool* out) const {
    std::memset(out, 0, ObsSize());
    auto at = [out](int y, int x, int c) -> bool& {
      return out[(y * 10 + x) * kChannels + c];
    };
    at(pos_, 4, 0) = true;
    for (const Car& car : cars_) {
      at(car[1], car[0], 1) = true;
      int32_t back_x = car[3] > 0 ? car[0] - 1 : car[0] + 1;
      if (back_x < 0) back_x = 9;
      if (back_x > 9) back_x = 0;
      at(car[1], back_x, std::abs(car[3]) + 1) = true;
    }
  }

  int current_player = 0;
  bool terminated = false;
  bool truncated = false;
  std::array<float, kNumPlayers> rewards{};
  std::array<bool, kNumActions> legal_action_mask{};
  int32_t step_count = 0;
  // get_state: everything Init and Step change (not the options' values).
  ENVPOOL_LITE_STATE_FIELDS(current_player, terminated, truncated, rewards,
                            legal_action_mask, step_count, cars_, pos_,
                            move_timer_, terminate_timer_, terminal_,
                            last_action_)

 private:
  using Car = std::array<int32_t, 4>;  // x, row, timer, speed
  using Speeds = std::array<int32_t, 8>;
  static constexpr int32_t kPlayerSpeed = 3;
  static constexpr int32_t kTimeLimit = 2500;

  // _random_speed_directions(rng) and the `speeds *= directions` of
  // _randomize_cars: rng1, rng2 = split(rng); speeds = randint(rng1, [8],
  // 1, 6); directions = choice(rng2, [-1, 1], [8]) = [-1, 1][randint(rng2,
  // [8], 0, 2)].
  static Speeds RandomSpeedDirections(jax_random::Key rng) {
    const auto [rng1, rng2] = jax_random::Split2(rng);
    const std::vector<int32_t> speeds = jax_random::Randint(rng1, 8, 1, 6);
    const std::vector<int32_t> dirs = jax_random::Randint(rng2, 8, 0, 2);
    Speeds out;
    for (int i = 0; i < 8; ++i) out[i] = speeds[i] * (dirs[i] == 0 ? -1 : 1);
    return out;
  }

  // _step_det, line by line.
  void StepDet(int32_t action, jax_random::Key key1) {
    float r = 0.0f;
    if (action == 2 && move_timer_ == 0) {
      move_timer_ = kPlayerSpeed;
      pos_ = std::max(0, pos_ - 1);
    }
    if (action == 4 && move_timer_ == 0) {
      move_timer_ = kPlayerSpeed;
      pos_ = std::min(9, pos_ + 1);
    }
    // Win condition: _randomize_cars(initialize=False) sets each car's
    // timer to |speed| and its speed, keeping its column and row.
    if (pos_ == 0) {
      const Speeds speeds = RandomSpeedDirections(key1);
      for (int i = 0; i < 8; ++i) {
        cars_[i][2] = std::abs(speeds[i]);
        cars_[i][3] = speeds[i];
      }
      r += 1.0f;
      pos_ = 9;
    }
    UpdateCars();
    if (move_timer_ > 0) --move_timer_;
    --terminate_timer_;
    terminal_ = terminate_timer_ < 0;
    last_action_ = action;
    rewards[0] = r;
    terminated = terminal_;
  }

  // _update_cars: jax.lax.scan over the cars in order, carrying pos.
  void UpdateCars() {
    for (Car& car : cars_) {
      if (car[0] == 4 && car[1] == pos_) pos_ = 9;
      if (car[2] == 0) {  // _update_stopped_car
        car[2] = std::abs(car[3]);
        car[0] += car[3] > 0 ? 1 : -1;
        if (car[0] < 0) car[0] = 9;
        if (car[0] > 9) car[0] = 0;
        if (car[0] == 4 && car[1] == pos_) pos_ = 9;
      } else {
        --car[2];
      }
    }
  }

  bool use_minimal_action_set_;
  float sticky_action_prob_;
  std::array<Car, 8> cars_{};
  int32_t pos_ = 9;
  int32_t move_timer_ = kPlayerSpeed;
  int32_t terminate_timer_ = kTimeLimit;
  bool terminal_ = false;
  int32_t last_action_ = 0;
};

}  // namespace envpool_lite::pgx
