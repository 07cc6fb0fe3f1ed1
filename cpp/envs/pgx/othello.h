// pgx's othello (pgx/othello.py): an 8x8 board, cells 0..63 row by row,
// held from the point of view of the player to move (pgx: +1 its stones,
// -1 the opponent's; here two bitboards, bit i = cell i). Action 64 is the
// pass, legal only when no cell is. The game ends on a full board, when
// the player to move has no stone left, or on two passes in a row; the
// player with more stones wins. The first player is drawn at init:
// current_player = bernoulli(key). The observation of a player is two 8x8
// planes: its stones, then the opponent's.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <vector>

#include "core/config.h"
#include "core/env_state.h"
#include "refkit/jax/random.h"

namespace envpool_lite::pgx {

class Othello {
 public:
  static constexpr int kNumPlayers = 2;
  static constexpr int kNumActions = 65;
  static constexpr int kPass = 64;
  using ObsType = bool;
  static Config DefaultConfig() { return {{"max_episode_steps", int64_t{0}}}; }
  static void CheckConfig(const Config&) {}
  static std::vector<int64_t> ObsShape(const Config&) { return {8, 8, 2}; }
  static std::vector<double> ObsLow() { return {0.0}; }
  static std::vector<double> ObsHigh() { return {1.0}; }
  std::size_t ObsSize() const { return 128; }

  explicit Othello(const Config&) {}

  // _init: current_player = bernoulli(key); cells 28, 35 are the mover's,
  // 27, 36 the opponent's; cells 19, 26, 37, 44 legal, the pass not.
  void Init(jax_random::Key key) {
    current_player = jax_random::Bernoulli(key, 0.5f) ? 1 : 0;
    my_ = Bit(28) | Bit(35);
    opp_ = Bit(27) | Bit(36);
    passed_ = false;
    terminated = false;
    truncated = false;
    rewards.fill(0.0f);
    legal_action_mask.fill(false);
    for (int i : {19, 26, 37, 44}) legal_action_mask[i] = true;
    step_count = 0;
  }

  // _step(state, action).
  void Step(int action, jax_random::Key) {
    uint64_t my = my_;
    uint64_t opp = opp_;
    // pos = zeros(64).at[action].set(True): the pass (64) is out of bounds,
    // a dropped scatter, so pos is empty.
    const uint64_t pos = action < 64 ? Bit(action) : 0;
    // The eight directions (_shift): a line of opponent stones from pos
    // that ends on a stone of mine is flipped.
    uint64_t rev = 0;
    for (int i = 0; i < 8; ++i) {
      const uint64_t tmp = CheckLine(pos, opp, kShifts[i], kMasks[i]);
      if ((Roll(tmp, kShifts[i]) & my) != 0) rev |= tmp;
    }
    my ^= pos | rev;
    opp ^= rev;
    const uint64_t emp = ~(my | opp);
    // _make_legal: the next player's (opp's) legal cells.
    uint64_t legal = 0;
    for (int i = 0; i < 8; ++i) {
      legal |=
          Roll(CheckLine(opp, my, kShifts[i], kMasks[i]), kShifts[i]) & emp;
    }
    const bool over = std::popcount(my | opp) == 64 || opp == 0 ||
                      (passed_ && action == kPass);
    rewards.fill(0.0f);
    if (over) rewards = GetReward(my, opp, current_player);
    terminated = over;
    current_player = 1 - current_player;
    // The new board: -where(opp, -1, my), the next player's view.
    my_ = opp;
    opp_ = my & ~opp;
    passed_ = action == kPass;
    for (int i = 0; i < 64; ++i) legal_action_mask[i] = (legal >> i) & 1;
    legal_action_mask[kPass] = legal == 0;
  }

  // _observe(state, player): the board, negated for the player not to
  // move; planes board > 0, then board < 0.
  void Observe(int player, bool* out) const {
    const bool mine = player == current_player;
    const uint64_t a = mine ? my_ : opp_;
    const uint64_t b = mine ? opp_ : my_;
    for (int i = 0; i < 64; ++i) {
      out[i * 2] = (a >> i) & 1;
      out[i * 2 + 1] = (b >> i) & 1;
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
                            legal_action_mask, step_count, my_, opp_, passed_)

 private:
  static constexpr uint64_t Bit(int i) { return uint64_t{1} << i; }

  // LR_MASK (not the left and right columns), UD_MASK (not the top and
  // bottom rows), SIDE_MASK (both).
  static constexpr uint64_t kLR = 0x7E7E7E7E7E7E7E7EULL;
  static constexpr uint64_t kUD = 0x00FFFFFFFFFFFF00ULL;
  static constexpr uint64_t kSide = kLR & kUD;
  static constexpr int kShifts[8] = {1, -1, 8, -8, 7, -7, 9, -9};
  static constexpr uint64_t kMasks[8] = {kLR,   kLR,   kUD,   kUD,
                                         kSide, kSide, kSide, kSide};

  // jnp.roll(x, shift) on 64 cells: out[i] = x[(i - shift) mod 64], a
  // rotation of the bitboard towards higher bits.
  static uint64_t Roll(uint64_t x, int shift) {
    return std::rotl(x, shift);  // rotl by a negative count rotates right
  }

  // _check_line(pos, opp, shift, mask): the masked opponent stones reached
  // from pos in steps of `shift`, six steps at most.
  static uint64_t CheckLine(uint64_t pos, uint64_t opp, int shift,
                            uint64_t mask) {
    const uint64_t o = opp & mask;
    uint64_t result = o & Roll(pos, shift);
    for (int k = 0; k < 5; ++k) result |= o & Roll(result, shift);
    return result;
  }

  // _get_reward(my, opp, curr_player): a draw is zero; otherwise +1 to the
  // winner (the mover if it has more stones), -1 to the other.
  static std::array<float, 2> GetReward(uint64_t my, uint64_t opp,
                                        int curr_player) {
    const int n_my = std::popcount(my);
    const int n_opp = std::popcount(opp);
    if (n_my == n_opp) return {0.0f, 0.0f};
    const int winner = n_my > n_opp ? curr_player : 1 - curr_player;
    std::array<float, 2> r{-1.0f, -1.0f};
    r[winner] = 1.0f;
    return r;
  }

  uint64_t my_ = 0;   // board > 0: the stones of the player to move
  uint64_t opp_ = 0;  // board < 0: the other player's
  bool passed_ = false;
};

}  // namespace envpool_lite::pgx
