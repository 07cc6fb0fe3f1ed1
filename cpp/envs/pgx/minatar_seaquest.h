// pgx's MinAtar Seaquest (pgx/minatar/seaquest.py, "minatar-seaquest"):
// the player's submarine (rows 0..8; row 0 is the surface) shoots enemy
// fish and subs (1 point each) crossing rows 1..8, avoids them and the
// enemy subs' bullets, and rescues divers. Oxygen runs down under water;
// surfacing with divers refills it (six divers also score the oxygen
// left), surfacing with none, running out of oxygen or being hit ends the
// game. One player; the observation is 10x10x10 bools: sub, sub's back,
// friendly bullets, trails, enemy bullets, fish, enemy subs, oxygen gauge,
// divers rescued, divers.
//
// Objects live in fixed tables whose empty rows are all -1, kept packed at
// the front (_remove_i shifts later rows up): friendly bullets (x, y,
// moving right), enemy bullets (x, y, moving right), fish (x, y, moving
// right, move timer), enemy subs (x, y, moving right, move timer, shot
// timer) and divers (x, y, moving right, move timer). pgx's quirks are
// kept, as the comments say where (find_ix, _remove_out_of_bound, the
// diver count after six divers, the observation's negative indices).
//
// Actions: all six (0 noop, 1 left, 2 up, 3 right, 4 down, 5 fire): the
// minimal set is the full set, so use_minimal_action_set changes nothing.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <vector>

#include "core/config.h"
#include "core/env_state.h"
#include "envs/pgx/minatar_utils.h"
#include "refkit/jax/random.h"

namespace envpool_lite::pgx {

class MinAtarSeaquest {
 public:
  static constexpr int kNumPlayers = 1;
  static constexpr int kNumActions = minatar::kNumFullActions;
  // MinAtarSeaquest.minimal_action_set (full action ids).
  static constexpr std::array<int32_t, 6> kMinimalActionSet = {0, 1, 2,
                                                               3, 4, 5};
  static constexpr int kChannels = 10;
  using ObsType = bool;
  static Config DefaultConfig() { return minatar::DefaultConfig(); }
  static void CheckConfig(const Config& config) {
    minatar::CheckConfig(config);
  }
  static int NumActions(const Config& config) {
    return minatar::NumActions(config, kMinimalActionSet);
  }
  static std::vector<int64_t> ObsShape(const Config&) {
    return {10, 10, kChannels};
  }
  static std::vector<double> ObsLow() { return {0.0}; }
  static std::vector<double> ObsHigh() { return {1.0}; }
  std::size_t ObsSize() const { return 10 * 10 * kChannels; }

  explicit MinAtarSeaquest(const Config& config)
      : use_minimal_action_set_(config.GetBool("use_minimal_action_set")),
        sticky_action_prob_(minatar::StickyActionProb(config)) {}

  // _init: the State defaults (the key is not used).
  void Init(jax_random::Key) {
    oxygen_ = kMaxOxygen;
    diver_count_ = 0;
    sub_x_ = 5;
    sub_y_ = 0;
    sub_or_ = false;
    for (auto& row : f_bullets_) row.fill(-1);
    for (auto& row : e_bullets_) row.fill(-1);
    for (auto& row : e_fish_) row.fill(-1);
    for (auto& row : e_subs_) row.fill(-1);
    for (auto& row : divers_) row.fill(-1);
    e_spawn_speed_ = kInitSpawnSpeed;
    e_spawn_timer_ = kInitSpawnSpeed;
    d_spawn_timer_ = kDiverSpawnSpeed;
    move_speed_ = kInitMoveInterval;
    ramp_index_ = 0;
    shot_timer_ = 0;
    surface_ = true;
    terminal_ = false;
    last_action_ = 0;
    current_player = 0;
    terminated = false;
    truncated = false;
    rewards.fill(0.0f);
    legal_action_mask.fill(true);
    step_count = 0;
  }

