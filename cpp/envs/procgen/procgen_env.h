// Procgen: OpenAI's 16 procedurally generated games (procgen 0.10.7), one
// per task id and distribution mode (BigfishEasy-v0, CoinrunHard-v0, ...).
//
// Each env drives its own instance of procgen's official libenv.so
// (procgen_lib.h): libenv_make(num=1) with the options ProcgenGym3Env would
// pass, rand_seed = the env's seed, and num_threads = 0, so that the game
// steps in the pool's worker thread. Env i of a pool seeded s is then
// ProcgenGym3Env(num=1, env_name=..., rand_seed=s + i, ...) frame for frame.
//
// Episode ends. procgen resets a game inside the step that ends its episode:
// that step's observation is already the next level's first frame, with
// first=1. Here, as in gym3's ToGymEnv (procgen's own gym interface), the
// step that ends an episode shows the last frame before it (procgen draws no
// terminal frame) with the step's reward and info, and the next level's
// first frame is what the following reset shows: NEXT_STEP's reset step, or
// the same step's observation under SAME_STEP (procgen's own convention).
// A reset in the middle of an episode (reset(), or max_episode_steps below
// the game's timeout) is procgen's own forced reset: action -1, which plays
// one step with the default action and starts the next level.
//
// terminated: the level was completed or lost. truncated: the level ran out
// of time (the game's timeout, procgen's cur_time >= timeout, reported by the
// env) or the pool's max_episode_steps. procgen does not say why a level
// ended, so a loss on the very step the time runs out counts as truncated.
#pragma once

#include <array>
#include <cstdint>
#include <cstring>
#include <limits>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/env.h"
#include "envs/procgen/procgen_lib.h"

namespace envpool_lite {
namespace procgen {

constexpr int kRes = 64;         // the observation's side
constexpr int kRenderRes = 512;  // procgen's render (info["rgb"]) side
constexpr int kNumActions = 15;  // procgen's combos
constexpr int64_t kEasy = 0, kHard = 1, kExtreme = 2, kMemory = 10,
                  kExploration = 20;

struct Game {
  const char* name;
  int64_t timeout;  // each game's Game::timeout (see Timeout for a mode's)
  // The modes procgen accepts (Game::parse_options), and exploration's
  // level for the games procgen's Python wrapper has one for
  // (EXPLORATION_LEVEL_SEEDS); -1: no exploration mode.
  bool extreme, memory;
  int64_t exploration_level;
  // A memory-mode level's timeout, where procgen gives it one of its own
  // (0: the game's).
  int64_t memory_timeout = 0;
};

inline constexpr std::array<Game, 16> kGames = {{
    {"bigfish", 6000, false, false, -1},
    {"bossfight", 4000, false, false, -1},
    {"caveflyer", 1000, false, true, 1259048185},
    {"chaser", 1000, true, false, -1},
    {"climber", 1000, false, false, 1561126160},
    {"coinrun", 1000, false, false, 1949448038},
    {"dodgeball", 1000, true, true, -1},
    {"fruitbot", 1000, false, false, -1},
    {"heist", 1000, false, true, 876640971},
    {"jumper", 1000, false, true, 1434825276, 2000},
    {"leaper", 500, true, false, 1318677581},
    {"maze", 500, false, true, 158988835},
    {"miner", 1000, false, true, -1},
    {"ninja", 1000, false, false, 1123500215},
    {"plunder", 4000, false, false, -1},
    {"starpilot", 1000, true, false, -1},
}};

inline const Game& FindGame(const std::string& name) {
  for (const Game& g : kGames) {
    if (name == g.name) return g;
  }
  throw std::invalid_argument("option 'env_name': unknown procgen game '" +
                              name + "'");
}

// A level's timeout (procgen's Game::timeout) in a mode: the game's, or
// its memory mode's own (Jumper's levels last 2000 steps there: measured on
// procgen 0.10.7 for every game and mode whose levels can run out of time,
// a level played with the no-op action; tests/test_procgen.py checks it).
inline int64_t Timeout(const Game& g, int64_t mode) {
  return mode == kMemory && g.memory_timeout > 0 ? g.memory_timeout : g.timeout;
}

inline bool HasMode(const Game& g, int64_t mode) {
  switch (mode) {
    case kEasy:
    case kHard:
      return true;
    case kExtreme:
      return g.extreme;
    case kMemory:
      return g.memory;
    case kExploration:
      return g.exploration_level >= 0;
    default:
      return false;
  }
}

inline std::string ModeNames(const Game& g) {
  std::string s = "0 (easy), 1 (hard)";
  if (g.extreme) s += ", 2 (extreme)";
  if (g.memory) s += ", 10 (memory)";
  if (g.exploration_level >= 0) s += ", 20 (exploration)";
  return s;
}

class ProcgenEnv : public Env {
 public:
  static Config DefaultConfig() {
    return {{"max_episode_steps", int64_t{1000}},  // the game's timeout
            {"distribution_mode", kHard},
            {"num_levels", int64_t{0}},
            {"start_level", int64_t{0}},
            {"use_sequential_levels", false},
            {"center_agent", true},
            {"use_backgrounds", true},
            {"restrict_themes", false},
            {"use_monochrome_assets", false},
            {"use_generated_assets", false},
            {"paint_vel_info", false},
            {"use_easy_jump", false},
            // EnvPool's option: (3, 64, 64) instead of procgen's (64, 64, 3).
            {"channel_first", false},
            // Set by the registration and by make(), not by users:
            {"env_name", std::string("bigfish")},
            {"procgen_lib", std::string()},
            {"resource_root", std::string()},
            // The envpool module's render(): the 64x64 observation, as
            // EnvPool's (internal: not from make()).
            {"render_observation", false}};
  }

