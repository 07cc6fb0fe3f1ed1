// pgx's go (pgx/go.py, pgx/_src/games/go.py): Go on a kSize x kSize board
// (pgx's go_9x9 and go_19x19; EnvPool's Go9x9-v1, Go13x13-v1, Go19x19-v1),
// cells 0..kSize*kSize-1 row by row (cell = x * kSize + y), action kCells
// is the pass. The rules are pgx's:
// - captures: a move removes the adjacent opponent chains whose only
//   liberty it took; suicide is illegal (not in the legal-action mask);
// - ko: a single-stone capture by a stone played into a point surrounded
//   by opponent stones forbids the captured point for the next move (simple
//   ko, `ko`), and a stone move that repeats any earlier whole-board
//   position of the game (positional superko, `is_psk`, by a Zobrist hash)
//   ends the game as a loss for the player who made it;
// - two passes in a row end the game, scored by area (Tromp-Taylor: stones
//   plus the empty regions that touch only one's own stones) with komi for
//   white; the game also ends after max_terminal_steps moves (default
//   kSize*kSize*2).
//
// The board holds chains by id: 0 empty, +id a black chain, -id a white
// one, id = 1 + the smallest cell of the chain when it was merged (pgx's
// "ids of representative stone"). Color 0 is black, who moves first; the
// order of the players is drawn at init: player_order = [0, 1] or [1, 0]
// by bernoulli(key), current_player = player_order[color].
//
// The observation of a player is (kSize, kSize, 2 * history_length + 1)
// bools: for each of the last history_length boards (newest first) the
// player's stones then the opponent's, then a plane of the player's color
// (1 for white).
//
// pgx's arithmetic is reproduced where it shows: the liberty counts are
// int32 sums whose products wrap (the atari test), gathers at index -1
// read the last element (JAX normalizes negative indices), and even an
// illegal move is played as pgx plays it (the adapter then ends the game).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/config.h"
#include "core/env_state.h"
#include "refkit/jax/random.h"

namespace envpool_lite::pgx {

namespace go_detail {

// go.py's ZOBRIST_BOARD = jax.random.randint(PRNGKey(12345), (3, 361, 2),
// 0, 2**31 - 1, uint32) (uint32 and int32 draws are the same words for
// these bounds), indexed [clip(board, -1, 1) wrapped to 0..2][cell][word]:
// row 0 empty, 1 black, 2 white (index -1). Every size uses the first
// size*size cells of the 19x19 table.
inline const std::vector<int32_t>& ZobristBoard() {
  static const std::vector<int32_t> table = jax_random::Randint(
      jax_random::PRNGKey(12345), 3 * 361 * 2, 0, 2147483647);
  return table;
}

}  // namespace go_detail

template <int kSize>
class GoGame {
 public:
  static constexpr int kCells = kSize * kSize;
  static constexpr int kPass = kCells;
  static constexpr int kNumPlayers = 2;
  static constexpr int kNumActions = kCells + 1;
  using ObsType = bool;

  // Options: pgx's Go(size, komi, history_length, max_terminal_steps).
  // max_terminal_steps 0 stands for pgx's None (size * size * 2; pgx's own
  // Go fails on 0, so nothing is lost), as in EnvPool.
  static Config DefaultConfig() {
    return {{"max_episode_steps", int64_t{0}},
            {"size", int64_t{kSize}},
            {"komi", 7.5},
            {"history_length", int64_t{8}},
            {"max_terminal_steps", int64_t{0}}};
  }
  static void CheckConfig(const Config& config) {
    const int64_t size = config.GetInt("size");
    if (size != kSize) {
      throw std::invalid_argument(
          "option 'size' is fixed by the task id: this id is " +
          std::to_string(kSize) + "x" + std::to_string(kSize) + ", got " +
          std::to_string(size) +
          " (use go_9x9 / Go9x9-v1, Go13x13-v1, go_19x19 / Go19x19-v1)");
    }
    config.GetFloat("komi");
    // pgx fails (an empty history) for history_length 0.
    config.GetInt("history_length", 1, 1 << 16);
    config.GetInt("max_terminal_steps", 0, 1 << 24);
  }
  static std::vector<int64_t> ObsShape(const Config& config) {
    CheckConfig(config);
    return {kSize, kSize, 2 * config.GetInt("history_length") + 1};
  }
  static std::vector<double> ObsLow() { return {0.0}; }
  static std::vector<double> ObsHigh() { return {1.0}; }
  std::size_t ObsSize() const {
    return static_cast<std::size_t>(kCells) * (2 * history_length_ + 1);
  }