  // MinAtarSeaquest._step (the action to its full id: the minimal set
  // maps each index to itself) then _step(state, action, key): rngs =
  // split(key, 6); the sticky action from rngs[0]; enemy_lr, is_sub and
  // enemy_y from rngs[1..3], diver_lr and diver_y from rngs[4..5] (pgx
  // draws all five every step; they are used only when the enemy or diver
  // spawn timer is 0, so drawn here only then).
  void Step(int action, jax_random::Key key) {
    legal_action_mask.fill(true);
    const int32_t full =
        minatar::FullAction(use_minimal_action_set_, kMinimalActionSet, action);
    const int32_t a = minatar::StickyAction(
        minatar::SplitAt(key, 0), sticky_action_prob_, last_action_, full);
    StepDet(a, key);
  }

  // _observe: pgx scatters into an 11x11 board and crops it to 10x10, so
  // an index of -1 (an empty row's) lands on the cropped 11th row/column;
  // jnp normalizes any negative index by adding 11, and drops an update
  // whose index is still out of [0, 11) (see ObsIndex).
  void Observe(int, bool* out) const {
    std::memset(out, 0, ObsSize());
    auto set = [out](int32_t y, int32_t x, int c) {
      y = ObsIndex(y);
      x = ObsIndex(x);
      if (y >= 0 && x >= 0) out[(y * 10 + x) * kChannels + c] = true;
    };
    set(sub_y_, sub_x_, 0);
    set(sub_y_, sub_or_ ? sub_x_ - 1 : sub_x_ + 1, 1);
    // The oxygen gauge (row 9, channel 7): oxygen * 10 // MAX_OXYGEN cells,
    // 9 when the oxygen is negative ("hotfix to align to original
    // minatar").
    const int32_t gauge =
        oxygen_ < 0 ? 9 : minatar::FloorDiv(oxygen_ * 10, kMaxOxygen);
    // The divers rescued (row 9, channel 8): columns 9 - count .. 8.
    for (int32_t x = 0; x < 10; ++x) {
      if (x < gauge) out[(9 * 10 + x) * kChannels + 7] = true;
      if (9 - diver_count_ <= x && x < 9) {
        out[(9 * 10 + x) * kChannels + 8] = true;
      }
    }
    for (const auto& b : f_bullets_) set(b[1], b[0], 2);
    for (const auto& b : e_bullets_) set(b[1], b[0], 4);
    // Each trail is one column behind: x + [1, -1][moving right] (the -1
    // of an empty row gathers index 1 of [1, -1], as jnp wraps it).
    auto back = [](int32_t x, int32_t right) {
      return x + (right == 0 ? 1 : -1);
    };
    for (const auto& f : e_fish_) set(f[1], f[0], 5);
    for (const auto& f : e_fish_) set(f[1], back(f[0], f[2]), 3);
    for (const auto& s : e_subs_) set(s[1], s[0], 6);
    for (const auto& s : e_subs_) set(s[1], back(s[0], s[2]), 3);
    for (const auto& d : divers_) set(d[1], d[0], 9);
    for (const auto& d : divers_) set(d[1], back(d[0], d[2]), 3);
  }

  int current_player = 0;
  bool terminated = false;
  bool truncated = false;
  std::array<float, kNumPlayers> rewards{};
  std::array<bool, kNumActions> legal_action_mask{};
  int32_t step_count = 0;
  // get_state: everything Init and Step change (not the options' values).
  ENVPOOL_LITE_STATE_FIELDS(current_player, terminated, truncated, rewards,
                            legal_action_mask, step_count, oxygen_,
                            diver_count_, sub_x_, sub_y_, sub_or_, f_bullets_,
                            e_bullets_, e_fish_, e_subs_, divers_,
                            e_spawn_speed_, e_spawn_timer_, d_spawn_timer_,
                            move_speed_, ramp_index_, shot_timer_, surface_,
                            terminal_, last_action_)

