// pgx's connect_four (pgx/connect_four.py, pgx/_src/games/connect_four.py):
// a 6x7 board, cells 0..41 row by row from the top, -1 empty or the color
// (0 moves first, 1) that took it. A stone drops to the lowest empty cell
// of its column (action = column); four in a row (vertical, horizontal or
// diagonal) wins; a full board is a draw. The first player to move is drawn
// at init: current_player = bernoulli(key). The observation of a player is
// two 6x7 planes: its own color's cells, then the opponent's.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "core/config.h"
#include "core/env_state.h"
#include "refkit/jax/random.h"

namespace envpool_lite::pgx {

class ConnectFour {
 public:
  static constexpr int kNumPlayers = 2;
  static constexpr int kNumActions = 7;
  static constexpr int kRows = 6;
  static constexpr int kCols = 7;
  static constexpr int kCells = kRows * kCols;
  using ObsType = bool;
  static Config DefaultConfig() { return {{"max_episode_steps", int64_t{0}}}; }
  static void CheckConfig(const Config&) {}
  static std::vector<int64_t> ObsShape(const Config&) {
    return {kRows, kCols, 2};
  }
  static std::vector<double> ObsLow() { return {0.0}; }
  static std::vector<double> ObsHigh() { return {1.0}; }
  std::size_t ObsSize() const { return kCells * 2; }

  explicit ConnectFour(const Config&) {}

  // ConnectFour._init: current_player = bernoulli(key); Game.init's empty
  // board; the State default mask (all columns legal).
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

  // ConnectFour._step: Game.step, then the turn passes, then the mask, the
  // end and the rewards of the new state.
  void Step(int action, jax_random::Key) {
    GameStep(action);
    current_player = 1 - current_player;
    // Game.legal_action_mask: a column with fewer than 6 stones.
    bool full = true;
    for (int c = 0; c < kCols; ++c) {
      legal_action_mask[c] = board_[c] < 0;  // its top cell is empty
      full &= board_[c] >= 0;
    }
    // Game.is_terminal: a winner, or every column full.
    terminated = winner_ >= 0 || full;
    // Game.rewards indexes by color (-1 both, +1 the winner's); flipped
    // when the current player is not the current color; zero unless over.
    rewards.fill(0.0f);
    if (terminated && winner_ >= 0) {
      std::array<float, 2> by_color{-1.0f, -1.0f};
      by_color[winner_] = 1.0f;
      const bool flip = current_player != color_;
      rewards[0] = flip ? by_color[1] : by_color[0];
      rewards[1] = flip ? by_color[0] : by_color[1];
    }
  }

  // ConnectFour._observe(state, player): my color is the current color for
  // the current player; Game.observe: planes of my color, then the other.
  void Observe(int player, bool* out) const {
    const int mine = player == current_player ? color_ : 1 - color_;
    for (int i = 0; i < kCells; ++i) {
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
  // Game.step: the stone lands at row 5 - num_filled of the column. On a
  // full column (an illegal move) that row is -1, which JAX's .at[] wraps
  // like numpy (a negative index counts from the end): the stone overwrites
  // the bottom cell, row 5. Then `won` looks for four of the color in a row.
  void GameStep(int action) {
    int num_filled = 0;
    for (int r = 0; r < kRows; ++r)
      num_filled += board_[r * kCols + action] >= 0;
    int row = kRows - 1 - num_filled;
    if (row < 0) row += kRows;
    const int cell = row * kCols + action;
    board_[cell] = static_cast<int8_t>(color_);
    winner_ = Won(row, action) ? color_ : -1;
    color_ = 1 - color_;
  }

  // pgx checks all 69 lines of four (IDX) for the mover's color. A line of
  // a color can only appear when that color plays, and every move before
  // ended the game if it made one, so only lines through the new stone can
  // be complete: count the run of the color through it in each of the four
  // directions (vertical, horizontal, and both diagonals).
  bool Won(int row, int col) const {
    static constexpr int kDirs[4][2] = {{1, 0}, {0, 1}, {1, 1}, {1, -1}};
    for (const auto& d : kDirs) {
      int run = 1;
      for (int sign = -1; sign <= 1; sign += 2) {
        int r = row + sign * d[0];
        int c = col + sign * d[1];
        while (r >= 0 && r < kRows && c >= 0 && c < kCols &&
               board_[r * kCols + c] == color_) {
          ++run;
          r += sign * d[0];
          c += sign * d[1];
        }
      }
      if (run >= 4) return true;
    }
    return false;
  }

  int color_ = 0;
  std::array<int8_t, kCells> board_{};
  int winner_ = -1;
};

}  // namespace envpool_lite::pgx
