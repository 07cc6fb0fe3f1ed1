// pgx's MinAtar Asterix (pgx/minatar/asterix.py, "minatar-asterix"): the
// player moves on rows 1..8 of a 10x10 board; enemies and gold spawn at a
// side edge of rows 1..8 (one per row, slot i on row i + 1) and cross the
// board. Touching gold scores 1 and removes it; touching an enemy ends the
// game. Spawning and movement speed up over time (_update_ramp). One
// player; the observation is 10x10x4 bools: player, enemies, trails, gold.
//
// An entity slot is (x, row, moving right, is gold), all 99 (INF) when
// empty.
//
// Actions: the minimal set {0 noop, 1 left, 2 up, 3 right, 4 down}, or
// all six with use_minimal_action_set=False (fire then does nothing); see
// minatar_utils.h.
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

class MinAtarAsterix {
 public:
  static constexpr int kNumPlayers = 1;
  static constexpr int kNumActions = minatar::kNumFullActions;
  // MinAtarAsterix.minimal_action_set (full action ids).
  static constexpr std::array<int32_t, 5> kMinimalActionSet = {0, 1, 2, 3, 4};
  static constexpr int kChannels = 4;
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

  explicit MinAtarAsterix(const Config& config)
      : use_minimal_action_set_(config.GetBool("use_minimal_action_set")),
        sticky_action_prob_(minatar::StickyActionProb(config)) {}

  // _init: the State defaults (the key is not used).
  void Init(jax_random::Key) {
    player_x_ = 5;
    player_y_ = 5;
    for (Entity& e : entities_) e.fill(kInf);
    spawn_speed_ = kInitSpawnSpeed;
    spawn_timer_ = kInitSpawnSpeed;
    move_speed_ = kInitMoveInterval;
    move_timer_ = kInitMoveInterval;
    ramp_timer_ = kRampInterval;
    ramp_index_ = 0;
    terminal_ = false;
    last_action_ = 0;
    current_player = 0;
    terminated = false;
    truncated = false;
    rewards.fill(0.0f);
    legal_action_mask.fill(true);
    step_count = 0;
  }

  // MinAtarAsterix._step (the action to its full id: the minimal set maps
  // each index to itself) then _step(state, action, key): rng0..rng3 =
  // split(key, 4); the sticky action from rng0; lr from rng1, is_gold from
  // rng2, the spawn slot from rng3 (pgx draws the three every step; they
  // are used only when the spawn timer is 0, so drawn here only then).
  void Step(int action, jax_random::Key key) {
    legal_action_mask.fill(true);
    const int32_t full =
        minatar::FullAction(use_minimal_action_set_, kMinimalActionSet, action);
    const int32_t a = minatar::StickyAction(
        minatar::SplitAt(key, 0), sticky_action_prob_, last_action_, full);
    StepDet(a, key);
  }