 private:
  static constexpr int32_t kRampInterval = 100;  // unused by pgx as well
  static constexpr int32_t kMaxOxygen = 200;
  static constexpr int32_t kInitSpawnSpeed = 20;
  static constexpr int32_t kDiverSpawnSpeed = 30;
  static constexpr int32_t kInitMoveInterval = 5;
  static constexpr int32_t kShotCoolDown = 5;
  static constexpr int32_t kEnemyShotInterval = 10;
  static constexpr int32_t kDiverMoveInterval = 5;

  template <std::size_t W>
  using Row = std::array<int32_t, W>;
  template <std::size_t N, std::size_t W>
  using Table = std::array<Row<W>, N>;

  // An index of _observe's 11x11 scatter, cropped to 10x10: -1 if the
  // update is dropped (out of range after jnp's negative wrap) or cropped.
  static int32_t ObsIndex(int32_t v) {
    if (v < 0) v += 11;
    return v >= 0 && v < 10 ? v : -1;
  }

  // find_ix: (arr[:, 0] == -1).argmax(), the first row whose x is -1, or
  // 0 when there is none (argmax of all-false). An enemy bullet that has
  // moved to x = -1 counts as empty here, as in pgx.
  template <std::size_t N, std::size_t W>
  static int FindIx(const Table<N, W>& arr) {
    for (std::size_t i = 0; i < N; ++i) {
      if (arr[i][0] == -1) return static_cast<int>(i);
    }
    return 0;
  }

  // _remove_i: rows after i move up one, the last row becomes all -1.
  template <std::size_t N, std::size_t W>
  static void RemoveI(Table<N, W>& arr, int i) {
    for (int k = i; k + 1 < static_cast<int>(N); ++k) arr[k] = arr[k + 1];
    arr[N - 1].fill(-1);
  }

  template <std::size_t W>
  static bool IsFilled(const Row<W>& row) {  // _is_filled
    for (int32_t v : row) {
      if (v != -1) return true;
    }
    return false;
  }
  template <std::size_t W>
  static bool IsOut(const Row<W>& row) {  // _is_out
    return row[0] < 0 || row[0] > 9;
  }
  template <std::size_t W>
  static bool IsHit(const Row<W>& row, int32_t x, int32_t y) {  // _is_hit
    return row[0] == x && row[1] == y;
  }

  // _step_det, line by line; `key` is the step key, split for _step's
  // spawn draws when a spawn happens.
  void StepDet(int32_t action, jax_random::Key key) {
    float r = 0.0f;
    // Spawn enemy if timer is up.
    if (e_spawn_timer_ == 0) {
      const bool enemy_lr = minatar::ChoiceTrueFalse(minatar::SplitAt(key, 1));
      const bool is_sub = minatar::ChoiceOneThirdTrue(minatar::SplitAt(key, 2));
      // choice(rngs[3], jnp.arange(1, 9)).
      const int32_t enemy_y =
          1 + jax_random::Randint(minatar::SplitAt(key, 3), 0, 8);
      SpawnEnemy(enemy_lr, is_sub, enemy_y);
      e_spawn_timer_ = e_spawn_speed_;
    }
    // Spawn diver if timer is up.
    if (d_spawn_timer_ == 0) {
      const bool diver_lr = minatar::ChoiceTrueFalse(minatar::SplitAt(key, 4));
      const int32_t diver_y =
          1 + jax_random::Randint(minatar::SplitAt(key, 5), 0, 8);
      SpawnDiver(diver_lr, diver_y);
      d_spawn_timer_ = kDiverSpawnSpeed;
    }
    ResolveAction(action);
    UpdateFriendlyBullets(r);
    UpdateDivers();
    UpdateEnemySubs(r);
    UpdateEnemyBullets();
    UpdateEnemyFish(r);
    // Update various timers.
    if (e_spawn_timer_ > 0) --e_spawn_timer_;
    if (d_spawn_timer_ != 0) --d_spawn_timer_;
    if (shot_timer_ > 0) --shot_timer_;
    terminal_ |= oxygen_ < 0;
    const bool was_surface = surface_;  // pgx's tmp
    if (sub_y_ > 0) {
      --oxygen_;
      surface_ = false;
    }
    const bool surfacing = sub_y_ <= 0 && !was_surface;
    if (surfacing && diver_count_ == 0) terminal_ = true;
    if (surfacing && diver_count_ != 0) {
      surface_ = true;
      r += static_cast<float>(Surface());
    }
    last_action_ = action;
    rewards[0] = r;
    terminated = terminal_;
  }

