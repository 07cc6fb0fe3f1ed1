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
//                         vizdoom package's; filled in by make(): see
//                         python/envpool_lite/families/vizdoom.py)
//   game_args             extra engine arguments (Cig-v1, MultiDuel-v1: a
//                         one-player deathmatch, "-host 1 -deathmatch ...")
//   img_height, img_width observation size (84 x 84), area-averaged from the
//                         scenario's screen resolution (exactly as cv2's
//                         INTER_AREA; see refkit/cv2/image.h)
//   stack_num (4)         frames stacked, oldest first: obs is uint8
//                         (stack_num * channels, img_height, img_width), each
//                         frame's planes consecutive (R, G, B or one gray)
//   frame_skip (4)        tics per step, the same action held; the engine
//                         renders only the last one; the reward is their sum
//   gray_scale            one channel (the engine's GRAY8), else RGB (3
//                         planes, the engine's CRCGCB). envpool_lite.make
//                         fills in the cfg's screen_format when it is not
//                         given (GRAY8: gray, else RGB; EnvPool's default);
//                         the C++ default is false (ViZDoom's CRCGCB)
//   use_combined_action   false: the action is a float32 vector with one
//                         entry per button of the cfg, in its order; a binary
//                         button is pressed iff its entry is >= 0.5, a delta
//                         button (TURN_LEFT_RIGHT_DELTA, ...) takes its entry
//                         as is. true: Discrete(n), one index into the legal
//                         combinations of buttons (see CombinedActions)
//   force_speed (false)   combined actions only (as EnvPool): SPEED, if the
//                         cfg has it, is held in every action, which halves n
//   delta_button_config   combined actions only: {NAME: (num, min, max)}
//                         (e.g. {"LOOK_UP_DOWN_DELTA": (11, -10, 10)}): that
//                         delta button takes num evenly spaced values from
//                         min to max (as
//                         EnvPool computes them, in float32), multiplying n by
//                         num; num 1 leaves it at 0, as unlisted ones are
//   episodic_life         the episode also ends (terminated) when the player
//                         dies; if the game goes on (multiplayer), the next
//                         auto-reset respawns the player instead of
//                         restarting the map
//   game_variables        extra game variables to report (names, e.g.
//                         ["HEALTH", "KILLCOUNT"])
//   reward_mode           "scenario" (default): the scenario's own reward
//                         (DoomGame's, summed over the skipped tics), plus the
//                         shaping of reward_config and
//                         selected_weapon_reward_config if given.
//                         "envpool": EnvPool 1.2.5's reward exactly: only its
//                         shaping, by default with its tables (make() fills
//                         them in: envpool_lite.families.vizdoom) over
//                         the game variables it tracks (the cfg's and
//                         kEnvPoolVariables, which the info then reports too,
//                         and those of game_variables), and 0 on a step that
//                         ends the episode (EnvPool has no state to read then)
//   reward_config         shaping: {NAME: (pos, neg)} adds, every step, pos
//                         per unit a game variable rose and neg per unit it
//                         fell (EnvPool's convention: neg < 0 penalises a
//                         drop).
//                         As EnvPool: weights are float32, each term is
//                         rounded to float32 and summed in float32 in the
//                         order of the variables, a DAMAGECOUNT rise counts
//                         at most 200 and a HITCOUNT rise at most 5 per step,
//                         and HEALTH's bogus negative readings (ViZDoom's
//                         -999900) are replaced by the last good value.
//                         Scenario mode tracks (and reports) every variable
//                         named; envpool mode, as EnvPool, ignores entries for
//                         variables it does not track
//   selected_weapon_reward_config
//                         {slot: reward} (slots 0-9): added every step while
//                         the selected weapon (SELECTED_WEAPON) has been held
//                         for weapon_duration steps and has ammo
//   weapon_duration (5)   see selected_weapon_reward_config
//   engine_timeout (30 s) the longest the engine may take to answer a step,
//                         reset or close (starting it: at least 30 s); past
//                         it the engine is killed and the call fails
//
// Rendering (Render, render()): the engine's last screen at its own
// resolution (the cfg's screen_resolution), RGB (H, W, 3); with gray_scale,
// the engine's GRAY8 screen in all three channels, as EnvPool renders it.
// (GRAY8 is a function of the RGB screen: the engine computes each pixel
// from its palette colour as the byte 0.21 R + 0.72 G + 0.07 B, in double,
// in that order, truncated (viz_buffers.cpp, VIZ_CopyBuffer); the test
// suite checks that against the engine. Running the engine in CRCGCB and
// deriving GRAY8 ourselves would render gray envs in colour, but costs about
// 15% of a gray step (the derivation is exact only with the engine's double
// arithmetic, per pixel: 100 divides 21 R + 72 G + 7 B for a fifth of
// Doom's pixels, every gray one among them), so gray envs keep GRAY8.) The
// screen is the state's own buffer, kept by reference: nothing is copied
// per step. After an episode's last step (the engine has no state then) it
// shows the last screen it had; before the first reset, black.
//
// State (get_state / set_state): not supported; get_state raises
// NotImplementedError with the reason (VizdoomEnv::kNoState, measured).
//
// Info: every game variable of the cfg, then (reward_mode "envpool") those of
// kEnvPoolVariables, then those of game_variables, then (reward_mode
// "scenario") those of reward_config and, with a weapon table,
// SELECTED_WEAPON and SELECTED_WEAPON_AMMO: each a float64 field named as
// ViZDoom names it ("AMMO2", "HEALTH"). Time limits: the scenario's
// episode_timeout is replaced by max_episode_steps (a truncation); each
// standard task's default is its timeout at the default frame_skip of 4
// (Basic-v1: 300 tics, 75 steps), or 525 steps (EnvPool's) for scenarios
// without one.
#pragma once

