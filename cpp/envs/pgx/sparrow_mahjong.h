// pgx's sparrow_mahjong (pgx/sparrow_mahjong.py): 3 players, 44 tiles of
// 11 types (types 0..8 the bamboos 1..9, 9 the green dragon, 10 the red;
// tile id t is of type t / 4). Red tiles: id % 4 == 0 (not 36, a green
// dragon) and all four red dragons (40..43). Hands are counts per type,
// indexed by seat (0 the dealer, who starts with 6 tiles); seat i is
// player shuffled_players[i]. An action discards a tile type; a discard
// another player can complete a hand of two sets with is a ron (scored
// automatically), else the next seat draws and may win by tsumo; when the
// wall runs out the game is a tie. Rewards are points / 26.
//
// The observation of a player is (11, 15) bool (pgx builds 15 feature rows
// of 11 tile types and transposes): rows 0..3 its hand's count >= 1..4,
// row 4 its red tiles, row 5 the dora, rows 6..8 the discards of itself
// and the next two seats, rows 9..11 and 12..14 the last three discards
// of the next seat and of the one after.
//
// The key: SparrowMahjong._step ignores its key; _init redraws the whole
// deal while it is a tenhou (a win on the dealer's first draw).
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <vector>

#include "core/config.h"
#include "core/env_state.h"
#include "refkit/jax/random.h"

namespace envpool_lite::pgx {

namespace sparrow_mahjong {

// The complete hands (pgx's WIN_HANDS, BASE_SCORES, YAKU_SCORES, which
// it lists as constants; built here from the rules they follow, in the
// same order): every 6-tile hand of two sets, a set being a triplet of
// any type (base 2) or a run of three consecutive bamboos (base 1), no
// type held more than 4 times: 160 hands, keyed by the hand's counts in
// base 5 (type 0 the highest digit, _to_base5), ascending. The yaku
// score: 15 when every tile is a 1, a 9 or a dragon; else 10 when every
// tile is green (bamboos 2, 3, 4, 6, 8 and the green dragon); else 1
// when every tile is a bamboo 2..8 (all simples); else 0.
struct WinHand {
  int32_t base5, base_score, yaku_score;
};
inline constexpr int kNumWinHands = 160;
inline constexpr std::array<int32_t, 11> kBase5 = {
    9765625, 1953125, 390625, 78125, 15625, 3125, 625, 125, 25, 5, 1};

constexpr std::array<WinHand, kNumWinHands> MakeWinHands() {
  // The 18 sets: triplets of types 0..10, then runs starting at 0..6.
  std::array<std::array<int32_t, 11>, 18> sets{};
  std::array<int32_t, 18> set_base{};
  for (int t = 0; t < 11; ++t) {
    sets[t][t] = 3;
    set_base[t] = 2;
  }
  for (int s = 0; s < 7; ++s) {
    sets[11 + s][s] = sets[11 + s][s + 1] = sets[11 + s][s + 2] = 1;
    set_base[11 + s] = 1;
  }
  std::array<WinHand, kNumWinHands> hands{};
  int n = 0;
  for (int i = 0; i < 18; ++i) {
    for (int j = i; j < 18; ++j) {
      std::array<int32_t, 11> hand{};
      bool valid = true;
      bool terminal_or_dragon = true;
      bool green = true;
      bool simple = true;
      int32_t base5 = 0;
      for (int t = 0; t < 11; ++t) {
        hand[t] = sets[i][t] + sets[j][t];
        if (hand[t] > 4) valid = false;
        if (hand[t] == 0) continue;
        base5 += hand[t] * kBase5[t];
        terminal_or_dragon &= t == 0 || t == 8 || t == 9 || t == 10;
        green &= t == 1 || t == 2 || t == 3 || t == 5 || t == 7 || t == 9;
        simple &= t >= 1 && t <= 7;
      }
      if (!valid || n >= kNumWinHands) continue;
      const int32_t yaku =
          terminal_or_dragon ? 15 : (green ? 10 : (simple ? 1 : 0));
      hands[n++] = {base5, set_base[i] + set_base[j], yaku};
    }
  }
  std::sort(hands.begin(), hands.end(), [](const WinHand& a, const WinHand& b) {
    return a.base5 < b.base5;
  });
  return hands;
}
inline constexpr std::array<WinHand, kNumWinHands> kWinHands = MakeWinHands();
// pgx's first and last WIN_HANDS (green + red triplets; 1s + 2s
// triplets): all 160 slots were filled.
static_assert(kWinHands[0].base5 == 18 && kWinHands[159].base5 == 41406250);

}  // namespace sparrow_mahjong

class SparrowMahjong {
 public:
  static constexpr int kNumPlayers = 3;
  static constexpr int kNumActions = 11;
  static constexpr int kTileTypes = 11;
  static constexpr int kNumTiles = 44;
  static constexpr int kRiverLength = 10;
  static constexpr int kFeatures = 15;
  static constexpr int kMaxScore = 26;
  using ObsType = bool;
  static Config DefaultConfig() { return {{"max_episode_steps", int64_t{0}}}; }
  static void CheckConfig(const Config&) {}
  static std::vector<int64_t> ObsShape(const Config&) {
    return {kTileTypes, kFeatures};
  }
  static std::vector<double> ObsLow() { return {0.0}; }
  static std::vector<double> ObsHigh() { return {1.0}; }
  std::size_t ObsSize() const { return kTileTypes * kFeatures; }

