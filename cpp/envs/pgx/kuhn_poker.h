// pgx's kuhn_poker (pgx/kuhn_poker.py): three cards (0 = J, 1 = Q, 2 = K),
// one dealt to each player; actions 0 = bet, 1 = pass, both always legal.
// The game ends on bet-pass (the bettor wins 1), bet-bet (showdown for 2)
// or pass-pass (showdown for 1). At init the first player is drawn with
// bernoulli, then the deal uniformly among the six ordered pairs. The
// observation of a player is 7 flags: its card (0..2), its chips in the pot
// (3..4), the opponent's (5..6).
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "core/config.h"
#include "core/env_state.h"
#include "refkit/jax/random.h"

namespace envpool_lite::pgx {

class KuhnPoker {
 public:
  static constexpr int kNumPlayers = 2;
  static constexpr int kNumActions = 2;
  static constexpr int kBet = 0;
  static constexpr int kPass = 1;
  using ObsType = bool;
  static Config DefaultConfig() { return {{"max_episode_steps", int64_t{0}}}; }
  static void CheckConfig(const Config&) {}
  static std::vector<int64_t> ObsShape(const Config&) { return {7}; }
  static std::vector<double> ObsLow() { return {0.0}; }
  static std::vector<double> ObsHigh() { return {1.0}; }
  std::size_t ObsSize() const { return 7; }

  explicit KuhnPoker(const Config&) {}

  // _init: rng1, rng2 = split(key); current_player = bernoulli(rng1);
  // cards = choice(rng2, the six ordered pairs) (a row drawn with
  // randint(rng2, (), 0, 6)).
  void Init(jax_random::Key key) {
    static constexpr int kDeals[6][2] = {{0, 1}, {0, 2}, {1, 0},
                                         {1, 2}, {2, 0}, {2, 1}};
    const auto [rng1, rng2] = jax_random::Split2(key);
    current_player = jax_random::Bernoulli(rng1, 0.5f) ? 1 : 0;
    const int deal = jax_random::Choice(rng2, 6);
    cards_ = {kDeals[deal][0], kDeals[deal][1]};
    last_action_ = -1;
    pot_ = {0, 0};
    terminated = false;
    truncated = false;
    rewards.fill(0.0f);
    legal_action_mask.fill(true);
    step_count = 0;
  }

  // _step(state, action): a bet adds a chip to the mover's pot; the three
  // endings, in pgx's order; the turn passes.
  void Step(int action, jax_random::Key) {
    const int cp = current_player;
    if (action == kBet) ++pot_[cp];
    bool over = false;
    std::array<float, 2> reward{0.0f, 0.0f};
    if (last_action_ == kBet && action == kPass) {
      over = true;
      reward = {-1.0f, -1.0f};
      reward[1 - cp] = 1.0f;
    }
    if (last_action_ == kBet && action == kBet) {
      over = true;
      reward = GetUnitReward();
      reward[0] *= 2.0f;
      reward[1] *= 2.0f;
    }
    if (last_action_ == kPass && action == kPass) {
      over = true;
      reward = GetUnitReward();
    }
    legal_action_mask.fill(!over);
    current_player = 1 - cp;
    last_action_ = action;
    terminated = over;
    rewards = reward;
  }

  // _observe(state, player): the flags, set with .at[].set (an index past
  // the end would be dropped, a negative one counts from the end).
  void Observe(int player, bool* out) const {
    for (int i = 0; i < 7; ++i) out[i] = false;
    SetAt(out, cards_[player]);
    SetAt(out, 3 + pot_[player]);
    SetAt(out, 5 + pot_[1 - player]);
  }

  int current_player = 0;
  bool terminated = false;
  bool truncated = false;
  std::array<float, kNumPlayers> rewards{};
  std::array<bool, kNumActions> legal_action_mask{};
  int32_t step_count = 0;
  // get_state: everything Init and Step change (not the options' values).
  ENVPOOL_LITE_STATE_FIELDS(current_player, terminated, truncated, rewards,
                            legal_action_mask, step_count, cards_, last_action_,
                            pot_)

 private:
  // obs.at[i].set(True) on the 7 flags, JAX's scatter semantics.
  static void SetAt(bool* out, int i) {
    if (i < 0) i += 7;
    if (i >= 0 && i < 7) out[i] = true;
  }

  // _get_unit_reward: +1 to the higher card, -1 to the other, with the
  // mover's (state.current_player's) card compared first.
  std::array<float, 2> GetUnitReward() const {
    const int cp = current_player;
    std::array<float, 2> r{-1.0f, -1.0f};
    r[cards_[cp] > cards_[1 - cp] ? cp : 1 - cp] = 1.0f;
    return r;
  }

  std::array<int, 2> cards_{-1, -1};
  int last_action_ = -1;
  std::array<int, 2> pot_{0, 0};
};

}  // namespace envpool_lite::pgx
