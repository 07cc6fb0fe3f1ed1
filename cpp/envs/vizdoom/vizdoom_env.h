// ViZDoom: the standard scenarios (Basic-v1, DeadlyCorridor-v1, ...) and
// VizdoomCustom-v1 (any .cfg/.wad), through ViZDoom's C++ client library.
// Each env owns one engine process, started through vizdoom_launcher in a
// private directory and bounded by a watchdog (engine_process.h).
//
// Options (besides max_episode_steps):
//   cfg_path, wad_path    the scenario (standard tasks: the installed vizdoom
//                         package's; a wad_path overrides the cfg's
//                         doom_scenario_path), map_id (the cfg's map if empty)
//   scenario              a standard scenario by name (set per task), the cfg
//                         used when cfg_path is empty
//   vzd_path, iwad_path   the engine binary and freedoom2.wad (the installed
//                         vizdoom package's; filled in by envpool_lite.vizdoom)
//   game_args             extra engine arguments
//   img_height, img_width observation size (84 x 84), area-averaged from the
//                         scenario's screen resolution (exactly as cv2's
//                         INTER_AREA; see envs/common/image.h)
//   stack_num (4)         frames stacked, oldest first: obs is uint8
//                         (stack_num * channels, img_height, img_width)
//   frame_skip (4)        tics per step, the same action held; the engine
//                         renders only the last one; the reward is their sum
//   gray_scale (true)     one channel (the engine's GRAY8), else RGB (3,
//                         channel-first, the engine's CRCGCB)
//   use_combined_action   false: the action is a float32 vector with one
//                         entry per button of the cfg, in its order; a binary
//                         button is pressed iff its entry is >= 0.5, a delta
//                         button (TURN_LEFT_RIGHT_DELTA, ...) takes its entry
//                         as is. true: Discrete(n), one index into the legal
//                         combinations of binary buttons (see CombinedActions)
//   episodic_life         the episode also ends (terminated) when the player
//                         dies; if the game goes on (multiplayer), the next
//                         auto-reset respawns the player instead of
//                         restarting the map
//   game_variables        extra game variables to report (comma-separated
//                         names, e.g. "HEALTH,KILLCOUNT")
//   reward_config         reward shaping: "NAME:pos:neg,..." adds, every step,
//                         pos per unit a game variable rose and neg per unit it
//                         fell (EnvPool's convention: neg < 0 penalises a drop)
//                         to the scenario's own reward
//   engine_timeout (30 s) the longest the engine may take to answer a step,
//                         reset or close (starting it: at least 30 s); past
//                         it the engine is killed and the call fails
//
// Info: every game variable of the cfg, then those of game_variables and
// reward_config, each a float64 field named as ViZDoom names it ("AMMO2",
// "HEALTH"). Time limits: the scenario's episode_timeout is replaced by
// max_episode_steps (a truncation); each standard task's default is its
// timeout at the default frame_skip of 4 (Basic-v1: 300 tics, 75 steps), or
// 525 steps (EnvPool's) for scenarios without one.
#pragma once

#include <ViZDoom.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <iterator>
#include <limits>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "core/env.h"
#include "envs/common/image.h"
#include "envs/vizdoom/engine_process.h"