  explicit SparrowMahjong(const Config&) {}

  // SparrowMahjong._init(key): key, sub = split(key); deal from sub; while
  // the deal ended at once (a tenhou), key, sub = split(key) and deal
  // again from sub.
  void Init(jax_random::Key key) {
    auto [next, sub] = jax_random::Split2(key);
    Deal(sub);
    while (terminated) {
      const auto [k, s] = jax_random::Split2(next);
      next = k;
      Deal(s);
    }
    truncated = false;
    step_count = 0;
  }

  // SparrowMahjong._step(state, action): the seat to move discards a tile
  // of type `action` (a red one only when no other of that type is left:
  // the hand keeps its red tiles as long as it can), then a ron, the tie
  // at the end of the wall, or the next seat's draw (and a possible
  // tsumo). An illegal action is played the same way, with a count
  // going negative.
  void Step(int action, jax_random::Key) {
    const int seat = turn_ % 3;
    hands_[seat][action] -= 1;
    const bool is_red_discarded = hands_[seat][action] < n_red_[seat][action];
    n_red_[seat][action] -= is_red_discarded ? 1 : 0;
    // .at[seat, turn // 3].set: dropped past the river's end (never
    // reached: the wall ends first).
    if (turn_ / 3 < kRiverLength) {
      rivers_[seat][turn_ / 3] = action;
      is_red_in_river_[seat][turn_ / 3] = is_red_discarded;
    }
    last_discard_ = action;

    std::array<int32_t, 3> scores = HandsToScore();
    const std::array<bool, 3> winning = CheckRon(scores);
    if (winning[0] || winning[1] || winning[2]) {
      StepByRon(scores, winning);
    } else if (kNumTiles - 1 <= draw_ix_) {
      StepByTie();
    } else {
      // _step_non_tied.
      DrawTile();
      scores = HandsToScore();
      if (CheckTsumo(scores)) {
        StepByTsumo(scores);
      } else {
        rewards.fill(0.0f);  // _step_non_terminal
      }
    }
  }

