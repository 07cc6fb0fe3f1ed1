// pgx's backgammon (pgx/backgammon.py). The board is 28 counts, always
// from the point of view of the player to move ("black"): points 0..23
// (black moves from 0 toward 23, its home board is 18..23), then the bars
// (24 black's, 25 white's) and the borne-off checkers (26 black's, 27
// white's); black's checkers count positive, white's negative. The board is
// flipped (reversed and negated) at every change of turn.
//
// A micro action is 6 * src + die (die 0..5 for 1..6): src 0 is the no-op
// (legal only when nothing else is), src 1 the bar, src 2..25 the points
// 0..23. The player moves one die at a time; the turn ends when the dice
// are used up (doubles give four) or on a no-op, and the next player's
// dice are rolled from the step key. Bearing all 15 checkers off wins 1, 2
// (gammon: the opponent bore none off) or 3 (backgammon: and the opponent
// still has a checker in the winner's home board) points. An illegal
// action costs its player 3 (pgx's _illegal_action_penalty is -3: the
// mover gets -3, the opponent +3).
//
// The observation of a player is the board (28) and, for the player to
// move, how many of each die value it may still play (6), else zeros: 34
// int32.
//
// The key: Backgammon.step (pgx's override) only asserts that a key was
// given and calls core.Env.step, which hands the key unchanged to _step;
// _step hands it, unsplit, to _change_turn's _roll_dice. So Game::Step's
// key is the dice key, with no further split here.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

#include "core/config.h"
#include "core/env_state.h"
#include "refkit/jax/random.h"

namespace envpool_lite::pgx {

class Backgammon {
 public:
  static constexpr int kNumPlayers = 2;
  static constexpr int kNumActions = 6 * 26;
  // pgx's Backgammon._illegal_action_penalty (core.Env's is -1): an
  // illegal action gives the mover this, the opponent its negation
  // (_step_with_illegal_action: ones * -penalty * (num_players - 1), the
  // loser's set to penalty). PgxEnv must read it where it applies the
  // illegal-action end; a PgxEnv that hard-codes -1 / +1 gives -1 / +1.
  static constexpr float kIllegalActionPenalty = -3.0f;
  using ObsType = int32_t;
  static Config DefaultConfig() { return {{"max_episode_steps", int64_t{0}}}; }
  static void CheckConfig(const Config&) {}
  static std::vector<int64_t> ObsShape(const Config&) { return {34}; }
  static std::vector<double> ObsLow() { return {}; }
  static std::vector<double> ObsHigh() { return {}; }
  std::size_t ObsSize() const { return 34; }

  explicit Backgammon(const Config&) {}

  // _init(key): rng1, rng2 = split(key); current_player = bernoulli(rng1);
  // the dice are one of the 30 ordered pairs of distinct values
  // (_roll_init_dice: choice(rng2, pattern), i.e. pattern row
  // randint(rng2, (), 0, 30)); the first turn (an internal colour, which
  // pgx keeps apart from current_player) is 1 when dice[1] > dice[0].
  void Init(jax_random::Key key) {
    const auto [rng1, rng2] = jax_random::Split2(key);
    current_player = jax_random::Bernoulli(rng1, 0.5f) ? 1 : 0;
    board_ = kInitBoard;
    // The pattern's rows, in pgx's order: (a, b) for a, b in 0..5, a != b.
    const int row = jax_random::Randint(rng2, 0, 30);
    const int a = row / 5;
    const int b = row % 5 < a ? row % 5 : row % 5 + 1;
    dice_ = {a, b};
    playable_dice_ = SetPlayableDice(dice_);
    played_dice_num_ = 0;
    turn_ = dice_[1] - dice_[0] > 0 ? 1 : 0;
    LegalActionMask(playable_dice_);
    terminated = false;
    truncated = false;
    rewards.fill(0.0f);
    step_count = 0;
  }

  // _step(state, action, key): _update_by_action; then a win if all 15 of
  // the mover's checkers are off (_winning_step), else (_no_winning_step)
  // the turn changes when the dice are used up or the action was a no-op.
  // The rewards are otherwise left as they were (zero: only a win sets
  // them, and it ends the game).
  void Step(int action, jax_random::Key key) {
    UpdateByAction(action);
    if (board_[kOff] == 15) {
      // _winning_step.
      const float score = static_cast<float>(CalcWinScore());
      rewards[current_player] = score;
      rewards[1 - current_player] = -score;
      terminated = true;
      return;
    }
    const int playable_sum = playable_dice_[0] + playable_dice_[1] +
                             playable_dice_[2] + playable_dice_[3];
    if (playable_sum == -4 || action / 6 == 0) ChangeTurn(key);
  }