namespace envpool_lite {

struct VizdoomTask {
  const char* task_id;
  const char* scenario;  // the vizdoom package's scenarios/<name>.cfg
  int64_t max_episode_steps;
};

// EnvPool's task names. VizdoomCustom-v1 takes cfg_path (and wad_path).
inline constexpr VizdoomTask kVizdoomTasks[] = {
    {"Basic-v1", "basic", 75},
    {"DeadlyCorridor-v1", "deadly_corridor", 525},
    {"DefendTheCenter-v1", "defend_the_center", 525},
    {"DefendTheLine-v1", "defend_the_line", 525},
    {"HealthGathering-v1", "health_gathering", 525},
    {"HealthGatheringSupreme-v1", "health_gathering_supreme", 525},
    {"MyWayHome-v1", "my_way_home", 525},
    {"PredictPosition-v1", "predict_position", 75},
    {"TakeCover-v1", "take_cover", 525},
    {"Deathmatch-v1", "deathmatch", 1050},
    {"RocketBasic-v1", "rocket_basic", 75},
    {"SimplerBasic-v1", "simpler_basic", 75},
    {"VizdoomCustom-v1", "", 525},
};

namespace vizdoom_detail {

inline std::vector<std::string> SplitNames(const std::string& s) {
  std::vector<std::string> out;
  std::string cur;
  for (char ch : s + ",") {
    if (ch == ',' || ch == ';' || ch == ' ' || ch == '\t' || ch == '\n') {
      if (!cur.empty()) out.push_back(cur);
      cur.clear();
    } else {
      cur += ch;
    }
  }
  return out;
}

inline vizdoom::GameVariable ParseGameVariable(const std::string& name) {
  for (int i = 0; i <= static_cast<int>(vizdoom::USER60); ++i) {
    auto v = static_cast<vizdoom::GameVariable>(i);
    if (vizdoom::gameVariableToString(v) == name) return v;
  }
  throw std::invalid_argument("unknown ViZDoom game variable '" + name +
                              "' (names as in ViZDoom: HEALTH, KILLCOUNT, "
                              "AMMO2, ...)");
}

// The legal button combinations, as a mixed-radix number. Buttons fall in
// groups, in the order the cfg first lists a button of each: an opposing
// pair (MOVE_LEFT/MOVE_RIGHT, MOVE_FORWARD/MOVE_BACKWARD, TURN_LEFT/
// TURN_RIGHT, LOOK_UP/LOOK_DOWN, MOVE_UP/MOVE_DOWN, SELECT_NEXT/PREV_WEAPON,
// SELECT_NEXT/PREV_ITEM) takes one of {neither, the first listed, the
// other}; all SELECT_WEAPONn together take {none, one of them}; any other
// binary button {off, on}. Index i picks digit i % radix for the first group,
// then (i / radix) for the rest: index 0 presses nothing. Delta buttons stay
// at 0 (drive them with use_combined_action=False). Basic-v1: 6 actions.
class CombinedActions {
 public:
  explicit CombinedActions(const std::vector<vizdoom::Button>& buttons) {
    using B = vizdoom::Button;
    static const std::pair<B, B> kPairs[] = {
        {B::MOVE_RIGHT, B::MOVE_LEFT},     {B::MOVE_BACKWARD, B::MOVE_FORWARD},
        {B::TURN_RIGHT, B::TURN_LEFT},     {B::LOOK_UP, B::LOOK_DOWN},
        {B::MOVE_UP, B::MOVE_DOWN},        {B::SELECT_NEXT_WEAPON, B::SELECT_PREV_WEAPON},
        {B::SELECT_NEXT_ITEM, B::SELECT_PREV_ITEM}};
    auto group_key = [&](B b) -> int {
      for (int p = 0; p < static_cast<int>(std::size(kPairs)); ++p) {
        if (b == kPairs[p].first || b == kPairs[p].second) return 1000 + p;
      }
      if (b >= B::SELECT_WEAPON1 && b <= B::SELECT_WEAPON0) return 2000;
      return static_cast<int>(b);
    };
    std::vector<int> keys;
    for (int i = 0; i < static_cast<int>(buttons.size()); ++i) {
      if (vizdoom::isDeltaButton(buttons[i])) continue;
      int key = group_key(buttons[i]);
      auto it = std::find(keys.begin(), keys.end(), key);
      if (it == keys.end()) {
        keys.push_back(key);
        groups_.push_back({i});
      } else {
        groups_[it - keys.begin()].push_back(i);
      }
    }
    count_ = 1;
    for (const auto& g : groups_) {
      count_ *= static_cast<int64_t>(g.size()) + 1;
      if (count_ > std::numeric_limits<int32_t>::max()) {
        throw std::invalid_argument(
            "too many button combinations for use_combined_action");
      }
    }
  }
  int64_t Count() const { return count_; }
  void Decode(int64_t index, std::vector<double>* action) const {
    std::fill(action->begin(), action->end(), 0.0);
    for (const auto& g : groups_) {
      int64_t radix = static_cast<int64_t>(g.size()) + 1;
      int64_t digit = index % radix;
      index /= radix;
      if (digit > 0) (*action)[g[digit - 1]] = 1.0;
    }
  }

