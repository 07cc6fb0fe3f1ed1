// pgx's 2048 (pgx/play2048.py): a 4x4 board, cells 0..15 row by row, each
// holding the exponent of its tile (0 empty, 1 a 2, 2 a 4, ...). Actions
// slide the board: 0 left, 1 up, 2 right, 3 down. After every step (a
// legal slide, or an illegal one that moves nothing) a tile is added on an
// empty cell, a 2 nine times in ten, else a 4, drawn from the step key.
// The reward is the sum of the merged tiles; the game ends when no slide
// moves anything. The observation is one-hot: (4, 4, 31), cell i's plane
// board[i] set.
//
// The key: Play2048.step (pgx's override) only asserts that a key was
// given and calls core.Env.step, which hands the key unchanged to _step;
// so Game::Step's key is _step's key, with no further split here.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

#include "core/config.h"
#include "core/env_state.h"
#include "refkit/jax/random.h"

namespace envpool_lite::pgx {

class Play2048 {
 public:
  static constexpr int kNumPlayers = 1;
  static constexpr int kNumActions = 4;
  static constexpr int kPlanes = 31;
  using ObsType = bool;
  static Config DefaultConfig() { return {{"max_episode_steps", int64_t{0}}}; }
  static void CheckConfig(const Config&) {}
  static std::vector<int64_t> ObsShape(const Config&) {
    return {4, 4, kPlanes};
  }
  static std::vector<double> ObsLow() { return {0.0}; }
  static std::vector<double> ObsHigh() { return {1.0}; }
  std::size_t ObsSize() const { return 16 * kPlanes; }

  explicit Play2048(const Config&) {}

  // _init(key): rng1, rng2 = split(key); two tiles added, from rng1 then
  // rng2, on an empty board.
  void Init(jax_random::Key key) {
    const auto [rng1, rng2] = jax_random::Split2(key);
    board_.fill(0);
    AddRandomNum(rng1);
    AddRandomNum(rng2);
    current_player = 0;
    terminated = false;
    truncated = false;
    rewards.fill(0.0f);
    LegalActionMask();
    step_count = 0;
  }

  // _step(state, action, key): the board turned by rot90(board, action) so
  // that the slide is to the left, each row slid and merged, turned back,
  // a tile added from the key. The rotations are read through kLines: row
  // r of the turned board is cells kLines[action][r][0..3] of the board, so
  // writing the row back to the same cells is the turn back.
  void Step(int action, jax_random::Key key) {
    // jax.lax.switch clamps its index into [0, 3].
    const int k = action < 0 ? 0 : (action > 3 ? 3 : action);
    int32_t reward = 0;
    for (int r = 0; r < 4; ++r) {
      std::array<int32_t, 4> line;
      for (int j = 0; j < 4; ++j) line[j] = board_[kLines[k][r][j]];
      reward += SlideAndMerge(line);
      for (int j = 0; j < 4; ++j) board_[kLines[k][r][j]] = line[j];
    }
    AddRandomNum(key);
    LegalActionMask();
    rewards[0] = static_cast<float>(reward);
    terminated = !(legal_action_mask[0] || legal_action_mask[1] ||
                   legal_action_mask[2] || legal_action_mask[3]);
  }

