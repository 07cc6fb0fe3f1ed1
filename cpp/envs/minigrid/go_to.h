// MiniGrid-GoToDoor-* and GoToObject-*: go next to the named door or object
// and say done (minigrid/envs/gotodoor.py, gotoobject.py). toggle ends the
// episode; done ends it, rewarded when next to the target.
#pragma once

#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "envs/minigrid/minigrid_env.h"

namespace envpool_lite {
namespace minigrid {

class GoToEnv : public MiniGridEnv {
 public:
  using MiniGridEnv::MiniGridEnv;

  StepResult Step(const void* action) override {
    StepResult result = MiniGridEnv::Step(action);
    const int32_t a = *static_cast<const int32_t*>(action);
    if (a == 5) result.terminated = true;  // toggle
    if (a == 6) {                          // done
      const bool next_to =
          (agent_x_ == target_x_ && std::abs(agent_y_ - target_y_) == 1) ||
          (agent_y_ == target_y_ && std::abs(agent_x_ - target_x_) == 1);
      if (next_to) result.reward = Reward();
      result.terminated = true;
    }
    return result;
  }

  ENVPOOL_LITE_STATE_AFTER(MiniGridEnv, target_x_, target_y_)

 protected:
  // The target's position as drawn, its type and colour as the grid has
  // them there now.
  void DebugTask(DebugState* s) const override {
    DebugTargetAt(s, target_x_, target_y_);
  }

  int target_x_ = -1, target_y_ = -1;
};

class GoToDoorEnv : public GoToEnv {
 public:
  static Config DefaultConfig() {
    return {{"size", int64_t{5}},
            {"max_steps", int64_t{-1}},  // -1: 4 * size**2
            {"agent_view_size", int64_t{7}}};
  }

  static EnvSpec MakeSpec(const Config& config) {
    config.GetInt("size", 5, 255);  // minigrid asserts size >= 5
    return MakeMiniGridSpec(config);
  }

  GoToDoorEnv(const Config& config, uint64_t seed)
      : GoToEnv(config, seed, Size(config), Size(config),
                4 * int64_t{Size(config)} * Size(config),
                /*see_through_walls=*/true) {}

 protected:
  const char* DebugName() const override { return "goto_door"; }

  void GenGrid() override {
    const int w = RandInt(5, width_ + 1);
    const int h = RandInt(5, height_ + 1);
    WallRect(0, 0, w, h);
    std::pair<int, int> doors[4];
    doors[0] = {RandInt(2, w - 2), 0};
    doors[1] = {RandInt(2, w - 2), h - 1};
    doors[2] = {0, RandInt(2, h - 2)};
    doors[3] = {w - 1, RandInt(2, h - 2)};
    std::vector<Color> colors;
    while (colors.size() < 4) {
      const Color c = RandColor();
      bool seen = false;
      for (Color d : colors) seen |= d == c;
      if (!seen) colors.push_back(c);
    }
    for (int k = 0; k < 4; ++k) {
      grid_.Set(doors[k].first, doors[k].second, NewDoor(colors[k]));
    }
    PlaceAgent(0, 0, w, h);
    const int target = RandInt(0, 4);
    target_x_ = doors[target].first;
    target_y_ = doors[target].second;
    SetMission(std::string("go to the ") + ColorName(colors[target]) + " door");
  }

 private:
  static int Size(const Config& config) {
    return static_cast<int>(config.GetInt("size"));
  }
};

class GoToObjectEnv : public GoToEnv {
 public:
  static Config DefaultConfig() {
    return {{"size", int64_t{6}},
            {"numObjs", int64_t{2}},
            {"max_steps", int64_t{-1}},  // -1: 5 * size**2
            {"agent_view_size", int64_t{7}}};
  }

  static EnvSpec MakeSpec(const Config& config) {
    const int64_t size = config.GetInt("size", 4, 255);
    // distinct (type, colour) pairs, and room for them and the agent
    const int64_t room = (size - 2) * (size - 2) - 1;
    config.GetInt("numObjs", 1, std::min<int64_t>(18, room));
    return MakeMiniGridSpec(config);
  }

  GoToObjectEnv(const Config& config, uint64_t seed)
      : GoToEnv(config, seed, Size(config), Size(config),
                5 * int64_t{Size(config)} * Size(config),
                /*see_through_walls=*/true),
        num_objs_(static_cast<int>(config.GetInt("numObjs"))) {}

 protected:
  const char* DebugName() const override { return "goto_object"; }

  void GenGrid() override {
    WallRect(0, 0, width_, height_);
    constexpr Type kTypes[3] = {kKey, kBall, kBox};  // ["key", "ball", "box"]
    std::vector<std::pair<Type, Color>> objs;
    std::vector<std::pair<int, int>> positions;
    while (static_cast<int>(objs.size()) < num_objs_) {
      const Type type = kTypes[RandInt(0, 3)];
      const Color color = RandColor();
      bool seen = false;
      for (const auto& o : objs) seen |= o.first == type && o.second == color;
      if (seen) continue;
      positions.push_back(PlaceObj(NewObj(type, color)));
      objs.emplace_back(type, color);
    }
    PlaceAgent();
    const int target = RandInt(0, static_cast<int>(objs.size()));
    target_x_ = positions[target].first;
    target_y_ = positions[target].second;
    SetMission(std::string("go to the ") + ColorName(objs[target].second) +
               " " + TypeName(objs[target].first));
  }

 private:
  static int Size(const Config& config) {
    return static_cast<int>(config.GetInt("size"));
  }
  int num_objs_;
};

}  // namespace minigrid
}  // namespace envpool_lite
