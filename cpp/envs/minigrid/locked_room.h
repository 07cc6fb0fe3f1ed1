// MiniGrid-LockedRoom-v0: six rooms off a hallway; fetch the key from the
// named room, unlock the locked one and reach the goal in it
// (minigrid/envs/lockedroom.py).
#pragma once

#include <string>
#include <vector>

#include "envs/minigrid/minigrid_env.h"

namespace envpool_lite {
namespace minigrid {

class LockedRoomEnv : public MiniGridEnv {
 public:
  static Config DefaultConfig() {
    return {{"size", int64_t{19}},
            {"max_steps", int64_t{-1}},  // -1: 10 * size
            {"agent_view_size", int64_t{7}}};
  }

  static EnvSpec MakeSpec(const Config& config) {
    // rooms of height // 3 + 1 rows with doors 3 below their tops and an
    // interior: the layout needs 9 rows and width // 2 - 2 >= 3.
    config.GetInt("size", 10, 255);
    return MakeMiniGridSpec(config);
  }

  LockedRoomEnv(const Config& config, uint64_t seed)
      : MiniGridEnv(config, seed, Size(config), Size(config),
                    10 * int64_t{Size(config)}, /*see_through_walls=*/false) {}

 protected:
  struct Room {
    int top_x, top_y, size_x, size_y, door_x, door_y;
    Color color = kRed;
  };

  void GenGrid() override {
    const int w = width_, h = height_;
    for (int i = 0; i < w; ++i) {
      grid_.Set(i, 0, 0);
      grid_.Set(i, h - 1, 0);
    }
    for (int j = 0; j < h; ++j) {
      grid_.Set(0, j, 0);
      grid_.Set(w - 1, j, 0);
    }
    const int lwall = w / 2 - 2, rwall = w / 2 + 2;
    for (int j = 0; j < h; ++j) {
      grid_.Set(lwall, j, 0);
      grid_.Set(rwall, j, 0);
    }
    std::vector<Room> rooms;
    for (int n = 0; n < 3; ++n) {
      const int j = n * (h / 3);
      for (int i = 0; i < lwall; ++i) grid_.Set(i, j, 0);
      for (int i = rwall; i < w; ++i) grid_.Set(i, j, 0);
      const int room_w = lwall + 1, room_h = h / 3 + 1;
      rooms.push_back({0, j, room_w, room_h, lwall, j + 3});
      rooms.push_back({rwall, j, room_w, room_h, rwall, j + 3});
    }
    const int n = static_cast<int>(rooms.size());
    const int locked = RandInt(0, n);
    auto [gx, gy] = RandPosIn(rooms[locked]);
    grid_.Set(gx, gy, NewObj(kGoal, kGreen));
    // each room a colour of its own: _rand_elem(sorted(colours left))
    std::vector<Color> colors(std::begin(kColorNames), std::end(kColorNames));
    for (int r = 0; r < n; ++r) {
      const int k = RandInt(0, static_cast<int>(colors.size()));
      rooms[r].color = colors[k];
      colors.erase(colors.begin() + k);
      grid_.Set(rooms[r].door_x, rooms[r].door_y,
                NewDoor(rooms[r].color, false, /*is_locked=*/r == locked));
    }
    int key_room;
    do {
      key_room = RandInt(0, n);
    } while (key_room == locked);
    auto [kx, ky] = RandPosIn(rooms[key_room]);
    grid_.Set(kx, ky, NewObj(kKey, rooms[locked].color));
    PlaceAgent(lwall, 0, rwall - lwall, h);
    const std::string lc = ColorName(rooms[locked].color);
    SetMission("get the " + lc + " key from the " +
               ColorName(rooms[key_room].color) + " room, unlock the " + lc +
               " door and go to the goal");
  }

 private:
  static int Size(const Config& config) {
    return static_cast<int>(config.GetInt("size"));
  }
  // LockedRoom.rand_pos: _rand_pos over the room's interior.
  std::pair<int, int> RandPosIn(const Room& r) {
    const int x = RandInt(r.top_x + 1, r.top_x + r.size_x - 1);
    const int y = RandInt(r.top_y + 1, r.top_y + r.size_y - 1);
    return {x, y};
  }
};

}  // namespace minigrid
}  // namespace envpool_lite
