// pgx's MinAtar Breakout (pgx/minatar/breakout.py, "minatar-breakout"): a
// paddle on row 9 of a 10x10 board, a ball moving diagonally, three rows of
// bricks (rows 1..3). Breaking a brick scores 1; the game ends when the
// ball passes the paddle. One player; the observation is 10x10x4 bools:
// paddle, ball, the ball's previous cell (its trail), bricks.
//
// Actions: the minimal set {0 noop, 1 left, 3 right} (pgx's default), or
// all six with use_minimal_action_set=False (up, down and fire then do
// nothing); see minatar_utils.h for the options and sticky actions.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <vector>

#include "core/config.h"
#include "core/env_state.h"
#include "envs/pgx/minatar_utils.h"
#include "refkit/jax/random.h"

namespace envpool_lite::pgx {

class MinAtarBreakout {
 public:
  static constexpr int kNumPlayers = 1;
  static constexpr int kNumActions = minatar::kNumFullActions;
  // MinAtarBreakout.minimal_action_set (full action ids).
  static constexpr std::array<int32_t, 3> kMinimalActionSet = {0, 1, 3};
  static constexpr int kChannels = 4;
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

  explicit MinAtarBreakout(const Config& config)
      : use_minimal_action_set_(config.GetBool("use_minimal_action_set")),
        sticky_action_prob_(minatar::StickyActionProb(config)) {}

  // _init(rng): ball_start = jax.random.choice(rng, 2); _init_det: the
  // ball starts on row 3 at the left edge moving down-right (direction 2)
  // or at the right edge moving down-left (3); the State defaults for the
  // rest.
  void Init(jax_random::Key key) {
    const int32_t ball_start = jax_random::Choice(key, 2);
    ball_x_ = ball_start == 0 ? 0 : 9;
    ball_dir_ = ball_start == 0 ? 2 : 3;
    ball_y_ = 3;
    pos_ = 4;
    for (int y = 0; y < 10; ++y) {
      for (int x = 0; x < 10; ++x) brick_map_[y][x] = y >= 1 && y <= 3;
    }
    strike_ = false;
    last_x_ = ball_x_;
    last_y_ = 3;
    terminal_ = false;
    last_action_ = 0;
    current_player = 0;
    terminated = false;
    truncated = false;
    rewards.fill(0.0f);
    legal_action_mask.fill(true);
    step_count = 0;
  }

  // MinAtarBreakout._step: the action to its full id (an index into the
  // minimal set, or the full id itself), then _step draws the sticky action
  // from the step key itself (its only draw) and runs _step_det.
  void Step(int action, jax_random::Key key) {
    legal_action_mask.fill(true);
    const int32_t full =
        minatar::FullAction(use_minimal_action_set_, kMinimalActionSet, action);
    StepDet(
        minatar::StickyAction(key, sticky_action_prob_, last_action_, full));
  }

  // _observe.
  void Observe(int, bool* out) const {
    std::memset(out, 0, ObsSize());
    auto at = [out](int y, int x, int c) -> bool& {
      return out[(y * 10 + x) * kChannels + c];
    };
    at(ball_y_, ball_x_, 1) = true;
    at(9, pos_, 0) = true;
    at(last_y_, last_x_, 2) = true;
    for (int y = 0; y < 10; ++y) {
      for (int x = 0; x < 10; ++x) at(y, x, 3) = brick_map_[y][x];
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
                            legal_action_mask, step_count, ball_y_, ball_x_,
                            ball_dir_, pos_, brick_map_, strike_, last_x_,
                            last_y_, terminal_, last_action_)

 private:
  // Direction tables of _update_ball_pos_x (bounce off a side wall), of
  // _update_ball_pos_y / _update_by_strike / a paddle hit under the ball
  // (vertical bounce), and of a paddle hit on the ball's new column.
  static constexpr int32_t kFlipX[4] = {1, 0, 3, 2};
  static constexpr int32_t kFlipY[4] = {3, 2, 1, 0};
  static constexpr int32_t kFlipBoth[4] = {2, 3, 0, 1};

  // _step_det, line by line.
  void StepDet(int32_t action) {
    float r = 0.0f;
    // _apply_action.
    if (action == 1) pos_ = std::max(0, pos_ - 1);
    if (action == 3) pos_ = std::min(9, pos_ + 1);

    const int32_t last_x = ball_x_;
    const int32_t last_y = ball_y_;
    // _update_ball_pos: 0 up-left, 1 up-right, 2 down-right, 3 down-left.
    int32_t new_x = ball_x_ + (ball_dir_ == 1 || ball_dir_ == 2 ? 1 : -1);
    int32_t new_y = ball_y_ + (ball_dir_ >= 2 ? 1 : -1);
    int32_t ball_dir = ball_dir_;
    if (new_x < 0 || new_x > 9) {
      new_x = std::min(9, std::max(0, new_x));
      ball_dir = kFlipX[ball_dir];
    }
    const bool is_new_y_negative = new_y < 0;
    // brick_map[new_y, new_x] with new_y == -1: jnp indexing wraps a
    // negative index (row 9, never a brick); only read when new_y >= 0
    // anyway (strike_toggle below).
    const bool is_strike = brick_map_[new_y < 0 ? new_y + 10 : new_y][new_x];
    const bool is_bottom = new_y == 9;
    if (is_new_y_negative) {  // _update_ball_pos_y
      new_y = 0;
      ball_dir = kFlipY[ball_dir];
    }
    const bool strike_toggle = !is_new_y_negative && is_strike;
    bool strike = strike_;
    if (!is_new_y_negative && is_strike && !strike) {  // _update_by_strike
      brick_map_[new_y][new_x] = false;
      new_y = last_y;
      ball_dir = kFlipY[ball_dir];
      r += 1.0f;
      strike = true;
    }
    if (!is_new_y_negative && !is_strike && is_bottom) {  // _update_by_bottom
      bool any_brick = false;
      for (const auto& row : brick_map_) {
        for (bool b : row) any_brick |= b;
      }
      if (!any_brick) {
        for (int y = 1; y <= 3; ++y) brick_map_[y].fill(true);
      }
      if (ball_x_ == pos_) {
        new_y = last_y;
        ball_dir = kFlipY[ball_dir];
      } else if (new_x == pos_) {
        new_y = last_y;
        ball_dir = kFlipBoth[ball_dir];
      } else {
        terminal_ = true;
      }
    }
    if (!strike_toggle) strike = false;

    ball_y_ = new_y;
    ball_x_ = new_x;
    ball_dir_ = ball_dir;
    strike_ = strike;
    last_x_ = last_x;
    last_y_ = last_y;
    last_action_ = action;
    rewards[0] = r;
    terminated = terminal_;
  }

  bool use_minimal_action_set_;
  float sticky_action_prob_;
  int32_t ball_y_ = 3;
  int32_t ball_x_ = 0;
  int32_t ball_dir_ = 2;
  int32_t pos_ = 4;
  std::array<std::array<bool, 10>, 10> brick_map_{};
  bool strike_ = false;
  int32_t last_x_ = 0;
  int32_t last_y_ = 3;
  bool terminal_ = false;
  int32_t last_action_ = 0;
};

}  // namespace envpool_lite::pgx
