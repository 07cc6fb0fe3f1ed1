// MiniGrid-DistShift1/2-v0: two strips of lava between the agent and the
// goal; the second strip's row is the task (minigrid/envs/distshift.py).
#pragma once

#include "envs/minigrid/minigrid_env.h"
#include "envs/minigrid/position.h"

namespace envpool_lite {
namespace minigrid {

class DistShiftEnv : public MiniGridEnv {
 public:
  static Config DefaultConfig() {
    return {{"width", int64_t{9}},
            {"height", int64_t{7}},
            {"agent_start_pos", NumberList{1.0, 1.0}},  // (): random
            {"agent_start_dir", int64_t{0}},
            {"strip2_row", int64_t{2}},
            {"max_steps", int64_t{-1}},  // -1: 4 * width * height
            {"agent_view_size", int64_t{7}}};
  }

  static EnvSpec MakeSpec(const Config& config) {
    const int w = static_cast<int>(config.GetInt("width", 4, 255));
    const int h = static_cast<int>(config.GetInt("height", 3, 255));
    GetPosition(config, "agent_start_pos", w, h);
    config.GetInt("agent_start_dir", 0, 3);
    config.GetInt("strip2_row", 1, h - 2);
    return MakeMiniGridSpec(config);
  }

  DistShiftEnv(const Config& config, uint64_t seed)
      : MiniGridEnv(config, seed, static_cast<int>(config.GetInt("width")),
                    static_cast<int>(config.GetInt("height")),
                    4 * config.GetInt("width") * config.GetInt("height"),
                    /*see_through_walls=*/true),
        start_(GetPosition(config, "agent_start_pos", width_, height_)),
        start_dir_(static_cast<int>(config.GetInt("agent_start_dir"))),
        strip2_row_(static_cast<int>(config.GetInt("strip2_row"))) {}

 protected:
  void GenGrid() override {
    WallRect(0, 0, width_, height_);
    PutObj(NewObj(kGoal, kGreen), width_ - 2, 1);
    for (int i = 0; i < width_ - 6; ++i) {
      grid_.Set(3 + i, 1, NewObj(kLava, kRed));
      grid_.Set(3 + i, strip2_row_, NewObj(kLava, kRed));
    }
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
  std::optional<std::pair<int, int>> start_;
  int start_dir_;
  int strip2_row_;
};

}  // namespace minigrid
}  // namespace envpool_lite
