// pgx's chess (pgx/chess.py, pgx/_src/games/chess.py): standard chess with
// AlphaZero's 8x8x73 action labels and 8x8x119 observation.
//
// The board: 64 squares, index = file * 8 + rank (a1 = 0, a2 = 1, ...,
// h8 = 63), each 0 empty, +piece for the color to move and -piece for the
// opponent (1 pawn, 2 knight, 3 bishop, 4 rook, 5 queen, 6 king). pgx keeps
// the board from the point of view of the color to move: after every move
// it is mirrored (rank r <-> 7 - r) and negated (_flip), so "my" pawns
// always move up the ranks and castling, en passant and promotion are
// always seen from rank 0. The castling rights are [[my queen side, my
// king side], [opp queen side, opp king side]].
//
// An action label is from_square * 73 + plane: planes 0..8 are the
// underpromotions (plane / 3: rook, bishop, knight; plane % 3: up, up-right
// up-left), planes 9..72 queen moves (56) and knight moves (8); a queen
// promotion, castling (the king's two-square move) and en passant are
// ordinary queen-move labels.
//
// The game ends on no legal move (checkmate: the mover loses; stalemate:
// a draw), the 50-move rule (halfmove_count >= 100), insufficient material
// (OpenSpiel's rule), the third occurrence of a position (zobrist hash) or
// 512 steps (a draw). The order of the players is drawn at init:
// player_order = [0, 1] or [1, 0] by bernoulli(key), current_player =
// player_order[color].
//
// pgx precomputes its tables with numpy and jax.random at import; Tables
// below computes the same ones once, at the first env's construction.
//
// JAX semantics reproduced: integer // and % are floor division/modulo; a
// negative index i of an axis of size n means i + n (a gather then clamps
// into [0, n), a scatter `.at[i].set` drops an index still out of range),
// which matters for illegal moves: a label whose destination is off the
// board (FROM_PLANE = -1) moves the piece to square 63. Moves are played
// as pgx plays them, legal or not (the adapter then applies the penalty).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <vector>

#include "core/config.h"
#include "core/env_state.h"
#include "refkit/jax/random.h"