#include <ViZDoom.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cctype>
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
#include "envs/vizdoom/engine_process.h"
#include "refkit/cv2/image.h"

namespace envpool_lite {

struct VizdoomTask {
  const char* task_id;
  const char* scenario;  // the vizdoom package's scenarios/<name>.cfg
  int64_t max_episode_steps;
};

// EnvPool's task names (the cfg's name, CamelCased). VizdoomCustom-v1 takes
// cfg_path (and wad_path). cig.wad and multi_duel.wad have deathmatch starts
// only: Cig-v1 and MultiDuel-v1 host a one-player deathmatch (their default
// game_args, filled in by envpool_lite.families.vizdoom).
inline constexpr VizdoomTask kVizdoomTasks[] = {
    {"Basic-v1", "basic", 75},
    {"BasicAudio-v1", "basic_audio", 75},
    {"BasicNotifications-v1", "basic_notifications", 75},
    {"Cig-v1", "cig", 6300},
    {"DeadlyCorridor-v1", "deadly_corridor", 525},
    {"DefendTheCenter-v1", "defend_the_center", 525},
    {"DefendTheLine-v1", "defend_the_line", 525},
    {"HealthGathering-v1", "health_gathering", 525},
    {"HealthGatheringSupreme-v1", "health_gathering_supreme", 525},
    {"MultiDuel-v1", "multi_duel", 525},
    {"MyWayHome-v1", "my_way_home", 525},
    {"PredictPosition-v1", "predict_position", 75},
    {"TakeCover-v1", "take_cover", 525},
    {"Deathmatch-v1", "deathmatch", 1050},
    {"RocketBasic-v1", "rocket_basic", 75},
    {"SimplerBasic-v1", "simpler_basic", 75},
    // EnvPool's own: the maps of Direct Future Prediction (Dosovitskiy and
    // Koltun), from the envpool-assets package (the vizdoom-maps extra).
    {"D1Basic-v1", "D1_basic", 525},
    {"D2Navigation-v1", "D2_navigation", 525},
    {"D3Battle-v1", "D3_battle", 525},
    {"D4Battle2-v1", "D4_battle2", 525},
    {"VizdoomCustom-v1", "", 525},
};

namespace vizdoom_detail {

// EnvPool's reward (reward_mode "envpool"): the game variables it always
// tracks (and reports), in its order. (Its default tables are filled in by
// make(), python/envpool_lite/families/vizdoom.py.)
inline constexpr vizdoom::GameVariable kEnvPoolVariables[] = {
    vizdoom::AMMO2,     vizdoom::AMMO3,           vizdoom::AMMO4,
    vizdoom::AMMO5,     vizdoom::AMMO6,           vizdoom::AMMO7,
    vizdoom::ARMOR,     vizdoom::DAMAGECOUNT,     vizdoom::DEATHCOUNT,
    vizdoom::FRAGCOUNT, vizdoom::HEALTH,          vizdoom::HITCOUNT,
    vizdoom::KILLCOUNT, vizdoom::SELECTED_WEAPON, vizdoom::SELECTED_WEAPON_AMMO,
    vizdoom::USER2};
inline constexpr int kWeaponSlots = 10;

// A game variable's name, as ViZDoom names it (its gameVariableToString
// misses four: "UNKNOWN" for HITCOUNT, HITS_TAKEN, DAMAGECOUNT, DAMAGE_TAKEN).
inline std::string VariableName(vizdoom::GameVariable v) {
  switch (v) {
    case vizdoom::HITCOUNT:
      return "HITCOUNT";
    case vizdoom::HITS_TAKEN:
      return "HITS_TAKEN";
    case vizdoom::DAMAGECOUNT:
      return "DAMAGECOUNT";
    case vizdoom::DAMAGE_TAKEN:
      return "DAMAGE_TAKEN";
    default:
      return vizdoom::gameVariableToString(v);
  }
}

inline vizdoom::GameVariable ParseGameVariable(const std::string& name) {
  for (int i = 0; i <= static_cast<int>(vizdoom::USER60); ++i) {
    auto v = static_cast<vizdoom::GameVariable>(i);
    if (VariableName(v) == name) return v;
  }
  throw std::invalid_argument("unknown ViZDoom game variable '" + name +
                              "' (names as in ViZDoom: HEALTH, KILLCOUNT, "
                              "AMMO2, ...)");
}

// delta_button_config's setting of one delta button: num values from low to
// high (float32, as EnvPool's tuple<int, float, float>).
struct DeltaSetting {
  int button = -1;  // index into the cfg's buttons
  int64_t num = 1;
  float low = 0.0f, high = 0.0f;
};

// The legal button combinations, as a mixed-radix number. Binary buttons
// fall in groups, in the order the cfg first lists a button of each: an
// opposing pair (MOVE_LEFT/MOVE_RIGHT, MOVE_FORWARD/MOVE_BACKWARD,
// TURN_LEFT/TURN_RIGHT, LOOK_UP/LOOK_DOWN, MOVE_UP/MOVE_DOWN,
// SELECT_NEXT/PREV_WEAPON, SELECT_NEXT/PREV_ITEM) takes one of {neither, the
// first listed, the other}; all SELECT_WEAPONn together take {none, one of
// them}; any other binary button {off, on}, except SPEED with force_speed,
// which is held in every action and takes no digit. Then each delta button
// that delta_button_config gives num >= 2 values, in the cfg's order, takes
// one of them (the first is `low`); other delta buttons stay at 0 (drive
// them with use_combined_action=False). Index i picks digit i % radix for
// the first group, then (i / radix) for the rest: index 0 presses nothing
// (and sets each configured delta button to its low). Basic-v1: 6 actions.
// The count is EnvPool's (BuildActionSet); the order of the indices is ours.
class CombinedActions {
 public:
  CombinedActions(const std::vector<vizdoom::Button>& buttons, bool force_speed,
                  const std::vector<DeltaSetting>& deltas) {
    using B = vizdoom::Button;
    static const std::pair<B, B> kPairs[] = {
        {B::MOVE_RIGHT, B::MOVE_LEFT},
        {B::MOVE_BACKWARD, B::MOVE_FORWARD},
        {B::TURN_RIGHT, B::TURN_LEFT},
        {B::LOOK_UP, B::LOOK_DOWN},
        {B::MOVE_UP, B::MOVE_DOWN},
        {B::SELECT_NEXT_WEAPON, B::SELECT_PREV_WEAPON},
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
      if (force_speed && buttons[i] == B::SPEED) {
        held_.push_back(i);
        continue;
      }
      int key = group_key(buttons[i]);
      auto it = std::find(keys.begin(), keys.end(), key);
      if (it == keys.end()) {
        keys.push_back(key);
        groups_.push_back({{-1, 0.0}, {i, 1.0}});
      } else {
        groups_[it - keys.begin()].push_back({i, 1.0});
      }
    }
    // The binary groups' count first: a delta button's values are only made
    // if their number still fits.
    auto multiply = [&](int64_t radix) {
      if (radix > std::numeric_limits<int32_t>::max() / count_) {
        throw std::invalid_argument(
            "too many button combinations for use_combined_action (more than "
            "2^31 - 1)");
      }
      count_ *= radix;
    };
    for (const auto& g : groups_) multiply(static_cast<int64_t>(g.size()));
    for (int i = 0; i < static_cast<int>(buttons.size()); ++i) {
      for (const DeltaSetting& d : deltas) {
        if (d.button != i || d.num <= 1) continue;
        multiply(d.num);
        // EnvPool's values: a float step, accumulated in float.
        std::vector<std::pair<int, double>> values;
        float step = (d.high - d.low) / static_cast<float>(d.num - 1);
        float a = d.low;
        for (int64_t k = 0; k < d.num; ++k, a += step) values.push_back({i, a});
        groups_.push_back(std::move(values));
      }
    }
  }
  int64_t Count() const { return count_; }
  void Decode(int64_t index, std::vector<double>* action) const {
    std::fill(action->begin(), action->end(), 0.0);
    for (int b : held_) (*action)[b] = 1.0;
    for (const auto& g : groups_) {
      int64_t radix = static_cast<int64_t>(g.size());
      const auto& [button, value] = g[index % radix];
      index /= radix;
      if (button >= 0) (*action)[button] = value;
    }
  }

