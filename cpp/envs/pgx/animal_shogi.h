// pgx's animal_shogi (pgx/animal_shogi.py): Dobutsu shogi on a 3x4 board.
// Squares 0..11 are x * 4 + y (x the column 0..2, y the row 0..3); the
// state is always seen from the player to move ("turn"), whose pieces are
// 0 pawn (chick), 1 bishop (elephant), 2 rook (giraffe), 3 king (lion),
// 4 gold (hen), the opponent's 5..9 the same, -1 empty; row y = 0 is the
// far row (forward is y - 1). After every move the whole state is flipped
// (_flip): pieces +5 mod 10, squares reversed, hands swapped.
//
// Actions (132, AlphaZero-like): label a = 12 * d + sq; d < 8 moves the
// piece on square sq in direction d, d = 8, 9, 10 drops a pawn, bishop or
// rook from the hand on sq. A game ends when the player to move has no
// legal action (a loss for it), when a king reaches the far row ("try",
// the mover wins), on a third repetition of a position by pgx's hash (a
// draw), or at step 256 (a draw, rewards as they are).
//
// The observation of a player is (4, 3, 194) float32: for each of the
// last 8 positions 10 piece planes, 12 hand planes (piece p of the 6
// (mine, then the opponent's) held >= 1, >= 2) and 2 repetition planes
// (0 and 1 earlier repetitions); then the player's color, then step / 256.
//
// pgx quirks reproduced (each is what pgx 2.6.0 computes, kept so the
// port is bit-exact):
// - the board and hand histories are shifted with jnp.roll without an
//   axis, i.e. by 8 elements of the flattened history, not by one row, so
//   older rows are a mix of positions;
// - the hash of a move also changes when nothing is captured (the pawn
//   hand entries n - 1 and n), and a capture xors the captured piece at
//   the from-square; the repetition count takes a history row as equal
//   when either of its two words is;
// - an illegal action is played too: a move off the board (to = -1)
//   writes square 11 (JAX normalizes index -1), a king captured lands in
//   hand slot 3, which does not exist (the scatter is dropped, the reads
//   clamp to slot 2).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "core/config.h"
#include "core/env_state.h"
#include "refkit/jax/random.h"

namespace envpool_lite::pgx {

namespace animal_shogi_detail {

// _can_move's CAN_MOVE[piece][from][to] for pieces 0..4 (seen from the
// player to move: forward is dy = -1).
constexpr bool CanMove(int piece, int from, int to) {
  const int dx = to / 4 - from / 4;
  const int dy = to % 4 - from % 4;
  const bool neighbour =
      (dx != 0 || dy != 0) && dx >= -1 && dx <= 1 && dy >= -1 && dy <= 1;
  switch (piece) {
    case 0:
      return dx == 0 && dy == -1;
    case 1:
      return neighbour && (dx == dy || dx == -dy);
    case 2:
      return neighbour && (dx == 0 || dy == 0);
    case 3:
      return neighbour;
    default:
      return neighbour && (dx == 0 || dy != 1);
  }
}
using CanMoveTable = std::array<std::array<std::array<bool, 12>, 12>, 5>;
constexpr CanMoveTable MakeCanMove() {
  CanMoveTable t{};
  for (int p = 0; p < 5; ++p) {
    for (int f = 0; f < 12; ++f) {
      for (int to = 0; to < 12; ++to) t[p][f][to] = CanMove(p, f, to);
    }
  }
  return t;
}
inline constexpr CanMoveTable kCanMove = MakeCanMove();
}  // namespace animal_shogi_detail

class AnimalShogi {
 public:
  static constexpr int kNumPlayers = 2;
  static constexpr int kNumActions = 132;
  static constexpr int kChannels = 194;
  static constexpr int kMaxTerminationSteps = 256;
  using ObsType = float;
  static Config DefaultConfig() { return {{"max_episode_steps", int64_t{0}}}; }
  static void CheckConfig(const Config&) {}
  static std::vector<int64_t> ObsShape(const Config&) {
    return {4, 3, kChannels};
  }
  static std::vector<double> ObsLow() { return {0.0}; }
  static std::vector<double> ObsHigh() { return {1.0}; }
  std::size_t ObsSize() const { return 12 * kChannels; }

  explicit AnimalShogi(const Config&) {}

  // AnimalShogi._init: current_player = bernoulli(key); the State defaults
  // (turn 0, INIT_BOARD, empty hands, its hash, the histories holding only
  // the initial position); the legal moves of that position.
  void Init(jax_random::Key key) {
    current_player = jax_random::Bernoulli(key, 0.5f) ? 1 : 0;
    turn_ = 0;
    board_ = kInitBoard;
    hand_ = {};
    hash_ = {233882788u, 593924309u};
    hash_history_[0] = hash_;
    board_history_.fill(kEmpty);
    std::copy(board_.begin(), board_.end(), board_history_.begin());
    hand_history_.fill(0);
    rep_history_.fill(0);
    terminated = false;
    truncated = false;
    rewards.fill(0.0f);
    step_count = 0;
    LegalActionMask();
  }

