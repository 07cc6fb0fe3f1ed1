// pgx's shogi (pgx/shogi.py, pgx/_src/games/shogi.py; pgx 2.6.0).
//
// The board is 81 squares, square = x * 9 + y with x the file (column) and
// y the rank counted from the top; it is always seen from the side to move
// (pgx "flips" it after every move): pieces 0..13 are the mover's, 14..27
// the opponent's (piece + 14), -1 is empty, and "up" is y - 1. A hand is
// (2, 7) counts (mover, opponent) of PAWN..GOLD.
//
// Actions are dlshogi's 27 * 81: direction * 81 + to, directions 0..9 the
// moves (up, up-left, up-right, left, right, down, down-left, down-right,
// knight up2-left, up2-right), 10..19 the same with promotion, 20..26 the
// drops of PAWN..GOLD. The mover of a move action is found from `to`: the
// nearest own piece along the direction (Action._from_dlshogi_action).
//
// pgx precomputes lookup tables at import (CAN_MOVE, BETWEEN_IX,
// LEGAL_FROM_IDX, NEIGHBOUR_IX, CAN_MOVE_ANY, AROUND_IX); Tables computes
// the same ones once, at first use, with the same functions.
//
// The game ends when the mover has no legal action (it loses) or after
// MAX_TERMINATION_STEPS = 512 steps (a draw if the mover still has a move);
// pgx has no repetition rule. The observation of a player is 9x9x119 bools
// of the current position only (pgx keeps no history for shogi).
//
// JAX semantics reproduced where pgx relies on them (they matter for the
// quirks marked "JAX:" below, e.g. illegal actions and the -1 entries of
// AROUND_IX): a gather x[i] with a negative i reads x[i + n], then clamps
// into [0, n - 1]; a scatter x.at[i].set with a negative i writes x[i + n]
// and is dropped when still out of bounds; argmax/argmin take the first
// extremum; % is floor modulo.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <utility>
#include <vector>

#include "core/config.h"
#include "core/env_state.h"
#include "refkit/jax/random.h"

