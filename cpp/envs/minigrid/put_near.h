// MiniGrid-PutNear-*: pick up the named object and drop it next to the
// other named one (minigrid/envs/putnear.py). Picking up another object, or
// any drop, ends the episode.
#pragma once

#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "envs/minigrid/minigrid_env.h"

namespace envpool_lite {
namespace minigrid {

class PutNearEnv : public MiniGridEnv {
 public:
  static Config DefaultConfig() {
    return {{"size", int64_t{6}},
            {"numObjs", int64_t{2}},
            {"max_steps", int64_t{-1}},  // -1: 5 * size
            {"agent_view_size", int64_t{7}}};
  }

  static EnvSpec MakeSpec(const Config& config) {
    const int64_t size = config.GetInt("size", 5, 255);
    // Two at least, of distinct (type, colour) pairs (18), each placed at
    // random apart from the others (not in their 3x3 blocks): with at most
    // (n*n - 2) / 9 + 1 of them in the n x n interior, the blocks of those
    // placed never cover every free cell (else minigrid's rejection
    // sampling would loop for ever).
    const int64_t n = size - 2;
    config.GetInt("numObjs", 2, std::min<int64_t>(18, (n * n - 2) / 9 + 1));
    return MakeMiniGridSpec(config);
  }

  PutNearEnv(const Config& config, uint64_t seed)
      : MiniGridEnv(config, seed, Size(config), Size(config),
                    5 * int64_t{Size(config)}, /*see_through_walls=*/true),
        num_objs_(static_cast<int>(config.GetInt("numObjs"))) {}

  StepResult Step(const void* action) override {
    const int pre_carrying = carrying_;
    StepResult result = MiniGridEnv::Step(action);
    const int32_t a = *static_cast<const int32_t*>(action);
    const int ox = agent_x_ + kDirX[agent_dir_];
    const int oy = agent_y_ + kDirY[agent_dir_];
    if (a == 3 && carrying_ != kNone) {
      const Obj& c = objs_[carrying_];
      if (c.type != move_type_ || c.color != move_color_) {
        result.terminated = true;
      }
    }
    if (a == 4 && pre_carrying != kNone) {
      if (grid_.Get(ox, oy) == pre_carrying && std::abs(ox - target_x_) <= 1 &&
          std::abs(oy - target_y_) <= 1) {
        result.reward = Reward();
      }
      result.terminated = true;
    }
    return result;
  }

  ENVPOOL_LITE_STATE_AFTER(MiniGridEnv, move_type_, move_color_, target_x_,
                           target_y_)

 protected:
  const char* DebugName() const override { return "put_near"; }
  void DebugTask(DebugState* s) const override {
    s->Int("move_type", {static_cast<int64_t>(move_type_)});
    s->Int("move_color", {static_cast<int64_t>(move_color_)});
    s->Int("move_pos", {-1, -1});  // not kept: minigrid's step never reads it
    DebugTargetAt(s, target_x_, target_y_);
  }

  void GenGrid() override {
    HorzWall(0, 0);
    HorzWall(0, height_ - 1);
    VertWall(0, 0);
    VertWall(width_ - 1, 0);
    constexpr Type kTypes[3] = {kKey, kBall, kBox};
    std::vector<std::pair<Type, Color>> objs;
    std::vector<std::pair<int, int>> positions;
    auto near = [&](int x, int y) {
      for (const auto& [px, py] : positions) {
        if (std::abs(x - px) <= 1 && std::abs(y - py) <= 1) return true;
      }
      return false;
    };
    while (static_cast<int>(objs.size()) < num_objs_) {
      const Type type = kTypes[RandInt(0, 3)];
      const Color color = RandColor();
      bool seen = false;
      for (const auto& o : objs) seen |= o.first == type && o.second == color;
      if (seen) continue;
      positions.push_back(
          PlaceObj(NewObj(type, color), 0, 0, width_, height_, near));
      objs.emplace_back(type, color);
    }
    PlaceAgent();
    const int n = static_cast<int>(objs.size());
    const int move = RandInt(0, n);
    move_type_ = objs[move].first;
    move_color_ = objs[move].second;
    int target;
    do {
      target = RandInt(0, n);
    } while (target == move);
    target_x_ = positions[target].first;
    target_y_ = positions[target].second;
    SetMission(std::string("put the ") + ColorName(move_color_) + " " +
               TypeName(move_type_) + " near the " +
               ColorName(objs[target].second) + " " +
               TypeName(objs[target].first));
  }

 private:
  static int Size(const Config& config) {
    return static_cast<int>(config.GetInt("size"));
  }
  int num_objs_;
  Type move_type_ = kKey;
  Color move_color_ = kRed;
  int target_x_ = -1, target_y_ = -1;
};

}  // namespace minigrid
}  // namespace envpool_lite