  // _observe(state, player): the board, then _to_playable_dice_count for
  // the player to move, zeros for the other.
  void Observe(int player, int32_t* out) const {
    std::copy(board_.begin(), board_.end(), out);
    int32_t* counts = out + 28;
    std::fill(counts, counts + 6, 0);
    if (player != current_player) return;
    for (int d : playable_dice_) {
      if (d >= 0 && d < 6) counts[d] += 1;
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
                            legal_action_mask, step_count, board_, dice_,
                            playable_dice_, played_dice_num_, turn_)

 private:
  static constexpr int kBar = 24;  // black's bar; white's is 25
  static constexpr int kOff = 26;  // black's borne-off; white's is 27
  // _make_init_board.
  static constexpr std::array<int32_t, 28> kInitBoard = {
      2, 0, 0, 0, 0, -5, 0, -3, 0, 0,  0, 5, -5, 0,
      0, 0, 3, 0, 5, 0,  0, 0,  0, -2, 0, 0, 0,  0};

  // _set_playable_dice: four of a double, else the two dice and -1, -1.
  static std::array<int32_t, 4> SetPlayableDice(
      const std::array<int32_t, 2>& dice) {
    if (dice[0] == dice[1]) return {dice[0], dice[0], dice[0], dice[0]};
    return {dice[0], dice[1], -1, -1};
  }

  // _update_by_action: a no-op (src 0) leaves everything as it is;
  // otherwise the move, one more die played, and the mask for the dice
  // left.
  void UpdateByAction(int action) {
    if (action / 6 == 0) return;
    Move(action);
    UpdatePlayableDice(action);
    played_dice_num_ += 1;
    LegalActionMask(playable_dice_);
  }

  // _update_playable_dice (with the played count before this move): a
  // double marks die 3 - n used, whatever the action's die (jax's scatter
  // takes a negative index from the end and drops one still out of range);
  // otherwise every die equal to the action's is marked used.
  void UpdatePlayableDice(int action) {
    if (dice_[0] == dice_[1]) {
      int i = 3 - played_dice_num_;
      if (i < 0) i += 4;
      if (i >= 0 && i < 4) playable_dice_[i] = -1;
    } else {
      const int die = action % 6;
      for (int32_t& d : playable_dice_) {
        if (d == die) d = -1;
      }
    }
  }

  // _change_turn(state, key): the board flipped, the other player to move,
  // dice = randint(key, (1, 2), 0, 6)[0] (_roll_dice), and the legal mask
  // for the two dice as rolled.
  void ChangeTurn(jax_random::Key key) {
    FlipBoard();
    turn_ = (turn_ + 1) % 2;
    current_player = (current_player + 1) % 2;
    const std::vector<int32_t> roll = jax_random::Randint(key, 2, 0, 6);
    dice_ = {roll[0], roll[1]};
    playable_dice_ = SetPlayableDice(dice_);
    played_dice_num_ = 0;
    LegalActionMask(dice_);
  }

  // _flip_board: the points reversed, the bars and the borne-off swapped,
  // every count negated.
  void FlipBoard() {
    std::array<int32_t, 28> flipped;
    for (int i = 0; i < 24; ++i) flipped[i] = -board_[23 - i];
    flipped[24] = -board_[25];
    flipped[25] = -board_[24];
    flipped[26] = -board_[27];
    flipped[27] = -board_[26];
    board_ = flipped;
  }

  // _decompose_action: src (_calc_src: the bar for 1, point src - 2
  // otherwise, -2 for the no-op), die 1..6, tgt (_calc_tgt: from the bar,
  // point die - 1; from a point, src + die if on the board, else off).
  struct Decomposed {
    int src, die, tgt;
  };
  static Decomposed DecomposeAction(int action) {
    const int idx = action / 6;
    const int src = idx == 1 ? kBar : idx - 2;
    const int die = action % 6 + 1;
    int tgt;
    if (src >= 24) {
      tgt = die - 1;
    } else {
      tgt = (src + die >= 0 && src + die <= 23) ? src + die : kOff;
    }
    return {src, die, tgt};
  }

  // _move: a lone opponent checker on the target is hit (to the
  // opponent's bar, 25, which counts negative), the source loses a
  // checker, the target gains one (two when hit: the count changes sign).
  // Only called for a src >= 0, where every index is in range.
  void Move(int action) {
    const auto [src, die, tgt] = DecomposeAction(action);
    board_[kBar + 1] -= board_[tgt] == -1 ? 1 : 0;
    board_[src] -= 1;
    board_[tgt] += 1 + (board_[tgt] == -1 ? 1 : 0);
  }

  // _rear_distance: 24 minus the lowest point holding a black checker
  // (pgx computes it as a float via jnp.where(..., fill_value=nan) and
  // nan_to_num(nan=100): with no checker on the board it is 24 - 100).
  int RearDistance() const {
    for (int i = 0; i < 24; ++i) {
      if (board_[i] > 0) return 24 - i;
    }
    return 24 - 100;
  }

  // _is_all_on_home_board: the black checkers on 18..23 (each point's
  // count clipped to [0, 15]) are all those not borne off.
  bool IsAllOnHomeBoard() const {
    int32_t on_home = 0;
    for (int i = 18; i < 24; ++i) {
      on_home += std::min(std::max(board_[i], 0), 15);
    }
    return 15 - board_[kOff] == on_home;
  }

  // _is_action_legal, with _rear_distance and _is_all_on_home_board
  // (which depend on the board only) computed once by the caller. To a
  // point (_is_to_point_legal): a checker on src, the target holds at most
  // one opponent checker, and nothing of ours is on the bar unless src is
  // the bar. Off (_is_to_off_legal): a checker on src, all on the home
  // board, and the die is the exact distance, or larger and src the
  // rearmost checker. The no-op's src (-2) is never legal.
  bool IsActionLegal(int action, int rear, bool all_home) const {
    const auto [src, die, tgt] = DecomposeAction(action);
    if (src < 0) return false;
    const bool exists = board_[src] >= 1;
    if (tgt <= 23) {
      const bool open = board_[tgt] >= -1;
      return exists && open && (src >= 24 || board_[kBar] == 0);
    }
    const int d = 24 - src;
    return exists && all_home && (d == die || (rear <= die && rear == d));
  }

  // _legal_action_mask(board, dice): the union over the dice (-1 skipped)
  // of each die's legal moves from the 26 sources; the no-ops (actions
  // 0..5) when there is none. A die listed twice adds nothing new.
  template <std::size_t N>
  void LegalActionMask(const std::array<int32_t, N>& dice) {
    legal_action_mask.fill(false);
    const int rear = RearDistance();
    const bool all_home = IsAllOnHomeBoard();
    bool any = false;
    for (std::size_t k = 0; k < N; ++k) {
      const int die = dice[k];
      if (die < 0 || die > 5) continue;
      if (std::find(dice.begin(), dice.begin() + k, die) != dice.begin() + k) {
        continue;
      }
      for (int idx = 0; idx < 26; ++idx) {
        const int action = idx * 6 + die;
        if (IsActionLegal(action, rear, all_home)) {
          legal_action_mask[action] = true;
          any = true;
        }
      }
    }
    if (!any)
      std::fill(legal_action_mask.begin(), legal_action_mask.begin() + 6, true);
  }

  // _calc_win_score: 1, plus 1 for a gammon (the opponent has borne none
  // off), plus 1 more for a backgammon (and the opponent still has
  // checkers on 18..23: their sum is nonzero).
  int CalcWinScore() const {
    const bool gammon = board_[kOff + 1] == 0;
    int32_t inner = 0;
    for (int i = 18; i < 24; ++i) inner += board_[i];
    return 1 + (gammon ? 1 : 0) + (gammon && inner != 0 ? 1 : 0);
  }

  std::array<int32_t, 28> board_{};
  std::array<int32_t, 2> dice_{};
  std::array<int32_t, 4> playable_dice_{};
  int32_t played_dice_num_ = 0;
  int32_t turn_ = 1;
};

}  // namespace envpool_lite::pgx
