// MiniGrid-DoorKey-*: pick up the key, unlock the door in the dividing
// wall, reach the goal (minigrid/envs/doorkey.py).
#pragma once

#include "envs/minigrid/minigrid_env.h"

namespace envpool_lite {
namespace minigrid {

class DoorKeyEnv : public MiniGridEnv {
 public:
  static Config DefaultConfig() {
    return {{"size", int64_t{8}},
            {"max_steps", int64_t{-1}},  // -1: 10 * size**2
            {"agent_view_size", int64_t{7}}};
  }

  static EnvSpec MakeSpec(const Config& config) {
    // The wall goes at x in [2, size - 2): size 5 is the smallest.
    config.GetInt("size", 5, 255);
    return MakeMiniGridSpec(config);
  }

  DoorKeyEnv(const Config& config, uint64_t seed)
      : MiniGridEnv(config, seed, Size(config), Size(config),
                    10 * int64_t{Size(config)} * Size(config),
                    /*see_through_walls=*/false) {}

 protected:
  void GenGrid() override {
    WallRect(0, 0, width_, height_);
    PutObj(NewObj(kGoal, kGreen), width_ - 2, height_ - 2);
    const int split = RandInt(2, width_ - 2);
    VertWall(split, 0);
    PlaceAgent(0, 0, split, height_);
    const int door = RandInt(1, height_ - 2);
    PutObj(NewDoor(kYellow, /*is_open=*/false, /*is_locked=*/true), split,
           door);
    PlaceObj(NewObj(kKey, kYellow), 0, 0, split, height_);
    SetMission("use the key to open the door and then get to the goal");
  }

 private:
  static int Size(const Config& config) {
    return static_cast<int>(config.GetInt("size"));
  }
};

}  // namespace minigrid
}  // namespace envpool_lite