  // AnimalShogi._step: the module's _step, then a draw at step 256.
  void Step(int action, jax_random::Key) {
    const int x = action / 12;
    const int sq = action % 12;
    // Action._from_label, then lax.cond(is_drop, _step_drop, _step_move).
    if (x >= 8) {
      StepDrop(board_, hand_, &hash_, sq, x - 8);
    } else {
      StepMove(board_, hand_, &hash_, sq, To(sq, x));
    }
    const bool is_try =
        board_[0] == kKing || board_[4] == kKing || board_[8] == kKing;
    // jnp.roll(history, 8) with no axis: the flattened history shifted by
    // 8 elements; then row 0 is the position.
    RollFlat(board_history_, 8);
    std::copy(board_.begin(), board_.end(), board_history_.begin());
    RollFlat(hand_history_, 8);
    for (int i = 0; i < 6; ++i) hand_history_[i] = hand_[i / 3][i % 3];

    Flip(board_, hand_, board_history_, hand_history_);
    hash_[0] ^= ZobristSide()[0];
    hash_[1] ^= ZobristSide()[1];
    turn_ = 1 - turn_;
    current_player = 1 - current_player;
    // _hash_history.at[step_count].set(hash): step_count <= 256, in range.
    if (step_count <= kMaxTerminationSteps) hash_history_[step_count] = hash_;

    // rep = number of rows with (row == hash).any() - 1, over all 257 rows;
    // the rows after step_count are 0.
    int same = 0;
    for (int i = 0; i <= std::min(step_count, kMaxTerminationSteps); ++i) {
      same +=
          hash_history_[i][0] == hash_[0] || hash_history_[i][1] == hash_[1];
    }
    if (hash_[0] == 0 || hash_[1] == 0) {
      same += std::max(kMaxTerminationSteps - step_count, 0);
    }
    const int rep = same - 1;
    const bool is_rep_draw = rep >= 2;

    LegalActionMask();
    bool any_legal = false;
    for (bool b : legal_action_mask) any_legal |= b;
    terminated = !any_legal || is_try || is_rep_draw;
    rewards.fill(0.0f);
    if (terminated && !is_rep_draw) {
      rewards.fill(1.0f);
      rewards[current_player] = -1.0f;  // the player to move lost
    }
    for (int i = 7; i > 0; --i) rep_history_[i] = rep_history_[i - 1];
    rep_history_[0] = rep;

    if (kMaxTerminationSteps <= step_count) terminated = true;
  }