  // _observe(state, player): the player's seat is where
  // shuffled_players == player (argmin of |shuffled_players - player|).
  void Observe(int player, bool* out) const {
    int seat = 0;
    for (int i = 1; i < 3; ++i) {
      if (std::abs(shuffled_players_[i] - player) <
          std::abs(shuffled_players_[seat] - player)) {
        seat = i;
      }
    }
    // obs[feature][type] is written to out[type * 15 + feature] (the
    // transpose).
    std::fill(out, out + kTileTypes * kFeatures, false);
    auto set = [out](int feature, int type) {
      if (type >= 0 && type < kTileTypes)
        out[type * kFeatures + feature] = true;
    };
    for (int t = 0; t < kTileTypes; ++t) {
      for (int k = 0; k < 4; ++k) {
        if (hands_[seat][t] >= k + 1) set(k, t);
      }
      if (n_red_[seat][t] >= 1) set(4, t);
    }
    set(5, dora_);
    for (int k = 0; k < 3; ++k) {
      const auto& river = rivers_[(seat + k) % 3];
      for (int32_t tile : river) {
        if (tile >= 0) set(6 + k, tile);
      }
    }
    // The last three discards of the next seat (rows 9..11) and of the one
    // after (rows 12..14): ix is the number of discards in the river.
    for (int k = 1; k <= 2; ++k) {
      const auto& river = rivers_[(seat + k) % 3];
      int ix = 0;
      for (int32_t tile : river) ix += tile >= 0 ? 1 : 0;
      for (int back = 1; back <= 3; ++back) {
        if (ix - back >= 0) set(9 + (k - 1) * 3 + (back - 1), river[ix - back]);
      }
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
                            legal_action_mask, step_count, turn_, rivers_,
                            is_red_in_river_, last_discard_, hands_, n_red_,
                            wall_, draw_ix_, shuffled_players_, dora_, scores_)

 private:
  using WinHand = sparrow_mahjong::WinHand;
  static constexpr const auto& kWinHands = sparrow_mahjong::kWinHands;
  static constexpr const auto& kBase5 = sparrow_mahjong::kBase5;

  static int32_t ToBase5(const std::array<int32_t, kTileTypes>& hand) {
    int32_t sum = 0;
    for (int t = 0; t < kTileTypes; ++t) sum += hand[t] * kBase5[t];
    return sum;
  }

  // _is_completed: the hand is one of WIN_HANDS.
  static bool IsCompleted(const std::array<int32_t, kTileTypes>& hand) {
    const int32_t x = ToBase5(hand);
    const auto it = std::lower_bound(
        kWinHands.begin(), kWinHands.end(), x,
        [](const WinHand& w, int32_t v) { return w.base5 < v; });
    return it != kWinHands.end() && it->base5 == x;
  }

  // _hand_to_score: the scores of WIN_HANDS[argmin |WIN_HANDS - base5|]
  // (the first of two equally near: the lower), meaningful for a complete
  // hand only.
  static const WinHand& HandToScore(
      const std::array<int32_t, kTileTypes>& hand) {
    const int32_t x = ToBase5(hand);
    const auto it = std::lower_bound(
        kWinHands.begin(), kWinHands.end(), x,
        [](const WinHand& w, int32_t v) { return w.base5 < v; });
    if (it == kWinHands.begin()) return *it;
    if (it == kWinHands.end()) return kWinHands.back();
    const auto below = it - 1;
    return std::abs(x - below->base5) <= std::abs(it->base5 - x) ? *below : *it;
  }

  // _hands_to_score: each seat's points with its hand (a 5-tile hand takes
  // the last discard; last_discard is -1 before the first discard, which
  // jax's scatter takes as the last type, 10): base + yaku, plus the doras
  // and red tiles held unless the yaku is 10 or more; 6 or more red tiles
  // make the yaku 20 ("super red").
  std::array<int32_t, 3> HandsToScore() const {
    std::array<int32_t, 3> scores{};
    for (int i = 0; i < 3; ++i) {
      std::array<int32_t, kTileTypes> hand = hands_[i];
      int32_t sum = 0;
      for (int32_t c : hand) sum += c;
      if (sum == 5) {
        const int d =
            last_discard_ < 0 ? last_discard_ + kTileTypes : last_discard_;
        if (d >= 0 && d < kTileTypes) hand[d] += 1;
      }
      const WinHand& w = HandToScore(hand);
      int32_t ys = w.yaku_score;
      const int32_t n_doras = hand[dora_];
      int32_t n_red_doras = 0;
      for (int32_t c : n_red_[i]) n_red_doras += c;
      if (n_red_doras >= 6) ys = 20;
      scores[i] = ys >= 10 ? w.base_score + ys
                           : w.base_score + ys + n_doras + n_red_doras;
    }
    return scores;
  }

  // _check_ron: the seats whose hand with the last discard is complete,
  // not the discarder's (pgx clears winning_players[turn], not [turn % 3]:
  // an out-of-bounds scatter from turn 3 on, dropped; the discarder is
  // ruled out anyway, being furiten on its own discard), not furiten (the
  // discard's type is not in its own river), with at least 5 points.
  std::array<bool, 3> CheckRon(const std::array<int32_t, 3>& scores) const {
    std::array<bool, 3> winning{};
    for (int i = 0; i < 3; ++i) {
      std::array<int32_t, kTileTypes> hand = hands_[i];
      const int d =
          last_discard_ < 0 ? last_discard_ + kTileTypes : last_discard_;
      if (d >= 0 && d < kTileTypes) hand[d] += 1;
      winning[i] = IsCompleted(hand);
    }
    if (turn_ >= 0 && turn_ < 3) winning[turn_] = false;
    for (int i = 0; i < 3; ++i) {
      bool furiten = false;
      for (int32_t tile : rivers_[i]) furiten |= tile == last_discard_;
      winning[i] = winning[i] && !furiten && scores[i] >= 5;
    }
    return winning;
  }

  // _check_tsumo: hands[turn] complete and scores[turn] >= 0. pgx indexes
  // by turn, not turn % 3: from turn 3 on the gathers clamp the index to
  // 2, so seat 2's hand and score are checked, whoever drew (a 5-tile
  // hand, never complete, unless seat 2 is the drawer).
  bool CheckTsumo(const std::array<int32_t, 3>& scores) const {
    const int t = std::min(turn_, 2);
    return IsCompleted(hands_[t]) && scores[t] >= 0;
  }

  // _order_by_player_idx then / MAX_SCORE (float32): seat i's points go
  // to player shuffled_players[i]. XLA compiles the division by the
  // constant 26 as a multiplication by its float32 reciprocal (6 / 26 is
  // 0.23076925 under jit, not the correctly rounded 0.23076923), so this
  // multiplies too.
  void SetRewards(const std::array<int32_t, 3>& scores) {
    constexpr float kInvMaxScore = 1.0f / static_cast<float>(kMaxScore);
    for (int i = 0; i < 3; ++i) {
      rewards[shuffled_players_[i]] =
          static_cast<float>(scores[i]) * kInvMaxScore;
    }
  }

  // _step_by_ron: the dealer's score +2; the winners keep theirs, the
  // others 0, and the discarder pays their sum.
  void StepByRon(std::array<int32_t, 3> scores,
                 const std::array<bool, 3>& winning) {
    scores[0] += 2;
    int32_t sum = 0;
    for (int i = 0; i < 3; ++i) {
      scores[i] *= winning[i] ? 1 : 0;
      sum += scores[i];
    }
    scores[turn_ % 3] = -sum;
    terminated = true;
    legal_action_mask.fill(false);
    scores_ = scores;
    SetRewards(scores);
  }

  // _step_by_tsumo: the dealer's score +2; each other seat pays
  // ceil(winner's score / 2) (a float32 division) and the winner gets
  // twice that. The winner's score is read at scores[turn] (clamped to 2,
  // as in _check_tsumo); it is written to seat turn % 3.
  void StepByTsumo(std::array<int32_t, 3> scores) {
    scores[0] += 2;
    const int32_t winner_score = scores[std::min(turn_, 2)];
    const int32_t loser_score = static_cast<int32_t>(
        std::ceil(static_cast<float>(winner_score) / 2.0f));
    scores.fill(-loser_score);
    scores[turn_ % 3] = loser_score * 2;
    terminated = true;
    legal_action_mask.fill(false);
    scores_ = scores;
    SetRewards(scores);
  }

  // _step_by_tie.
  void StepByTie() {
    terminated = true;
    legal_action_mask.fill(false);
    rewards.fill(0.0f);
  }

  static bool IsRed(int32_t tile_id) {
    return (tile_id % 4 == 0 && tile_id != 36) || tile_id >= 40;
  }

  // _draw_tile: the next seat draws wall[draw_ix].
  void DrawTile() {
    turn_ += 1;
    const int seat = turn_ % 3;
    current_player = shuffled_players_[seat];
    const int32_t tile_id = wall_[std::min(draw_ix_, kNumTiles - 1)];
    hands_[seat][tile_id / 4] += 1;
    n_red_[seat][tile_id / 4] += IsRed(tile_id) ? 1 : 0;
    draw_ix_ += 1;
    for (int t = 0; t < kTileTypes; ++t) {
      legal_action_mask[t] = hands_[seat][t] > 0;
    }
    terminated = false;
  }

  // The module's _init(rng): key1, key2 = split(rng); the seats'
  // players = permutation(key1, arange(3)), the wall = permutation(key2,
  // arange(44)) (independent=True: for 1-D arrays that is the plain
  // shuffle); the dora is the last tile's type; seat i gets wall[5i..5i+4]
  // and the dealer draws wall[15] (pgx counts that tile in the hand but not
  // in n_red_in_hands). Then the dealer's tsumo check (a tenhou).
  void Deal(jax_random::Key rng) {
    const auto [key1, key2] = jax_random::Split2(rng);
    const std::vector<int32_t> players = jax_random::Permutation(key1, 3);
    const std::vector<int32_t> wall = jax_random::Permutation(key2, kNumTiles);
    std::copy(players.begin(), players.end(), shuffled_players_.begin());
    std::copy(wall.begin(), wall.end(), wall_.begin());
    current_player = shuffled_players_[0];
    dora_ = wall_[kNumTiles - 1] / 4;
    for (auto& h : hands_) h.fill(0);
    for (auto& h : n_red_) h.fill(0);
    for (int i = 0; i < 15; ++i) {
      hands_[i / 5][wall_[i] / 4] += 1;
      n_red_[i / 5][wall_[i] / 4] += IsRed(wall_[i]) ? 1 : 0;
    }
    draw_ix_ = 15;
    hands_[0][wall_[draw_ix_] / 4] += 1;
    draw_ix_ += 1;
    for (int t = 0; t < kTileTypes; ++t) {
      legal_action_mask[t] = hands_[0][t] > 0;
    }
    turn_ = 0;
    for (auto& r : rivers_) r.fill(-1);
    for (auto& r : is_red_in_river_) r.fill(false);
    last_discard_ = -1;
    scores_.fill(0);
    rewards.fill(0.0f);
    terminated = false;
    const std::array<int32_t, 3> scores = HandsToScore();
    if (CheckTsumo(scores)) StepByTsumo(scores);
  }

  int32_t turn_ = 0;  // seat to move is turn % 3; turn / 3 its river slot
  std::array<std::array<int32_t, kRiverLength>, 3> rivers_{};
  std::array<std::array<bool, kRiverLength>, 3> is_red_in_river_{};
  int32_t last_discard_ = -1;
  std::array<std::array<int32_t, kTileTypes>, 3> hands_{};
  std::array<std::array<int32_t, kTileTypes>, 3> n_red_{};
  std::array<int32_t, kNumTiles> wall_{};
  int32_t draw_ix_ = 15;
  std::array<int32_t, 3> shuffled_players_{};
  int32_t dora_ = 0;
  std::array<int32_t, 3> scores_{};
};

}  // namespace envpool_lite::pgx