namespace envpool_lite::pgx {

namespace shogi {

constexpr int kEmpty = -1;
constexpr int kPawn = 0;
constexpr int kLance = 1;
constexpr int kKnight = 2;
constexpr int kSilver = 3;
constexpr int kBishop = 4;
constexpr int kRook = 5;
constexpr int kGold = 6;
constexpr int kKing = 7;
constexpr int kProPawn = 8;
constexpr int kProLance = 9;
constexpr int kProKnight = 10;
constexpr int kProSilver = 11;
constexpr int kHorse = 12;
constexpr int kDragon = 13;
constexpr int kOppPawn = 14;
constexpr int kOppKing = 21;

constexpr int kMaxTerminationSteps = 512;  // MAX_TERMINATION_STEPS

using Board = std::array<int8_t, 81>;
using Hand = std::array<std::array<int32_t, 7>, 2>;
// _set_cache's cache_m2b: the squares of the first 8 "major" pieces.
using MajorCache = std::array<int8_t, 8>;

// JAX: a gather index into an axis of size n (negative wraps once, then
// clamps).
inline int GatherIx(int i, int n) {
  if (i < 0) i += n;
  return i < 0 ? 0 : (i >= n ? n - 1 : i);
}
// JAX: a scatter index into an axis of size n, or -1 when dropped.
inline int ScatterIx(int i, int n) {
  if (i < 0) i += n;
  return (i < 0 || i >= n) ? -1 : i;
}

inline bool IsMine(int piece) { return kPawn <= piece && piece < kOppPawn; }

// _flip_piece (and _flip's per-square map): the other side's view,
// (piece + 14) % 28 for a piece, written without the modulo (the same for
// every piece 0..41, which covers the 0..35 an illegal promotion leaves).
inline int FlipPiece(int piece) {
  if (piece < 0) return piece;
  return piece < 14 ? piece + 14 : piece - 14;
}

// _is_major_piece: lance, bishop, rook, horse, dragon of either side.
inline bool IsMajorPiece(int piece) {
  switch (piece) {
    case kLance:
    case kBishop:
    case kRook:
    case kHorse:
    case kDragon:
    case kLance + 14:
    case kBishop + 14:
    case kRook + 14:
    case kHorse + 14:
    case kDragon + 14:
      return true;
    default:
      return false;
  }
}

// _major_piece_ix: the BETWEEN_IX table of a sliding piece of the mover
// (lance 0, bishop and horse 1, rook and dragon 2), -1 for the others
// (every piece >= 14 included: pgx's table has -1 there).
inline int MajorPieceIx(int piece) {
  switch (piece) {
    case kLance:
      return 0;
    case kBishop:
    case kHorse:
      return 1;
    case kRook:
    case kDragon:
      return 2;
    default:
      return -1;
  }
}

// can_move_to (module level): can `piece` move from `from` to `to` on an
// empty board.
inline bool CanMoveTo(int piece, int from, int to) {
  if (from == to) return false;
  const int x0 = from / 9, y0 = from % 9, x1 = to / 9, y1 = to % 9;
  const int dx = x1 - x0, dy = y1 - y0;
  switch (piece) {
    case kPawn:
      return dx == 0 && dy == -1;
    case kLance:
      return dx == 0 && dy < 0;
    case kKnight:
      return (dx == -1 || dx == 1) && dy == -2;
    case kSilver:
      return (std::abs(dx) <= 1 && dy == -1) || (std::abs(dx) == 1 && dy == 1);
    case kBishop:
      return dx == dy || dx == -dy;
    case kRook:
      return dx == 0 || dy == 0;
    case kGold:
    case kProPawn:
    case kProLance:
    case kProKnight:
    case kProSilver:
      return (std::abs(dx) <= 1 && (dy == 0 || dy == -1)) ||
             (dx == 0 && dy == 1);
    case kKing:
      return std::abs(dx) <= 1 && std::abs(dy) <= 1;
    case kHorse:
      return (std::abs(dx) <= 1 && std::abs(dy) <= 1) || dx == dy || dx == -dy;
    case kDragon:
      return (std::abs(dx) <= 1 && std::abs(dy) <= 1) || dx == 0 || dy == 0;
    default:
      return false;
  }
}

// is_on_the_way: is `point` strictly between `from` and `to` of a slide.
// pgx's sign(d) returns 0 for 0 and the bool d > 0 otherwise, so a
// negative d has "sign" 0 (False == 0) like 0; ported as written (for the
// lance, bishop and rook this still yields exactly the squares between).
inline bool IsOnTheWay(int piece, int from, int to, int point) {
  if (to == point) return false;
  if (piece != kLance && piece != kBishop && piece != kRook &&
      piece != kHorse && piece != kDragon) {
    return false;
  }
  if (!CanMoveTo(piece, from, to) || !CanMoveTo(piece, from, point)) {
    return false;
  }
  const int dx1 = to / 9 - from / 9, dy1 = to % 9 - from % 9;
  const int dx2 = point / 9 - from / 9, dy2 = point % 9 - from % 9;
  auto sign = [](int d) { return d > 0 ? 1 : 0; };
  if (sign(dx1) != sign(dx2) || sign(dy1) != sign(dy2)) return false;
  return std::abs(dx2) <= std::abs(dx1) && std::abs(dy2) <= std::abs(dy1);
}

// The tables pgx builds at import, and two derived ones for speed.
struct Tables {
  // CAN_MOVE[piece, from, to].
  bool can_move[14][81][81];
  // targets[piece][from]: the `to`s of CAN_MOVE[piece, from] in order
  // (at most 20), target_count their number.
  int8_t targets[14][81][20];
  int8_t target_count[14][81];
  // BETWEEN_IX[i, from, to]: the squares between, -1 filled (nonzero of
  // BETWEEN, size 8). Only i = 0..2 (lance, bishop, rook) is ever read:
  // _major_piece_ix maps the horse and dragon to the bishop's and rook's.
  int8_t between_ix[3][81][81][8];
  // LEGAL_FROM_IDX[dir, to]: the squares from `to` outwards against the
  // direction, -1 filled.
  int8_t legal_from_idx[10][81][8];
  // NEIGHBOUR_IX[sq]: king steps of sq and knight sources of sq, -1 filled.
  int8_t neighbour_ix[81][10];
  // CAN_MOVE_ANY[sq]: squares any piece moves to from sq or from to sq,
  // -1 filled (size 36).
  int8_t can_move_any[81][36];
  // AROUND_IX[sq]: the 8 neighbours in _around's order, -1 off the board.
  int8_t around_ix[81][8];
  // direction_of[from][to]: the action direction 0..9 of a move, or -1.
  int8_t direction_of[81][81];