  explicit GoGame(const Config& config)
      // CheckConfig first (the comma operator): the sizes below rely on it.
      : komi_(
            (CheckConfig(config), static_cast<float>(config.GetFloat("komi")))),
        history_length_(static_cast<int>(config.GetInt("history_length"))),
        max_terminal_steps_(
            config.GetInt("max_terminal_steps") == 0
                ? kCells * 2
                : static_cast<int>(config.GetInt("max_terminal_steps"))),
        board_history_(history_length_),
        hash_history_(max_terminal_steps_) {}

  // Go._init + Game.init: player_order by bernoulli(key), an empty board,
  // a history of "no board" rows (2, which matches no stone), and every
  // action legal.
  void Init(jax_random::Key key) {
    const bool flip = jax_random::Bernoulli(key, 0.5f);
    player_order_ = {flip ? 1 : 0, flip ? 0 : 1};
    board_.fill(0);
    for (auto& row : board_history_) row.fill(2);
    history_head_ = 0;
    game_step_count_ = 0;
    consecutive_pass_count_ = 0;
    ko_ = -1;
    is_psk_ = false;
    current_player = player_order_[0];
    terminated = false;
    truncated = false;
    rewards.fill(0.0f);
    legal_action_mask.fill(true);
    step_count = 0;
  }

  // Go._step: Game.step, then the new player, mask, rewards (by color,
  // reordered by player_order) and end.
  void Step(int action, jax_random::Key) {
    GameStep(action);
    const int color = Color();
    current_player = player_order_[color];
    LegalActionMask();
    terminated = IsTerminal();
    std::array<float, 2> by_color{0.0f, 0.0f};
    if (terminated) by_color = Rewards();
    rewards[0] = by_color[player_order_[0]];
    rewards[1] = by_color[player_order_[1]];
  }