  // _observe: the player at (y, x) in channel 0; each live entity at
  // (row, x) in channel 3 (gold) or 1 (enemy), its trail one column behind
  // it in channel 2 when on the board.
  void Observe(int, bool* out) const {
    std::memset(out, 0, ObsSize());
    auto at = [out](int y, int x, int c) -> bool& {
      return out[(y * 10 + x) * kChannels + c];
    };
    at(player_y_, player_x_, 0) = true;
    for (const Entity& e : entities_) {
      if (e[0] == kInf) continue;
      at(e[1], e[0], e[3] != 0 ? 3 : 1) = true;
      const int32_t back_x = e[2] != 0 ? e[0] - 1 : e[0] + 1;
      if (back_x >= 0 && back_x <= 9) at(e[1], back_x, 2) = true;
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
                            legal_action_mask, step_count, player_x_, player_y_,
                            entities_, spawn_speed_, spawn_timer_, move_speed_,
                            move_timer_, ramp_timer_, ramp_index_, terminal_,
                            last_action_)

 private:
  using Entity = std::array<int32_t, 4>;  // x, row, moving right, is gold
  static constexpr int32_t kRampInterval = 100;
  static constexpr int32_t kInitSpawnSpeed = 10;
  static constexpr int32_t kInitMoveInterval = 5;
  static constexpr int32_t kInf = 99;

  // _step_det, line by line; `key` is the step key, split for the spawn
  // draws of _step when a spawn happens.
  void StepDet(int32_t action, jax_random::Key key) {
    float r = 0.0f;
    // Spawn enemy if timer is up (_spawn_entity).
    if (spawn_timer_ == 0) {
      SpawnEntity(key);
      spawn_timer_ = spawn_speed_;
    }
    // Resolve player action (jax.lax.switch clamps the index).
    switch (std::clamp(action, 0, 5)) {
      case 1:
        player_x_ = std::max(0, player_x_ - 1);
        break;
      case 2:
        player_y_ = std::max(1, player_y_ - 1);
        break;
      case 3:
        player_x_ = std::min(9, player_x_ + 1);
        break;
      case 4:
        player_y_ = std::min(8, player_y_ + 1);
        break;
      default:
        break;
    }
    // Update entities: collisions with the player where it now stands.
    for (int i = 0; i < 8; ++i) {
      if (entities_[i][0] != kInf) UpdateEntities(i, r);
    }
    // Move the entities when the move timer is up
    // (_update_entities_by_timer).
    if (move_timer_ == 0) {
      for (int i = 0; i < 8; ++i) {
        Entity& e = entities_[i];
        if (e[0] == kInf) continue;
        e[0] += e[2] == 1 ? 1 : -1;
        if (e[0] < 0 || e[0] > 9) e.fill(kInf);
        UpdateEntities(i, r);
      }
      move_timer_ = move_speed_;
    }
    // Update various timers.
    --move_timer_;
    --spawn_timer_;
    UpdateRamp();
    last_action_ = action;
    rewards[0] = r;
    terminated = terminal_;
  }

  // _step's draws and _spawn_entity: a new entity in a random empty slot
  // (slot i on row i + 1), entering from the left (x = 0, moving right)
  // when lr, else from the right (x = 9); gold with probability 1/3. When
  // no slot is empty nothing spawns (pgx then draws slot 0 with p = 1).
  void SpawnEntity(jax_random::Key key) {
    const bool lr = minatar::ChoiceTrueFalse(minatar::SplitAt(key, 1));
    const bool is_gold = minatar::ChoiceOneThirdTrue(minatar::SplitAt(key, 2));
    // slots = 1.0 where a slot is empty; p = slots / slots.sum() in
    // float32; slot = choice(rng3, jnp.arange(8), p=p).
    std::array<float, 8> slots{};
    float sum = 0.0f;
    for (int i = 0; i < 8; ++i) {
      if (entities_[i][0] == kInf) {
        slots[i] = 1.0f;
        sum += 1.0f;
      }
    }
    if (sum == 0.0f) return;  // no empty slot: entities unchanged
    for (float& s : slots) s = s / sum;
    const int32_t slot = minatar::ChoiceIndex(minatar::SplitAt(key, 3), slots);
    entities_[slot] = {lr ? 0 : 9, slot + 1, lr ? 1 : 0, is_gold ? 1 : 0};
  }

  // _update_entities: the entity in slot i on the player's cell is
  // collected (gold: slot emptied, reward 1) or ends the game (enemy).
  void UpdateEntities(int i, float& r) {
    Entity& e = entities_[i];
    if (e[0] == player_x_ && e[1] == player_y_) {
      if (e[3] == 1) {
        e.fill(kInf);
        r += 1.0f;
      } else {
        terminal_ = true;
      }
    }
  }

  // _update_ramp (ramping is always on): while a speed can still drop,
  // count the ramp timer down past 0, then (__update_ramp) lower the spawn
  // speed, and the move speed on odd ramp indices, and reload the timer.
  void UpdateRamp() {
    if (!(spawn_speed_ > 1 || move_speed_ > 1)) return;
    if (ramp_timer_ >= 0) {
      --ramp_timer_;
      return;
    }
    if (move_speed_ > 1 && ramp_index_ % 2 != 0) --move_speed_;
    if (spawn_speed_ > 1) --spawn_speed_;
    ++ramp_index_;
    ramp_timer_ = kRampInterval;
  }

  bool use_minimal_action_set_;
  float sticky_action_prob_;
  int32_t player_x_ = 5;
  int32_t player_y_ = 5;
  std::array<Entity, 8> entities_{};
  int32_t spawn_speed_ = kInitSpawnSpeed;
  int32_t spawn_timer_ = kInitSpawnSpeed;
  int32_t move_speed_ = kInitMoveInterval;
  int32_t move_timer_ = kInitMoveInterval;
  int32_t ramp_timer_ = kRampInterval;
  int32_t ramp_index_ = 0;
  bool terminal_ = false;
  int32_t last_action_ = 0;
};

}  // namespace envpool_lite::pgx