  Tables() {
    for (int p = 0; p < 14; ++p) {
      for (int from = 0; from < 81; ++from) {
        int n = 0;
        for (int to = 0; to < 81; ++to) {
          can_move[p][from][to] = CanMoveTo(p, from, to);
          if (can_move[p][from][to]) targets[p][from][n++] = int8_t(to);
        }
        target_count[p][from] = int8_t(n);
      }
    }
    constexpr int kSliders[3] = {kLance, kBishop, kRook};
    for (int i = 0; i < 3; ++i) {
      for (int from = 0; from < 81; ++from) {
        for (int to = 0; to < 81; ++to) {
          int n = 0;
          for (int p = 0; p < 8; ++p) between_ix[i][from][to][p] = -1;
          for (int p = 0; p < 81 && n < 8; ++p) {
            if (IsOnTheWay(kSliders[i], from, to, p)) {
              between_ix[i][from][to][n++] = int8_t(p);
            }
          }
        }
      }
    }
    constexpr int kDx[10] = {0, -1, +1, -1, +1, 0, -1, +1, -1, +1};
    constexpr int kDy[10] = {+1, +1, +1, 0, 0, -1, -1, -1, +2, +2};
    for (int f = 0; f < 81; ++f) {
      for (int t = 0; t < 81; ++t) direction_of[f][t] = -1;
    }
    for (int d = 0; d < 10; ++d) {
      for (int to = 0; to < 81; ++to) {
        for (int k = 0; k < 8; ++k) legal_from_idx[d][to][k] = -1;
        int x = to / 9, y = to % 9;
        for (int k = 0; k < 8; ++k) {
          x += kDx[d];
          y += kDy[d];
          if (x < 0 || 8 < x || y < 0 || 8 < y) break;
          legal_from_idx[d][to][k] = int8_t(x * 9 + y);
          direction_of[x * 9 + y][to] = int8_t(d);
          if (d == 8 || d == 9) break;
        }
      }
    }
    for (int sq = 0; sq < 81; ++sq) {
      int n = 0, m = 0;
      for (int k = 0; k < 10; ++k) neighbour_ix[sq][k] = -1;
      for (int k = 0; k < 36; ++k) can_move_any[sq][k] = -1;
      for (int other = 0; other < 81; ++other) {
        if ((can_move[kKing][sq][other] || can_move[kKnight][other][sq]) &&
            n < 10) {
          neighbour_ix[sq][n++] = int8_t(other);
        }
        bool any = false;
        for (int p = 0; p < 14; ++p) {
          any |= can_move[p][sq][other] || can_move[p][other][sq];
        }
        if (any && m < 36) can_move_any[sq][m++] = int8_t(other);
      }
      constexpr int kAroundDx[8] = {-1, -1, 0, +1, +1, +1, 0, -1};
      constexpr int kAroundDy[8] = {0, -1, -1, -1, 0, +1, +1, +1};
      const int x = sq / 9, y = sq % 9;
      for (int k = 0; k < 8; ++k) {
        const int nx = x + kAroundDx[k], ny = y + kAroundDy[k];
        around_ix[sq][k] = (nx < 0 || nx >= 9 || ny < 0 || ny >= 9)
                               ? int8_t(-1)
                               : int8_t(nx * 9 + ny);
      }
    }
  }
};

inline const Tables& GetTables() {
  static const Tables tables;
  return tables;
}

// INIT_PIECE_BOARD.
inline Board InitBoard() {
  static constexpr int8_t kRows[9][9] = {
      {15, -1, 14, -1, -1, -1, 0, -1, 1}, {16, 18, 14, -1, -1, -1, 0, 5, 2},
      {17, -1, 14, -1, -1, -1, 0, -1, 3}, {20, -1, 14, -1, -1, -1, 0, -1, 6},
      {21, -1, 14, -1, -1, -1, 0, -1, 7}, {20, -1, 14, -1, -1, -1, 0, -1, 6},
      {17, -1, 14, -1, -1, -1, 0, -1, 3}, {16, 19, 14, -1, -1, -1, 0, 4, 2},
      {15, -1, 14, -1, -1, -1, 0, -1, 1}};
  Board b{};
  for (int i = 0; i < 81; ++i) b[i] = kRows[i / 9][i % 9];
  return b;
}

// _flip's board: the other side's view (pieces swapped, board reversed).
inline Board FlipBoard(const Board& b) {
  Board f{};
  // FlipPiece written without branches (so that it vectorizes): -1 stays,
  // 0..13 gain 14, 14..41 lose 14.
  for (int i = 0; i < 81; ++i) {
    const int p = b[80 - i];
    f[i] = int8_t(p + 14 * (int(p >= 0) - 2 * int(p >= 14)));
  }
  return f;
}

// jnp.argmin(jnp.abs(board - piece)): the first square nearest in value.
inline int ArgminDistance(const Board& b, int piece) {
  int best = 0, best_d = std::abs(b[0] - piece);
  for (int i = 1; i < 81; ++i) {
    const int d = std::abs(b[i] - piece);
    if (d < best_d) best = i, best_d = d;
  }
  return best;
}

// _set_cache: cache_m2b (nonzero(_is_major_piece(board), size=8,
// fill_value=-1)) and cache_king (argmin |board - KING|).
inline void SetCache(const Board& b, MajorCache* m2b, int* king) {
  m2b->fill(-1);
  int n = 0;
  for (int i = 0; i < 81 && n < 8; ++i) {
    if (IsMajorPiece(b[i])) (*m2b)[n++] = int8_t(i);
  }
  *king = ArgminDistance(b, kKing);
}

// A board read through _flip without building it: F[i] = flip(b[80 - i]).
struct FlippedView {
  const Board& b;
  int operator[](int i) const { return FlipPiece(b[80 - i]); }
};

// _is_pseudo_legal_move_wo_obstacles(from_, to, state) on the board (or
// FlippedView) b: an own piece on from_ that moves like that onto a square
// without an own piece. `to` is already a gather index (0..80); from_ may
// be -1.
template <typename BoardView>
inline bool IsPseudoLegalMoveWoObstacles(const Tables& t, int from, int to,
                                         const BoardView& b) {
  if (from < 0) return false;
  const int piece = b[from];
  if (!IsMine(piece)) return false;
  if (IsMine(b[to])) return false;
  return t.can_move[piece][from][to];
}

// _is_pseudo_legal_move: plus no piece between for a sliding piece.
template <typename BoardView>
inline bool IsPseudoLegalMove(const Tables& t, int from, int to,
                              const BoardView& b) {
  if (!IsPseudoLegalMoveWoObstacles(t, from, to, b)) return false;
  const int i = MajorPieceIx(b[from]);
  if (i < 0) return true;
  for (int8_t between : t.between_ix[i][from][to]) {
    if (between < 0) break;
    if (b[between] != kEmpty) return false;
  }
  return true;
}

// _is_checked(state) with state's board `b`, cache_king `king` (as pgx
// holds it: -1 when the AROUND_IX quirk moved the king to square -1) and
// cache_m2b `m2b`: can a cached major piece, or a piece on a king or
// knight step of the king, of the opponent take the king.
inline bool IsChecked(const Tables& t, const Board& b, int king,
                      const MajorCache& m2b) {
  const FlippedView f{b};
  // JAX: flipped_king_pos = 80 - king is 81 for king -1; every use of it
  // is a gather, which clamps it to 80.
  const int fk = GatherIx(80 - king, 81);
  for (int8_t m : m2b) {
    // from_ = 80 - m2b, where 81 (an unused cache slot) -> -1: illegal.
    if (m < 0) continue;
    if (IsPseudoLegalMove(t, 80 - m, fk, f)) return true;
  }
  for (int8_t n : t.neighbour_ix[fk]) {
    if (n < 0) break;
    if (IsPseudoLegalMoveWoObstacles(t, n, fk, f)) return true;
  }
  return false;
}

// The squares whose emptying can put the mover's king in check: those
// between the king and a cached opponent's major piece that reaches the
// king on an empty board (IsChecked's major test without the obstacles).
// A move that keeps the king in place, from a king not in check now, can
// only make IsChecked true by emptying one of them: every other change
// (a square filled, a piece taken) only makes its tests false. This holds
// where cache_king is the mover's king, as in every position legal play
// reaches (after an illegal action pgx ends the game and sets the mask to
// all ones, so the mask of such a position is never seen).
inline std::array<bool, 81> ExposingSquares(const Tables& t, const Board& b,
                                            int king, const MajorCache& m2b) {
  std::array<bool, 81> exposing{};
  const FlippedView f{b};
  const int fk = GatherIx(80 - king, 81);
  for (int8_t m : m2b) {
    if (m < 0) continue;
    const int from = 80 - m;
    if (!IsPseudoLegalMoveWoObstacles(t, from, fk, f)) continue;
    const int i = MajorPieceIx(f[from]);
    if (i < 0) continue;
    for (int8_t between : t.between_ix[i][from][fk]) {
      if (between < 0) break;
      exposing[80 - between] = true;
    }
  }
  return exposing;
}

// _is_legal_move_wo_pro(from_, to, state): a pseudo-legal move that does
// not leave the mover's king taken. `to` is raw (it can be -1: AROUND_IX
// and flipped_to hold -1): JAX gathers read square 80 for it, the scatter
// of the moved board writes square 80, and cache_king becomes -1 when the
// king moves there.
inline bool IsLegalMoveWoPro(const Tables& t, int from, int to, const Board& b,
                             int king, const MajorCache& m2b) {
  if (from < 0) return false;
  if (!IsPseudoLegalMove(t, from, GatherIx(to, 81), b)) return false;
  Board moved = b;
  const int piece = b[from];
  moved[from] = kEmpty;
  const int s = ScatterIx(to, 81);
  if (s >= 0) moved[s] = int8_t(piece);
  // cache_m2b is not updated (as in pgx): a captured major's square now
  // holds a mover's piece, which never counts as the opponent's.
  return !IsChecked(t, moved, piece == kKing ? to : king, m2b);
}

}  // namespace shogi

class Shogi {
  // The offset in a player's observation of square sq's channel 0 (see
  // Observe): row y, column 8 - x.
  static constexpr std::array<int, 81> kObsOffset = [] {
    std::array<int, 81> offset{};
    for (int sq = 0; sq < 81; ++sq) {
      offset[sq] = ((sq % 9) * 9 + (8 - sq / 9)) * 119;
    }
    return offset;
  }();

