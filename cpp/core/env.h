// Env: the interface every environment implements, and EnvSpec, what it
// declares about its arrays. The pool owns everything else: episode step
// counting, time-limit truncation, auto-reset, batching and threading.
//
// A step runs in two phases so that async batches hold the envs that
// *finished* first: Step() simulates into the env's own state, then the pool
// claims an output row and calls WriteObs() to copy the observation and info
// fields straight into the batch's shared memory (no further copy).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "array_spec.h"
#include "config.h"
#include "env_state.h"

namespace envpool_lite {

struct EnvSpec {
  ArraySpec obs;  // the observation of one env (unless obs_dict is set)
  // A dict observation (dm_control's, MiniGrid's): one array per key, in key
  // order; `obs` is then unused. Each key is its own contiguous batch field:
  // the first where `obs` would be (field 0), the others after the info
  // fields, so the standard fields keep their indices.
  std::vector<ArraySpec> obs_dict;
  ArraySpec action;               // the action of one env
  std::vector<ArraySpec> info;    // env-specific info fields, e.g. "lives"
  int64_t max_episode_steps = 0;  // 0: no time limit
  // Rendering (make(render_mode="rgb_array")): the size of the picture an env
  // draws itself with Env::Render(); 0 when it has none (classic control is
  // drawn in Python by gymnasium's own renderer, from Env::RenderState()).
  int64_t render_height = 0;
  int64_t render_width = 0;
  // Memory an env uses outside this process (ViZDoom's engine process), for
  // the pool's check that num_envs envs fit in memory before building them.
  int64_t external_bytes_per_env = 0;
  // Memory an env allocates but touches only as it needs it (MuJoCo's
  // arena, sized by the model's njmax and nconmax: 1.25 GiB for myosuite's
  // legs, a few MiB of it used): left out of that check's measure of the
  // first env, which counts what the allocator handed out.
  int64_t lazy_bytes_per_env = 0;
  // A step mostly waits on another process (ViZDoom's engine): the pool's
  // default num_threads is then one per env, not one per core.
  bool step_waits_on_process = false;
  // The batch's reward array is float32 (EnvPool's) unless the env's rewards
  // are float64 values that must arrive exact (MuJoCo's, as gymnasium's).
  bool reward_float64 = false;
  // Players (docs/how-it-works.md, "Players"): a task of several players
  // (pgx's board games) keeps one row per env. Its observation carries a
  // player axis first (num_players, ...), declared in `obs` by the env; the
  // batch's reward is one float32 per player (StepResult::player_rewards);
  // whose turn it is and what is legal are the env's info fields. The
  // action stays one per env: the acting player's.
  int num_players = 1;
};

// The most players a task may have (pgx's Sparrow Mahjong has 3).
inline constexpr int kMaxPlayers = 4;

struct StepResult {
  // Stored as EnvSpec::reward_float64 says: float32 rewards pass through
  // double exactly.
  double reward = 0.0;
  bool terminated = false;
  // The env's own time limit ended the episode (Procgen's games end every
  // level at their timeout, whatever max_episode_steps says): reported as
  // truncated, like the pool's own limit (max_episode_steps).
  bool truncated = false;
  // Multiplies the pool's discount (0 on termination, else 1); an env can
  // lower it, e.g. Atari's zero_discount_on_life_loss.
  float discount = 1.0f;
  // A multi-player task's rewards, player by player (EnvSpec::num_players
  // of them are read; `reward` is then unused).
  std::array<float, kMaxPlayers> player_rewards{};
};

// Where WriteObs() puts one env's observation and info fields: one row of a
// batch.
class Row {
 public:
  Row(void* const* obs, void* const* info) : obs_(obs), info_(info) {}
  // The observation (or, for a dict observation, the array of key `key`).
  template <typename T>
  T* Obs(int key = 0) const {
    return static_cast<T*>(obs_[key]);
  }
  // The i-th field of EnvSpec::info.
  template <typename T>
  T* Info(int i) const {
    return static_cast<T*>(info_[i]);
  }

