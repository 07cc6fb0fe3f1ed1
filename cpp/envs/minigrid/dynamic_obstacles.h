// MiniGrid-Dynamic-Obstacles-*: balls that move at random each step; the
// episode ends with -1 on a forward move into anything but the goal
// (minigrid/envs/dynamicobstacles.py). Three actions: left, right, forward.
#pragma once

#include <vector>

#include "envs/minigrid/minigrid_env.h"
#include "envs/minigrid/position.h"

namespace envpool_lite {
namespace minigrid {

class DynamicObstaclesEnv : public MiniGridEnv {
 public:
  static Config DefaultConfig() {
    return {{"size", int64_t{8}},
            {"agent_start_pos", NumberList{1.0, 1.0}},  // (): random
            {"agent_start_dir", int64_t{0}},
            {"n_obstacles", int64_t{4}},
            {"max_steps", int64_t{-1}},  // -1: 4 * size**2
            {"agent_view_size", int64_t{7}}};
  }

  static EnvSpec MakeSpec(const Config& config) {
    const int size = static_cast<int>(config.GetInt("size", 4, 255));
    GetPosition(config, "agent_start_pos", size, size);
    config.GetInt("agent_start_dir", 0, 3);
    config.GetInt("n_obstacles", 0, 255);
    EnvSpec spec = MakeMiniGridSpec(config);
    spec.action = MakeDiscrete("action", 3);  // left, right, forward
    return spec;
  }

  DynamicObstaclesEnv(const Config& config, uint64_t seed)
      : MiniGridEnv(config, seed, Size(config), Size(config),
                    4 * int64_t{Size(config)} * Size(config),
                    /*see_through_walls=*/true),
        start_(GetPosition(config, "agent_start_pos", width_, height_)),
        start_dir_(static_cast<int>(config.GetInt("agent_start_dir"))) {
    // minigrid: n_obstacles if n_obstacles <= size / 2 + 1, else
    // int(size / 2).
    const int64_t n = config.GetInt("n_obstacles");
    n_obstacles_ = static_cast<int>(
        static_cast<double>(n) <= Size(config) / 2.0 + 1 ? n
                                                         : Size(config) / 2);
  }

  StepResult Step(const void* action) override {
    const int fx = agent_x_ + kDirX[agent_dir_];
    const int fy = agent_y_ + kDirY[agent_dir_];
    const int front = grid_.Get(fx, fy);
    const bool not_clear = front != kNone && objs_[front].type != kGoal;
    for (int ball : obstacles_) {
      const int old_x = objs_[ball].cur_x, old_y = objs_[ball].cur_y;
      if (TryPlaceObj(ball, old_x - 1, old_y - 1, 3, 3, /*max_tries=*/100)) {
        grid_.Set(old_x, old_y, kNone);
      }
    }
    StepResult result = MiniGridEnv::Step(action);
    if (*static_cast<const int32_t*>(action) == 2 && not_clear) {
      result.reward = -1.0;
      result.terminated = true;
    }
    return result;
  }

  ENVPOOL_LITE_STATE_AFTER(MiniGridEnv, obstacles_)

 protected:
  const char* DebugName() const override { return "dynamic_obstacles"; }
  void DebugTask(DebugState* s) const override {
    std::vector<int64_t> xy;  // each obstacle's (x, y), in order
    for (int o : obstacles_) {
      xy.push_back(objs_[o].cur_x);
      xy.push_back(objs_[o].cur_y);
    }
    s->Int("obstacle_positions", std::move(xy));
  }

  void GenGrid() override {
    WallRect(0, 0, width_, height_);
    grid_.Set(width_ - 2, height_ - 2, NewObj(kGoal, kGreen));
    if (start_) {
      agent_x_ = start_->first;
      agent_y_ = start_->second;
      agent_dir_ = start_dir_;
    } else {
      PlaceAgent();
    }
    obstacles_.clear();
    for (int i = 0; i < n_obstacles_; ++i) {
      const int ball = NewObj(kBall, kBlue);
      obstacles_.push_back(ball);
      if (!TryPlaceObj(ball, 0, 0, width_, height_, /*max_tries=*/100)) {
        throw std::runtime_error(
            "MiniGrid: rejection sampling failed in place_obj (no room for "
            "the obstacles), as minigrid's RecursionError");
      }
    }
    SetMission("get to the green goal square");
  }

 private:
  static int Size(const Config& config) {
    return static_cast<int>(config.GetInt("size"));
  }
  std::optional<std::pair<int, int>> start_;
  int start_dir_;
  int n_obstacles_;
  std::vector<int> obstacles_;
};

}  // namespace minigrid
}  // namespace envpool_lite