 public:
  static constexpr int kNumPlayers = 2;
  static constexpr int kNumActions = 27 * 81;
  static constexpr int kChannels = 119;
  using ObsType = bool;
  static Config DefaultConfig() { return {{"max_episode_steps", int64_t{0}}}; }
  static void CheckConfig(const Config&) {}
  static std::vector<int64_t> ObsShape(const Config&) {
    return {9, 9, kChannels};
  }
  static std::vector<double> ObsLow() { return {0.0}; }
  static std::vector<double> ObsHigh() { return {1.0}; }
  std::size_t ObsSize() const { return 81 * kChannels; }

  explicit Shogi(const Config&) : t_(shogi::GetTables()) {}

  // Shogi._init: GameState() and the player order drawn from the key.
  void Init(jax_random::Key key) {
    const bool swap = jax_random::Bernoulli(key, 0.5f);
    player_order_ = swap ? std::array<int, 2>{1, 0} : std::array<int, 2>{0, 1};
    color_ = 0;
    board_ = shogi::InitBoard();
    for (auto& row : hand_) row.fill(0);
    current_player = player_order_[color_];
    terminated = false;
    truncated = false;
    rewards.fill(0.0f);
    // INIT_LEGAL_ACTION_MASK (pgx writes its 30 indices out; it is what
    // _legal_action_mask gives for the initial position).
    LegalActionMask();
    step_count = 0;
  }