 private:
  void* const* obs_;
  void* const* info_;
};

// A snapshot of an env's state by name, for tests that rebuild the state in
// their reference (EnvPool's MiniGrid tests read it through the envpool
// module's _debug_states(), its Box2D tests as info fields): integer
// arrays, strings and float64 arrays. Made only when
// asked, from the caller's thread, while the env awaits an action.
struct DebugState {
  // A float64 array of any shape ({}: a scalar).
  struct Reals {
    std::string name;
    std::vector<int64_t> shape;
    std::vector<double> values;
  };
  std::vector<std::pair<std::string, std::vector<int64_t>>> ints;
  std::vector<std::pair<std::string, std::string>> strings;
  std::vector<Reals> reals;
  void Int(const std::string& name, std::vector<int64_t> values) {
    ints.emplace_back(name, std::move(values));
  }
  void String(const std::string& name, std::string value) {
    strings.emplace_back(name, std::move(value));
  }
  void Real(const std::string& name, std::vector<int64_t> shape,
            std::vector<double> values) {
    reals.push_back(Reals{name, std::move(shape), std::move(values)});
  }
  void Real(const std::string& name, double value) { Real(name, {}, {value}); }
};

// An env's index in its pool (for the envs that take it: see registry.h).
struct EnvIndex {
  int value = 0;
};

class Env {
 public:
  virtual ~Env() = default;
  // Re-seed the env's random generator; takes effect at the next Reset().
  virtual void Seed(uint64_t seed) = 0;
  // Start a new episode.
  virtual void Reset() = 0;
  // Advance one step. `action` points at one action of EnvSpec::action's
  // dtype and shape, already validated (discrete in range, floats finite).
  virtual StepResult Step(const void* action) = 0;
  // Write the current observation and info fields.
  virtual void WriteObs(const Row& row) = 0;

  // Optional, for envs whose episodes can end before the game does (Atari's
  // episodic_life ends an episode on a lost life). When an episode ended by
  // termination and CanContinueGame() is true, the pool's auto-reset calls
  // ContinueGame() instead of Reset() and keeps counting steps towards the
  // time limit, which applies to the whole game. Explicit resets (reset(),
  // async_reset()) and time-limit truncations always call Reset().
  virtual bool CanContinueGame() const { return false; }
  virtual void ContinueGame() {}

  // Rendering, only on request (render()): the pool calls these from the
  // caller's thread while the env awaits an action, never during a step, so
  // they read the env's state as the last batch left it and cost nothing
  // otherwise. Render() writes EnvSpec::render_height x render_width RGB
  // pixels, row-major (H, W, 3). RenderState() is the physical state a
  // Python renderer draws from (classic control: gymnasium's own state).
  virtual void Render(uint8_t* rgb) { (void)rgb; }
  // make(render_mode="rgb_array"): called once, before the first reset, on
  // every env of a pool made with a render mode. For the envs whose
  // reference does extra work only then (gymnasium's LunarLander creates its
  // exhaust particles only with a render_mode).
  virtual void EnableRendering() {}
  virtual std::vector<double> RenderState() const { return {}; }
  // The state a test rebuilds its reference from (DebugState); none by
  // default.
  virtual DebugState Debug() const { return {}; }

  // get_state / set_state (core/env_state.h): everything that decides the
  // env's future (its simulator, random generators, frame stacks, counters)
  // and everything WriteObs() and Render() read, so that after LoadState()
  // WriteObs() writes the observation the env had produced when it was
  // saved, and stepping goes on bit for bit. Called from the caller's
  // thread while the env awaits an action. Most envs define both with
  // ENVPOOL_LITE_STATE(their fields...); one that cannot throws
  // StateUnsupported with the reason.
  virtual void SaveState(StateWriter& out) const {
    (void)out;
    throw StateUnsupported("its envs do not save their state yet");
  }
  virtual void LoadState(StateReader& in) {
    (void)in;
    throw StateUnsupported("its envs do not save their state yet");
  }
};

}  // namespace envpool_lite
