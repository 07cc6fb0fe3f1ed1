// pgx's tic_tac_toe (pgx/tic_tac_toe.py, pgx/_src/games/tic_tac_toe.py):
// a 3x3 board, cells 0..8 row by row, -1 empty or the color (0 = X, who
// moves first, 1 = O) that took it. The first player to move is drawn at
// init: current_player = bernoulli(key). The observation of a player is two
// 3x3 planes: its own color's cells, then the opponent's.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "core/config.h"
#include "core/env_state.h"
#include "refkit/jax/random.h"

namespace envpool_lite::pgx {

class TicTacToe {
 public:
  static constexpr int kNumPlayers = 2;
  static constexpr int kNumActions = 9;
  using ObsType = bool;
  static Config DefaultConfig() { return {{"max_episode_steps", int64_t{0}}}; }
  static void CheckConfig(const Config&) {}
  static std::vector<int64_t> ObsShape(const Config&) { return {3, 3, 2}; }
  static std::vector<double> ObsLow() { return {0.0}; }
  static std::vector<double> ObsHigh() { return {1.0}; }
  std::size_t ObsSize() const { return 18; }

  explicit TicTacToe(const Config&) {}

  void Init(jax_random::Key key) {
    current_player = jax_random::Bernoulli(key, 0.5f) ? 1 : 0;
    color_ = 0;
    board_.fill(-1);
    winner_ = -1;
    terminated = false;
    truncated = false;
    rewards.fill(0.0f);
    legal_action_mask.fill(true);
    step_count = 0;
  }

  // pgx's _step: the game's step, then the turn passes; rewards only at
  // the end, from the point of view of the players (the color that won is
  // the player who just moved).
  void Step(int action, jax_random::Key) {
    current_player = (current_player + 1) % 2;
    board_[action] = color_;
    static constexpr int kLines[8][3] = {{0, 1, 2}, {3, 4, 5}, {6, 7, 8},
                                         {0, 3, 6}, {1, 4, 7}, {2, 5, 8},
                                         {0, 4, 8}, {2, 4, 6}};
    bool won = false;
    for (const auto& line : kLines) {
      won |= board_[line[0]] == color_ && board_[line[1]] == color_ &&
             board_[line[2]] == color_;
    }
    winner_ = won ? color_ : -1;
    color_ = (color_ + 1) % 2;
    bool full = true;
    for (int i = 0; i < 9; ++i) {
      legal_action_mask[i] = board_[i] < 0;
      full &= board_[i] != -1;
    }
    terminated = winner_ >= 0 || full;
    rewards.fill(0.0f);
    if (terminated && winner_ >= 0) {
      // Game.rewards indexes by color; flipped when the current player is
      // not the current color.
      std::array<float, 2> by_color{-1.0f, -1.0f};
      by_color[winner_] = 1.0f;
      const bool flip = current_player != color_;
      rewards[0] = flip ? by_color[1] : by_color[0];
      rewards[1] = flip ? by_color[0] : by_color[1];
    }
  }

  // _observe(state, player): planes of my color, then the opponent's.
  void Observe(int player, bool* out) const {
    const int mine = player == current_player ? color_ : 1 - color_;
    for (int i = 0; i < 9; ++i) {
      out[i * 2] = board_[i] == mine;
      out[i * 2 + 1] = board_[i] == 1 - mine;
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
                            legal_action_mask, step_count, color_, board_,
                            winner_)

 private:
  int color_ = 0;
  std::array<int, 9> board_{};
  int winner_ = -1;
};

}  // namespace envpool_lite::pgx