 private:
  // One digit each: the choices (button, value); button -1 sets nothing.
  std::vector<std::vector<std::pair<int, double>>> groups_;
  std::vector<int> held_;  // pressed in every action (force_speed's SPEED)
  int64_t count_ = 1;
};

// A DoomGame configured from the options (no engine started yet), and what
// follows from it.
struct Setup {
  std::unique_ptr<vizdoom::DoomGame> game;
  std::vector<vizdoom::Button> buttons;
  std::vector<vizdoom::GameVariable> variables;  // reported in info
  std::vector<double> pos_weight, neg_weight;    // per variable (float32s)
  bool envpool_reward = false;                   // reward_mode "envpool"
  bool shaped = false;  // reward_config or the weapon reward (or envpool)
  bool weapon_shaped = false;
  std::array<double, kWeaponSlots> weapon_reward{};
  int64_t weapon_duration = 5;
  bool force_speed = false;
  std::vector<DeltaSetting> deltas;
  int screen_h = 0, screen_w = 0;
  int channels = 3;  // of the screen and the observation
};

inline std::string AbsoluteFile(const std::string& path, const char* what) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) {
    throw std::invalid_argument(std::string(what) + " '" + path +
                                "' is not a file");
  }
  return std::filesystem::absolute(path).string();
}

