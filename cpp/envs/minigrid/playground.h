// MiniGrid-Playground-v0: a 19x19 grid of 3 x 3 rooms joined by closed
// doors of random colours, 12 random objects (keys, balls, boxes) and no
// goal: the episode ends only at max_steps (minigrid/envs/playground.py).
#pragma once

#include "envs/minigrid/minigrid_env.h"

namespace envpool_lite {
namespace minigrid {

class PlaygroundEnv : public MiniGridEnv {
 public:
  static constexpr int kSize = 19;

  static Config DefaultConfig() {
    return {{"max_steps", int64_t{100}},
            {"see_through_walls", false},
            {"agent_view_size", int64_t{7}}};
  }

  static EnvSpec MakeSpec(const Config& config) {
    config.GetBool("see_through_walls");
    return MakeMiniGridSpec(config);
  }

  PlaygroundEnv(const Config& config, uint64_t seed)
      : MiniGridEnv(config, seed, kSize, kSize, 100,
                    config.GetBool("see_through_walls")) {}

 protected:
  void GenGrid() override {
    HorzWall(0, 0);
    HorzWall(0, height_ - 1);
    VertWall(0, 0);
    VertWall(width_ - 1, 0);
    const int room_w = width_ / 3, room_h = height_ / 3;
    for (int j = 0; j < 3; ++j) {
      for (int i = 0; i < 3; ++i) {
        const int xl = i * room_w, yt = j * room_h;
        const int xr = xl + room_w, yb = yt + room_h;
        if (i + 1 < 3) {
          VertWall(xr, yt, room_h);
          const int y = RandInt(yt + 1, yb - 1);
          PutObj(NewDoor(RandColor()), xr, y);
        }
        if (j + 1 < 3) {
          HorzWall(xl, yb, room_w);
          const int x = RandInt(xl + 1, xr - 1);
          PutObj(NewDoor(RandColor()), x, yb);
        }
      }
    }
    PlaceAgent();
    constexpr Type kTypes[3] = {kKey, kBall, kBox};
    for (int n = 0; n < 12; ++n) {
      const Type type = kTypes[RandInt(0, 3)];
      const Color color = RandColor();
      PlaceObj(NewObj(type, color));
    }
    SetMission("");
  }
};

}  // namespace minigrid
}  // namespace envpool_lite