  // _resolve_action: fire into the first free bullet slot (find_ix), then
  // move (left/right also turn the sub).
  void ResolveAction(int32_t action) {
    if (action == 5 && shot_timer_ == 0) {
      f_bullets_[FindIx(f_bullets_)] = {sub_x_, sub_y_, sub_or_ ? 1 : 0};
      shot_timer_ = kShotCoolDown;
    }
    if (action == 1) {
      sub_x_ = std::max(0, sub_x_ - 1);
      sub_or_ = false;
    }
    if (action == 3) {
      sub_x_ = std::min(9, sub_x_ + 1);
      sub_or_ = true;
    }
    if (action == 2) sub_y_ = std::max(0, sub_y_ - 1);
    if (action == 4) sub_y_ = std::min(8, sub_y_ + 1);
  }

  // _update_by_f_bullets_hit: the first row of `e` on friendly bullet j's
  // cell (jnp.argmax of the hits) is removed together with the bullet.
  template <std::size_t W>
  bool UpdateByFBulletsHit(int j, Table<25, W>& e) {
    for (int k = 0; k < 25; ++k) {
      if (f_bullets_[j][0] == e[k][0] && f_bullets_[j][1] == e[k][1]) {
        RemoveI(f_bullets_, j);
        RemoveI(e, k);
        return true;
      }
    }
    return false;
  }

  // _update_friendly_bullets: bullets 4..0 (fori_loop with j = 5 - i - 1)
  // move one column; one leaving the board is removed, else it hits a fish
  // first or, failing that, an enemy sub (1 point each).
  void UpdateFriendlyBullets(float& r) {
    for (int j = 4; j >= 0; --j) {
      if (!IsFilled(f_bullets_[j])) continue;
      f_bullets_[j][0] += f_bullets_[j][2] != 0 ? 1 : -1;
      if (IsOut(f_bullets_[j])) {
        RemoveI(f_bullets_, j);
        continue;
      }
      const bool fish_removed = UpdateByFBulletsHit(j, e_fish_);
      r += fish_removed ? 1.0f : 0.0f;
      const bool sub_removed =
          fish_removed ? false : UpdateByFBulletsHit(j, e_subs_);
      r += sub_removed ? 1.0f : 0.0f;
    }
  }

  // _update_divers: divers 4..0; one on the sub's cell is rescued (while
  // fewer than 6); else one whose move timer is 0 moves (_update_by_move:
  // timer reloaded, removed when off the board, rescued when it moved onto
  // the sub); else its timer counts down.
  void UpdateDivers() {
    for (int j = 4; j >= 0; --j) {
      auto& d = divers_[j];
      if (!IsFilled(d)) continue;
      if (IsHit(d, sub_x_, sub_y_) && diver_count_ < 6) {
        RemoveI(divers_, j);
        ++diver_count_;
      } else if (d[3] == 0) {
        d[3] = kDiverMoveInterval;
        d[0] += d[2] != 0 ? 1 : -1;
        if (IsOut(d)) {
          RemoveI(divers_, j);
        } else if (IsHit(d, sub_x_, sub_y_) && diver_count_ < 6) {
          RemoveI(divers_, j);
          ++diver_count_;
        }
      } else {
        --d[3];
      }
    }
  }

