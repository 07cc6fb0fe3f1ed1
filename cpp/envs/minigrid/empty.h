// MiniGrid-Empty-*: an empty room, the goal in the bottom-right corner
// (minigrid/envs/empty.py).
#pragma once

#include "envs/minigrid/minigrid_env.h"
#include "envs/minigrid/position.h"

namespace envpool_lite {
namespace minigrid {

class EmptyEnv : public MiniGridEnv {
 public:
  static Config DefaultConfig() {
    return {{"size", int64_t{8}},
            {"agent_start_pos", NumberList{1.0, 1.0}},  // (): random
            {"agent_start_dir", int64_t{0}},
            {"max_steps", int64_t{-1}},  // -1: 4 * size**2
            {"agent_view_size", int64_t{7}}};
  }

  static EnvSpec MakeSpec(const Config& config) {
    const int size = static_cast<int>(config.GetInt("size", 3, 255));
    const auto start = GetPosition(config, "agent_start_pos", size, size);
    if (!start && size < 4) {
      throw std::invalid_argument(
          "option 'size' must be >= 4 with a random start (size 3 has one "
          "free cell, the goal's), got " +
          std::to_string(size));
    }
    config.GetInt("agent_start_dir", 0, 3);
    return MakeMiniGridSpec(config);
  }

  EmptyEnv(const Config& config, uint64_t seed)
      : MiniGridEnv(config, seed, Size(config), Size(config),
                    4 * int64_t{Size(config)} * Size(config),
                    /*see_through_walls=*/true),
        start_(GetPosition(config, "agent_start_pos", width_, height_)),
        start_dir_(static_cast<int>(config.GetInt("agent_start_dir"))) {}

 protected:
  void GenGrid() override {
    WallRect(0, 0, width_, height_);
    PutObj(NewObj(kGoal, kGreen), width_ - 2, height_ - 2);
    if (start_) {
      agent_x_ = start_->first;
      agent_y_ = start_->second;
      agent_dir_ = start_dir_;
    } else {
      PlaceAgent();
    }
    SetMission("get to the green goal square");
  }

 private:
  static int Size(const Config& config) {
    return static_cast<int>(config.GetInt("size"));
  }
  std::optional<std::pair<int, int>> start_;
  int start_dir_;
};

}  // namespace minigrid
}  // namespace envpool_lite