  // _observe(state, player): the state as `player` sees it (flipped if it
  // is not the player to move), 8 * 24 + 2 planes over the 12 squares,
  // reshaped to (194, 3, 4), transposed to (4, 3, 194) and flipped on its
  // middle axis: out[y][2 - x][c] is plane c on square x * 4 + y.
  void Observe(int player, float* out) const {
    const bool mine = player == current_player;
    const float color = static_cast<float>(mine ? turn_ : 1 - turn_);
    std::array<int32_t, 96> bh = board_history_;
    std::array<int32_t, 48> hh = hand_history_;
    if (!mine) {
      Board board = board_;
      Hand hand = hand_;
      Flip(board, hand, bh, hh);
    }
    const float step = static_cast<float>(step_count) /
                       static_cast<float>(kMaxTerminationSteps);
    for (int sq = 0; sq < 12; ++sq) {
      const int x = sq / 4;
      const int y = sq % 4;
      float* o = out + (y * 3 + (2 - x)) * kChannels;
      for (int i = 0; i < 8; ++i) {
        float* f = o + i * 24;
        const int32_t piece = bh[i * 12 + sq];
        for (int p = 0; p < 10; ++p) f[p] = piece == p ? 1.0f : 0.0f;
        for (int k = 0; k < 12; ++k) {
          f[10 + k] = hh[i * 6 + k / 2] >= k % 2 + 1 ? 1.0f : 0.0f;
        }
        f[22] = rep_history_[i] == 0 ? 1.0f : 0.0f;
        f[23] = rep_history_[i] == 1 ? 1.0f : 0.0f;
      }
      o[192] = color;
      o[193] = step;
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
                            legal_action_mask, step_count, turn_, board_, hand_,
                            hash_, hash_history_, board_history_, hand_history_,
                            rep_history_)

 private:
  using Board = std::array<int32_t, 12>;
  using Hand = std::array<std::array<int32_t, 3>, 2>;  // [mine, opp][piece]
  using Hash = std::array<uint32_t, 2>;

  static constexpr int32_t kEmpty = -1;
  static constexpr int32_t kPawn = 0;
  static constexpr int32_t kKing = 3;
  static constexpr int32_t kGold = 4;
  static constexpr Board kInitBoard = {6, -1, -1, 2, 8, 5, 0, 3, 7, -1, -1, 1};

  // The Zobrist tables of animal_shogi.py: key = PRNGKey(23279); SIDE =
  // randint(key, (2,)); key, sub = split(key); BOARD = randint(sub,
  // (12, 10, 2)); key, sub = split(key); HAND = randint(sub, (2, 3, 3, 2));
  // all in [0, 2**31 - 1) as uint32 (the same words as int32 draws).
  struct Zobrist {
    Hash side;
    std::array<std::array<Hash, 10>, 12> board;
    std::array<std::array<std::array<Hash, 3>, 3>, 2> hand;
  };
  static const Zobrist& Tables() {
    static const Zobrist z = [] {
      constexpr int32_t kMax = 2147483647;
      Zobrist t;
      jax_random::Key key = jax_random::PRNGKey(23279);
      const std::vector<int32_t> side = jax_random::Randint(key, 2, 0, kMax);
      t.side = {static_cast<uint32_t>(side[0]), static_cast<uint32_t>(side[1])};
      auto [k1, sub1] = jax_random::Split2(key);
      const std::vector<int32_t> board =
          jax_random::Randint(sub1, 12 * 10 * 2, 0, kMax);
      for (int i = 0; i < 120; ++i) {
        t.board[i / 10][i % 10] = {static_cast<uint32_t>(board[2 * i]),
                                   static_cast<uint32_t>(board[2 * i + 1])};
      }
      auto [k2, sub2] = jax_random::Split2(k1);
      (void)k2;
      const std::vector<int32_t> hand =
          jax_random::Randint(sub2, 2 * 3 * 3 * 2, 0, kMax);
      for (int i = 0; i < 18; ++i) {
        t.hand[i / 9][i / 3 % 3][i % 3] = {
            static_cast<uint32_t>(hand[2 * i]),
            static_cast<uint32_t>(hand[2 * i + 1])};
      }
      return t;
    }();
    return z;
  }
  static const Hash& ZobristSide() { return Tables().side; }

  // A JAX gather index: a negative one counts from the end, then it is
  // clamped into [0, n).
  static int GatherIx(int i, int n) {
    if (i < 0) i += n;
    return std::clamp(i, 0, n - 1);
  }
  static int FloorMod(int a, int n) { return ((a % n) + n) % n; }
  static void Xor(Hash* h, const Hash& z) {
    (*h)[0] ^= z[0];
    (*h)[1] ^= z[1];
  }
  const Hash& ZobristBoard(int sq, int piece) const {
    return Tables().board[GatherIx(sq, 12)][GatherIx(piece, 10)];
  }
  const Hash& ZobristHand(int piece, int num) const {
    return Tables().hand[turn_][GatherIx(piece, 3)][GatherIx(num, 3)];
  }

  // _to: the square one step from `from` in direction d (0..7), -1 off the
  // board.
  static constexpr int To(int from, int d) {
    constexpr int kDx[8] = {-1, -1, -1, 0, 0, 1, 1, 1};
    constexpr int kDy[8] = {-1, 0, 1, -1, 1, -1, 0, 1};
    const int x = from / 4 + kDx[d];
    const int y = from % 4 + kDy[d];
    return x < 0 || x >= 3 || y < 0 || y >= 4 ? -1 : x * 4 + y;
  }

  // CAN_MOVE[piece, from_, to] as a JAX gather (indices clamped).
  static bool CanMoveAt(int piece, int from, int to) {
    return animal_shogi_detail::kCanMove[GatherIx(piece, 5)][GatherIx(from, 12)]
                                        [GatherIx(to, 12)];
  }

  // _step_move (board, hand and hash updates, as pgx, for any action).
  void StepMove(Board& board, Hand& hand, Hash* hash, int from, int to) const {
    int32_t piece = board[from];
    board[from] = kEmpty;
    const int zb_from = turn_ == 0 ? from : 11 - from;
    Xor(hash,
        ZobristBoard(zb_from, turn_ == 0 ? piece : FloorMod(piece + 5, 10)));
    const int32_t captured = board[GatherIx(to, 12)];
    const int slot = FloorMod(captured, 5) % 4;  // 3 for a king: no slot
    if (captured != kEmpty) {
      if (slot < 3) hand[0][slot] += 1;  // .at[0, 3].add is dropped
      // (pgx xors the captured piece at the from-square.)
      Xor(hash, ZobristBoard(zb_from, turn_ == 0 ? captured
                                                 : FloorMod(captured + 5, 10)));
    }
    const int num_hand = hand[0][GatherIx(slot, 3)];
    Xor(hash, ZobristHand(slot, num_hand - 1));
    Xor(hash, ZobristHand(slot, num_hand));
    if (from % 4 == 1 && piece == kPawn) piece = kGold;  // promotion
    // .at[to].set: index -1 writes the last square.
    board[to < 0 ? to + 12 : to] = piece;
    const int zb_to = turn_ == 0 ? to : 11 - to;
    Xor(hash,
        ZobristBoard(zb_to, turn_ == 0 ? piece : FloorMod(piece + 5, 10)));
  }

  // _step_drop.
  void StepDrop(Board& board, Hand& hand, Hash* hash, int to,
                int drop_piece) const {
    board[to] = drop_piece;
    const int zb_to = turn_ == 0 ? to : 11 - to;
    Xor(hash, ZobristBoard(zb_to, turn_ == 0 ? drop_piece : drop_piece + 5));
    const int num_hand = hand[0][drop_piece];
    hand[0][drop_piece] -= 1;
    Xor(hash, ZobristHand(drop_piece, num_hand + 1));
    Xor(hash, ZobristHand(drop_piece, num_hand));
  }

  // _is_checked: the king is argmin |board - KING| (the first), attacked if
  // an opponent piece could move onto it (its move read backwards:
  // CAN_MOVE[piece % 5, king, from]).
  static bool IsChecked(const Board& board) {
    int king = 0;
    for (int i = 1; i < 12; ++i) {
      if (std::abs(board[i] - kKing) < std::abs(board[king] - kKing)) king = i;
    }
    for (int from = 0; from < 12; ++from) {
      const int32_t piece = board[from];
      if (piece >= 5 && animal_shogi_detail::kCanMove[piece % 5][king][from])
        return true;
    }
    return false;
  }

  // _legal_action_mask: a move of one of my pieces, onto the board, onto
  // an empty or opponent square, as the piece moves, not leaving my king
  // attacked; a drop of a piece in my hand onto an empty square, not
  // leaving my king attacked. (The board after the move is what
  // _step_move makes; its hash does not matter here.)
  void LegalActionMask() {
    for (int a = 0; a < kNumActions; ++a) {
      const int d = a / 12;
      const int sq = a % 12;
      bool ok = false;
      if (d >= 8) {
        const int drop_piece = d - 8;
        if (board_[sq] == kEmpty && hand_[0][drop_piece] > 0) {
          Board after = board_;
          after[sq] = drop_piece;
          ok = !IsChecked(after);
        }
      } else {
        const int to = To(sq, d);
        const int32_t piece = board_[sq];
        if (piece >= kPawn && piece <= kGold && to != -1 &&
            (board_[to] == kEmpty || board_[to] > kGold) &&
            CanMoveAt(piece, sq, to)) {
          Board after = board_;
          after[sq] = kEmpty;
          after[to] = sq % 4 == 1 && piece == kPawn ? kGold : piece;
          ok = !IsChecked(after);
        }
      }
      legal_action_mask[a] = ok;
    }
  }

  // jnp.roll(x, shift) with no axis on a flattened array.
  template <std::size_t N>
  static void RollFlat(std::array<int32_t, N>& x, int shift) {
    std::rotate(x.begin(), x.end() - shift, x.end());
  }

  // _flip's board, hand and history parts: pieces +5 mod 10 (empty kept),
  // squares reversed (each history row too), hands swapped (each hand
  // history row rolled by 3).
  static void FlipBoard(int32_t* b) {
    std::reverse(b, b + 12);
    for (int i = 0; i < 12; ++i) {
      if (b[i] != kEmpty) b[i] = FloorMod(b[i] + 5, 10);
    }
  }
  static void Flip(Board& board, Hand& hand, std::array<int32_t, 96>& bh,
                   std::array<int32_t, 48>& hh) {
    FlipBoard(board.data());
    std::swap(hand[0], hand[1]);
    for (int i = 0; i < 8; ++i) {
      FlipBoard(bh.data() + i * 12);
      std::rotate(hh.begin() + i * 6, hh.begin() + i * 6 + 3,
                  hh.begin() + i * 6 + 6);
    }
  }

  int turn_ = 0;
  Board board_{};
  Hand hand_{};
  Hash hash_{};
  std::array<Hash, kMaxTerminationSteps + 1> hash_history_{};
  std::array<int32_t, 96> board_history_{};  // (8, 12) flattened
  std::array<int32_t, 48> hand_history_{};   // (8, 6) flattened
  std::array<int32_t, 8> rep_history_{};
};

}  // namespace envpool_lite::pgx