  // Shogi._step: Game.step (_step of the game), then the turn passes.
  void Step(int action, jax_random::Key) {
    GameStep(action);
    current_player = (current_player + 1) % 2;
    // Game.is_terminal and Game.rewards.
    const bool any_legal = num_legal_ > 0;
    terminated = !any_legal || shogi::kMaxTerminationSteps <= step_count;
    rewards.fill(0.0f);
    if (!any_legal) {
      // The color to move (no legal action) loses: [[-1, 1], [1, -1]][color]
      // indexed by _player_order.
      const float by_color[2] = {color_ == 0 ? -1.0f : 1.0f,
                                 color_ == 0 ? 1.0f : -1.0f};
      rewards[0] = by_color[player_order_[0]];
      rewards[1] = by_color[player_order_[1]];
    }
  }

  // _observe(state._x, flip=current_player == player): the player to move
  // sees the board as it is, the other one its flip. Planes (before the
  // final rot90): 14 own pieces, 14 own piece effects, 3 own effect counts
  // >= 1..3, the same 31 for the opponent, the hands (pawn >= 1..8, lance,
  // knight, silver, gold >= 1..4, bishop, rook >= 1..2; own then the
  // opponent's), and whether the viewer's king is in check.
  void Observe(int player, bool* out) const {
    const bool as_is = current_player == player;
    const shogi::Board flipped = shogi::FlipBoard(board_);
    const shogi::Board& mine = as_is ? board_ : flipped;
    const shogi::Board& theirs = as_is ? flipped : board_;
    const int my_hand = as_is ? 0 : 1;
    std::fill(out, out + ObsSize(), false);
    // feat (119, 9, 9) of square sq = x * 9 + y, transposed to (9, 9, 119)
    // and rotated by jnp.rot90(k=3): out[i][j] = feat[8 - j][i], so square
    // (x, y) lands at row y, column 8 - x.
    auto set = [out](int channel, int sq) {
      out[kObsOffset[sq] + channel] = true;
    };
    PieceAndEffect(mine, 0, false, set);
    PieceAndEffect(theirs, 31, true, set);
    // hand_feat: jnp.tile(hand[p] >= n, (9, 9)).
    static constexpr int kHandPieces[7] = {
        shogi::kPawn, shogi::kLance,  shogi::kKnight, shogi::kSilver,
        shogi::kGold, shogi::kBishop, shogi::kRook};
    static constexpr int kHandPlanes[7] = {8, 4, 4, 4, 4, 2, 2};
    int channel = 62;
    for (int side = 0; side < 2; ++side) {
      const auto& hand = hand_[side == 0 ? my_hand : 1 - my_hand];
      for (int k = 0; k < 7; ++k) {
        for (int n = 1; n <= kHandPlanes[k]; ++n, ++channel) {
          if (hand[kHandPieces[k]] < n) continue;
          for (int sq = 0; sq < 81; ++sq) set(channel, sq);
        }
      }
    }
    // checked = _is_checked(_set_cache(state)) of the viewer's board.
    shogi::MajorCache m2b;
    int king = 0;
    shogi::SetCache(mine, &m2b, &king);
    if (shogi::IsChecked(t_, mine, king, m2b)) {
      for (int sq = 0; sq < 81; ++sq) set(kChannels - 1, sq);
    }
  }