 private:
  std::vector<std::vector<int>> groups_;  // indices into the buttons
  int64_t count_ = 1;
};

// A DoomGame configured from the options (no engine started yet), and what
// follows from it.
struct Setup {
  std::unique_ptr<vizdoom::DoomGame> game;
  std::vector<vizdoom::Button> buttons;
  std::vector<vizdoom::GameVariable> variables;  // reported in info
  std::vector<double> pos_weight, neg_weight;    // per variable
  bool shaped = false;
  int screen_h = 0, screen_w = 0, channels = 1;
};

inline std::string AbsoluteFile(const std::string& path, const char* what) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) {
    throw std::invalid_argument(std::string(what) + " '" + path +
                                "' is not a file");
  }
  return std::filesystem::absolute(path).string();
}

inline Setup Configure(const Config& c) {
  Setup s;
  if (c.GetString("cfg_path").empty()) {
    throw std::invalid_argument(
        "cfg_path is empty: VizdoomCustom-v1 needs cfg_path=<a ViZDoom .cfg> "
        "(and wad_path= unless the cfg names its doom_scenario_path)");
  }
  if (c.GetString("vzd_path").empty() || c.GetString("iwad_path").empty()) {
    throw std::invalid_argument(
        "vzd_path / iwad_path are empty: the ViZDoom engine and freedoom2.wad "
        "come from the installed vizdoom package (pip install vizdoom; "
        "envpool_lite.make fills them in)");
  }
  std::string cfg = AbsoluteFile(c.GetString("cfg_path"), "cfg_path");
  AbsoluteFile(c.GetString("vzd_path"), "vzd_path");
  std::string iwad = AbsoluteFile(c.GetString("iwad_path"), "iwad_path");
  if (c.GetInt("img_height") < 1 || c.GetInt("img_width") < 1) {
    throw std::invalid_argument("img_height and img_width must be >= 1");
  }
  if (c.GetInt("stack_num") < 1) {
    throw std::invalid_argument("stack_num must be >= 1");
  }
  if (c.GetInt("frame_skip") < 1) {
    throw std::invalid_argument("frame_skip must be >= 1");
  }
  if (!(c.GetFloat("engine_timeout") > 0.0)) {
    throw std::invalid_argument("engine_timeout must be > 0 (seconds)");
  }

  s.game = std::make_unique<vizdoom::DoomGame>();
  vizdoom::DoomGame& g = *s.game;
  try {
    if (!g.loadConfig(cfg)) {
      throw std::invalid_argument("ViZDoom could not load the config '" + cfg +
                                  "'");
    }
  } catch (const std::invalid_argument&) {
    throw;
  } catch (const std::exception& e) {
    throw std::invalid_argument("ViZDoom could not load the config '" + cfg +
                                "': " + e.what());
  }
  if (!c.GetString("wad_path").empty()) {
    g.setDoomScenarioPath(AbsoluteFile(c.GetString("wad_path"), "wad_path"));
  }
  if (!c.GetString("map_id").empty()) g.setDoomMap(c.GetString("map_id"));
  g.setDoomGamePath(iwad);
  g.addGameArgs(c.GetString("game_args"));
  g.setMode(vizdoom::PLAYER);
  g.setWindowVisible(false);
  g.setSoundEnabled(false);
  g.setConsoleEnabled(false);
  g.setAudioBufferEnabled(false);
  g.setDepthBufferEnabled(false);
  g.setLabelsBufferEnabled(false);
  g.setAutomapBufferEnabled(false);
  g.setObjectsInfoEnabled(false);
  g.setSectorsInfoEnabled(false);
  g.setNotificationsBufferEnabled(false);
  g.setEpisodeTimeout(0);  // the pool's max_episode_steps is the time limit
  const bool gray = c.GetBool("gray_scale");
  g.setScreenFormat(gray ? vizdoom::GRAY8 : vizdoom::CRCGCB);
  s.channels = gray ? 1 : 3;
  s.screen_h = g.getScreenHeight();
  s.screen_w = g.getScreenWidth();
  s.buttons = g.getAvailableButtons();

  s.variables = g.getAvailableGameVariables();
  auto add_variable = [&](vizdoom::GameVariable v) -> std::size_t {
    auto it = std::find(s.variables.begin(), s.variables.end(), v);
    if (it != s.variables.end()) return it - s.variables.begin();
    s.variables.push_back(v);
    g.addAvailableGameVariable(v);
    return s.variables.size() - 1;
  };
  for (const std::string& name : SplitNames(c.GetString("game_variables"))) {
    add_variable(ParseGameVariable(name));
  }
  std::vector<std::pair<std::size_t, std::pair<double, double>>> weights;
  for (const std::string& entry : SplitNames(c.GetString("reward_config"))) {
    std::vector<std::string> parts;
    std::stringstream ss(entry);
    for (std::string p; std::getline(ss, p, ':');) parts.push_back(p);
    double pos = 0.0, neg = 0.0;
    try {
      if (parts.size() != 3) throw std::invalid_argument("");
      std::size_t used = 0;
      pos = std::stod(parts[1], &used);
      if (used != parts[1].size()) throw std::invalid_argument("");
      neg = std::stod(parts[2], &used);
      if (used != parts[2].size()) throw std::invalid_argument("");
    } catch (const std::exception&) {
      throw std::invalid_argument(
          "reward_config entry '" + entry +
          "' is not NAME:pos:neg (e.g. \"HEALTH:0.005:-0.003\")");
    }
    if (!std::isfinite(pos) || !std::isfinite(neg)) {
      throw std::invalid_argument("reward_config weights must be finite");
    }
    weights.push_back({add_variable(ParseGameVariable(parts[0])), {pos, neg}});
  }
  s.pos_weight.assign(s.variables.size(), 0.0);
  s.neg_weight.assign(s.variables.size(), 0.0);
  for (const auto& [i, w] : weights) {
    s.pos_weight[i] = w.first;
    s.neg_weight[i] = w.second;
    s.shaped = true;
  }
  return s;
}

}  // namespace vizdoom_detail

