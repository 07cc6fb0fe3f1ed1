// pgx's gardner_chess (pgx/gardner_chess.py, pgx/_src/gardner_chess_utils.py):
// Gardner's 5x5 minichess (no pawn double step, castling or en passant),
// with AlphaZero-style 5x5x49 action labels and a 5x5x115 observation.
//
// The board: 25 squares, index = file * 5 + rank (a1 = 0, a2 = 1, ...,
// e5 = 24), each 0 empty, +piece for the color to move and -piece for the
// opponent (1 pawn, 2 knight, 3 bishop, 4 rook, 5 queen, 6 king). pgx keeps
// the board from the point of view of the player to move: after every move
// it is mirrored (rank r <-> 4 - r) and negated (_flip).
//
// An action label is from_square * 49 + plane: planes 0..8 are the
// underpromotions (plane / 3: rook, bishop, knight; plane % 3: up,
// up-right, up-left), planes 9..48 the queen moves (32) and knight moves
// (8); a queen promotion is an ordinary queen-move label.
//
// The game ends on no legal move (checkmate: the mover loses; stalemate:
// a draw), the 50-move rule (halfmove_count >= 100), insufficient material
// (OpenSpiel's rule), the third occurrence of a position (zobrist hash) or
// 256 steps (a draw). current_player is drawn at init (bernoulli(key)) and
// alternates; color 0 (white) always moves first.
//
// pgx precomputes its tables with numpy and jax.random at import; Tables
// below computes the same ones once, at the first env's construction.
//
// JAX semantics reproduced: integer // and % are floor division/modulo; a
// negative index i of an axis of size n means i + n (a gather then clamps
// into [0, n), a scatter `.at[i].set` drops an index still out of range),
// which matters for illegal moves: a label whose destination is off the
// board (TO_MAP = -1) moves the piece to square 24. Moves are played as
// pgx plays them, legal or not (the adapter then applies the penalty).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <tuple>
#include <vector>

#include "core/config.h"
#include "core/env_state.h"
#include "refkit/jax/random.h"

