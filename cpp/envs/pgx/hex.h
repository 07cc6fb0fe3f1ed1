// pgx's hex (pgx/hex.py, pgx/_src/games/hex.py): an 11x11 rhombus board,
// cells 0..120 row by row. Color 0 (black, who moves first) joins the top
// row to the bottom row, color 1 (white) the left column to the right one.
// The board holds, from the point of view of the color to move, 0 empty,
// a positive id for each of its own groups and a negative id for the
// opponent's (the id is the cell+1 of the group's latest stone); the board
// is negated after every move. Action 121 is the swap (pie rule), legal on
// the second move only: the first stone is mirrored and changes color.
// The order of the players is drawn at init: player_order = [0, 1] or
// [1, 0] by bernoulli(key), current_player = player_order[color].
//
// pgx's Hex(size=...) option: pgx 2.6.0 only runs with the default 11 (its
// GameState board is a fixed zeros(121), and Hex(size=9).init fails
// reshaping it to 9x9), so `size` is accepted here and must be 11.
#pragma once

#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/config.h"
#include "core/env_state.h"
#include "refkit/jax/random.h"

namespace envpool_lite::pgx {

class Hex {
 public:
  static constexpr int kSize = 11;
  static constexpr int kCells = kSize * kSize;
  static constexpr int kSwap = kCells;  // the swap action
  static constexpr int kNumPlayers = 2;
  static constexpr int kNumActions = kCells + 1;
  using ObsType = bool;
  static Config DefaultConfig() {
    return {{"max_episode_steps", int64_t{0}}, {"size", int64_t{kSize}}};
  }
  static void CheckConfig(const Config& config) {
    const int64_t size = config.GetInt("size");
    if (size != kSize) {
      throw std::invalid_argument(
          "option 'size' must be 11 (pgx 2.6.0's Hex fails at init with any "
          "other size), got " +
          std::to_string(size));
    }
  }
  static std::vector<int64_t> ObsShape(const Config&) {
    return {kSize, kSize, 4};
  }
  static std::vector<double> ObsLow() { return {0.0}; }
  static std::vector<double> ObsHigh() { return {1.0}; }
  std::size_t ObsSize() const { return kCells * 4; }

  explicit Hex(const Config&) {}

  // Hex._init: player_order = [[0, 1], [1, 0]][bernoulli(key)], the empty
  // board of Game.init, and the State default mask (every cell, no swap).
  void Init(jax_random::Key key) {
    const bool flip = jax_random::Bernoulli(key, 0.5f);
    player_order_ = {flip ? 1 : 0, flip ? 0 : 1};
    board_.fill(0);
    game_step_count_ = 0;
    game_terminated_ = false;
    current_player = player_order_[0];
    terminated = false;
    truncated = false;
    rewards.fill(0.0f);
    legal_action_mask.fill(true);
    legal_action_mask[kSwap] = false;
    step_count = 0;
  }

  // Hex._step: Game.step (a stone, or the swap), then the new state's
  // player, mask, end and rewards.
  void Step(int action, jax_random::Key) {
    if (action != kSwap) {
      PlaceStone(action);
    } else {
      Swap();
    }
    const int color = game_step_count_ % 2;
    current_player = player_order_[color];
    // Game.legal_action_mask: the empty cells, and the swap on move two.
    for (int i = 0; i < kCells; ++i) legal_action_mask[i] = board_[i] == 0;
    legal_action_mask[kSwap] = game_step_count_ == 1;
    terminated = game_terminated_;
    // Game.rewards (by color: -1 the color to move, who lost, +1 the
    // other), then [player_order]: player i gets the reward of color
    // player_order[i].
    rewards.fill(0.0f);
    if (terminated) {
      std::array<float, 2> by_color{1.0f, 1.0f};
      by_color[color] = -1.0f;
      rewards[0] = by_color[player_order_[0]];
      rewards[1] = by_color[player_order_[1]];
    }
  }