namespace envpool_lite::pgx {
namespace chess {

inline constexpr int kEmpty = 0;
inline constexpr int kPawn = 1;
inline constexpr int kKnight = 2;
inline constexpr int kBishop = 3;
inline constexpr int kRook = 4;
inline constexpr int kQueen = 5;
inline constexpr int kKing = 6;
inline constexpr int kMaxTerminationSteps = 512;  // MAX_TERMINATION_STEPS
inline constexpr int kNumPlanes = 73;
inline constexpr int kNumLabels = 64 * kNumPlanes;  // 4672
inline constexpr int kObsPlanes = 119;

using Board = std::array<int8_t, 64>;
using Hash = std::array<uint32_t, 2>;

// numpy/jax floor division and modulo of ints (Python's // and %).
inline int FloorDiv(int a, int b) {
  int q = a / b;
  if (a % b != 0 && ((a < 0) != (b < 0))) --q;
  return q;
}
inline int FloorMod(int a, int b) { return a - FloorDiv(a, b) * b; }

// A jax gather x[i] on an axis of size n: i < 0 means i + n, then clamped.
inline int GatherIndex(int i, int n) {
  if (i < 0) i += n;
  return std::clamp(i, 0, n - 1);
}
// A jax scatter x.at[i].set(v): i < 0 means i + n; -1 when it is still out
// of range (the update is dropped).
inline int ScatterIndex(int i, int n) {
  if (i < 0) i += n;
  return i >= 0 && i < n ? i : -1;
}

// The module-level constants of pgx/_src/games/chess.py.
struct Tables {
  Board init_board;                                            // INIT_BOARD
  std::array<std::array<int16_t, kNumPlanes>, 64> from_plane;  // FROM_PLANE
  std::array<std::array<int16_t, 64>, 64> to_plane;            // TO_PLANE
  // LEGAL_DEST[piece, from]: destinations (ascending, -1 padded) of a
  // piece of mine on an empty board; a pawn moves up (and two up from
  // rank 1).
  std::array<std::array<std::array<int8_t, 27>, 64>, 7> legal_dest;
  std::array<std::array<int8_t, 16>, 64> legal_dest_near;  // king + knight
  std::array<std::array<int8_t, 19>, 64> legal_dest_far;   // queen - king
  std::array<std::array<std::array<bool, 64>, 64>, 7> can_move;  // CAN_MOVE
  // BETWEEN[from, to]: the squares strictly between two aligned squares.
  std::array<std::array<std::array<int8_t, 6>, 64>, 64> between;
  // ZOBRIST_*: jax.random.randint(k, shape, 0, 2**31 - 1, uint32) with
  // keys = split(PRNGKey(12345), 4).
  std::array<std::array<Hash, 13>, 64> zobrist_board;
  Hash zobrist_side;
  std::array<Hash, 4> zobrist_castling;
  std::array<Hash, 65> zobrist_en_passant;
};

inline Tables BuildTables() {
  Tables t{};
  // INIT_BOARD: file by file, ranks 0..7: R/N/B/Q/K/B/N/R, a pawn, four
  // empty squares, an opponent's pawn and piece.
  const int back[8] = {kRook, kKnight, kBishop, kQueen,
                       kKing, kBishop, kKnight, kRook};
  for (int c = 0; c < 8; ++c) {
    for (int r = 0; r < 8; ++r) {
      int v = 0;
      if (r == 0) v = back[c];
      if (r == 1) v = kPawn;
      if (r == 6) v = -kPawn;
      if (r == 7) v = -back[c];
      t.init_board[c * 8 + r] = static_cast<int8_t>(v);
    }
  }

  // FROM_PLANE / TO_PLANE. The queen directions, 7 distances each (down,
  // up, left, right, down-left, down-right, up-right, up-left), then the 8
  // knight moves, as (dr, dc) = (rank, file) offsets.
  std::vector<int> dr;
  std::vector<int> dc;
  auto add = [](std::vector<int>& v, int start, int step) {
    for (int i = 0; i < 7; ++i) v.push_back(start + step * i);
  };
  add(dr, -7, 1), add(dr, 1, 1), add(dr, 0, 0), add(dr, 0, 0);
  add(dr, -7, 1), add(dr, 1, 1), add(dr, 7, -1), add(dr, -1, -1);
  add(dc, 0, 0), add(dc, 0, 0), add(dc, -7, 1), add(dc, 1, 1);
  add(dc, -7, 1), add(dc, 1, 1), add(dc, -7, 1), add(dc, 1, 1);
  for (int v : {-1, +1, -2, +2, -1, +1, -2, +2}) dr.push_back(v);
  for (int v : {-2, -2, -1, -1, +2, +2, +1, +1}) dc.push_back(v);
  for (auto& row : t.from_plane) row.fill(-1);
  for (auto& row : t.to_plane) row.fill(-1);
  for (int from = 0; from < 64; ++from) {
    for (int plane = 0; plane < kNumPlanes; ++plane) {
      if (plane < 9) {  // underpromotion: up, up-right, up-left from rank 6
        const int delta[3] = {+1, +9, -7};
        const int to = from % 8 == 6 ? from + delta[plane % 3] : -1;
        if (to >= 0 && to < 64) {
          t.from_plane[from][plane] = static_cast<int16_t>(to);
        }
      } else {
        const int r = from % 8 + dr[plane - 9];
        const int c = from / 8 + dc[plane - 9];
        if (r >= 0 && r < 8 && c >= 0 && c < 8) {
          t.from_plane[from][plane] = static_cast<int16_t>(c * 8 + r);
          t.to_plane[from][c * 8 + r] = static_cast<int16_t>(plane);
        }
      }
    }
  }

  // LEGAL_DEST, CAN_MOVE, LEGAL_DEST_NEAR, LEGAL_DEST_FAR.
  for (auto& piece : t.legal_dest) {
    for (auto& row : piece) row.fill(-1);
  }
  for (auto& row : t.legal_dest_near) row.fill(-1);
  for (auto& row : t.legal_dest_far) row.fill(-1);
  for (int from = 0; from < 64; ++from) {
    std::array<int, 7> count{};
    int near = 0;
    int far = 0;
    for (int to = 0; to < 64; ++to) {
      if (from == to) continue;
      const int r0 = from % 8, c0 = from / 8, r1 = to % 8, c1 = to / 8;
      const int adr = std::abs(r1 - r0), adc = std::abs(c1 - c0);
      bool ok[7] = {};
      ok[kPawn] =
          (r1 - r0 == 1 && adc <= 1) || (r0 == 1 && r1 == 3 && adc == 0);
      ok[kKnight] = (adr == 1 && adc == 2) || (adr == 2 && adc == 1);
      ok[kBishop] = adr == adc;
      ok[kRook] = adr == 0 || adc == 0;
      ok[kQueen] = ok[kBishop] || ok[kRook];
      ok[kKing] = adr <= 1 && adc <= 1;
      for (int p = 1; p < 7; ++p) {
        if (!ok[p]) continue;
        t.legal_dest[p][from][count[p]++] = static_cast<int8_t>(to);
        t.can_move[p][from][to] = true;
      }
      // pgx builds these two from Python sets; only .any() reads them, so
      // their order does not matter.
      if (ok[kKing] || ok[kKnight]) {
        t.legal_dest_near[from][near++] = static_cast<int8_t>(to);
      }
      if (ok[kQueen] && !ok[kKing]) {
        t.legal_dest_far[from][far++] = static_cast<int8_t>(to);
      }
    }
  }

  // BETWEEN.
  for (auto& a : t.between) {
    for (auto& b : a) b.fill(-1);
  }
  for (int from = 0; from < 64; ++from) {
    for (int to = 0; to < 64; ++to) {
      const int r0 = from % 8, c0 = from / 8, r1 = to % 8, c1 = to / 8;
      if (!(r1 == r0 || c1 == c0 || std::abs(r1 - r0) == std::abs(c1 - c0))) {
        continue;
      }
      const int sr = std::clamp(r1 - r0, -1, 1),
                sc = std::clamp(c1 - c0, -1, 1);
      for (int i = 0; i < 6; ++i) {
        const int r = r0 + sr * (i + 1), c = c0 + sc * (i + 1);
        if (r == r1 && c == c1) break;
        t.between[from][to][i] = static_cast<int8_t>(c * 8 + r);
      }
    }
  }

  // The zobrist tables: jax.random.randint with dtype uint32 and bounds
  // [0, 2**31 - 1) draws the same words as the int32 randint (same bits,
  // same span arithmetic, and the values fit both types).
  const std::vector<jax_random::Key> keys =
      jax_random::Split(jax_random::PRNGKey(12345), 4);
  constexpr int32_t kMax = 2147483647;  // 2**31 - 1
  const std::vector<int32_t> board =
      jax_random::Randint(keys[0], 64 * 13 * 2, 0, kMax);
  const std::vector<int32_t> side = jax_random::Randint(keys[1], 2, 0, kMax);
  const std::vector<int32_t> castling =
      jax_random::Randint(keys[2], 4 * 2, 0, kMax);
  const std::vector<int32_t> en_passant =
      jax_random::Randint(keys[3], 65 * 2, 0, kMax);
  for (int i = 0; i < 64; ++i) {
    for (int p = 0; p < 13; ++p) {
      for (int w = 0; w < 2; ++w) {
        t.zobrist_board[i][p][w] =
            static_cast<uint32_t>(board[(i * 13 + p) * 2 + w]);
      }
    }
  }
  for (int w = 0; w < 2; ++w) {
    t.zobrist_side[w] = static_cast<uint32_t>(side[w]);
    for (int k = 0; k < 4; ++k) {
      t.zobrist_castling[k][w] = static_cast<uint32_t>(castling[k * 2 + w]);
    }
    for (int k = 0; k < 65; ++k) {
      t.zobrist_en_passant[k][w] = static_cast<uint32_t>(en_passant[k * 2 + w]);
    }
  }
  return t;
}

// Built once (thread-safe static initialization), at the first env.
inline const Tables& GetTables() {
  static const Tables tables = BuildTables();
  return tables;
}

// pgx's GameState, less its histories and mask (the Chess class keeps
// those): the position from the point of view of `color`, the color to
// move (0 white, 1 black).
struct GameState {
  int color = 0;
  Board board{};
  std::array<std::array<bool, 2>, 2> castling_rights{};
  int en_passant = -1;         // the square a pawn passed over, or -1
  int32_t halfmove_count = 0;  // moves since the last capture or pawn move
  int32_t fullmove_count = 1;  // +1 after every black move
};

// Action._from_label: from = label // 73, to = FROM_PLANE[from, plane]
// (-1 when off the board), underpromotion = plane // 3 for planes < 9.
struct Action {
  int from = -1;
  int to = -1;
  int underpromotion = -1;  // 0 rook, 1 bishop, 2 knight
};

inline Action ActionFromLabel(int label) {
  const int from = FloorDiv(label, kNumPlanes);
  const int plane = FloorMod(label, kNumPlanes);
  return {from, GetTables().from_plane[GatherIndex(from, 64)][plane],
          plane >= 9 ? -1 : plane / 3};
}

// Action._to_label: from * 73 + TO_PLANE[from, to].
inline int ActionToLabel(int from, int to) {
  return from * kNumPlanes +
         GetTables().to_plane[GatherIndex(from, 64)][GatherIndex(to, 64)];
}

// _apply_move: the move as pgx plays it, with no legality check.
inline void ApplyMove(GameState& s, const Action& a) {
  Board& b = s.board;
  int piece = b[GatherIndex(a.from, 64)];
  // En passant: the captured pawn stands one rank below the destination.
  const bool is_en_passant =
      s.en_passant >= 0 && piece == kPawn && s.en_passant == a.to;
  if (is_en_passant) {
    const int removed = ScatterIndex(a.to - 1, 64);
    if (removed >= 0) b[removed] = kEmpty;
  }
  // A pawn's two-square move sets the en passant square (pgx tests the
  // index distance only; it also counts it as a "capture" below).
  const bool double_push = piece == kPawn && std::abs(a.to - a.from) == 2;
  s.en_passant = double_push ? FloorDiv(a.to + a.from, 2) : -1;
  const bool captured = b[GatherIndex(a.to, 64)] < 0 || double_push;
  s.halfmove_count = captured || piece == kPawn ? 0 : s.halfmove_count + 1;
  s.fullmove_count += s.color == 1 ? 1 : 0;
  // Castling: the king's two-square move from e1 brings the rook over.
  if (piece == kKing && a.from == 32 && a.to == 16) {
    b[0] = kEmpty;
    b[24] = kRook;
  }
  if (piece == kKing && a.from == 32 && a.to == 48) {
    b[56] = kEmpty;
    b[40] = kRook;
  }
  // Castling rights: lost when the king or a rook leaves its square, and
  // the opponent's when its rook's square is moved onto.
  s.castling_rights[0][0] =
      s.castling_rights[0][0] && a.from != 32 && a.from != 0;
  s.castling_rights[0][1] =
      s.castling_rights[0][1] && a.from != 32 && a.from != 56;
  s.castling_rights[1][0] = s.castling_rights[1][0] && a.to != 7;
  s.castling_rights[1][1] = s.castling_rights[1][1] && a.to != 63;
  // Promotion: to a queen unless the label is an underpromotion (which
  // pgx applies to whatever piece moves).
  if (piece == kPawn && FloorMod(a.from, 8) == 6 && a.underpromotion < 0) {
    piece = kQueen;
  }
  if (a.underpromotion >= 0) {
    const int kinds[3] = {kRook, kBishop, kKnight};
    piece = kinds[GatherIndex(a.underpromotion, 3)];
  }
  const int from = ScatterIndex(a.from, 64);
  if (from >= 0) b[from] = kEmpty;
  const int to = ScatterIndex(a.to, 64);
  if (to >= 0) b[to] = static_cast<int8_t>(piece);
}

// _flip's board: mirror the ranks and negate.
inline Board FlipBoard(const Board& b) {
  Board f;
  for (int c = 0; c < 8; ++c) {
    for (int r = 0; r < 8; ++r) {
      f[c * 8 + r] = static_cast<int8_t>(-b[c * 8 + 7 - r]);
    }
  }
  return f;
}

// _flip_pos: -1 stays -1.
inline int FlipPos(int x) {
  return x == -1 ? x : FloorDiv(x, 8) * 8 + (7 - FloorMod(x, 8));
}

// _flip (its board_history part is the Chess class's).
inline void Flip(GameState& s) {
  s.board = FlipBoard(s.board);
  s.color = (s.color + 1) % 2;
  s.en_passant = FlipPos(s.en_passant);
  std::swap(s.castling_rights[0], s.castling_rights[1]);
}

// _is_attacked: whether an opponent's piece attacks pos. Near squares
// (king and knight distance): any piece that moves there, a pawn only
// diagonally; far squares: a queen, rook or bishop with a clear path.
inline bool IsAttacked(const Board& b, int pos) {
  const Tables& t = GetTables();
  for (int to : t.legal_dest_near[pos]) {
    if (to < 0 || b[to] >= 0) continue;
    const int piece = -b[to];
    if (t.can_move[piece][pos][to] && !(piece == kPawn && to / 8 == pos / 8)) {
      return true;
    }
  }
  for (int to : t.legal_dest_far[pos]) {
    if (to < 0 || b[to] >= 0) continue;
    const int piece = -b[to];
    if (piece != kQueen && piece != kRook && piece != kBishop) continue;
    if (!t.can_move[piece][pos][to]) continue;
    bool clear = true;
    for (int i : t.between[pos][to]) clear &= i < 0 || b[i] == kEmpty;
    if (clear) return true;
  }
  return false;
}

// _is_checked: king_pos = argmin(|board - KING|) (the first minimum).
inline bool IsChecked(const Board& b) {
  int king = 0;
  for (int i = 1; i < 64; ++i) {
    if (std::abs(b[i] - kKing) < std::abs(b[king] - kKing)) king = i;
  }
  return IsAttacked(b, king);
}

// _zobrist_hash.
inline Hash ZobristHash(const GameState& s) {
  const Tables& t = GetTables();
  Hash h = s.color == 0 ? t.zobrist_side : Hash{0, 0};
  for (int i = 0; i < 64; ++i) {
    const Hash& z = t.zobrist_board[i][GatherIndex(s.board[i] + 6, 13)];
    h[0] ^= z[0];
    h[1] ^= z[1];
  }
  for (int k = 0; k < 4; ++k) {
    if (s.castling_rights[k / 2][k % 2]) {
      h[0] ^= t.zobrist_castling[k][0];
      h[1] ^= t.zobrist_castling[k][1];
    }
  }
  const Hash& z = t.zobrist_en_passant[GatherIndex(s.en_passant, 65)];
  h[0] ^= z[0];
  h[1] ^= z[1];
  return h;
}

// has_insufficient_pieces (OpenSpiel's rule): king vs king, king + minor
// piece vs king, or kings and bishops all on one color of square.
inline bool HasInsufficientPieces(const Board& b) {
  int num_pieces = 0, num_pawn_rook_queen = -2, num_bishop = 0;
  int num_bishop_on_black = 0;
  for (int i = 0; i < 64; ++i) {
    const int p = std::abs(b[i]);
    num_pieces += b[i] != kEmpty;
    num_pawn_rook_queen += p >= kRook || p == kPawn;  // less the two kings
    num_bishop += p == kBishop;
    // "black" squares: coords[::2, ::2] and coords[1::2, 1::2].
    num_bishop_on_black += p == kBishop && (i / 8 + i % 8) % 2 == 0;
  }
  bool insufficient = num_pieces <= 2;
  insufficient |= num_pieces == 3 && num_pawn_rook_queen == 0;
  insufficient |=
      num_pieces == num_bishop + 2 &&
      (num_bishop_on_black == num_bishop || num_bishop_on_black == 0);
  return insufficient;
}

// _legal_action_mask: writes the mask, returns whether any move is legal.
//
// pgx's order matters at one point: the pseudo-legal labels (pieces in
// square order, the first 16 of mine; each piece's LEGAL_DEST in order;
// then the two en passant captures) are cut to the first 200 (jnp.nonzero
// size=200) before the check filter. The fill entries repeat the first
// label (no effect).
inline bool LegalActionMask(const GameState& s, bool* mask) {
  const Tables& t = GetTables();
  const Board& b = s.board;
  std::memset(mask, 0, kNumLabels);
  std::array<int, 200> labels;
  int n = 0;
  auto add = [&](int label) {
    if (n < 200) labels[n++] = label;
  };
  // legal_normal_moves over nonzero(board > 0, size=16).
  int pieces = 0;
  for (int from = 0; from < 64 && pieces < 16; ++from) {
    const int piece = b[from];
    if (piece <= 0) continue;
    ++pieces;
    for (int to : t.legal_dest[piece][from]) {
      if (to < 0) break;  // -1 padding at the end
      if (b[to] > 0) continue;
      bool ok = t.can_move[piece][from][to];
      for (int i : t.between[from][to]) ok &= i < 0 || b[i] == kEmpty;
      if (piece == kPawn) {
        // Straight onto an empty square, diagonally onto an opponent's.
        const bool same_file = to / 8 == from / 8;
        ok &= same_file ? b[to] == kEmpty : b[to] < 0;
      }
      if (ok) add(ActionToLabel(from, to));
    }
  }
  // legal_en_passants: from the squares to - 9 and to + 7.
  const int ep = s.en_passant;
  for (int from : {ep - 9, ep + 7}) {
    if (from >= 0 && from < 64 && ep >= 0 && b[from] == kPawn &&
        b[GatherIndex(ep - 1, 64)] == -kPawn) {
      add(ActionToLabel(from, ep));
    }
  }
  // is_not_checked: play each on a copy; keep those not leaving my king
  // attacked. mask.at[label].set(True) on 4672 + 1 entries (the last, the
  // sentinel, takes the -1s).
  for (int i = 0; i < n; ++i) {
    GameState next = s;
    ApplyMove(next, ActionFromLabel(labels[i]));
    if (IsChecked(next.board)) continue;
    const int at = ScatterIndex(labels[i], kNumLabels + 1);
    if (at >= 0 && at < kNumLabels) mask[at] = true;
  }
  // Castling (labels 2364: e1 -> c1, 2367: e1 -> g1): the rights, the
  // king and rook in place, the squares between empty, and the king's
  // squares (e1, the one it crosses, the one it lands on) not attacked.
  const bool queen_side = s.castling_rights[0][0] && b[0] == kRook &&
                          b[8] == kEmpty && b[16] == kEmpty &&
                          b[24] == kEmpty && b[32] == kKing;
  const bool king_side = s.castling_rights[0][1] && b[32] == kKing &&
                         b[40] == kEmpty && b[48] == kEmpty && b[56] == kRook;
  if (queen_side || king_side) {
    bool safe[5];
    const int squares[5] = {16, 24, 32, 40, 48};
    for (int k = 0; k < 5; ++k) safe[k] = !IsAttacked(b, squares[k]);
    mask[2364] |= queen_side && safe[0] && safe[1] && safe[2];
    mask[2367] |= king_side && safe[2] && safe[3] && safe[4];
  }
  // legal_underpromotions: a pawn on rank 6 may underpromote wherever its
  // queen promotion (the same from and to) is legal.
  bool promotions[8 * 9] = {};
  for (int f = 0; f < 8; ++f) {
    const int from = f * 8 + 6;
    if (b[from] != kPawn) continue;
    for (int plane = 0; plane < 9; ++plane) {
      const int to = t.from_plane[from][plane];
      if (to >= 0 && mask[ActionToLabel(from, to)]) {
        promotions[f * 9 + plane] = true;
      }
    }
  }
  for (int f = 0; f < 8; ++f) {
    for (int plane = 0; plane < 9; ++plane) {
      if (promotions[f * 9 + plane])
        mask[(f * 8 + 6) * kNumPlanes + plane] = true;
    }
  }
  return std::any_of(mask, mask + kNumLabels, [](bool v) { return v; });
}

}  // namespace chess

class Chess {
 public:
  static constexpr int kNumPlayers = 2;
  static constexpr int kNumActions = chess::kNumLabels;
  static constexpr int kHistory = chess::kMaxTerminationSteps + 1;
  using ObsType = float;
  static Config DefaultConfig() { return {{"max_episode_steps", int64_t{0}}}; }
  static void CheckConfig(const Config&) {}
  static std::vector<int64_t> ObsShape(const Config&) {
    return {8, 8, chess::kObsPlanes};
  }
  static std::vector<double> ObsLow() { return {0.0}; }
  static std::vector<double> ObsHigh() { return {1.0}; }
  std::size_t ObsSize() const { return 64 * chess::kObsPlanes; }

