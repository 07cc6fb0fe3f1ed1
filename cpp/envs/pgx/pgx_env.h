// PgxEnv<Game>: one pgx game as a pool env (docs/families/pgx.md). pgx
// (pgx 2.6.0, JAX) defines a game as pure functions of a state and a
// jax.random key; Game is a C++ port of one game's state and its _init,
// _step and _observe. This adapter is pgx's core.Env around them:
//
// - Env.step: a step on a legal action calls the game's _step with the
//   step count advanced; an illegal action (outside legal_action_mask) is
//   still played by _step, then ends the game as a loss for the mover
//   (-1, the others +1, or the game's own penalty: pgx's
//   _step_with_illegal_action); a terminal
//   state's legal_action_mask is all ones.
// - The keys (the seed convention): env i of a pool seeded s starts from
//   init(PRNGKey(s + i)). Its key then goes on from PRNGKey(s + i): every
//   step draws `key, step_key = split(key)` and passes step_key to step;
//   every later reset draws `key, init_key = split(key)` and inits from
//   init_key. tests/pgx_alignment.py drives pgx with the same sequence.
//
// Game provides (see tic_tac_toe.h for the smallest one):
// - kNumPlayers, kNumActions, ObsType (bool, float or int32_t);
// - DefaultConfig(), CheckConfig(config), ObsShape(config), ObsLow(),
//   ObsHigh(), ObsSize() (one player's observation);
// - Init(key): pgx's _init; Step(action, key): pgx's _step;
//   Observe(player, out): pgx's _observe(state, player);
// - the fields current_player, terminated, truncated, rewards
//   (std::array<float, kNumPlayers>), legal_action_mask
//   (std::array<bool, kNumActions>) and step_count;
// - optionally kIllegalActionPenalty (pgx's _illegal_action_penalty);
// - optionally NumActions(config), where the options size the action
//   space (MinAtar's use_minimal_action_set): the action space and
//   legal_action_mask hold NumActions(config) actions, at most kNumActions
//   (without it, kNumActions); the mask's entries past it are never read.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "core/env.h"
#include "refkit/jax/random.h"

namespace envpool_lite::pgx {

template <typename Game>
class PgxEnv : public Env {
 public:
  static constexpr int kPlayers = Game::kNumPlayers;
  static constexpr int kActions = Game::kNumActions;
  using Obs = typename Game::ObsType;
  // pgx's _illegal_action_penalty: -1, or the game's own (backgammon's -3).
  static constexpr float kPenalty = [] {
    if constexpr (requires { Game::kIllegalActionPenalty; }) {
      return Game::kIllegalActionPenalty;
    } else {
      return -1.0f;
    }
  }();

  static Config DefaultConfig() { return Game::DefaultConfig(); }

  // The number of actions for these options: Game::NumActions(config)
  // where the game has it, else kActions (the most it may return).
  static int NumActions(const Config& config) {
    if constexpr (requires { Game::NumActions(config); }) {
      return Game::NumActions(config);
    } else {
      return kActions;
    }
  }

  // Observation: (num_players, ...) for a game of several players, every
  // player's view (pgx's observe(state, player_id)); the game's own shape
  // for a game of one. Info: current_player, legal_action_mask.
  static EnvSpec MakeSpec(const Config& config) {
    EnvSpec spec;
    std::vector<int64_t> shape = Game::ObsShape(config);
    if (kPlayers > 1) shape.insert(shape.begin(), kPlayers);
    spec.obs = MakeBox<Obs>("obs", shape, Game::ObsLow(), Game::ObsHigh());
    const int num_actions = NumActions(config);
    spec.action = MakeDiscrete("action", num_actions);
    spec.info.push_back(
        MakeBox<int32_t>("current_player", {}, {-1.0}, {double(kPlayers - 1)}));
    spec.info.push_back(
        MakeBox<bool>("legal_action_mask", {num_actions}, {0.0}, {1.0}));
    spec.num_players = kPlayers;
    spec.max_episode_steps = config.GetInt("max_episode_steps", 0, kMaxSteps);
    Game::CheckConfig(config);
    return spec;
  }

  PgxEnv(const Config& config, uint64_t seed)
      : game_(config), num_actions_(NumActions(config)) {
    Seed(seed);
  }

  void Seed(uint64_t seed) override {
    key_ = jax_random::PRNGKey(static_cast<int64_t>(seed));
    first_init_ = true;
  }

  void Reset() override {
    jax_random::Key init_key = key_;
    if (!first_init_) {
      auto [next, sub] = jax_random::Split2(key_);
      key_ = next;
      init_key = sub;
    }
    first_init_ = false;
    game_.Init(init_key);
    if (game_.terminated) game_.legal_action_mask.fill(true);
  }

  // The pool checks the action against the spec's Discrete(NumActions),
  // so `a` indexes legal_action_mask in range.
  StepResult Step(const void* action) override {
    const int a = *static_cast<const int32_t*>(action);
    auto [next, step_key] = jax_random::Split2(key_);
    key_ = next;
    const bool illegal = !game_.legal_action_mask[a];
    const int mover = game_.current_player;
    StepResult result;
    // The pool resets a finished game before its next step, so pgx's
    // branch for a step on a terminal state (zero rewards) never runs.
    ++game_.step_count;
    game_.Step(a, step_key);
    if (illegal) {  // _step_with_illegal_action
      game_.rewards.fill(-kPenalty * static_cast<float>(kPlayers - 1));
      game_.rewards[mover] = kPenalty;
      game_.terminated = true;
    }
    if (game_.terminated) game_.legal_action_mask.fill(true);
    result.terminated = game_.terminated;
    result.truncated = game_.truncated;
    if constexpr (kPlayers > 1) {
      std::copy(game_.rewards.begin(), game_.rewards.end(),
                result.player_rewards.begin());
    } else {
      result.reward = game_.rewards[0];
    }
    return result;
  }

  void WriteObs(const Row& row) override {
    Obs* obs = row.Obs<Obs>();
    for (int p = 0; p < kPlayers; ++p) {
      game_.Observe(p, obs + static_cast<std::size_t>(p) * kObsSize());
    }
    *row.Info<int32_t>(0) = game_.current_player;
    std::copy_n(game_.legal_action_mask.begin(), num_actions_,
                row.Info<bool>(1));
  }

  // get_state: the game (its own field list), the key it goes on from, and
  // whether the next reset inits from that key unsplit.
  ENVPOOL_LITE_STATE(game_, key_, first_init_)

  DebugState Debug() const override {
    DebugState d;
    d.Int("key", {key_[0], key_[1]});
    d.Int("step_count", {game_.step_count});
    return d;
  }

 private:
  static constexpr int64_t kMaxSteps = int64_t{1} << 30;
  std::size_t kObsSize() const { return game_.ObsSize(); }

  Game game_;
  int num_actions_;  // NumActions(config)
  jax_random::Key key_{};
  bool first_init_ = true;
};

}  // namespace envpool_lite::pgx