class VizdoomEnv : public Env {
 public:
  static Config DefaultConfig() {
    return Config{{"max_episode_steps", int64_t{525}},
                  {"cfg_path", std::string()},
                  {"wad_path", std::string()},
                  {"vzd_path", std::string()},
                  {"iwad_path", std::string()},
                  {"scenario", std::string()},
                  {"map_id", std::string()},
                  {"game_args", std::string()},
                  {"img_height", int64_t{84}},
                  {"img_width", int64_t{84}},
                  {"stack_num", int64_t{4}},
                  {"frame_skip", int64_t{4}},
                  {"gray_scale", true},
                  {"use_combined_action", false},
                  {"episodic_life", false},
                  {"game_variables", std::string()},
                  {"reward_config", std::string()},
                  {"engine_timeout", 30.0}};
  }

  static EnvSpec MakeSpec(const Config& config) {
    vizdoom_detail::Setup s = vizdoom_detail::Configure(config);
    EnvSpec spec;
    spec.obs = MakeBox<uint8_t>(
        "obs",
        {config.GetInt("stack_num") * s.channels, config.GetInt("img_height"),
         config.GetInt("img_width")},
        {0.0}, {255.0});
    if (config.GetBool("use_combined_action")) {
      spec.action = MakeDiscrete(
          "action", vizdoom_detail::CombinedActions(s.buttons).Count());
    } else {
      std::vector<double> low, high;
      for (vizdoom::Button b : s.buttons) {
        bool delta = vizdoom::isDeltaButton(b);
        low.push_back(delta ? -std::numeric_limits<double>::infinity() : 0.0);
        high.push_back(delta ? std::numeric_limits<double>::infinity() : 1.0);
      }
      spec.action = MakeBox<float>(
          "action", {static_cast<int64_t>(s.buttons.size())}, low, high);
    }
    for (vizdoom::GameVariable v : s.variables) {
      spec.info.push_back(MakeScalar<double>(vizdoom::gameVariableToString(v)));
    }
    spec.max_episode_steps = config.GetInt("max_episode_steps");
    return spec;
  }