  // _update_by_hit: the first friendly bullet (jnp.argmax) on row j of e's
  // cell removes both.
  template <std::size_t W>
  bool UpdateByHit(int j, Table<25, W>& e) {
    for (int k = 0; k < 5; ++k) {
      if (e[j][0] == f_bullets_[k][0] && e[j][1] == f_bullets_[k][1]) {
        RemoveI(f_bullets_, k);
        RemoveI(e, j);
        return true;
      }
    }
    return false;
  }

  // _update_enemy_subs: subs 24..0 that are filled (_update_each_filled).
  void UpdateEnemySubs(float& r) {
    for (int j = 24; j >= 0; --j) {
      if (!IsFilled(e_subs_[j])) continue;
      terminal_ |= IsHit(e_subs_[j], sub_x_, sub_y_);
      bool removed = false;
      if (e_subs_[j][3] == 0) {  // _update_sub
        e_subs_[j][3] = move_speed_;
        e_subs_[j][0] += e_subs_[j][2] != 0 ? 1 : -1;
        const bool is_out = IsOut(e_subs_[j]);
        const bool is_hit = IsHit(e_subs_[j], sub_x_, sub_y_);
        if (is_out) RemoveI(e_subs_, j);
        if (!is_out && is_hit) terminal_ = true;
        bool hit_removed = false;
        if (!is_out && !is_hit) hit_removed = UpdateByHit(j, e_subs_);
        r += hit_removed ? 1.0f : 0.0f;
        removed = hit_removed || is_out;
      } else {
        --e_subs_[j][3];
      }
      if (removed) continue;
      // The shot timer: at 0 it reloads and the sub fires from its cell
      // into the first free enemy bullet slot (find_ix).
      if (e_subs_[j][4] == 0) {
        e_subs_[j][4] = kEnemyShotInterval;
        e_bullets_[FindIx(e_bullets_)] = {e_subs_[j][0], e_subs_[j][1],
                                          e_subs_[j][2]};
      } else {
        --e_subs_[j][4];
      }
    }
  }

  // _update_enemy_bullets: ix = find_ix(e_bullets); the bullets before ix
  // hit the sub, move (_step_obj), and hit it again. pgx's
  // _remove_out_of_bound tests x < 0 AND y > 9, which no bullet meets (y
  // stays in 1..8), so bullets are never removed: ported as written.
  void UpdateEnemyBullets() {
    const int ix = FindIx(e_bullets_);
    terminal_ |= Hit(ix);
    for (int i = 0; i < ix; ++i) {  // _step_obj
      e_bullets_[i][0] += e_bullets_[i][2] != 0 ? 1 : -1;
    }
    for (int i = 0; i < ix; ++i) {  // _remove_out_of_bound
      if (e_bullets_[i][0] < 0 && e_bullets_[i][1] > 9) RemoveI(e_bullets_, i);
    }
    terminal_ |= Hit(ix);
  }

  // _hit: any of the first ix enemy bullets on the sub's cell.
  bool Hit(int ix) const {
    for (int i = 0; i < ix; ++i) {
      if (IsHit(e_bullets_[i], sub_x_, sub_y_)) return true;
    }
    return false;
  }

  // _update_enemy_fish: fish 24..0 (the hit test runs on empty rows too,
  // which never match); a filled one whose move timer is 0 moves
  // (_update_fish): removed off the board, ends the game on the sub, or is
  // shot by a friendly bullet on its cell (1 point).
  void UpdateEnemyFish(float& r) {
    for (int j = 24; j >= 0; --j) {
      terminal_ |= IsHit(e_fish_[j], sub_x_, sub_y_);
      if (!IsFilled(e_fish_[j])) continue;
      if (e_fish_[j][3] == 0) {
        e_fish_[j][3] = move_speed_;
        e_fish_[j][0] += e_fish_[j][2] != 0 ? 1 : -1;
        if (IsOut(e_fish_[j])) {
          RemoveI(e_fish_, j);
        } else if (IsHit(e_fish_[j], sub_x_, sub_y_)) {
          terminal_ = true;
        } else {
          r += UpdateByHit(j, e_fish_) ? 1.0f : 0.0f;
        }
      } else {
        --e_fish_[j][3];
      }
    }
  }