inline vizdoom::Button ParseDeltaButton(const std::string& name) {
  for (int i = 0; i <= static_cast<int>(vizdoom::MOVE_UP_DOWN_DELTA); ++i) {
    auto b = static_cast<vizdoom::Button>(i);
    if (vizdoom::isDeltaButton(b) && vizdoom::buttonToString(b) == name) {
      return b;
    }
  }
  throw std::invalid_argument(
      "delta_button_config: '" + name +
      "' is not a delta button (LOOK_UP_DOWN_DELTA, TURN_LEFT_RIGHT_DELTA, "
      "MOVE_FORWARD_BACKWARD_DELTA, MOVE_LEFT_RIGHT_DELTA, "
      "MOVE_UP_DOWN_DELTA)");
}

inline void ConfigureActions(const Config& c, Setup* s) {
  s->force_speed = c.GetBool("force_speed");
  for (const auto& [name, setting] : c.GetNamedNumbers("delta_button_config")) {
    DeltaSetting d;
    if (setting.size() != 3 || setting[0] != std::floor(setting[0]) ||
        !std::isfinite(setting[1]) || !std::isfinite(setting[2])) {
      throw std::invalid_argument(
          "delta_button_config['" + name +
          "'] must be (num: int, min, max) with finite min and max (e.g. "
          "{\"LOOK_UP_DOWN_DELTA\": (11, -10, 10)})");
    }
    if (!(setting[0] >= 1 && setting[0] <= (1 << 20))) {
      throw std::invalid_argument(
          "delta_button_config: " + name +
          "'s num must be >= 1 (and at most 2**20), got " +
          std::to_string(setting[0]));
    }
    d.num = static_cast<int64_t>(setting[0]);
    vizdoom::Button b = ParseDeltaButton(name);
    auto it = std::find(s->buttons.begin(), s->buttons.end(), b);
    if (it == s->buttons.end()) {
      throw std::invalid_argument("delta_button_config: the scenario has no " +
                                  name + " button");
    }
    d.button = static_cast<int>(it - s->buttons.begin());
    d.low = static_cast<float>(setting[1]);
    d.high = static_cast<float>(setting[2]);
    for (const DeltaSetting& other : s->deltas) {
      if (other.button == d.button) {
        throw std::invalid_argument("delta_button_config lists " + name +
                                    " twice");
      }
    }
    s->deltas.push_back(d);
  }
}