  // Hex._observe(state, player) and _observe(state, color): the board seen
  // by `color` (negated for the color not to move), four planes: its
  // stones, the opponent's, its color (all cells), whether the swap is
  // available (all cells).
  void Observe(int player, bool* out) const {
    const int state_color = game_step_count_ % 2;
    const int color = player == current_player ? state_color : 1 - state_color;
    const bool negate = color != state_color;
    const bool can_swap = game_step_count_ == 1;
    for (int i = 0; i < kCells; ++i) {
      const int32_t b = negate ? -board_[i] : board_[i];
      out[i * 4] = b > 0;
      out[i * 4 + 1] = b < 0;
      out[i * 4 + 2] = color != 0;
      out[i * 4 + 3] = can_swap;
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
                            legal_action_mask, step_count, player_order_,
                            board_, game_step_count_, game_terminated_)

 private:
  // _step(state, action, size): the stone takes id action+1 (an illegal
  // move on a taken cell overwrites it, as .at[].set does); each of the six
  // neighbours (_neighbour's order, off-board ones skipped) that holds an
  // own group relabels that whole group with the new id
  // (jnp.where(b == b[adj], id, b), in fori_loop order). Then the board is
  // negated for the next color and _is_terminal looks at the new state.
  void PlaceStone(int action) {
    const int32_t id = action + 1;
    board_[action] = id;
    const int x = action / kSize;  // pgx's x: the row
    const int y = action % kSize;  // pgx's y: the column
    const int xs[6] = {x, x + 1, x - 1, x + 1, x - 1, x};
    const int ys[6] = {y - 1, y - 1, y, y, y + 1, y + 1};
    for (int i = 0; i < 6; ++i) {
      if (xs[i] < 0 || xs[i] >= kSize || ys[i] < 0 || ys[i] >= kSize) continue;
      const int32_t group = board_[xs[i] * kSize + ys[i]];
      // Relabelling the new id with itself changes nothing: skip it.
      if (group <= 0 || group == id) continue;
      for (int j = 0; j < kCells; ++j) {
        if (board_[j] == group) board_[j] = id;
      }
    }
    for (int32_t& b : board_) b = -b;
    ++game_step_count_;
    game_terminated_ = IsTerminal(action);
  }

  // _is_terminal(state, action, size), with the new state's color: for
  // color 0 (white just moved) the left and right columns, for color 1
  // (black just moved) the top and bottom rows; over when both hold the
  // id of the cell just played.
  bool IsTerminal(int action) const {
    const int32_t target = board_[action];
    const bool columns = game_step_count_ % 2 == 0;
    bool top = false;
    bool bottom = false;
    for (int k = 0; k < kSize; ++k) {
      const int first = columns ? k * kSize : k;
      const int last = columns ? k * kSize + kSize - 1 : kCells - kSize + k;
      top |= board_[first] == target;
      bottom |= board_[last] == target;
    }
    return top && bottom;
  }

  // _swap(state, size): ix = the first nonzero cell (jnp.nonzero(size=1)
  // pads with 0 when there is none), emptied; its mirror col*size+row
  // takes id mirror+1; the board is negated. The game's terminated flag is
  // left as it was.
  void Swap() {
    int ix = 0;
    for (int i = 0; i < kCells; ++i) {
      if (board_[i] != 0) {
        ix = i;
        break;
      }
    }
    const int swapped = (ix % kSize) * kSize + ix / kSize;
    board_[ix] = 0;
    board_[swapped] = swapped + 1;
    for (int32_t& b : board_) b = -b;
    ++game_step_count_;
  }

  std::array<int, 2> player_order_{0, 1};
  std::array<int32_t, kCells> board_{};
  int32_t game_step_count_ = 0;  // GameState.step_count: color = it % 2
  bool game_terminated_ = false;
};

}  // namespace envpool_lite::pgx