  // Builds the tables (and checks them) at the first env.
  explicit Chess(const Config&) { InitHash(); }

  // Chess._init: GameState() and player_order = [[0, 1], [1, 0]]
  // [bernoulli(key)].
  void Init(jax_random::Key key) {
    const chess::Tables& t = chess::GetTables();
    swap_players_ = jax_random::Bernoulli(key, 0.5f);
    x_ = chess::GameState{};
    x_.board = t.init_board;
    x_.castling_rights = {{{true, true}, {true, true}}};
    for (auto& b : board_history_) b.fill(0);
    board_history_[0] = t.init_board;
    num_hashes_ = 0;
    PushHash(InitHash());
    legal_action_mask = InitMask();
    current_player = PlayerOf(x_.color);
    terminated = false;
    truncated = false;
    rewards.fill(0.0f);
    step_count = 0;
  }

  // Chess._step: Game.step (_apply_move, _flip, _update_history,
  // _legal_action_mask, step_count + 1: the adapter's step_count), then
  // is_terminal, the rewards by player and the player to move.
  void Step(int action, jax_random::Key) {
    chess::ApplyMove(x_, chess::ActionFromLabel(action));
    chess::Flip(x_);
    // _update_history: the newest board first; the histories are kept
    // white's way up (see board_history_).
    std::copy_backward(board_history_.begin(), board_history_.end() - 1,
                       board_history_.end());
    board_history_[0] = x_.color == 0 ? x_.board : chess::FlipBoard(x_.board);
    PushHash(chess::ZobristHash(x_));
    const bool any_legal = chess::LegalActionMask(x_, legal_action_mask.data());
    // Game.is_terminal. rep counts the newest hash over all 513 rows of
    // hash_history, the unfilled (0, 0) rows included.
    const int rep = RowsEqual(num_hashes_ - 1) - 1;
    terminated = !any_legal || x_.halfmove_count >= 100 ||
                 chess::HasInsufficientPieces(x_.board) || rep >= 2 ||
                 chess::kMaxTerminationSteps <= step_count;
    // Game.rewards: checkmate is a loss for the color to move.
    rewards.fill(0.0f);
    if (!any_legal && chess::IsChecked(x_.board)) {
      for (int p = 0; p < 2; ++p) {
        rewards[p] = PlayerColor(p) == x_.color ? -1.0f : 1.0f;
      }
    }
    current_player = PlayerOf(x_.color);
  }

