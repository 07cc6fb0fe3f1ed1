// MiniGrid-FourRooms-v0: four rooms of a 19x19 grid joined by gaps, the
// agent and the goal placed at random (minigrid/envs/fourrooms.py).
#pragma once

#include "envs/minigrid/minigrid_env.h"
#include "envs/minigrid/position.h"

namespace envpool_lite {
namespace minigrid {

class FourRoomsEnv : public MiniGridEnv {
 public:
  static constexpr int kSize = 19;

  static Config DefaultConfig() {
    return {{"agent_pos", NumberList{}},  // (): random
            {"goal_pos", NumberList{}},   // (): random
            {"max_steps", int64_t{100}},
            {"agent_view_size", int64_t{7}}};
  }

  static EnvSpec MakeSpec(const Config& config) {
    GetPosition(config, "agent_pos", kSize, kSize);
    GetPosition(config, "goal_pos", kSize, kSize);
    return MakeMiniGridSpec(config);
  }

  FourRoomsEnv(const Config& config, uint64_t seed)
      : MiniGridEnv(config, seed, kSize, kSize, 100,
                    /*see_through_walls=*/false),
        agent_pos_(GetPosition(config, "agent_pos", kSize, kSize)),
        goal_pos_(GetPosition(config, "goal_pos", kSize, kSize)) {}

 protected:
  void GenGrid() override {
    HorzWall(0, 0);
    HorzWall(0, height_ - 1);
    VertWall(0, 0);
    VertWall(width_ - 1, 0);
    const int room_w = width_ / 2, room_h = height_ / 2;
    for (int j = 0; j < 2; ++j) {
      for (int i = 0; i < 2; ++i) {
        const int xl = i * room_w, yt = j * room_h;
        const int xr = xl + room_w, yb = yt + room_h;
        if (i + 1 < 2) {
          VertWall(xr, yt, room_h);
          grid_.Set(xr, RandInt(yt + 1, yb), kNone);
        }
        if (j + 1 < 2) {
          HorzWall(xl, yb, room_w);
          grid_.Set(RandInt(xl + 1, xr), yb, kNone);
        }
      }
    }
    if (agent_pos_) {
      agent_x_ = agent_pos_->first;
      agent_y_ = agent_pos_->second;
      grid_.Set(agent_x_, agent_y_, kNone);
      agent_dir_ = RandInt(0, 4);
    } else {
      PlaceAgent();
    }
    if (goal_pos_) {
      PutObj(NewObj(kGoal, kGreen), goal_pos_->first, goal_pos_->second);
    } else {
      PlaceObj(NewObj(kGoal, kGreen));
    }
    SetMission("reach the goal");
  }

 private:
  std::optional<std::pair<int, int>> agent_pos_, goal_pos_;
};

}  // namespace minigrid
}  // namespace envpool_lite
