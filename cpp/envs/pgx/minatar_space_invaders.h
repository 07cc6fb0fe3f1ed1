// pgx's MinAtar Space Invaders (pgx/minatar/space_invaders.py,
// "minatar-space_invaders"): a cannon on row 9 shoots at a 4x6 block of
// aliens (rows 0..3, columns 2..7) that marches sideways, stepping down a
// row at each wall, and fires back from the alien nearest the cannon's
// column. Each alien shot down scores 1; a cleared block comes back faster.
// The game ends when the cannon is hit by a bullet or reached by an alien.
// One player; the observation is 10x10x6 bools: cannon, aliens, aliens
// moving left, aliens moving right, friendly bullets, enemy bullets.
//
// Actions: the minimal set {0 noop, 1 left, 3 right, 5 fire}, or all six
// with use_minimal_action_set=False (up and down then do nothing); see
// minatar_utils.h.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <utility>
#include <vector>

#include "core/config.h"
#include "core/env_state.h"
#include "envs/pgx/minatar_utils.h"
#include "refkit/jax/random.h"

namespace envpool_lite::pgx {

class MinAtarSpaceInvaders {
 public:
  static constexpr int kNumPlayers = 1;
  static constexpr int kNumActions = minatar::kNumFullActions;
  // MinAtarSpaceInvaders.minimal_action_set (full action ids).
  static constexpr std::array<int32_t, 4> kMinimalActionSet = {0, 1, 3, 5};
  static constexpr int kChannels = 6;
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

  explicit MinAtarSpaceInvaders(const Config& config)
      : use_minimal_action_set_(config.GetBool("use_minimal_action_set")),
        sticky_action_prob_(minatar::StickyActionProb(config)) {}

  // _init: the State defaults (the key is not used).
  void Init(jax_random::Key) {
    pos_ = 5;
    f_bullet_map_ = {};
    e_bullet_map_ = {};
    alien_map_ = {};
    FillAliens();
    alien_dir_ = -1;
    enemy_move_interval_ = kEnemyMoveInterval;
    alien_move_timer_ = kEnemyMoveInterval;
    alien_shot_timer_ = kEnemyShotInterval;
    ramp_index_ = 0;
    shot_timer_ = 0;
    terminal_ = false;
    last_action_ = 0;
    current_player = 0;
    terminated = false;
    truncated = false;
    rewards.fill(0.0f);
    legal_action_mask.fill(true);
    step_count = 0;
  }

  // MinAtarSpaceInvaders._step (the action to its full id) then
  // _step(state, action, key): the sticky
  // action is drawn from the step key itself (its only draw).
  void Step(int action, jax_random::Key key) {
    legal_action_mask.fill(true);
    const int32_t full =
        minatar::FullAction(use_minimal_action_set_, kMinimalActionSet, action);
    StepDet(
        minatar::StickyAction(key, sticky_action_prob_, last_action_, full));
  }