  VizdoomEnv(const Config& config, uint64_t seed)
      : setup_(vizdoom_detail::Configure(config)),
        game_(*setup_.game),
        combined_(setup_.buttons),
        use_combined_(config.GetBool("use_combined_action")),
        episodic_life_(config.GetBool("episodic_life")),
        frame_skip_(static_cast<unsigned>(config.GetInt("frame_skip"))),
        stack_(static_cast<int>(config.GetInt("stack_num"))),
        out_h_(static_cast<int>(config.GetInt("img_height"))),
        out_w_(static_cast<int>(config.GetInt("img_width"))),
        timeout_s_(config.GetFloat("engine_timeout")),
        engine_(std::filesystem::absolute(config.GetString("vzd_path")).string()),
        launcher_(vizdoom_detail::LauncherPath()),
        resize_(setup_.screen_h, setup_.screen_w, out_h_, out_w_, 1,
                image::Resizer::Method::kArea),
        frame_bytes_(static_cast<std::size_t>(setup_.channels) * out_h_ * out_w_),
        frames_(frame_bytes_ * stack_, 0),
        action_(setup_.buttons.size(), 0.0),
        vars_(setup_.variables.size(), 0.0),
        base_vars_(setup_.variables.size(), 0.0) {
    if (access(launcher_.c_str(), X_OK) != 0) {
      throw std::runtime_error("the ViZDoom engine launcher " + launcher_ +
                               " is missing (rebuild envpool_lite)");
    }
    game_.setSeed(static_cast<unsigned>(seed));
    StartEngine();
  }

  ~VizdoomEnv() override { CloseEngine(); }

  void Seed(uint64_t seed) override {
    seed_ = static_cast<unsigned>(seed);
    reseed_ = true;
  }

  void Reset() override {
    if (!game_.isRunning()) {  // first use after a failure: a new engine
      if (reseed_) game_.setSeed(seed_);
      reseed_ = false;
      StartEngine();
    }
    if (reseed_) {  // the next episode draws its map seed from the new seed
      game_.setSeed(seed_);
      reseed_ = false;
      fresh_ = false;
    }
    // init() already started an episode; later ones need a new one.
    if (!fresh_) Guarded("reset", [&] { game_.newEpisode(); });
    fresh_ = false;
    StartObservation();
  }

  bool CanContinueGame() const override {
    return episodic_life_ && game_.isRunning() && !game_.isEpisodeFinished();
  }

  void ContinueGame() override {
    Guarded("respawn", [&] { game_.respawnPlayer(); });
    StartObservation();
  }

  StepResult Step(const void* action) override {
    if (use_combined_) {
      combined_.Decode(*static_cast<const int32_t*>(action), &action_);
    } else {
      const float* a = static_cast<const float*>(action);
      for (std::size_t i = 0; i < action_.size(); ++i) {
        action_[i] = vizdoom::isDeltaButton(setup_.buttons[i])
                         ? static_cast<double>(a[i])
                         : (a[i] >= 0.5f ? 1.0 : 0.0);
      }
    }
    StepResult r;
    bool finished = false;
    Guarded("step", [&] {
      game_.setAction(action_);
      game_.advanceAction(frame_skip_, true);
      finished = game_.isEpisodeFinished();
      if (!finished) PushScreen();  // else the last frames stay
      ReadVariables();
      r.terminated = finished || (episodic_life_ && game_.isPlayerDead());
    });
    double reward = game_.getLastReward();
    if (setup_.shaped) {
      for (std::size_t i = 0; i < vars_.size(); ++i) {
        double delta = vars_[i] - base_vars_[i];
        reward += delta >= 0 ? delta * setup_.pos_weight[i]
                             : -delta * setup_.neg_weight[i];
      }
    }
    base_vars_ = vars_;
    r.reward = static_cast<float>(reward);
    return r;
  }

  void WriteObs(const Row& row) override {
    uint8_t* obs = row.Obs<uint8_t>();
    for (int k = 0; k < stack_; ++k) {  // oldest first
      int slot = (newest_ + 1 + k) % stack_;
      std::memcpy(obs + k * frame_bytes_, &frames_[slot * frame_bytes_],
                  frame_bytes_);
    }
    for (std::size_t i = 0; i < vars_.size(); ++i) {
      *row.Info<double>(static_cast<int>(i)) = vars_[i];
    }
  }

 private:
  using Watchdog = vizdoom_detail::Watchdog;

  // Starts the engine in a new private directory. A clash of instance names
  // with a live engine (the launcher refuses to start) is retried.
  void StartEngine() {
    for (int attempt = 0;; ++attempt) {
      dir_ = std::make_unique<vizdoom_detail::EngineDir>(engine_, launcher_);
      game_.setViZDoomPath(dir_->LauncherLink());
      game_.setDoomConfigPath(dir_->IniPath());
      try {
        Watchdog::Guard guard(watchdog_, dir_->Path(), std::max(timeout_s_, 30.0));
        game_.init();
      } catch (const std::exception& e) {
        bool collided = dir_->Collided();
        bool fired = watchdog_.Fired();
        CloseEngine();
        if (collided && attempt < 4) continue;
        throw std::runtime_error(
            fired ? "the ViZDoom engine did not start within " +
                        Seconds(std::max(timeout_s_, 30.0)) + " and was killed"
                  : std::string("the ViZDoom engine did not start: ") + e.what());
      }
      fresh_ = true;
      return;
    }
  }