  // _surface (called when the sub surfaces with divers): six divers score
  // oxygen * 10 // MAX_OXYGEN and reset the count to 0; the oxygen refills;
  // the count then drops by one (so after six divers it is -1, as in pgx);
  // the difficulty ramps while it can (ramping is always on). Returns the
  // reward.
  int32_t Surface() {
    int32_t r = 0;
    if (diver_count_ == 6) {
      diver_count_ = 0;
      r = minatar::FloorDiv(oxygen_ * 10, kMaxOxygen);
    }
    oxygen_ = kMaxOxygen;
    --diver_count_;
    const bool ramp_update = e_spawn_speed_ > 1 || move_speed_ > 2;
    if (ramp_update) ++ramp_index_;
    if (ramp_update && move_speed_ > 2 && ramp_index_ % 2 != 0) --move_speed_;
    if (ramp_update && e_spawn_speed_ > 1) --e_spawn_speed_;
    return r;
  }

  // _spawn_enemy: a fish or (p = 1/3) a sub on row enemy_y entering from
  // the left (x = 0, moving right) when enemy_lr, else from the right; not
  // spawned when a fish or sub already on that row moves the other way. It
  // takes the first free slot (find_ix; slot 0 when the table is full).
  void SpawnEnemy(bool enemy_lr, bool is_sub, int32_t enemy_y) {
    const int32_t lr = enemy_lr ? 1 : 0;
    const int32_t x = enemy_lr ? 0 : 9;
    bool has_collision = false;
    for (const auto& s : e_subs_)
      has_collision |= s[1] == enemy_y && s[2] != lr;
    for (const auto& f : e_fish_)
      has_collision |= f[1] == enemy_y && f[2] != lr;
    if (has_collision) return;
    if (is_sub) {
      e_subs_[FindIx(e_subs_)] = {x, enemy_y, lr, move_speed_,
                                  kEnemyShotInterval};
    } else {
      e_fish_[FindIx(e_fish_)] = {x, enemy_y, lr, move_speed_};
    }
  }

  // _spawn_diver: a diver on row diver_y from the left (moving right) when
  // diver_lr, else from the right, in the first free slot (find_ix).
  void SpawnDiver(bool diver_lr, int32_t diver_y) {
    divers_[FindIx(divers_)] = {diver_lr ? 0 : 9, diver_y, diver_lr ? 1 : 0,
                                kDiverMoveInterval};
  }

  bool use_minimal_action_set_;
  float sticky_action_prob_;
  int32_t oxygen_ = kMaxOxygen;
  int32_t diver_count_ = 0;
  int32_t sub_x_ = 5;
  int32_t sub_y_ = 0;
  bool sub_or_ = false;
  Table<5, 3> f_bullets_{};
  Table<25, 3> e_bullets_{};
  Table<25, 4> e_fish_{};
  Table<25, 5> e_subs_{};
  Table<5, 4> divers_{};
  int32_t e_spawn_speed_ = kInitSpawnSpeed;
  int32_t e_spawn_timer_ = kInitSpawnSpeed;
  int32_t d_spawn_timer_ = kDiverSpawnSpeed;
  int32_t move_speed_ = kInitMoveInterval;
  int32_t ramp_index_ = 0;
  int32_t shot_timer_ = 0;
  bool surface_ = true;
  bool terminal_ = false;
  int32_t last_action_ = 0;
};

}  // namespace envpool_lite::pgx