  int current_player = 0;
  bool terminated = false;
  bool truncated = false;
  std::array<float, kNumPlayers> rewards{};
  std::array<bool, kNumActions> legal_action_mask{};
  int32_t step_count = 0;
  // get_state: everything Init and Step change (t_ is the shared tables).
  ENVPOOL_LITE_STATE_FIELDS(current_player, terminated, truncated, rewards,
                            legal_action_mask, step_count, player_order_,
                            color_, board_, hand_, num_legal_)

 private:
  // _observe's pieces and piece_and_effect of board `b` (its own pieces
  // 0..13): the piece planes from channel `base`, the effect planes from
  // base + 14, the effect counts >= 1, 2, 3 from base + 28. `reversed`:
  // the opponent's planes, computed on the flipped board and read back
  // reversed ([:, ::-1]).
  template <typename Set>
  void PieceAndEffect(const shogi::Board& b, int base, bool reversed,
                      const Set& set) const {
    std::array<int, 81> effect_sum{};
    for (int from = 0; from < 81; ++from) {
      const int piece = b[from];
      if (!shogi::IsMine(piece)) continue;
      set(base + piece, reversed ? 80 - from : from);
      // effect(from, to) = CAN_MOVE & no piece between (for sliders).
      const int ix = shogi::MajorPieceIx(piece);
      for (int k = 0; k < t_.target_count[piece][from]; ++k) {
        const int to = t_.targets[piece][from][k];
        bool blocked = false;
        if (ix >= 0) {
          for (int8_t between : t_.between_ix[ix][from][to]) {
            if (between < 0) break;
            blocked |= b[between] != shogi::kEmpty;
          }
        }
        if (blocked) continue;
        set(base + 14 + piece, reversed ? 80 - to : to);
        ++effect_sum[to];
      }
    }
    for (int sq = 0; sq < 81; ++sq) {
      for (int n = 1; n <= 3; ++n) {
        if (effect_sum[sq] >= n) set(base + 27 + n, reversed ? 80 - sq : sq);
      }
    }
  }

