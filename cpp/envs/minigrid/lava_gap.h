// MiniGrid-LavaGapS*: a column of lava with one gap between the agent and
// the goal (minigrid/envs/lavagap.py).
#pragma once

#include "envs/minigrid/minigrid_env.h"

namespace envpool_lite {
namespace minigrid {

class LavaGapEnv : public MiniGridEnv {
 public:
  static Config DefaultConfig() {
    return {{"size", int64_t{5}},
            {"max_steps", int64_t{-1}},  // -1: 4 * size**2
            {"agent_view_size", int64_t{7}}};
  }

  static EnvSpec MakeSpec(const Config& config) {
    config.GetInt("size", 5, 255);  // minigrid asserts width >= 5
    return MakeMiniGridSpec(config);
  }

  LavaGapEnv(const Config& config, uint64_t seed)
      : MiniGridEnv(config, seed, Size(config), Size(config),
                    4 * int64_t{Size(config)} * Size(config),
                    /*see_through_walls=*/false) {}

 protected:
  void GenGrid() override {
    WallRect(0, 0, width_, height_);
    agent_x_ = agent_y_ = 1;
    agent_dir_ = 0;
    PutObj(NewObj(kGoal, kGreen), width_ - 2, height_ - 2);
    const int gap_x = RandInt(2, width_ - 2);
    const int gap_y = RandInt(1, height_ - 1);
    for (int j = 1; j < height_ - 1; ++j) {
      grid_.Set(gap_x, j, NewObj(kLava, kRed));
    }
    grid_.Set(gap_x, gap_y, kNone);
    SetMission("avoid the lava and get to the green goal square");
  }

 private:
  static int Size(const Config& config) {
    return static_cast<int>(config.GetInt("size"));
  }
};

}  // namespace minigrid
}  // namespace envpool_lite