  // Closes the game (the engine exits, its launcher reaps it and removes its
  // names from /dev/shm) and removes the private directory.
  void CloseEngine() noexcept {
    if (dir_ != nullptr) {
      try {
        Watchdog::Guard guard(watchdog_, dir_->Path(), std::min(timeout_s_, 10.0));
        game_.close();
      } catch (...) {
      }
      dir_.reset();
    }
  }

  // Runs a call into the engine under the watchdog. If the engine died or
  // stopped answering, it is closed for good (the next reset starts a new
  // one) and the call throws, naming what happened.
  template <typename F>
  void Guarded(const char* what, F&& f) {
    if (dir_ == nullptr || !game_.isRunning()) {
      throw std::runtime_error(std::string("the ViZDoom engine is not running (") +
                               what + ")");
    }
    try {
      Watchdog::Guard guard(watchdog_, dir_->Path(), timeout_s_);
      f();
    } catch (const std::exception& e) {
      bool fired = watchdog_.Fired();
      CloseEngine();
      throw std::runtime_error(
          fired ? std::string("the ViZDoom engine did not answer within ") +
                      Seconds(timeout_s_) + " (engine_timeout) during " + what +
                      "; it was killed (a new one starts at the next reset)"
                : std::string("the ViZDoom engine failed during ") + what +
                      ": " + e.what() + " (a new one starts at the next reset)");
    }
  }

  static std::string Seconds(double s) {
    std::ostringstream os;
    os << s << " s";
    return os.str();
  }

  // The current screen becomes the newest frame.
  void PushScreen() {
    vizdoom::GameStatePtr state = game_.getState();
    if (state == nullptr || state->screenBuffer == nullptr) return;
    newest_ = (newest_ + 1) % stack_;
    const uint8_t* src = state->screenBuffer->data();
    uint8_t* dst = &frames_[newest_ * frame_bytes_];
    const std::size_t in_plane =
        static_cast<std::size_t>(setup_.screen_h) * setup_.screen_w;
    const std::size_t out_plane = static_cast<std::size_t>(out_h_) * out_w_;
    for (int ch = 0; ch < setup_.channels; ++ch) {
      resize_.Run(src + ch * in_plane, dst + ch * out_plane);
    }
  }

  void ReadVariables() {
    for (std::size_t i = 0; i < vars_.size(); ++i) {
      vars_[i] = game_.getGameVariable(setup_.variables[i]);
    }
  }

  // A new episode (or life): every stacked frame is the first screen, and
  // reward shaping counts from the current game variables.
  void StartObservation() {
    PushScreen();
    for (int k = 0; k < stack_; ++k) {
      if (k != newest_) {
        std::memcpy(&frames_[k * frame_bytes_], &frames_[newest_ * frame_bytes_],
                    frame_bytes_);
      }
    }
    ReadVariables();
    base_vars_ = vars_;
  }

  vizdoom_detail::Setup setup_;
  vizdoom::DoomGame& game_;
  vizdoom_detail::CombinedActions combined_;
  bool use_combined_;
  bool episodic_life_;
  unsigned frame_skip_;
  int stack_;
  int out_h_, out_w_;
  double timeout_s_;
  std::string engine_;
  std::string launcher_;
  image::Resizer resize_;  // one plane at a time (the screen is CHW)
  std::size_t frame_bytes_;
  std::vector<uint8_t> frames_;  // stack_ frames, a ring; newest_ is the last
  int newest_ = 0;
  std::vector<double> action_;
  std::vector<double> vars_, base_vars_;
  unsigned seed_ = 0;
  bool reseed_ = false;
  bool fresh_ = false;  // the episode init() started is still untouched
  Watchdog watchdog_;
  std::unique_ptr<vizdoom_detail::EngineDir> dir_;
};

}  // namespace envpool_lite