// The reward: reward_mode, reward_config, the weapon reward; adds the game
// variables they need to s->variables (and the game).
inline void ConfigureReward(const Config& c, Setup* s) {
  vizdoom::DoomGame& g = *s->game;
  auto find_variable = [&](vizdoom::GameVariable v) -> int {
    auto it = std::find(s->variables.begin(), s->variables.end(), v);
    return it == s->variables.end()
               ? -1
               : static_cast<int>(it - s->variables.begin());
  };
  auto add_variable = [&](vizdoom::GameVariable v) -> int {
    int i = find_variable(v);
    if (i >= 0) return i;
    s->variables.push_back(v);
    g.addAvailableGameVariable(v);
    return static_cast<int>(s->variables.size()) - 1;
  };
  const std::string& mode = c.GetString("reward_mode");
  if (mode != "scenario" && mode != "envpool") {
    throw std::invalid_argument(
        "reward_mode must be \"scenario\" (the "
        "scenario's reward) or \"envpool\" (EnvPool's "
        "shaping), got \"" +
        mode + "\"");
  }
  s->envpool_reward = mode == "envpool";
  if (s->envpool_reward) {
    for (vizdoom::GameVariable v : kEnvPoolVariables) add_variable(v);
  }
  for (const std::string& name : c.GetStringList("game_variables")) {
    add_variable(ParseGameVariable(name));
  }

  std::vector<std::pair<int, std::pair<double, double>>> weights;
  for (const auto& [name, w] : c.GetNamedNumbers("reward_config")) {
    if (w.size() != 2 || !std::isfinite(w[0]) || !std::isfinite(w[1])) {
      throw std::invalid_argument(
          "reward_config['" + name +
          "'] must be (pos, neg) with finite weights (e.g. "
          "{\"HEALTH\": (0.005, -0.003)})");
    }
    vizdoom::GameVariable v = ParseGameVariable(name);
    // EnvPool shapes only the variables it tracks.
    int i = s->envpool_reward ? find_variable(v) : add_variable(v);
    if (i >= 0) weights.push_back({i, {w[0], w[1]}});
  }

  for (const auto& [slot, reward] :
       c.GetIntKeyedNumbers("selected_weapon_reward_config")) {
    if (slot < 0 || slot >= kWeaponSlots || !std::isfinite(reward)) {
      throw std::invalid_argument(
          "selected_weapon_reward_config: " + std::to_string(slot) +
          " is not a weapon slot 0-9 with a finite reward (e.g. {3: 0.001})");
    }
    s->weapon_reward[slot] = static_cast<float>(reward);
    s->weapon_shaped = true;
  }
  s->weapon_duration = c.GetInt("weapon_duration", 0, 1 << 20);
  if (s->weapon_shaped) {
    add_variable(vizdoom::SELECTED_WEAPON);
    add_variable(vizdoom::SELECTED_WEAPON_AMMO);
  }

  s->pos_weight.assign(s->variables.size(), 0.0);
  s->neg_weight.assign(s->variables.size(), 0.0);
  for (const auto& [i, w] : weights) {  // EnvPool's weights are float32
    s->pos_weight[i] = static_cast<float>(w.first);
    s->neg_weight[i] = static_cast<float>(w.second);
  }
  s->shaped = s->envpool_reward || s->weapon_shaped || !weights.empty();
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
  // Upper limits: beyond them a value is a slip that would cost minutes or
  // all the memory; frame_skip and engine_timeout bound how long one step
  // or the engine's start (and so close() or make()) can take.
  c.GetInt("img_height", 1, 2048);
  c.GetInt("img_width", 1, 2048);
  c.GetInt("stack_num", 1, 64);
  c.GetInt("frame_skip", 1, 1000);
  c.GetInt("max_episode_steps", 1, std::numeric_limits<int32_t>::max());
  if (!(c.GetFloat("engine_timeout", 0.0, 600.0) > 0.0)) {
    throw std::invalid_argument(
        "option 'engine_timeout' must be in (0, 600] seconds");
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
  ConfigureActions(c, &s);
  ConfigureReward(c, &s);
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
                  {"gray_scale", false},
                  {"use_combined_action", false},
                  {"force_speed", false},
                  {"delta_button_config", NamedNumbers()},
                  {"episodic_life", false},
                  {"game_variables", StringList()},
                  {"reward_mode", std::string("scenario")},
                  {"reward_config", NamedNumbers()},
                  {"selected_weapon_reward_config", IntKeyedNumbers()},
                  {"weapon_duration", int64_t{5}},
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
          "action",
          vizdoom_detail::CombinedActions(s.buttons, s.force_speed, s.deltas)
              .Count());
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
      spec.info.push_back(MakeScalar<double>(vizdoom_detail::VariableName(v)));
    }
    spec.max_episode_steps = config.GetInt("max_episode_steps");
    spec.render_height = s.screen_h;
    spec.render_width = s.screen_w;
    // The engine and its launcher: about 20 MiB resident at 160x120 (ps).
    spec.step_waits_on_process = true;
    spec.external_bytes_per_env =
        24 * 1024 * 1024 + 4 * s.screen_h * s.screen_w;
    return spec;
  }

  VizdoomEnv(const Config& config, uint64_t seed)
      : setup_(vizdoom_detail::Configure(config)),
        game_(*setup_.game),
        combined_(setup_.buttons, setup_.force_speed,
                  config.GetBool("use_combined_action")
                      ? setup_.deltas
                      : std::vector<vizdoom_detail::DeltaSetting>()),
        use_combined_(config.GetBool("use_combined_action")),
        episodic_life_(config.GetBool("episodic_life")),
        frame_skip_(static_cast<unsigned>(config.GetInt("frame_skip"))),
        stack_(static_cast<int>(config.GetInt("stack_num"))),
        out_h_(static_cast<int>(config.GetInt("img_height"))),
        out_w_(static_cast<int>(config.GetInt("img_width"))),
        timeout_s_(config.GetFloat("engine_timeout")),
        engine_(
            std::filesystem::absolute(config.GetString("vzd_path")).string()),
        launcher_(vizdoom_detail::LauncherPath()),
        resize_(setup_.screen_h, setup_.screen_w, out_h_, out_w_, 1,
                image::Resizer::Method::kArea),
        frame_bytes_(static_cast<std::size_t>(setup_.channels) * out_h_ *
                     out_w_),
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
    double reward = setup_.envpool_reward ? 0.0 : game_.getLastReward();
    // EnvPool has no state to shape from on the step that ends an episode.
    if (setup_.shaped && !(setup_.envpool_reward && finished)) {
      reward += Shaping();
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

  // get_state / set_state: not supported (see kNoState).
  void SaveState(StateWriter& out) const override {
    (void)out;
    throw StateUnsupported(kNoState);
  }
  void LoadState(StateReader& in) override {
    (void)in;
    throw StateUnsupported(kNoState);
  }

  // The last screen as HWC RGB (a gray one in all three channels); black if
  // there was none yet.
  void Render(uint8_t* rgb) override {
    const std::size_t plane =
        static_cast<std::size_t>(setup_.screen_h) * setup_.screen_w;
    const std::size_t channels = static_cast<std::size_t>(setup_.channels);
    if (screen_ == nullptr || screen_->size() < channels * plane) {
      std::memset(rgb, 0, 3 * plane);
      return;
    }
    const uint8_t* src = screen_->data();
    const uint8_t* green = src + (channels == 3 ? plane : 0);
    const uint8_t* blue = src + (channels == 3 ? 2 * plane : 0);
    for (std::size_t i = 0; i < plane; ++i) {
      rgb[3 * i] = src[i];
      rgb[3 * i + 1] = green[i];
      rgb[3 * i + 2] = blue[i];
    }
  }

 private:
  using Watchdog = vizdoom_detail::Watchdog;

  // Why an env cannot save its state, as measured on ViZDoom 1.3.2 (the
  // engine's own savegames, DoomGame::save / load, are the only way to
  // carry its world): save() runs 2 engine tics and load() 1 more, so the
  // world moves on with the held buttons; pausing the engine around them
  // ("pause") keeps the world still, but the next steps still differ, since
  // the engine's input state (accelerative turning, held keys) is not in a
  // savegame and the paused tics advance it; and the client library's
  // per-instance random generator, which seeds every next episode, can be
  // neither read nor set (only reseeded).
  static constexpr const char* kNoState =
      "ViZDoom's savegames do not restore an env exactly: save() runs 2 "
      "engine tics and load() 1 more (the world moves on with the held "
      "buttons); pausing the engine around them keeps the world still, but "
      "the engine's input state (accelerative turning, held keys) is not in "
      "a savegame and the next steps still differ, and the client library's "
      "random generator that seeds every next episode cannot be read or set. "
      "Exact states need a ViZDoom whose save and load neither tick nor drop "
      "the input state, with access to that generator (or a replay of every "
      "action since the env was last seeded)";

  // Starts the engine in a new private directory. A clash of instance names
  // with a live engine (the launcher refuses to start) is retried.
  void StartEngine() {
    for (int attempt = 0;; ++attempt) {
      dir_ = std::make_unique<vizdoom_detail::EngineDir>(engine_, launcher_);
      game_.setViZDoomPath(dir_->LauncherLink());
      game_.setDoomConfigPath(dir_->IniPath());
      try {
        Watchdog::Guard guard(watchdog_, dir_->Path(),
                              std::max(timeout_s_, 30.0));
        game_.init();
      } catch (const std::exception& e) {
        bool collided = dir_->Collided();
        bool fired = watchdog_.Fired();
        CloseEngine();
        if (collided && attempt < 4) continue;
        std::string why = e.what();
        while (!why.empty() &&
               std::isspace(static_cast<unsigned char>(why.back()))) {
          why.pop_back();
        }
        if (why.find("No player 1 start") != std::string::npos) {
          why +=
              " (the map has deathmatch starts only: host a deathmatch, "
              "game_args=\"-host 1 -deathmatch\", as Cig-v1 and "
              "MultiDuel-v1 do by default)";
        }
        throw std::runtime_error(
            fired ? "the ViZDoom engine did not start within " +
                        Seconds(std::max(timeout_s_, 30.0)) + " and was killed"
                  : "the ViZDoom engine did not start: " + why);
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
        Watchdog::Guard guard(watchdog_, dir_->Path(),
                              std::min(timeout_s_, 10.0));
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
      throw std::runtime_error(
          std::string("the ViZDoom engine is not running (") + what + ")");
    }
    try {
      Watchdog::Guard guard(watchdog_, dir_->Path(), timeout_s_);
      f();
    } catch (const std::exception& e) {
      bool fired = watchdog_.Fired();
      CloseEngine();
      throw std::runtime_error(
          fired
              ? std::string("the ViZDoom engine did not answer within ") +
                    Seconds(timeout_s_) + " (engine_timeout) during " + what +
                    "; it was killed (a new one starts at the next reset)"
              : std::string("the ViZDoom engine failed during ") + what + ": " +
                    e.what() + " (a new one starts at the next reset)");
    }
  }

  static std::string Seconds(double s) {
    std::ostringstream os;
    os << s << " s";
    return os.str();
  }

  // The current screen becomes the newest frame (and what Render shows: the
  // state's buffer is kept, not copied).
  void PushScreen() {
    vizdoom::GameStatePtr state = game_.getState();
    if (state == nullptr || state->screenBuffer == nullptr) return;
    screen_ = state->screenBuffer;
    newest_ = (newest_ + 1) % stack_;
    const uint8_t* src = screen_->data();
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

  // reward_config's and the weapon reward's shaping from base_vars_ to
  // vars_, computed as EnvPool computes it (its float32 arithmetic, caps and
  // HEALTH fix-up, which also corrects vars_ and base_vars_).
  float Shaping() {
    float reward = 0.0f;
    int weapon = -1, ammo = 0;
    for (std::size_t i = 0; i < vars_.size(); ++i) {
      double delta = vars_[i] - base_vars_[i];
      switch (setup_.variables[i]) {
        case vizdoom::DAMAGECOUNT:  // else BFG and shotguns pay too much
          delta = std::min(delta, 200.0);
          break;
        case vizdoom::HITCOUNT:
          delta = std::min(delta, 5.0);
          break;
        case vizdoom::SELECTED_WEAPON:
          weapon = static_cast<int>(vars_[i]);
          break;
        case vizdoom::SELECTED_WEAPON_AMMO:
          ammo = static_cast<int>(vars_[i]);
          break;
        case vizdoom::HEALTH:  // ViZDoom can read -999900 (issue 202)
          if (base_vars_[i] < 0 && vars_[i] < 0) {
            base_vars_[i] = vars_[i] = 100;
          } else if (vars_[i] < 0) {
            vars_[i] = base_vars_[i];
          } else if (base_vars_[i] < 0) {
            base_vars_[i] = vars_[i];
          }
          delta = vars_[i] - base_vars_[i];
          break;
        default:
          break;
      }
      if (delta >= 0) {
        reward += static_cast<float>(delta * setup_.pos_weight[i]);
      } else {
        reward -= static_cast<float>(delta * setup_.neg_weight[i]);
      }
    }
    if (setup_.weapon_shaped) {
      if (weapon == held_weapon_) {
        ++held_steps_;
      } else {
        held_weapon_ = weapon;
        held_steps_ = 1;
      }
      if (weapon >= 0 && weapon < vizdoom_detail::kWeaponSlots &&
          held_steps_ >= setup_.weapon_duration && ammo > 0) {
        reward += setup_.weapon_reward[weapon];
      }
    }
    return reward;
  }

  // A new episode (or life): every stacked frame is the first screen, and
  // reward shaping counts from the current game variables (and the weapon
  // now selected, held for one step, as EnvPool counts).
  void StartObservation() {
    PushScreen();
    for (int k = 0; k < stack_; ++k) {
      if (k != newest_) {
        std::memcpy(&frames_[k * frame_bytes_],
                    &frames_[newest_ * frame_bytes_], frame_bytes_);
      }
    }
    ReadVariables();
    base_vars_ = vars_;
    if (setup_.shaped) {
      held_weapon_ = -1;
      held_steps_ = 0;
      Shaping();
      base_vars_ = vars_;
    }
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
  vizdoom::ImageBufferPtr screen_;  // the last screen (the state's buffer)
  std::vector<double> action_;
  std::vector<double> vars_, base_vars_;
  int held_weapon_ = -1;    // the weapon reward's selected weapon
  int64_t held_steps_ = 0;  // steps it has been selected
  unsigned seed_ = 0;
  bool reseed_ = false;
  bool fresh_ = false;  // the episode init() started is still untouched
  Watchdog watchdog_;
  std::unique_ptr<vizdoom_detail::EngineDir> dir_;
};

}  // namespace envpool_lite