  // Game.step = _step: decode the action, play the move or drop (pgx plays
  // an illegal one too), flip the board to the next mover and compute its
  // legal actions.
  void GameStep(int action) {
    using namespace shogi;
    // Action._from_dlshogi_action.
    const int direction = action / 81, to = action % 81;
    const bool is_drop = direction >= 20;
    const bool is_promotion = 10 <= direction && direction < 20;
    const int8_t* candidates = t_.legal_from_idx[direction % 10][to];
    int first = 0;  // jnp.argmax of the mask: 0 when none is set
    for (int k = 0; k < 8; ++k) {
      if (candidates[k] >= 0 && IsMine(board_[candidates[k]])) {
        first = k;
        break;
      }
    }
    const int from = is_drop ? 0 : candidates[first];
    // JAX: from_ is -1 when `to` has no square in that direction; the
    // gather board[-1] reads square 80.
    const int piece = is_drop ? direction - 20 : board_[GatherIx(from, 81)];
    if (is_drop) {
      // _step_drop (the hand may go negative on an illegal drop).
      board_[to] = int8_t(piece);
      hand_[0][piece] -= 1;
    } else {
      // _step_move. JAX: the scatter .at[-1] writes square 80.
      board_[ScatterIx(from, 81)] = kEmpty;
      const int captured = board_[to];
      if (captured != kEmpty) {
        // ((captured + 14) % 28) % 8: the captured piece unpromoted, as
        // the mover's; index 7 (a king) is out of the hand's bounds, and
        // JAX drops that scatter.
        const int ix = ((captured + 14) % 28) % 8;
        if (ix < 7) hand_[0][ix] += 1;
      }
      // An illegal action can "promote" any piece (up to 35, or -1 + 8 =
      // KING); _flip brings it back into 0..27.
      board_[to] = int8_t(is_promotion ? piece + 8 : piece);
    }
    // _flip.
    board_ = FlipBoard(board_);
    std::swap(hand_[0], hand_[1]);
    color_ = (color_ + 1) % 2;
    LegalActionMask();
  }