  static EnvSpec MakeSpec(const Config& config) {
    const Game& game = FindGame(config.GetString("env_name"));
    const int64_t mode = config.GetInt("distribution_mode");
    if (!HasMode(game, mode)) {
      throw std::invalid_argument(
          "option 'distribution_mode': " + std::string(game.name) +
          " has no mode " + std::to_string(mode) + "; its modes are " +
          ModeNames(game));
    }
    constexpr int64_t kInt32Max = std::numeric_limits<int32_t>::max();
    const int64_t num_levels = config.GetInt("num_levels", 0, kInt32Max);
    const int64_t start_level = config.GetInt("start_level", 0, kInt32Max);
    if (num_levels > 0 && start_level + num_levels > kInt32Max) {
      throw std::invalid_argument(
          "options 'start_level' + 'num_levels' must be at most 2**31 - 1 "
          "(procgen's level seeds are int32), got " +
          std::to_string(start_level) + " + " + std::to_string(num_levels));
    }
    if (mode == kExploration && (num_levels != 0 || start_level != 0)) {
      throw std::invalid_argument(
          "options 'num_levels' and 'start_level' must be 0 in exploration "
          "mode (distribution_mode=20), which plays one fixed level (as "
          "procgen: 'exploration mode overrides num_levels')");
    }
    const int64_t max_steps = config.GetInt("max_episode_steps", 1, kInt32Max);
    for (const char* name :
         {"use_sequential_levels", "center_agent", "use_backgrounds",
          "restrict_themes", "use_monochrome_assets", "use_generated_assets",
          "paint_vel_info", "use_easy_jump"}) {
      config.GetBool(name);  // type check
    }
    EnvSpec spec;
    spec.obs = MakeBox<uint8_t>("obs",
                                config.GetBool("channel_first")
                                    ? std::vector<int64_t>{3, kRes, kRes}
                                    : std::vector<int64_t>{kRes, kRes, 3},
                                {0.0}, {255.0});
    spec.action = MakeDiscrete("action", kNumActions);
    spec.info = {MakeScalar<int32_t>("level_seed"),
                 MakeScalar<int32_t>("prev_level_seed"),
                 MakeBox<uint8_t>("prev_level_complete", {}, {0.0}, {1.0})};
    // With use_sequential_levels an episode goes on through completed
    // levels, each with its own timeout: the default limit (the game's
    // timeout) is then procgen's own, per level, and the pool adds none.
    spec.max_episode_steps = config.GetBool("use_sequential_levels") &&
                                     max_steps == Timeout(game, mode)
                                 ? 0
                                 : max_steps;
    const int render_side =
        config.GetBool("render_observation") ? kRes : kRenderRes;
    spec.render_height = render_side;
    spec.render_width = render_side;
    return spec;
  }

