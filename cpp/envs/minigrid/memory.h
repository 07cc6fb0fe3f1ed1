// MiniGrid-MemoryS*: see an object in the start room, walk the hallway and
// go to the matching one of two at its end (minigrid/envs/memory.py).
// pickup acts as toggle.
#pragma once

#include "envs/minigrid/minigrid_env.h"

namespace envpool_lite {
namespace minigrid {

class MemoryEnv : public MiniGridEnv {
 public:
  static Config DefaultConfig() {
    return {{"size", int64_t{8}},
            {"random_length", false},
            {"max_steps", int64_t{-1}},  // -1: 5 * size**2
            {"agent_view_size", int64_t{7}}};
  }

  static EnvSpec MakeSpec(const Config& config) {
    const int64_t size = config.GetInt("size", 7, 255);
    if (size % 2 == 0) {
      throw std::invalid_argument(
          "option 'size' must be odd (minigrid asserts it), got " +
          std::to_string(size));
    }
    config.GetBool("random_length");
    return MakeMiniGridSpec(config);
  }

  MemoryEnv(const Config& config, uint64_t seed)
      : MiniGridEnv(config, seed, Size(config), Size(config),
                    5 * int64_t{Size(config)} * Size(config),
                    /*see_through_walls=*/false),
        random_length_(config.GetBool("random_length")) {}

  StepResult Step(const void* action) override {
    int32_t a = *static_cast<const int32_t*>(action);
    if (a == 3) a = 5;  // pickup -> toggle
    StepResult result = MiniGridEnv::Step(&a);
    if (agent_x_ == success_x_ && agent_y_ == success_y_) {
      result.reward = Reward();
      result.terminated = true;
    }
    if (agent_x_ == failure_x_ && agent_y_ == failure_y_) {
      result.reward = 0.0;
      result.terminated = true;
    }
    return result;
  }

  ENVPOOL_LITE_STATE_AFTER(MiniGridEnv, success_x_, success_y_, failure_x_,
                           failure_y_)

 protected:
  const char* DebugName() const override { return "memory"; }
  void DebugTask(DebugState* s) const override {
    s->Int("success_pos", {success_x_, success_y_});
    s->Int("failure_pos", {failure_x_, failure_y_});
  }

  void GenGrid() override {
    const int w = width_, h = height_;
    HorzWall(0, 0);
    HorzWall(0, h - 1);
    VertWall(0, 0);
    VertWall(w - 1, 0);
    const int upper = h / 2 - 2, lower = h / 2 + 2;
    const int hallway_end = random_length_ ? RandInt(4, w - 2) : w - 3;
    for (int i = 1; i < 5; ++i) {
      grid_.Set(i, upper, 0);
      grid_.Set(i, lower, 0);
    }
    grid_.Set(4, upper + 1, 0);
    grid_.Set(4, lower - 1, 0);
    for (int i = 5; i < hallway_end; ++i) {
      grid_.Set(i, upper + 1, 0);
      grid_.Set(i, lower - 1, 0);
    }
    for (int j = 0; j < h; ++j) {
      if (j != h / 2) grid_.Set(hallway_end, j, 0);
      grid_.Set(hallway_end + 2, j, 0);
    }
    agent_x_ = RandInt(1, hallway_end + 1);
    agent_y_ = h / 2;
    agent_dir_ = 0;
    const Type start = RandInt(0, 2) == 0 ? kKey : kBall;  // [Key, Ball]
    grid_.Set(1, h / 2 - 1, NewObj(start, kGreen));
    // [[Ball, Key], [Key, Ball]]
    const bool ball_first = RandInt(0, 2) == 0;
    const Type other0 = ball_first ? kBall : kKey;
    const Type other1 = ball_first ? kKey : kBall;
    const int x = hallway_end + 1, y0 = h / 2 - 2, y1 = h / 2 + 2;
    grid_.Set(x, y0, NewObj(other0, kGreen));
    grid_.Set(x, y1, NewObj(other1, kGreen));
    if (start == other0) {
      success_x_ = x, success_y_ = y0 + 1;
      failure_x_ = x, failure_y_ = y1 - 1;
    } else {
      success_x_ = x, success_y_ = y1 - 1;
      failure_x_ = x, failure_y_ = y0 + 1;
    }
    SetMission("go to the matching object at the end of the hallway");
  }

 private:
  static int Size(const Config& config) {
    return static_cast<int>(config.GetInt("size"));
  }
  bool random_length_;
  int success_x_ = -1, success_y_ = -1, failure_x_ = -1, failure_y_ = -1;
};

}  // namespace minigrid
}  // namespace envpool_lite