namespace envpool_lite::pgx {
namespace gardner_chess {

inline constexpr int kEmpty = 0;
inline constexpr int kPawn = 1;
inline constexpr int kKnight = 2;
inline constexpr int kBishop = 3;
inline constexpr int kRook = 4;
inline constexpr int kQueen = 5;
inline constexpr int kKing = 6;
inline constexpr int kMaxTerminationSteps = 256;  // MAX_TERMINATION_STEPS
inline constexpr int kNumPlanes = 49;
inline constexpr int kNumLabels = 25 * kNumPlanes;  // 1225
inline constexpr int kObsPlanes = 115;

using Board = std::array<int8_t, 25>;
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

// The module-level constants of pgx/_src/gardner_chess_utils.py and
// pgx/gardner_chess.py.
struct Tables {
  Board init_board;                                       // INIT_BOARD
  std::array<std::array<int8_t, kNumPlanes>, 25> to_map;  // TO_MAP
  std::array<std::array<int8_t, 25>, 25> plane_map;       // PLANE_MAP
  // CAN_MOVE[piece, from]: destinations (ascending, -1 padded) of a piece
  // of mine on an empty board; a pawn moves (and captures) up only.
  std::array<std::array<std::array<int8_t, 16>, 25>, 7> can_move;
  // CAN_MOVE_ANY[pos]: the queen's then the knight's destinations.
  std::array<std::array<int8_t, 24>, 25> can_move_any;
  // BETWEEN[from, to]: the squares strictly between two aligned squares.
  std::array<std::array<std::array<int8_t, 3>, 25>, 25> between;
  // ZOBRIST_*: jax.random.randint(subkey, shape, 0, 2**31 - 1, uint32),
  // the subkeys split one after the other from PRNGKey(238942).
  std::array<std::array<Hash, 13>, 25> zobrist_board;
  Hash zobrist_side;
};

inline Tables BuildTables() {
  Tables t{};
  // INIT_BOARD: file by file, ranks 0..4: R/N/B/Q/K, a pawn, an empty
  // square, an opponent's pawn and piece.
  const int back[5] = {kRook, kKnight, kBishop, kQueen, kKing};
  for (int c = 0; c < 5; ++c) {
    const int file[5] = {back[c], kPawn, kEmpty, -kPawn, -back[c]};
    for (int r = 0; r < 5; ++r) {
      t.init_board[c * 5 + r] = static_cast<int8_t>(file[r]);
    }
  }

  // TO_MAP / PLANE_MAP. The normal planes 9..48 as (dr, dc) = (rank,
  // file) offsets: vertical, horizontal, diagonal (dr = dc), anti-diagonal
  // (dr = -dc), each over distances -4..-1, 1..4; then the knight moves.
  std::vector<int> dr;
  std::vector<int> dc;
  const int dist[8] = {-4, -3, -2, -1, 1, 2, 3, 4};
  for (int d : dist) dr.push_back(d), dc.push_back(0);
  for (int d : dist) dr.push_back(0), dc.push_back(d);
  for (int d : dist) dr.push_back(d), dc.push_back(d);
  for (int d : dist) dr.push_back(-d), dc.push_back(d);
  for (int v : {-1, +1, -2, +2, -1, +1, -2, +2}) dr.push_back(v);
  for (int v : {-2, -2, -1, -1, +2, +2, +1, +1}) dc.push_back(v);
  for (auto& row : t.to_map) row.fill(-1);
  for (auto& row : t.plane_map) row.fill(-1);
  for (int from = 0; from < 25; ++from) {
    if (from % 5 == 3) {  // underpromotion: up, up-right, up-left
      const int delta[3] = {+1, +6, -4};
      for (int plane = 0; plane < 9; ++plane) {
        const int to = from + delta[plane % 3];
        if (to >= 0 && to < 25) t.to_map[from][plane] = static_cast<int8_t>(to);
      }
    }
    for (int plane = 9; plane < kNumPlanes; ++plane) {
      const int r = from % 5 + dr[plane - 9];
      const int c = from / 5 + dc[plane - 9];
      if (r < 0 || r >= 5 || c < 0 || c >= 5) continue;
      t.to_map[from][plane] = static_cast<int8_t>(c * 5 + r);
      t.plane_map[from][c * 5 + r] = static_cast<int8_t>(plane);
    }
  }

  // CAN_MOVE, CAN_MOVE_ANY.
  for (auto& piece : t.can_move) {
    for (auto& row : piece) row.fill(-1);
  }
  for (auto& row : t.can_move_any) row.fill(-1);
  for (int from = 0; from < 25; ++from) {
    std::array<int, 7> count{};
    for (int to = 0; to < 25; ++to) {
      const int r0 = from % 5, c0 = from / 5, r1 = to % 5, c1 = to / 5;
      const int adr = std::abs(r1 - r0), adc = std::abs(c1 - c0);
      bool ok[7] = {};
      ok[kPawn] = r1 - r0 == 1 && adc <= 1;
      ok[kKnight] = (adr == 1 && adc == 2) || (adr == 2 && adc == 1);
      ok[kBishop] = from != to && adr == adc;
      ok[kRook] = from != to && (adr == 0 || adc == 0);
      ok[kQueen] = ok[kBishop] || ok[kRook];
      ok[kKing] = from != to && adr <= 1 && adc <= 1;
      for (int p = 1; p < 7; ++p) {
        if (ok[p]) t.can_move[p][from][count[p]++] = static_cast<int8_t>(to);
      }
    }
    int n = 0;
    for (int p : {kQueen, kKnight}) {
      for (int to : t.can_move[p][from]) {
        if (to >= 0) t.can_move_any[from][n++] = static_cast<int8_t>(to);
      }
    }
  }

  // BETWEEN.
  for (auto& a : t.between) {
    for (auto& b : a) b.fill(-1);
  }
  for (int from = 0; from < 25; ++from) {
    for (int to = 0; to < 25; ++to) {
      const int r0 = from % 5, c0 = from / 5, r1 = to % 5, c1 = to / 5;
      if (!(r1 == r0 || c1 == c0 || std::abs(r1 - r0) == std::abs(c1 - c0))) {
        continue;
      }
      const int sr = std::clamp(r1 - r0, -1, 1);
      const int sc = std::clamp(c1 - c0, -1, 1);
      for (int i = 0; i < 3; ++i) {
        const int r = r0 + sr * (i + 1), c = c0 + sc * (i + 1);
        if (r == r1 && c == c1) break;
        t.between[from][to][i] = static_cast<int8_t>(c * 5 + r);
      }
    }
  }

  // The zobrist tables: jax.random.randint with dtype uint32 and bounds
  // [0, 2**31 - 1) draws the same words as the int32 randint (same bits,
  // same span arithmetic, and the values fit both types).
  constexpr int32_t kMax = 2147483647;  // 2**31 - 1
  auto [key, subkey] = jax_random::Split2(jax_random::PRNGKey(238942));
  const std::vector<int32_t> board =
      jax_random::Randint(subkey, 25 * 13 * 2, 0, kMax);
  std::tie(key, subkey) = jax_random::Split2(key);
  const std::vector<int32_t> side = jax_random::Randint(subkey, 2, 0, kMax);
  for (int i = 0; i < 25; ++i) {
    for (int p = 0; p < 13; ++p) {
      for (int w = 0; w < 2; ++w) {
        t.zobrist_board[i][p][w] =
            static_cast<uint32_t>(board[(i * 13 + p) * 2 + w]);
      }
    }
  }
  t.zobrist_side = {static_cast<uint32_t>(side[0]),
                    static_cast<uint32_t>(side[1])};
  return t;
}

// Built once (thread-safe static initialization), at the first env.
inline const Tables& GetTables() {
  static const Tables tables = BuildTables();
  return tables;
}

// Action._from_label: from = label // 49, to = TO_MAP[from, plane] (-1
// when off the board), underpromotion = plane // 3 for planes < 9.
struct Action {
  int from = -1;
  int to = -1;
  int underpromotion = -1;  // 0 rook, 1 bishop, 2 knight
};

inline Action ActionFromLabel(int label) {
  const int from = FloorDiv(label, kNumPlanes);
  const int plane = FloorMod(label, kNumPlanes);
  return {from, GetTables().to_map[GatherIndex(from, 25)][plane],
          plane >= 9 ? -1 : plane / 3};
}

// Action._to_label: from * 49 + PLANE_MAP[from, to].
inline int ActionToLabel(int from, int to) {
  return from * kNumPlanes +
         GetTables().plane_map[GatherIndex(from, 25)][GatherIndex(to, 25)];
}

// _flip's board: mirror the ranks and negate.
inline Board FlipBoard(const Board& b) {
  Board f;
  for (int c = 0; c < 5; ++c) {
    for (int r = 0; r < 5; ++r) {
      f[c * 5 + r] = static_cast<int8_t>(-b[c * 5 + 4 - r]);
    }
  }
  return f;
}

// _flip_pos: -1 stays -1.
inline int FlipPos(int x) {
  return x == -1 ? x : FloorDiv(x, 5) * 5 + (4 - FloorMod(x, 5));
}

// _is_pseudo_legal: the piece on `from` (mine, or an empty square, which
// has no moves) can move to `to` on this board, pawns capturing
// diagonally only.
inline bool IsPseudoLegal(const Board& b, int from, int to) {
  const Tables& t = GetTables();
  const int piece = b[GatherIndex(from, 25)];
  const int target = b[GatherIndex(to, 25)];
  bool ok = piece >= 0 && target <= 0;
  bool reaches = false;
  for (int d : t.can_move[GatherIndex(piece, 7)][GatherIndex(from, 25)]) {
    reaches |= d == to;
  }
  ok &= reaches;
  for (int i : t.between[GatherIndex(from, 25)][GatherIndex(to, 25)]) {
    ok &= i < 0 || b[i] == kEmpty;
  }
  const bool same_file = FloorDiv(to, 5) == FloorDiv(from, 5);
  ok &= !(piece == kPawn && same_file && target < 0);
  ok &= !(piece == kPawn && !same_file && target >= 0);
  return to >= 0 && ok;
}

// _is_checking: whether the side to move can capture the opponent's king
// (king_pos = argmin(|board + KING|), the first minimum).
inline bool IsChecking(const Board& b) {
  int king = 0;
  for (int i = 1; i < 25; ++i) {
    if (std::abs(b[i] + kKing) < std::abs(b[king] + kKing)) king = i;
  }
  for (int from : GetTables().can_move_any[king]) {
    if (from != -1 && IsPseudoLegal(b, from, king)) return true;
  }
  return false;
}

// The board part of _apply_move: the move as pgx plays it, with no
// legality check.
//
// pgx's queen promotion reads `piece == PAWN & (from % 5 == 3) &
// (underpromotion < 0)`, which Python parses as `piece == (PAWN & ... &
// ...)`: a pawn from rank 3 with no underpromotion becomes a queen, as
// meant, but so does an empty square "moved" by an illegal label from any
// other square (or with an underpromotion, which then overrides it). Kept.
inline void ApplyMoveToBoard(Board& b, const Action& a) {
  int piece = b[GatherIndex(a.from, 25)];
  const int pawn_from_rank_3 =
      FloorMod(a.from, 5) == 3 && a.underpromotion < 0 ? kPawn : 0;
  if (piece == pawn_from_rank_3) piece = kQueen;
  if (a.underpromotion >= 0) {
    const int kinds[3] = {kRook, kBishop, kKnight};
    piece = kinds[GatherIndex(a.underpromotion, 3)];
  }
  const int from = ScatterIndex(a.from, 25);
  if (from >= 0) b[from] = kEmpty;
  const int to = ScatterIndex(a.to, 25);
  if (to >= 0) b[to] = static_cast<int8_t>(piece);
}

// has_insufficient_pieces (OpenSpiel's rule): king vs king, king + minor
// piece vs king, or kings and bishops all on one color of square.
inline bool HasInsufficientPieces(const Board& b) {
  int num_pieces = 0, num_pawn_rook_queen = -2, num_bishop = 0;
  int num_bishop_on_black = 0;
  for (int i = 0; i < 25; ++i) {
    const int p = std::abs(b[i]);
    num_pieces += b[i] != kEmpty;
    num_pawn_rook_queen += p >= kRook || p == kPawn;  // less the two kings
    num_bishop += p == kBishop;
    num_bishop_on_black += p == kBishop && i % 2 == 0;  // arange(0, 25, 2)
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
// pgx walks the squares of _possible_piece_positions[0], a list of my
// pieces' squares it updates move by move (it never drops a captured
// piece's square, and the argmin update can repeat one). After legal
// moves every piece of mine is on it and the other entries hold no piece
// of mine, and the mask is a union over the entries, so walking every
// square gives the same mask. (After an illegal move the list can lose a
// piece, but that state's mask, rewards and end are overwritten.)
inline bool LegalActionMask(const Board& b, bool* mask) {
  const Tables& t = GetTables();
  std::memset(mask, 0, kNumLabels);
  for (int from = 0; from < 25; ++from) {
    const int piece = b[from];
    if (piece <= 0) continue;
    for (int to : t.can_move[piece][from]) {
      if (to < 0) break;  // -1 padding at the end
      if (!IsPseudoLegal(b, from, to)) continue;
      // is_legal: after the move the opponent cannot capture my king.
      Board next = b;
      ApplyMoveToBoard(next, Action{from, to, -1});
      if (IsChecking(FlipBoard(next))) continue;
      const int at = ScatterIndex(ActionToLabel(from, to), kNumLabels + 1);
      if (at >= 0 && at < kNumLabels) mask[at] = true;
    }
  }
  // legal_underpromotions: a pawn on rank 3 may underpromote wherever its
  // queen promotion (the same from and to) is legal.
  bool promotions[5 * 9] = {};
  for (int f = 0; f < 5; ++f) {
    const int from = f * 5 + 3;
    if (b[from] != kPawn) continue;
    for (int plane = 0; plane < 9; ++plane) {
      const int to = t.to_map[from][plane];
      if (to >= 0 && mask[ActionToLabel(from, to)]) {
        promotions[f * 9 + plane] = true;
      }
    }
  }
  for (int f = 0; f < 5; ++f) {
    for (int plane = 0; plane < 9; ++plane) {
      if (promotions[f * 9 + plane])
        mask[(f * 5 + 3) * kNumPlanes + plane] = true;
    }
  }
  return std::any_of(mask, mask + kNumLabels, [](bool v) { return v; });
}

// _zobrist_hash: from white's side of the board, with ZOBRIST_SIDE when
// black is to move.
inline Hash ZobristHash(const Board& board, int turn) {
  const Tables& t = GetTables();
  Hash h = turn == 0 ? Hash{0, 0} : t.zobrist_side;
  const Board b = turn == 0 ? board : FlipBoard(board);
  for (int i = 0; i < 25; ++i) {
    const Hash& z = t.zobrist_board[i][b[i] + 6];
    h[0] ^= z[0];
    h[1] ^= z[1];
  }
  return h;
}

}  // namespace gardner_chess

class GardnerChess {
 public:
  static constexpr int kNumPlayers = 2;
  static constexpr int kNumActions = gardner_chess::kNumLabels;
  static constexpr int kHistory = gardner_chess::kMaxTerminationSteps + 1;
  using ObsType = float;
  static Config DefaultConfig() { return {{"max_episode_steps", int64_t{0}}}; }
  static void CheckConfig(const Config&) {}
  static std::vector<int64_t> ObsShape(const Config&) {
    return {5, 5, gardner_chess::kObsPlanes};
  }
  static std::vector<double> ObsLow() { return {0.0}; }
  static std::vector<double> ObsHigh() { return {1.0}; }
  std::size_t ObsSize() const { return 25 * gardner_chess::kObsPlanes; }

  // Builds the tables (and checks them) at the first env.
  explicit GardnerChess(const Config&) { InitHash(); }

  // GardnerChess._init: State(current_player=bernoulli(key)).
  void Init(jax_random::Key key) {
    const gardner_chess::Tables& t = gardner_chess::GetTables();
    current_player = jax_random::Bernoulli(key, 0.5f) ? 1 : 0;
    turn_ = 0;
    board_ = t.init_board;
    halfmove_count_ = 0;
    fullmove_count_ = 1;
    zobrist_hash_ = InitHash();
    for (auto& b : board_history_) b.fill(0);
    board_history_[0] = t.init_board;
    num_hashes_ = 0;
    PushHash(zobrist_hash_);
    legal_action_mask = InitMask();
    terminated = false;
    truncated = false;
    rewards.fill(0.0f);
    step_count = 0;
  }

  // GardnerChess._step: _step (_update_zobrist_hash, _apply_move, _flip,
  // _update_history, _legal_action_mask, _check_termination), then the
  // 256-step limit on State._step_count (the adapter's step_count).
  void Step(int action, jax_random::Key) {
    using namespace gardner_chess;
    const Action a = ActionFromLabel(action);
    UpdateZobristHash(a);
    // _apply_move: the counters, then the board.
    const int piece = board_[GatherIndex(a.from, 25)];
    const bool captured = board_[GatherIndex(a.to, 25)] < 0;
    halfmove_count_ = captured || piece == kPawn ? 0 : halfmove_count_ + 1;
    fullmove_count_ += turn_ == 1 ? 1 : 0;
    ApplyMoveToBoard(board_, a);
    // _flip.
    current_player = (current_player + 1) % 2;
    board_ = FlipBoard(board_);
    turn_ = (turn_ + 1) % 2;
    // _update_history: the newest board first; the boards are kept
    // white's way up (see board_history_).
    std::copy_backward(board_history_.begin(), board_history_.end() - 1,
                       board_history_.end());
    board_history_[0] = turn_ == 0 ? board_ : FlipBoard(board_);
    PushHash(zobrist_hash_);
    const bool any_legal = LegalActionMask(board_, legal_action_mask.data());
    // _check_termination. rep counts the hash over all 257 rows of
    // hash_history, the unfilled (0, 0) rows included.
    const int rep = RowsEqual(num_hashes_ - 1) - 1;
    terminated = !any_legal || halfmove_count_ >= 100 ||
                 HasInsufficientPieces(board_) || rep >= 2;
    // Checkmate (no legal move, and the opponent could take my king) is a
    // loss for the player to move.
    rewards.fill(0.0f);
    if (!any_legal && IsChecking(FlipBoard(board_))) {
      rewards.fill(1.0f);
      rewards[current_player] = -1.0f;
    }
    terminated |= kMaxTerminationSteps <= step_count;
  }

  // _observe(state, player): the state _flip-ped for the player not to
  // move; for each of the 8 last positions (newest first; zeros before the
  // first) 6 planes of my pieces, 6 of the opponent's and two repetition
  // planes (rep == 0, rep >= 1: how many other rows hold the same hash);
  // then the color, _step_count / 256 and halfmove_count / 100. The 5x5
  // planes are rot90'd: row = 4 - rank, column = file.
  void Observe(int player, float* out) const {
    const int color = player == current_player ? turn_ : 1 - turn_;
    constexpr int kP = gardner_chess::kObsPlanes;
    std::fill(out, out + 25 * kP, 0.0f);
    for (int i = 0; i < 8; ++i) {
      const gardner_chess::Board& h = board_history_[i];  // white's way up
      const int k = num_hashes_ - 1 - i;                  // hash_history[i]
      int rep = 0;
      if (k >= 0 && !(hashes_[k][0] == 0 && hashes_[k][1] == 0)) {
        rep = hash_count_[k] - 1;
      }
      for (int row = 0; row < 5; ++row) {
        for (int col = 0; col < 5; ++col) {
          // The square at (row, col) in `color`'s view: black's view
          // mirrors the ranks and negates.
          const int v = color == 0 ? h[col * 5 + 4 - row] : -h[col * 5 + row];
          float* o = out + (row * 5 + col) * kP + i * 14;
          if (v > 0) o[v - 1] = 1.0f;
          if (v < 0) o[6 - v - 1] = 1.0f;
          o[12] = rep == 0 ? 1.0f : 0.0f;
          o[13] = rep >= 1 ? 1.0f : 0.0f;
        }
      }
    }
    // halfmove_count / 100.0: XLA's CPU compiler turns the division by a
    // constant into a multiplication by its float32 reciprocal.
    const float no_progress =
        static_cast<float>(halfmove_count_) * (1.0f / 100.0f);
    for (int sq = 0; sq < 25; ++sq) {
      float* o = out + sq * kP + 112;
      o[0] = static_cast<float>(color);
      o[1] = static_cast<float>(step_count) / 256.0f;
      o[2] = no_progress;
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
                            legal_action_mask, step_count, turn_, board_,
                            halfmove_count_, fullmove_count_, zobrist_hash_,
                            board_history_, hashes_, hash_count_, num_hashes_)

 private:
  // INIT_ZOBRIST_HASH, pgx's literal for the initial _zobrist_hash and
  // hash_history[0]. It is not the hash of the initial position (pgx's
  // _zobrist_hash(State()) is [2037015282, 1099498372], its docstring
  // notwithstanding); the hash is then updated move by move from it, so
  // every later hash is offset alike. Kept as pgx has it. That hash of
  // the initial position checks our zobrist tables once.
  static gardner_chess::Hash InitHash() {
    static const gardner_chess::Hash hash = [] {
      const gardner_chess::Board& b = gardner_chess::GetTables().init_board;
      if (gardner_chess::ZobristHash(b, 0) !=
          gardner_chess::Hash{2037015282u, 1099498372u}) {
        throw std::logic_error(
            "gardner_chess: zobrist tables differ from pgx's");
      }
      return gardner_chess::Hash{2025569903u, 1172890342u};
    }();
    return hash;
  }
  // INIT_LEGAL_ACTION_MASK (pgx lists its 7 labels): the legal moves of
  // the initial position.
  static const std::array<bool, kNumActions>& InitMask() {
    static const std::array<bool, kNumActions> mask = [] {
      std::array<bool, kNumActions> m{};
      gardner_chess::LegalActionMask(gardner_chess::GetTables().init_board,
                                     m.data());
      return m;
    }();
    return mask;
  }

  // _update_zobrist_hash, before the move: xor out the moving piece and
  // in an empty square at `from`, xor out what stood on `to` and in the
  // moving piece (an underpromotion's new piece; a queen promotion keeps
  // the pawn's), and the side. Squares and pieces are white's way up.
  void UpdateZobristHash(const gardner_chess::Action& a) {
    using namespace gardner_chess;
    const Tables& t = GetTables();
    auto white = [&](int v) { return turn_ == 0 ? v + 6 : -v + 6; };
    int source = white(board_[GatherIndex(a.from, 25)]);
    const int destination = white(board_[GatherIndex(a.to, 25)]);
    const int from = GatherIndex(turn_ == 0 ? a.from : FlipPos(a.from), 25);
    const int to = GatherIndex(turn_ == 0 ? a.to : FlipPos(a.to), 25);
    auto xor_in = [&](const Hash& z) {
      zobrist_hash_[0] ^= z[0];
      zobrist_hash_[1] ^= z[1];
    };
    xor_in(t.zobrist_board[from][GatherIndex(source, 13)]);
    xor_in(t.zobrist_board[from][6]);
    xor_in(t.zobrist_board[to][GatherIndex(destination, 13)]);
    if (a.underpromotion >= 0) {
      source = turn_ == 0 ? source + 3 - a.underpromotion
                          : source - (3 - a.underpromotion);
    }
    xor_in(t.zobrist_board[to][GatherIndex(source, 13)]);
    xor_in(t.zobrist_side);
  }

  // How many of hash_history's 257 rows equal hashes_[k] (the rows not yet
  // filled are (0, 0)).
  int RowsEqual(int k) const {
    const bool zero = hashes_[k][0] == 0 && hashes_[k][1] == 0;
    return hash_count_[k] + (zero ? kHistory - num_hashes_ : 0);
  }

  // Appends a hash to hash_history, keeping for every filled row the
  // number of filled rows holding the same hash.
  void PushHash(const gardner_chess::Hash& h) {
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

  int turn_ = 0;  // the color to move (0 white, 1 black)
  gardner_chess::Board board_{};
  int32_t halfmove_count_ = 0;  // moves since the last capture or pawn move
  int32_t fullmove_count_ = 1;  // +1 after every black move
  gardner_chess::Hash zobrist_hash_{};
  // State._board_history, newest first, each board white's way up (pgx
  // flips all of them with the board after every move, so they are always
  // from the side to move; Observe flips them on the fly).
  std::array<gardner_chess::Board, 8> board_history_{};
  // State._hash_history in order of play: _hash_history[i] (newest first)
  // is hashes_[num_hashes_ - 1 - i]; rows past num_hashes_ are (0, 0). A
  // game ends by step 256, so at most 257 rows are filled.
  std::array<gardner_chess::Hash, kHistory> hashes_{};
  std::array<int, kHistory> hash_count_{};
  int num_hashes_ = 0;
};

}  // namespace envpool_lite::pgx