  ProcgenEnv(const Config& config, uint64_t seed)
      : game_(FindGame(config.GetString("env_name"))),
        timeout_(Timeout(game_, config.GetInt("distribution_mode"))),
        lib_(LoadLib(config.GetString("procgen_lib"))),
        channel_first_(config.GetBool("channel_first")),
        render_observation_(config.GetBool("render_observation")),
        sequential_(config.GetBool("use_sequential_levels")) {
    // ProcgenGym3Env's options, in its order.
    int64_t mode = config.GetInt("distribution_mode");
    int64_t num_levels = config.GetInt("num_levels");
    int64_t start_level = config.GetInt("start_level");
    if (mode == kExploration) {  // procgen's Python wrapper does this
      mode = kHard;
      num_levels = 1;
      start_level = game_.exploration_level;
    }
    options_.Bool("center_agent", config.GetBool("center_agent"));
    options_.Bool("use_generated_assets",
                  config.GetBool("use_generated_assets"));
    options_.Bool("use_monochrome_assets",
                  config.GetBool("use_monochrome_assets"));
    options_.Bool("restrict_themes", config.GetBool("restrict_themes"));
    options_.Bool("use_backgrounds", config.GetBool("use_backgrounds"));
    options_.Bool("paint_vel_info", config.GetBool("paint_vel_info"));
    options_.Int("distribution_mode", static_cast<int32_t>(mode));
    if (config.GetBool("use_easy_jump")) {
      options_.Bool("use_easy_jump", true);
    }
    options_.String("env_name", game_.name);
    options_.Int("num_levels", static_cast<int32_t>(num_levels));
    options_.Int("start_level", static_cast<int32_t>(start_level));
    options_.Int("num_actions", kNumActions);
    options_.Bool("use_sequential_levels", sequential_);
    options_.Int("debug_mode", 0);
    options_.Int("num_threads", 0);  // step in the caller's (worker) thread
    options_.String("resource_root", config.GetString("resource_root"));
    Seed(seed);
  }

  ~ProcgenEnv() override { Close(); }

  // A new seed takes effect at the next Reset(): a new libenv instance, as
  // ProcgenGym3Env(rand_seed=seed) would be.
  void Seed(uint64_t seed) override {
    if (seed > static_cast<uint64_t>(std::numeric_limits<int32_t>::max())) {
      throw std::invalid_argument(
          "Procgen: seed " + std::to_string(seed) +
          " is out of range: procgen's rand_seed is an int32 (at most "
          "2**31 - 1)");
    }
    seed_ = static_cast<int32_t>(seed);
    Close();
  }

  // procgen's 512x512 frames are drawn only for render(); the observation
  // needs nothing more.
  void EnableRendering() override { render_ = !render_observation_; }

  void Reset() override {
    if (handle_ == nullptr) {
      Open();  // libenv_set_buffers starts the first level
    } else if (!pending_) {
      // procgen's forced reset: one step with the default action, then
      // the next level.
      action_ = -1;
      lib_.act(handle_);
      if (render_) lib_.observe(handle_);
    }
    pending_ = false;
    show_prev_ = false;
    level_steps_ = 0;
  }

  StepResult Step(const void* action) override {
    // Keep the frame on show: the terminal step shows it again.
    std::memcpy(prev_obs_.data(), obs_.data(), obs_.size());
    if (render_) std::memcpy(prev_rgb_.data(), rgb_.data(), rgb_.size());
    action_ = *static_cast<const int32_t*>(action);
    lib_.act(handle_);
    if (render_) lib_.observe(handle_);
    ++level_steps_;
    StepResult result;
    result.reward = reward_;
    if (first_ != 0) {
      // The episode ended, and procgen has started the next level.
      const bool timed_out =
          prev_level_complete_ == 0 && level_steps_ >= timeout_;
      result.truncated = timed_out;
      result.terminated = !timed_out;
      pending_ = true;
      show_prev_ = true;
    } else if (prev_level_complete_ != 0) {
      level_steps_ = 0;  // use_sequential_levels: on to the next level
    }
    return result;
  }

  void WriteObs(const Row& row) override {
    const uint8_t* src = show_prev_ ? prev_obs_.data() : obs_.data();
    uint8_t* dst = row.Obs<uint8_t>();
    if (channel_first_) {
      for (int c = 0; c < 3; ++c) {
        for (int p = 0; p < kRes * kRes; ++p) {
          dst[c * kRes * kRes + p] = src[p * 3 + c];
        }
      }
    } else {
      std::memcpy(dst, src, obs_.size());
    }
    *row.Info<int32_t>(0) = level_seed_;
    *row.Info<int32_t>(1) = prev_level_seed_;
    *row.Info<uint8_t>(2) = prev_level_complete_;
  }

  // get_state: procgen's own serialization of the game (Game::serialize:
  // the level, its entities and timers, the level and game random
  // generators), then this env's episode bookkeeping and what it shows.
  void SaveState(StateWriter& out) const override {
    if (handle_ == nullptr) {  // the pool saves only envs it has reset
      throw std::logic_error("Procgen: no game to save before a reset");
    }
    std::string game(kMaxStateSize, '\0');
    game.resize(lib_.get_state(handle_, 0, game.data(), kMaxStateSize));
    out(game);
    // libenv's outputs of the last step (set_state writes the same again).
    out(reward_, first_, level_seed_, prev_level_seed_, prev_level_complete_);
    out(pending_, show_prev_, level_steps_);
    // The frame a terminal step shows again; otherwise the next Step()
    // overwrites it before it is read.
    if (show_prev_) {
      out(prev_obs_);
      if (render_) out(prev_rgb_);
    }
  }