  // Go._observe + Game.observe(state, color): the color of `player` (the
  // color to move if it is the current player), then per history row its
  // stones and the opponent's, then the color plane; channel last.
  void Observe(int player, bool* out) const {
    const int color = player == current_player ? Color() : 1 - Color();
    const int my_sign = color == 0 ? 1 : -1;
    const int channels = 2 * history_length_ + 1;
    for (int j = 0; j < history_length_; ++j) {
      const auto& row = board_history_[(history_head_ + j) % history_length_];
      for (int i = 0; i < kCells; ++i) {
        out[i * channels + 2 * j] = row[i] == my_sign;
        out[i * channels + 2 * j + 1] = row[i] == -my_sign;
      }
    }
    for (int i = 0; i < kCells; ++i) {
      out[i * channels + channels - 1] = color == 1;
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
                            legal_action_mask, step_count, board_,
                            board_history_, history_head_, hash_history_,
                            player_order_, game_step_count_,
                            consecutive_pass_count_, ko_, is_psk_)

 private:
  // Liberty sums per chain id (pgx's _count): for chain id c (index c - 1),
  // over its stones, the number of empty neighbours, the sum of their
  // (cell + 1) and the sum of their (cell + 1)^2, counted once per stone
  // that touches them ("pseudo-liberties").
  struct Counts {
    std::array<int32_t, kCells> num_pseudo;
    std::array<int32_t, kCells> idx_sum;
    std::array<int32_t, kCells> idx_squared_sum;
  };

  int Color() const { return game_step_count_ % 2; }

  // _adj_ixs: the neighbours (x-1, y), (x+1, y), (x, y-1), (x, y+1) of a
  // cell (x = cell / size, y = cell % size), -1 off the board.
  static std::array<int, 4> AdjIxs(int xy) {
    const int x = xy / kSize;
    const int y = xy % kSize;
    return {x > 0 ? xy - kSize : -1, x < kSize - 1 ? xy + kSize : -1,
            y > 0 ? xy - 1 : -1, y < kSize - 1 ? xy + 1 : -1};
  }
  // JAX's gather at index -1 reads the last element.
  static int Wrap(int i) { return i < 0 ? i + kCells : i; }

  // _count, per chain id: pgx sums each cell's neighbour counts over the
  // cells with |board| == id (an O(cells^2) vmap); the same sums
  // accumulated cell by cell.
  void Count(Counts& c) const {
    c.num_pseudo.fill(0);
    c.idx_sum.fill(0);
    c.idx_squared_sum.fill(0);
    for (int i = 0; i < kCells; ++i) {
      if (board_[i] == 0) continue;
      int n = 0, s = 0, sq = 0;
      for (int a : AdjIxs(i)) {
        if (a >= 0 && board_[a] == 0) {
          ++n;
          s += a + 1;
          sq += (a + 1) * (a + 1);
        }
      }
      const int id = std::abs(board_[i]) - 1;
      c.num_pseudo[id] += n;
      c.idx_sum[id] += s;
      c.idx_squared_sum[id] += sq;
    }
  }
  // in_atari / is_atari: idx_sum**2 == idx_squared_sum * num_pseudo in
  // int32 (by Cauchy-Schwarz, exactly one distinct liberty, or none); the
  // products wrap as JAX's int32 products do.
  static bool InAtari(const Counts& c, int id) {
    const uint32_t s = static_cast<uint32_t>(c.idx_sum[id]);
    return s * s == static_cast<uint32_t>(c.idx_squared_sum[id]) *
                        static_cast<uint32_t>(c.num_pseudo[id]);
  }

  // Game.step: clear ko, the stone or the pass, push the board onto the
  // history (jnp.roll by one row, row 0 = clip(board, -1, 1)), record the
  // hash, check superko, advance the turn.
  void GameStep(int action) {
    ko_ = -1;
    if (action < kCells) {
      ApplyAction(action);
    } else {
      ++consecutive_pass_count_;  // _apply_pass
    }
    history_head_ = (history_head_ + history_length_ - 1) % history_length_;
    auto& row = board_history_[history_head_];
    for (int i = 0; i < kCells; ++i) {
      row[i] = static_cast<int8_t>(std::clamp(board_[i], -1, 1));
    }
    // hash_history.at[step_count].set(hash): step_count < max_terminal_steps
    // always (the game ends when it reaches it), so the write lands.
    const uint64_t hash = ComputeHash();
    if (game_step_count_ < max_terminal_steps_) {
      hash_history_[game_step_count_] = hash;
    }
    is_psk_ = IsPsk(hash);
    ++game_step_count_;
  }

  // _apply_action: remove the opponent chains this stone kills, set ko,
  // place the stone, merge it with the adjacent chains of its color.
  void ApplyAction(int action) {
    consecutive_pass_count_ = 0;
    const int my_sign = Color() == 0 ? 1 : -1;
    const int opp_sign = -my_sign;
    const std::array<int, 4> adj = AdjIxs(action);
    std::array<int32_t, 4> adj_ids;
    for (int j = 0; j < 4; ++j) adj_ids[j] = board_[Wrap(adj[j])];
    Counts c;
    Count(c);
    std::array<bool, 4> is_killed;
    bool ko_may_occur = true;
    for (int j = 0; j < 4; ++j) {
      int chain_ix = std::abs(adj_ids[j]) - 1;
      if (chain_ix < 0) chain_ix += kCells;  // index -1: the last
      // single_liberty = idx_squared_sum // idx_sum - 1: for one distinct
      // liberty l (counted k times) that is k*l^2 // (k*l) - 1 = l - 1, the
      // cell. idx_sum is 0 only for a chain without liberties (never on a
      // board reached by play; XLA's 0 // 0 is -1, never a cell).
      const int32_t sum = c.idx_sum[chain_ix];
      const int32_t single_liberty =
          sum == 0 ? -2 : c.idx_squared_sum[chain_ix] / sum - 1;
      is_killed[j] = adj[j] != -1 && adj_ids[j] * opp_sign > 0 &&
                     InAtari(c, chain_ix) && single_liberty == action;
      ko_may_occur &= adj[j] == -1 || board_[Wrap(adj[j])] * opp_sign > 0;
    }
    // num_captured counts (cell, direction) pairs, so a chain killed from
    // two sides counts twice; only "== 1" (one stone) matters.
    int num_captured = 0;
    int ko_ix = 0;  // jnp.nonzero(is_killed, size=1): the first, else 0
    for (int j = 3; j >= 0; --j) {
      if (is_killed[j]) ko_ix = j;
    }
    for (int i = 0; i < kCells; ++i) {
      bool surrounded = false;
      for (int j = 0; j < 4; ++j) {
        if (is_killed[j] && board_[i] == adj_ids[j]) {
          surrounded = true;
          ++num_captured;
        }
      }
      if (surrounded) board_[i] = 0;
    }
    ko_ = ko_may_occur && num_captured == 1 ? adj[ko_ix] : -1;

    board_[action] = (action + 1) * my_sign;

    // Merge: every cell of the new stone's id or of an adjacent chain of
    // my color takes the smallest of those ids.
    const int32_t new_id = board_[action];
    std::array<int32_t, 4> tgt_ids;
    std::array<bool, 4> should_merge;
    int32_t smallest = 9999;
    for (int j = 0; j < 4; ++j) {
      tgt_ids[j] = board_[Wrap(adj[j])];
      should_merge[j] = adj[j] != -1 && tgt_ids[j] * my_sign > 0;
      if (should_merge[j]) smallest = std::min(smallest, std::abs(tgt_ids[j]));
    }
    smallest = std::min(std::abs(new_id), smallest) * my_sign;
    for (int i = 0; i < kCells; ++i) {
      bool merge = board_[i] == new_id;
      for (int j = 0; j < 4; ++j) {
        merge |= should_merge[j] && board_[i] == tgt_ids[j];
      }
      if (merge) board_[i] = smallest;
    }
  }

  // _compute_hash: the xor over cells of ZOBRIST_BOARD[clip(board), cell],
  // the two uint32 words as one uint64.
  uint64_t ComputeHash() const {
    const ZobristTable& zobrist = Zobrist();
    uint64_t hash = 0;
    for (int i = 0; i < kCells; ++i) {
      const int v = board_[i];
      hash ^= zobrist[v == 0 ? 0 : (v > 0 ? 1 : 2)][i];
    }
    return hash;
  }

  // _is_psk: after a stone (no pass), the hash just written appears more
  // than once in hash_history. pgx compares all max_terminal_steps rows,
  // the unwritten ones being 0: a hash of 0 would match them too.
  bool IsPsk(uint64_t hash) const {
    if (consecutive_pass_count_ != 0) return false;
    int same = 0;
    for (int i = 0; i <= game_step_count_; ++i)
      same += hash_history_[i] == hash;
    if (hash == 0) same += max_terminal_steps_ - 1 - game_step_count_;
    return same > 1;
  }

  // Game.legal_action_mask, for the color to move: an empty cell with an
  // on-board neighbour that is empty, an opponent chain in atari (a
  // capture) or one of mine not in atari; not the ko cell; pass always.
  void LegalActionMask() {
    const int my_sign = Color() == 0 ? 1 : -1;
    Counts c;
    Count(c);
    std::array<bool, kCells> ok_neighbour;  // is_empty | can_kill | has_liberty
    for (int i = 0; i < kCells; ++i) {
      const int v = board_[i];
      if (v == 0) {
        ok_neighbour[i] = true;
      } else {
        const bool in_atari = InAtari(c, std::abs(v) - 1);
        ok_neighbour[i] = v * my_sign > 0 ? !in_atari : in_atari;
      }
    }
    for (int i = 0; i < kCells; ++i) {
      bool ok = false;
      if (board_[i] == 0) {
        for (int a : AdjIxs(i)) ok |= a >= 0 && ok_neighbour[a];
      }
      legal_action_mask[i] = ok;
    }
    if (ko_ != -1) legal_action_mask[ko_] = false;
    legal_action_mask[kPass] = true;
  }

  // Game.is_terminal: two passes in a row, superko, or the move limit.
  bool IsTerminal() const {
    return consecutive_pass_count_ >= 2 || is_psk_ ||
           max_terminal_steps_ <= game_step_count_;
  }

  // Game.rewards at a terminal state, by color: black wins if
  // float32(black score) - komi > white score (JAX's int32 - Python float
  // is float32); a superko loses for the player who made it (the color
  // to move now wins).
  std::array<float, 2> Rewards() const {
    std::array<float, 2> r;
    if (is_psk_) {
      r = {-1.0f, -1.0f};
      r[Color()] = 1.0f;
      return r;
    }
    const std::array<int, 2> scores = CountScores();
    const bool black_wins =
        static_cast<float>(scores[0]) - komi_ > static_cast<float>(scores[1]);
    return black_wins ? std::array<float, 2>{1.0f, -1.0f}
                      : std::array<float, 2>{-1.0f, 1.0f};
  }

  // _count_scores: stones of a color plus _count_ji, the empty cells that
  // pgx's fill from the opponent's stones never reaches. That fill takes
  // exactly the empty regions touching an opponent stone, so a color's
  // territory is the empty regions (flood-filled here) that touch none.
  std::array<int, 2> CountScores() const {
    std::array<int, 2> scores{0, 0};
    for (int i = 0; i < kCells; ++i) {
      if (board_[i] > 0) ++scores[0];
      if (board_[i] < 0) ++scores[1];
    }
    std::array<bool, kCells> seen{};
    std::array<int, kCells> stack;
    for (int start = 0; start < kCells; ++start) {
      if (board_[start] != 0 || seen[start]) continue;
      int top = 0, size = 0;
      bool touches_black = false, touches_white = false;
      stack[top++] = start;
      seen[start] = true;
      while (top > 0) {
        const int i = stack[--top];
        ++size;
        for (int a : AdjIxs(i)) {
          if (a < 0) continue;
          if (board_[a] > 0) {
            touches_black = true;
          } else if (board_[a] < 0) {
            touches_white = true;
          } else if (!seen[a]) {
            seen[a] = true;
            stack[top++] = a;
          }
        }
      }
      if (!touches_white) scores[0] += size;
      if (!touches_black) scores[1] += size;
    }
    return scores;
  }

  // ZOBRIST_BOARD's first kCells cells, each entry's two uint32 words as
  // one uint64 (word 0 high): [0 empty, 1 black, 2 white][cell].
  using ZobristTable = std::array<std::array<uint64_t, kCells>, 3>;
  static const ZobristTable& Zobrist() {
    static const ZobristTable table = [] {
      const std::vector<int32_t>& z = go_detail::ZobristBoard();
      ZobristTable t;
      for (int row = 0; row < 3; ++row) {
        for (int i = 0; i < kCells; ++i) {
          const std::size_t at = (static_cast<std::size_t>(row) * 361 + i) * 2;
          t[row][i] = (uint64_t{static_cast<uint32_t>(z[at])} << 32) |
                      static_cast<uint32_t>(z[at + 1]);
        }
      }
      return t;
    }();
    return table;
  }

  float komi_;
  int history_length_;
  int max_terminal_steps_;

  std::array<int32_t, kCells> board_{};
  // board_history as a ring: row j (0 = newest) is
  // board_history_[(history_head_ + j) % history_length_].
  std::vector<std::array<int8_t, kCells>> board_history_;
  int history_head_ = 0;
  std::vector<uint64_t> hash_history_;  // rows 0..game_step_count_ written
  std::array<int, 2> player_order_{0, 1};
  int game_step_count_ = 0;  // GameState.step_count (color = its parity)
  int consecutive_pass_count_ = 0;
  int ko_ = -1;
  bool is_psk_ = false;
};

}  // namespace envpool_lite::pgx