  // _legal_action_mask. pgx evaluates every action; here the moves are
  // generated from the mover's pieces instead, which sets the same
  // entries: action (dir, to) decodes to the nearest own piece along the
  // direction, which is the only one that can pseudo-legally reach `to`
  // (the squares between must be empty), so each pseudo-legal move (from,
  // to) is exactly the action (direction_of[from][to], to).
  void LegalActionMask() {
    using namespace shogi;
    legal_action_mask.fill(false);
    int num_legal = 0;  // each entry below is set once
    MajorCache m2b;
    int king = 0;
    SetCache(board_, &m2b, &king);
    const bool checked = IsChecked(t_, board_, king, m2b);
    const std::array<bool, 81> exposing =
        ExposingSquares(t_, board_, king, m2b);
    for (int from = 0; from < 81; ++from) {
      const int piece = board_[from];
      if (!IsMine(piece)) continue;
      // Whether pgx's check test after the move can be true (see
      // ExposingSquares); if not, the pseudo-legal test alone decides.
      const bool may_check = checked || piece == kKing || exposing[from];
      for (int k = 0; k < t_.target_count[piece][from]; ++k) {
        const int to = t_.targets[piece][from][k];
        if (may_check ? !IsLegalMoveWoPro(t_, from, to, board_, king, m2b)
                      : !IsPseudoLegalMove(t_, from, to, board_)) {
          continue;
        }
        const int dir = t_.direction_of[from][to];
        // _is_no_promotion_legal: a pawn or lance must promote on the last
        // rank, a knight on the last two.
        const bool no_promotion =
            !(((piece == kPawn || piece == kLance) && to % 9 == 0) ||
              (piece == kKnight && to % 9 < 2));
        // _is_promotion_legal: not gold, king or promoted pieces, and the
        // move touches the opponent's three ranks.
        const bool promotion = !((kGold <= piece && piece <= kDragon) ||
                                 (from % 9 >= 3 && to % 9 >= 3));
        legal_action_mask[dir * 81 + to] = no_promotion;
        legal_action_mask[(dir + 10) * 81 + to] = promotion;
        num_legal += int(no_promotion) + int(promotion);
      }
    }
    // Drops: _is_legal_drop_wo_piece (empty, and a pawn there would not
    // leave the king in check) & _is_legal_drop_wo_ignoring_check. Putting
    // a piece on an empty square can only block a check, never give one
    // to the mover, so the pawn test is needed only when in check now.
    std::array<bool, 9> pawn_file{};
    for (int sq = 0; sq < 81; ++sq) pawn_file[sq / 9] |= board_[sq] == kPawn;
    Board dropped = board_;
    for (int to = 0; to < 81; ++to) {
      if (board_[to] != kEmpty) continue;
      if (checked) {
        dropped[to] = kPawn;
        const bool still = IsChecked(t_, dropped, king, m2b);
        dropped[to] = kEmpty;
        if (still) continue;
      }
      for (int piece = 0; piece < 7; ++piece) {
        bool illegal = hand_[0][piece] <= 0;
        illegal |= piece == kPawn && pawn_file[to / 9];  // double pawn
        illegal |= (piece == kPawn || piece == kLance) && to % 9 == 0;
        illegal |= piece == kKnight && to % 9 < 2;
        legal_action_mask[(20 + piece) * 81 + to] = !illegal;
        num_legal += int(!illegal);
      }
    }
    // No mate by a dropped pawn: only the pawn drop in front of the
    // opponent's king; pgx computes _is_drop_pawn_mate always and ANDs it
    // in, so it is evaluated only where that drop is still legal.
    const int opp_king = ArgminDistance(board_, kOppKing);
    const int index = 20 * 81 + opp_king + 1;  // to = 81 reads action 1701
    if (legal_action_mask[index] && IsDropPawnMate(opp_king)) {
      legal_action_mask[index] = false;
      --num_legal;
    }
    num_legal_ = num_legal;
  }

  // _is_drop_pawn_mate: after a pawn dropped at opp_king + 1, can the
  // opponent take it or move its king away.
  bool IsDropPawnMate(int opp_king) const {
    using namespace shogi;
    const int to = opp_king + 1;
    Board with_pawn = board_;
    if (to <= 80) with_pawn[to] = kPawn;  // JAX: .at[81].set is dropped
    const Board f = FlipBoard(with_pawn);
    MajorCache m2b;
    int king = 0;
    SetCache(f, &m2b, &king);
    const int flipped_to = 80 - to;  // -1 when to is 81
    for (int8_t from : t_.can_move_any[GatherIx(flipped_to, 81)]) {
      if (from < 0) break;
      if (IsLegalMoveWoPro(t_, from, flipped_to, f, king, m2b)) return false;
    }
    const int from = 80 - opp_king;
    for (int8_t around : t_.around_ix[from]) {
      // JAX: an off-board neighbour is -1, which pgx tries as a move too.
      if (IsLegalMoveWoPro(t_, from, around, f, king, m2b)) return false;
    }
    return true;
  }

  const shogi::Tables& t_;
  std::array<int, 2> player_order_{0, 1};
  int color_ = 0;
  shogi::Board board_{};
  shogi::Hand hand_{};
  int num_legal_ = 0;  // the number of legal actions in legal_action_mask
};

}  // namespace envpool_lite::pgx