  void LoadState(StateReader& in) override {
    if (handle_ == nullptr) Open();  // an env not reset yet
    std::string game;
    in(game);
    // procgen re-observes the game into obs_ and the info fields.
    lib_.set_state(handle_, 0, game.data(), static_cast<int>(game.size()));
    if (render_) lib_.observe(handle_);  // the 512x512 picture, rgb_
    in(reward_, first_, level_seed_, prev_level_seed_, prev_level_complete_);
    in(pending_, show_prev_, level_steps_);
    if (show_prev_) {
      in(prev_obs_);
      if (render_) in(prev_rgb_);
    }
  }

  void Render(uint8_t* rgb) override {
    if (render_observation_) {  // the frame on show, (64, 64, 3)
      if (handle_ == nullptr) {
        std::memset(rgb, 0, obs_.size());
      } else {
        std::memcpy(rgb, show_prev_ ? prev_obs_.data() : obs_.data(),
                    obs_.size());
      }
      return;
    }
    if (handle_ == nullptr) {
      std::memset(rgb, 0, rgb_.size());
      return;
    }
    std::memcpy(rgb, show_prev_ ? prev_rgb_.data() : rgb_.data(), rgb_.size());
  }

 private:
  void Open() {
    Options options = options_;
    options.Int("rand_seed", seed_);
    options.Bool("render_human", render_);
    if (render_) {
      rgb_.assign(static_cast<std::size_t>(kRenderRes) * kRenderRes * 3, 0);
      prev_rgb_ = rgb_;
    }
    {
      // Building games touches procgen's process-wide state (the asset
      // cache, loaded by the first instance): one at a time.
      static std::mutex make_mutex;
      std::lock_guard<std::mutex> lock(make_mutex);
      handle_ = lib_.make(1, options.Get());
    }
    // The info fields in procgen's order, found by name.
    int n = lib_.get_tensortypes(handle_, LIBENV_SPACE_INFO, nullptr);
    std::vector<libenv_tensortype> types(static_cast<std::size_t>(n));
    lib_.get_tensortypes(handle_, LIBENV_SPACE_INFO, types.data());
    std::vector<void*> info(types.size(), nullptr);
    for (std::size_t i = 0; i < types.size(); ++i) {
      const std::string name = types[i].name;
      if (name == "level_seed") info[i] = &level_seed_;
      if (name == "prev_level_seed") info[i] = &prev_level_seed_;
      if (name == "prev_level_complete") info[i] = &prev_level_complete_;
      if (name == "rgb") info[i] = rgb_.data();
      if (info[i] == nullptr) {
        Close();
        throw std::runtime_error("Procgen: unexpected info field '" + name +
                                 "' in libenv.so; " + InstallHint());
      }
    }
    void* ob[] = {obs_.data()};
    void* ac[] = {&action_};
    libenv_buffers buffers{ob, &reward_, &first_, info.data(), ac};
    lib_.set_buffers(handle_, &buffers);  // the first level, observed
    if (render_) lib_.observe(handle_);
  }

  void Close() {
    if (handle_ != nullptr) {
      lib_.close(handle_);
      handle_ = nullptr;
    }
  }

  const Game& game_;
  const int64_t timeout_;  // a level's, in this mode
  const Lib& lib_;
  const bool channel_first_;
  const bool render_observation_;
  const bool sequential_;
  Options options_;
  int32_t seed_ = 0;
  bool render_ = false;
  libenv_env* handle_ = nullptr;
  // What libenv writes into.
  std::array<uint8_t, kRes * kRes * 3> obs_{};
  std::vector<uint8_t> rgb_;  // render_ only
  float reward_ = 0.0f;
  uint8_t first_ = 0;
  int32_t action_ = 0;
  int32_t level_seed_ = 0;
  int32_t prev_level_seed_ = 0;
  uint8_t prev_level_complete_ = 0;
  // The frame before the last step, shown again by a terminal step.
  std::array<uint8_t, kRes * kRes * 3> prev_obs_{};
  std::vector<uint8_t> prev_rgb_;
  bool show_prev_ = false;
  bool pending_ = false;     // procgen already started the next level
  int64_t level_steps_ = 0;  // steps in this level (procgen's cur_time)
};

}  // namespace procgen
}  // namespace envpool_lite