  // _observe.
  void Observe(int, bool* out) const {
    std::memset(out, 0, ObsSize());
    auto at = [out](int y, int x, int c) -> bool& {
      return out[(y * 10 + x) * kChannels + c];
    };
    at(9, pos_, 0) = true;
    for (int y = 0; y < 10; ++y) {
      for (int x = 0; x < 10; ++x) {
        const bool alien = alien_map_[y][x];
        at(y, x, 1) = alien;
        at(y, x, 2) = alien_dir_ < 0 && alien;
        at(y, x, 3) = alien_dir_ >= 0 && alien;
        at(y, x, 4) = f_bullet_map_[y][x];
        at(y, x, 5) = e_bullet_map_[y][x];
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
                            legal_action_mask, step_count, pos_, f_bullet_map_,
                            e_bullet_map_, alien_map_, alien_dir_,
                            enemy_move_interval_, alien_move_timer_,
                            alien_shot_timer_, ramp_index_, shot_timer_,
                            terminal_, last_action_)

 private:
  using Map = std::array<std::array<bool, 10>, 10>;  // [row][column]
  static constexpr int32_t kShotCoolDown = 5;
  static constexpr int32_t kEnemyMoveInterval = 12;
  static constexpr int32_t kEnemyShotInterval = 10;

  // alien_map.at[0:4, 2:8].set(True).
  void FillAliens() {
    for (int y = 0; y < 4; ++y) {
      for (int x = 2; x < 8; ++x) alien_map_[y][x] = true;
    }
  }

  static int32_t CountAliens(const Map& m) {
    int32_t n = 0;
    for (const auto& row : m) {
      for (bool b : row) n += b;
    }
    return n;
  }

  // _step_det, line by line.
  void StepDet(int32_t action) {
    float r = 0.0f;
    // _resole_action.
    if (action == 5 && shot_timer_ == 0) {
      f_bullet_map_[9][pos_] = true;
      shot_timer_ = kShotCoolDown;
    }
    if (action == 1) pos_ = std::max(0, pos_ - 1);
    if (action == 3) pos_ = std::min(9, pos_ + 1);
    // Friendly bullets: jnp.roll(-1, axis=0) (up), then row 9 cleared.
    for (int y = 0; y < 9; ++y) f_bullet_map_[y] = f_bullet_map_[y + 1];
    f_bullet_map_[9].fill(false);
    // Enemy bullets: jnp.roll(1, axis=0) (down), then row 0 cleared.
    for (int y = 9; y > 0; --y) e_bullet_map_[y] = e_bullet_map_[y - 1];
    e_bullet_map_[0].fill(false);
    if (e_bullet_map_[9][pos_]) terminal_ = true;
    // Aliens.
    if (alien_map_[9][pos_]) terminal_ = true;
    if (alien_move_timer_ == 0) UpdateAlienByMoveTimer();
    if (alien_shot_timer_ == 0) {
      alien_shot_timer_ = kEnemyShotInterval;
      const auto [j, ix] = NearestAlien();
      e_bullet_map_[j][ix] = true;
    }
    // kill_locations = alien_map & (alien_map == f_bullet_map).
    for (int y = 0; y < 10; ++y) {
      for (int x = 0; x < 10; ++x) {
        if (alien_map_[y][x] && f_bullet_map_[y][x]) {
          r += 1.0f;
          alien_map_[y][x] = false;
          f_bullet_map_[y][x] = false;
        }
      }
    }
    // Update various timers.
    if (shot_timer_ > 0) --shot_timer_;
    --alien_move_timer_;
    --alien_shot_timer_;
    // A cleared block: faster (down to an interval of 6), and refilled.
    if (CountAliens(alien_map_) == 0) {
      if (enemy_move_interval_ > 6) {
        --enemy_move_interval_;
        ++ramp_index_;
      }
      FillAliens();
    }
    last_action_ = action;
    rewards[0] = r;
    terminated = terminal_;
  }

  // _nearest_alien: the columns by distance from the cannon (jnp.argsort
  // is stable: at equal distance the left column first), the first one
  // holding an alien, and that column's lowest alien (row j). pgx's
  // while_loop would never end on an empty map; the map is never empty
  // here (refilled at the end of the step that cleared it).
  std::pair<int, int> NearestAlien() const {
    int ix = pos_;
    for (int d = 0; d < 10; ++d) {
      const int left = pos_ - d;
      const int right = pos_ + d;
      if (left >= 0 && ColumnHasAlien(left)) {
        ix = left;
        break;
      }
      if (d > 0 && right <= 9 && ColumnHasAlien(right)) {
        ix = right;
        break;
      }
    }
    int j = 9;
    while (j > 0 && !alien_map_[j][ix]) --j;
    return {j, ix};
  }

  bool ColumnHasAlien(int x) const {
    for (int y = 0; y < 10; ++y) {
      if (alien_map_[y][x]) return true;
    }
    return false;
  }

  // _update_alien_by_move_timer: the timer reloads to min(aliens left,
  // interval); at a wall (aliens in column 0 moving left, or column 9
  // moving right) the block turns and steps down a row (jnp.roll(1,
  // axis=0): row 9 wraps to row 0, and it ends the game), else it shifts
  // a column (jnp.roll(alien_dir, axis=1), wrapping). Reaching the
  // cannon's cell ends the game.
  void UpdateAlienByMoveTimer() {
    alien_move_timer_ = std::min(CountAliens(alien_map_), enemy_move_interval_);
    bool left_col = false, right_col = false, bottom_row = false;
    for (int i = 0; i < 10; ++i) {
      left_col |= alien_map_[i][0];
      right_col |= alien_map_[i][9];
      bottom_row |= alien_map_[9][i];
    }
    const bool at_wall =
        (left_col && alien_dir_ < 0) || (right_col && alien_dir_ > 0);
    if (at_wall && bottom_row) terminal_ = true;
    if (at_wall) alien_dir_ = -alien_dir_;
    const Map old = alien_map_;
    for (int y = 0; y < 10; ++y) {
      for (int x = 0; x < 10; ++x) {
        if (at_wall) {
          alien_map_[y][x] = old[(y + 9) % 10][x];
        } else {
          // roll by alien_dir (+1 or -1; pgx keeps it +-1): new[x] =
          // old[(x - dir) mod 10].
          alien_map_[y][x] = old[y][((x - alien_dir_) % 10 + 10) % 10];
        }
      }
    }
    if (alien_map_[9][pos_]) terminal_ = true;
  }

  bool use_minimal_action_set_;
  float sticky_action_prob_;
  int32_t pos_ = 5;
  Map f_bullet_map_{};
  Map e_bullet_map_{};
  Map alien_map_{};
  int32_t alien_dir_ = -1;
  int32_t enemy_move_interval_ = kEnemyMoveInterval;
  int32_t alien_move_timer_ = kEnemyMoveInterval;
  int32_t alien_shot_timer_ = kEnemyShotInterval;
  int32_t ramp_index_ = 0;
  int32_t shot_timer_ = 0;
  bool terminal_ = false;
  int32_t last_action_ = 0;
};

}  // namespace envpool_lite::pgx
