// pgx's leduc_holdem (pgx/leduc_holdem.py): a six-card deck (two each of
// 0 = J, 1 = Q, 2 = K), one private card per player and one public card,
// two betting rounds (raise 2 in the first, 4 in the second, at most two
// raises a round). Actions 0 = call, 1 = raise, 2 = fold. Both players
// start with 1 chip in; the public card shows in the observation during
// round 1. At init the first player is drawn with bernoulli, then the deck
// is shuffled and its first three cards dealt (player 0, player 1,
// public). The observation of a player is 34 flags: its card (0..2), the
// public card (3..5), its chips 0..13 (6..19), the opponent's (20..33).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "core/config.h"
#include "core/env_state.h"
#include "refkit/jax/random.h"

namespace envpool_lite::pgx {

class LeducHoldem {
 public:
  static constexpr int kNumPlayers = 2;
  static constexpr int kNumActions = 3;
  static constexpr int kCall = 0;
  static constexpr int kRaise = 1;
  static constexpr int kFold = 2;
  static constexpr int kInvalidAction = -1;
  static constexpr int kMaxRaise = 2;
  static constexpr int kObsSize = 34;
  using ObsType = bool;
  static Config DefaultConfig() { return {{"max_episode_steps", int64_t{0}}}; }
  static void CheckConfig(const Config&) {}
  static std::vector<int64_t> ObsShape(const Config&) { return {kObsSize}; }
  static std::vector<double> ObsLow() { return {0.0}; }
  static std::vector<double> ObsHigh() { return {1.0}; }
  std::size_t ObsSize() const { return kObsSize; }

  explicit LeducHoldem(const Config&) {}

  // _init: rng1, rng2 = split(key, 2); current_player = bernoulli(rng1);
  // cards = permutation(rng2, [0, 0, 1, 1, 2, 2], independent=True)[:3].
  void Init(jax_random::Key key) {
    const auto [rng1, rng2] = jax_random::Split2(key);
    current_player = jax_random::Bernoulli(rng1, 0.5f) ? 1 : 0;
    std::array<int32_t, 6> deck{0, 0, 1, 1, 2, 2};
    jax_random::ShuffleInPlace(rng2, std::span<int32_t>(deck));
    cards_ = {deck[0], deck[1], deck[2]};
    first_player_ = current_player;
    last_action_ = kInvalidAction;
    chips_ = {1, 1};
    round_ = 0;
    raise_count_ = 0;
    terminated = false;
    truncated = false;
    rewards.fill(0.0f);
    legal_action_mask = {true, true, false};
    step_count = 0;
  }

  // _step(state, action).
  void Step(int action, jax_random::Key) {
    const int cp = current_player;
    // The chips (lax.switch on the action): a call matches the opponent, a
    // raise puts max(chips) + _raise_chips = (round + 1) * 2 in.
    std::array<int32_t, 2> chips = chips_;
    if (action == kCall) chips[cp] = chips_[1 - cp];
    if (action == kRaise) {
      chips[cp] = std::max(chips_[0], chips_[1]) + (round_ + 1) * 2;
    }
    // _check_round_over, on the state before the step.
    const bool fold = action == kFold;
    const bool call = last_action_ != kInvalidAction && action == kCall;
    const bool keep_going = round_ == 0 && call;
    const bool round_over = fold || call;
    const bool over = round_over && !keep_going;
    std::array<float, 2> reward{0.0f, 0.0f};
    if (fold) {
      reward = {-1.0f, -1.0f};
      reward[1 - cp] = 1.0f;
    }
    if (over && call) reward = GetUnitReward();
    // reward *= min(chips) (float32 times an int32 promoted to float32).
    const float stake = static_cast<float>(std::min(chips[0], chips[1]));
    reward[0] *= stake;
    reward[1] *= stake;
    last_action_ = round_over ? kInvalidAction : action;
    current_player = round_over ? first_player_ : 1 - cp;
    raise_count_ = round_over ? 0 : raise_count_ + (action == kRaise ? 1 : 0);
    // The mask by action (call: call/raise, raise: all, fold: none), then
    // raise only below MAX_RAISE raises.
    legal_action_mask = {action != kFold, action != kFold, action == kRaise};
    legal_action_mask[kRaise] = raise_count_ < kMaxRaise;
    terminated = over;
    rewards = reward;
    round_ += round_over ? 1 : 0;
    chips_ = chips;
  }

  // _observe(state, player): the flags, set with .at[].set (an index past
  // the end is dropped, as after an illegal third raise; a negative one
  // counts from the end). The public card shows only while round == 1 (a
  // game that ends in round 1 has round 2 and hides it again).
  void Observe(int player, bool* out) const {
    for (int i = 0; i < kObsSize; ++i) out[i] = false;
    SetAt(out, cards_[player]);
    if (round_ == 1) SetAt(out, 3 + cards_[2]);
    SetAt(out, 6 + chips_[player]);
    SetAt(out, 20 + chips_[1 - player]);
  }

  int current_player = 0;
  bool terminated = false;
  bool truncated = false;
  std::array<float, kNumPlayers> rewards{};
  std::array<bool, kNumActions> legal_action_mask{};
  int32_t step_count = 0;
  // get_state: everything Init and Step change (not the options' values).
  ENVPOOL_LITE_STATE_FIELDS(current_player, terminated, truncated, rewards,
                            legal_action_mask, step_count, cards_,
                            first_player_, last_action_, chips_, round_,
                            raise_count_)

 private:
  // obs.at[i].set(True) on the 34 flags, JAX's scatter semantics.
  static void SetAt(bool* out, int i) {
    if (i < 0) i += kObsSize;
    if (i >= 0 && i < kObsSize) out[i] = true;
  }

  // _get_unit_reward, on the state before the step: a pair with the public
  // card wins, else the higher card; equal cards are a draw (zero).
  std::array<float, 2> GetUnitReward() const {
    const int cp = current_player;
    const int mine = cards_[cp];
    const int theirs = cards_[1 - cp];
    if (mine == theirs) return {0.0f, 0.0f};
    const bool win_by_pair = mine == cards_[2];
    const bool lose_by_pair = theirs == cards_[2];
    const bool win = win_by_pair || (!lose_by_pair && mine > theirs);
    std::array<float, 2> r{-1.0f, -1.0f};
    r[win ? cp : 1 - cp] = 1.0f;
    return r;
  }

  std::array<int32_t, 3> cards_{-1, -1, -1};  // player 0, player 1, public
  int first_player_ = 0;
  int last_action_ = kInvalidAction;
  std::array<int32_t, 2> chips_{1, 1};
  int32_t round_ = 0;
  int32_t raise_count_ = 0;
};

}  // namespace envpool_lite::pgx
