// MiniGrid-RedBlueDoors-*: open the red door, then the blue one; opening
// the blue one first ends the episode unrewarded
// (minigrid/envs/redbluedoors.py).
#pragma once

#include "envs/minigrid/minigrid_env.h"

namespace envpool_lite {
namespace minigrid {

class RedBlueDoorsEnv : public MiniGridEnv {
 public:
  static Config DefaultConfig() {
    return {{"size", int64_t{8}},
            {"max_steps", int64_t{-1}},  // -1: 20 * size**2
            {"agent_view_size", int64_t{7}}};
  }

  static EnvSpec MakeSpec(const Config& config) {
    config.GetInt("size", 4, 127);
    return MakeMiniGridSpec(config);
  }

  RedBlueDoorsEnv(const Config& config, uint64_t seed)
      : MiniGridEnv(config, seed, 2 * Size(config), Size(config),
                    20 * int64_t{Size(config)} * Size(config),
                    /*see_through_walls=*/false),
        size_(Size(config)) {}

  StepResult Step(const void* action) override {
    const bool red_before = objs_[red_].is_open;
    const bool blue_before = objs_[blue_].is_open;
    StepResult result = MiniGridEnv::Step(action);
    if (objs_[blue_].is_open) {
      result.reward = red_before ? Reward() : 0.0;
      result.terminated = true;
    } else if (objs_[red_].is_open && blue_before) {
      result.reward = 0.0;
      result.terminated = true;
    }
    return result;
  }

  ENVPOOL_LITE_STATE_AFTER(MiniGridEnv, red_, blue_)

 protected:
  const char* DebugName() const override { return "red_blue_door"; }

  void GenGrid() override {
    WallRect(0, 0, 2 * size_, size_);
    WallRect(size_ / 2, 0, size_, size_);
    PlaceAgent(size_ / 2, 0, size_, size_);
    red_ = NewDoor(kRed);
    grid_.Set(size_ / 2, RandInt(1, size_ - 1), red_);
    blue_ = NewDoor(kBlue);
    grid_.Set(size_ / 2 + size_ - 1, RandInt(1, size_ - 1), blue_);
    SetMission("open the red door then the blue door");
  }

 private:
  static int Size(const Config& config) {
    return static_cast<int>(config.GetInt("size"));
  }
  int size_;
  int red_ = 0, blue_ = 0;
};

}  // namespace minigrid
}  // namespace envpool_lite