  // Chess._observe(state, player): the position from the player's side
  // (the state _flip-ped for the player not to move), then Game.observe:
  // for each of the 8 last positions (newest first; zeros before the
  // first) 6 planes of my pieces, 6 of the opponent's and two repetition
  // planes (rep == 0, rep >= 1: how many earlier rows hold the same
  // hash); then the color, step_count / 512, the four castling rights
  // (mine first) and halfmove_count / 100. The 8x8 planes are rot90'd:
  // row = 7 - rank, column = file.
  void Observe(int player, float* out) const {
    const bool flip = player != current_player;
    const int color = flip ? 1 - x_.color : x_.color;
    constexpr int kP = chess::kObsPlanes;
    std::fill(out, out + 64 * kP, 0.0f);
    for (int i = 0; i < 8; ++i) {
      const chess::Board& h = board_history_[i];  // white's way up
      const int k = num_hashes_ - 1 - i;          // hash_history[i]
      int rep = 0;
      if (k >= 0 && !(hashes_[k][0] == 0 && hashes_[k][1] == 0)) {
        rep = hash_count_[k] - 1;
      }
      for (int row = 0; row < 8; ++row) {
        for (int col = 0; col < 8; ++col) {
          // The square at (row, col) in `color`'s view: black's view
          // mirrors the ranks and negates.
          const int v = color == 0 ? h[col * 8 + 7 - row] : -h[col * 8 + row];
          float* o = out + (row * 8 + col) * kP + i * 14;
          if (v > 0) o[v - 1] = 1.0f;
          if (v < 0) o[6 - v - 1] = 1.0f;
          o[12] = rep == 0 ? 1.0f : 0.0f;
          o[13] = rep >= 1 ? 1.0f : 0.0f;
        }
      }
    }
    const auto& cr = x_.castling_rights;
    const int mine = flip ? 1 : 0;
    // halfmove_count / 100.0: XLA's CPU compiler turns the division by a
    // constant into a multiplication by its float32 reciprocal (measured:
    // true division differs for 164 of 0..599).
    const float planes[6] = {
        static_cast<float>(color),     static_cast<float>(step_count) / 512.0f,
        cr[mine][0] ? 1.0f : 0.0f,     cr[mine][1] ? 1.0f : 0.0f,
        cr[1 - mine][0] ? 1.0f : 0.0f, cr[1 - mine][1] ? 1.0f : 0.0f,
    };
    const float no_progress =
        static_cast<float>(x_.halfmove_count) * (1.0f / 100.0f);
    for (int sq = 0; sq < 64; ++sq) {
      float* o = out + sq * kP + 112;
      std::copy(planes, planes + 6, o);
      o[6] = no_progress;
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
                            legal_action_mask, step_count, x_, swap_players_,
                            board_history_, hashes_, hash_count_, num_hashes_)

 private:
  // INIT_ZOBRIST_HASH, pgx's literal for hash_history[0] at init. It is
  // not the hash of the initial position (pgx's _zobrist_hash(GameState())
  // is [1875025768, 182641400]), so a return to the initial position does
  // not match it: kept as pgx has it. That hash of the initial position
  // checks our zobrist tables once.
  static chess::Hash InitHash() {
    static const chess::Hash hash = [] {
      chess::GameState s;
      s.board = chess::GetTables().init_board;
      s.castling_rights = {{{true, true}, {true, true}}};
      if (chess::ZobristHash(s) != chess::Hash{1875025768u, 182641400u}) {
        throw std::logic_error("chess: zobrist tables differ from pgx's");
      }
      return chess::Hash{1455170221u, 1478960862u};
    }();
    return hash;
  }
  // INIT_LEGAL_ACTION_MASK (pgx lists its 20 labels): the legal moves of
  // the initial position.
  static const std::array<bool, kNumActions>& InitMask() {
    static const std::array<bool, kNumActions> mask = [] {
      std::array<bool, kNumActions> m{};
      chess::GameState s;
      s.board = chess::GetTables().init_board;
      s.castling_rights = {{{true, true}, {true, true}}};
      chess::LegalActionMask(s, m.data());
      return m;
    }();
    return mask;
  }

  // player_order[color] and its inverse (the order is its own inverse).
  int PlayerOf(int color) const { return swap_players_ ? 1 - color : color; }
  int PlayerColor(int player) const {
    return swap_players_ ? 1 - player : player;
  }

  // How many of hash_history's 513 rows equal hashes_[k] (the rows not yet
  // filled are (0, 0)).
  int RowsEqual(int k) const {
    const bool zero = hashes_[k][0] == 0 && hashes_[k][1] == 0;
    return hash_count_[k] + (zero ? kHistory - num_hashes_ : 0);
  }

  // Appends a hash to hash_history, keeping for every filled row the
  // number of filled rows holding the same hash.
  void PushHash(const chess::Hash& h) {
    int same = 1;
    for (int k = 0; k < num_hashes_; ++k) {
      if (hashes_[k] == h) {
        ++same;
        ++hash_count_[k];
      }
    }
    hashes_[num_hashes_] = h;
    hash_count_[num_hashes_] = same;
    ++num_hashes_;
  }

  chess::GameState x_;
  bool swap_players_ = false;  // player_order == [1, 0]
  // GameState.board_history, newest first, each board white's way up
  // (pgx flips all of them with the board after every move, so they are
  // always from the side to move; Observe flips them on the fly).
  std::array<chess::Board, 8> board_history_{};
  // GameState.hash_history in order of play: hash_history[i] (newest
  // first) is hashes_[num_hashes_ - 1 - i]; rows past num_hashes_ are
  // (0, 0). A game ends by step 512, so at most 513 rows are filled.
  std::array<chess::Hash, kHistory> hashes_{};
  std::array<int, kHistory> hash_count_{};
  int num_hashes_ = 0;
};

}  // namespace envpool_lite::pgx