  // _observe: obs[i, board[i]] = True (an exponent past 30 would be an
  // out-of-bounds scatter, dropped).
  void Observe(int, bool* out) const {
    std::fill(out, out + 16 * kPlanes, false);
    for (int i = 0; i < 16; ++i) {
      const int32_t v = board_[i];
      if (v >= 0 && v < kPlanes) out[i * kPlanes + v] = true;
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
                            legal_action_mask, step_count, board_)

 private:
  // kLines[k][r][j]: the cell of the board at (r, j) of jnp.rot90(board, k)
  // (counterclockwise k times): k=1 reads (j, 3-r), k=2 (3-r, 3-j), k=3
  // (3-j, r).
  static constexpr std::array<std::array<std::array<int, 4>, 4>, 4> kLines =
      [] {
        std::array<std::array<std::array<int, 4>, 4>, 4> lines{};
        for (int r = 0; r < 4; ++r) {
          for (int j = 0; j < 4; ++j) {
            lines[0][r][j] = r * 4 + j;
            lines[1][r][j] = j * 4 + (3 - r);
            lines[2][r][j] = (3 - r) * 4 + (3 - j);
            lines[3][r][j] = (3 - j) * 4 + r;
          }
        }
        return lines;
      }();

  // _add_random_num(board, key): key, sub_key = split(key);
  // pos = choice(key, arange(16), p=(board == 0));
  // set_num = choice(sub_key, [1, 2], p=[0.9, 0.1]); board[pos] = set_num.
  void AddRandomNum(jax_random::Key key) {
    const auto [pos_key, num_key] = jax_random::Split2(key);
    std::array<float, 16> empty;
    for (int i = 0; i < 16; ++i) empty[i] = board_[i] == 0 ? 1.0f : 0.0f;
    const int pos = ChoiceIndex(pos_key, empty);
    static constexpr std::array<float, 2> kNumP = {0.9f, 0.1f};
    const int32_t set_num = ChoiceIndex(num_key, kNumP) == 0 ? 1 : 2;
    board_[pos] = set_num;
  }

  // jax.random.choice's index with float32 weights p (shape (),
  // replace=True), as jax_random::ChoiceIndex computes it, without its heap
  // vectors: up to 16 weights, cumsum is the sequential sum; r =
  // cumsum[-1] * (1 - uniform(key)); searchsorted(cumsum, r) (side left)
  // is the first i with cumsum[i] >= r (its halving search over a
  // non-decreasing cumsum and a finite r lands there). Here the weights
  // are 0/1 (empty cells: r in (0, count]) or {0.9, 0.1}; all-zero weights
  // give r = 0, index 0.
  template <std::size_t N>
  static int ChoiceIndex(jax_random::Key key, const std::array<float, N>& p) {
    static_assert(N <= 16, "XLA's cumsum is sequential up to 16 elements");
    std::array<float, N> cuml;
    float acc = 0.0f;
    for (std::size_t i = 0; i < N; ++i) cuml[i] = acc = acc + p[i];
    const float r = cuml[N - 1] * (1.0f - jax_random::Uniform(key));
    for (std::size_t i = 0; i < N; ++i) {
      if (r <= cuml[i]) return static_cast<int>(i);
    }
    return static_cast<int>(N);
  }

  // _slide_and_merge(line): slide left, merge, slide left; the reward is
  // the merge's.
  static int32_t SlideAndMerge(std::array<int32_t, 4>& line) {
    SlideLeft(line);
    const int32_t reward = Merge(line);
    SlideLeft(line);
    return reward;
  }

  // _merge: left to right, a pair of equal nonzero neighbours becomes one
  // tile of the next exponent and an empty cell; the reward adds
  // 2 ** (new exponent).
  static int32_t Merge(std::array<int32_t, 4>& line) {
    int32_t reward = 0;
    for (int i = 0; i < 3; ++i) {
      if (line[i] != 0 && line[i] == line[i + 1]) {
        line[i] += 1;
        line[i + 1] = 0;
        reward += int32_t{1} << line[i];
      }
    }
    return reward;
  }

  // _slide_left: if line[2] is empty, line[2:] rolls left by one; then the
  // same for line[1:], then for the whole line at line[0].
  static void SlideLeft(std::array<int32_t, 4>& line) {
    for (int start = 2; start >= 0; --start) {
      if (line[start] == 0) {
        for (int i = start; i < 3; ++i) line[i] = line[i + 1];
        line[3] = 0;
      }
    }
  }

  // _legal_action_mask: action k is legal when _can_slide_left holds on
  // rot90(board, k): some row can slide or merge left.
  void LegalActionMask() {
    for (int k = 0; k < 4; ++k) {
      bool any = false;
      for (int r = 0; r < 4; ++r) {
        std::array<int32_t, 4> l;
        for (int j = 0; j < 4; ++j) l[j] = board_[kLines[k][r][j]];
        bool can = (l[0] == 0 && l[1] > 0) || (l[1] == 0 && l[2] > 0) ||
                   (l[2] == 0 && l[3] > 0) || (l[0] > 0 && l[0] == l[1]) ||
                   (l[1] > 0 && l[1] == l[2]) || (l[2] > 0 && l[2] == l[3]);
        can = can && !(l[0] == 0 && l[1] == 0 && l[2] == 0 && l[3] == 0);
        any = any || can;
      }
      legal_action_mask[k] = any;
    }
  }

  std::array<int32_t, 16> board_{};
};

}  // namespace envpool_lite::pgx
