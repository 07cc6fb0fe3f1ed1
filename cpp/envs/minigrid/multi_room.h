// MiniGrid-MultiRoom-*: a chain of rooms joined by closed doors of changing
// colours, the goal in the last room (minigrid/envs/multiroom.py), placed
// by minigrid's recursive random search.
#pragma once

#include <vector>

#include "envs/minigrid/minigrid_env.h"

namespace envpool_lite {
namespace minigrid {

class MultiRoomEnv : public MiniGridEnv {
 public:
  static Config DefaultConfig() {
    return {{"minNumRooms", int64_t{6}},
            {"maxNumRooms", int64_t{6}},
            {"maxRoomSize", int64_t{10}},
            {"width", int64_t{25}},
            {"height", int64_t{25}},
            {"max_steps", int64_t{-1}},  // -1: maxNumRooms * 20
            {"agent_view_size", int64_t{7}}};
  }

  static EnvSpec MakeSpec(const Config& config) {
    const int64_t lo = config.GetInt("minNumRooms", 1, 64);
    config.GetInt("maxNumRooms", lo, 64);
    config.GetInt("maxRoomSize", 4, 255);
    config.GetInt("width", 6, 255);
    config.GetInt("height", 6, 255);
    return MakeMiniGridSpec(config);
  }

  MultiRoomEnv(const Config& config, uint64_t seed)
      : MiniGridEnv(config, seed, static_cast<int>(config.GetInt("width")),
                    static_cast<int>(config.GetInt("height")),
                    config.GetInt("maxNumRooms") * 20,
                    /*see_through_walls=*/false),
        min_rooms_(static_cast<int>(config.GetInt("minNumRooms"))),
        max_rooms_(static_cast<int>(config.GetInt("maxNumRooms"))),
        max_room_size_(static_cast<int>(config.GetInt("maxRoomSize"))) {}

 protected:
  struct Room {
    int top_x, top_y, size_x, size_y, entry_x, entry_y;
  };
  static constexpr int kMaxTries = 100000;

  void GenGrid() override {
    std::vector<Room> rooms;
    const int num_rooms = RandInt(min_rooms_, max_rooms_ + 1);
    for (int tries = 0; static_cast<int>(rooms.size()) < num_rooms; ++tries) {
      if (tries == kMaxTries) {  // minigrid would search for ever
        throw std::runtime_error(
            "MiniGrid MultiRoom: no chain of " + std::to_string(num_rooms) +
            " rooms found in " + std::to_string(kMaxTries) + " tries in the " +
            std::to_string(width_) + "x" + std::to_string(height_) +
            " grid; make the grid larger or the rooms fewer");
      }
      std::vector<Room> current;
      // minigrid draws both coordinates below width - 2
      const int x = RandInt(0, width_ - 2);
      const int y = RandInt(0, width_ - 2);
      PlaceRoom(num_rooms, &current, 4, max_room_size_, 2, x, y);
      if (current.size() > rooms.size()) rooms = current;
    }
    Color prev_color = kRed;
    bool has_prev = false;
    for (std::size_t idx = 0; idx < rooms.size(); ++idx) {
      const Room& r = rooms[idx];
      for (int i = 0; i < r.size_x; ++i) {
        grid_.Set(r.top_x + i, r.top_y, 0);
        grid_.Set(r.top_x + i, r.top_y + r.size_y - 1, 0);
      }
      for (int j = 0; j < r.size_y; ++j) {
        grid_.Set(r.top_x, r.top_y + j, 0);
        grid_.Set(r.top_x + r.size_x - 1, r.top_y + j, 0);
      }
      if (idx > 0) {
        // _rand_elem(sorted(COLOR_NAMES minus the previous door's))
        std::vector<Color> colors;
        for (Color c : kColorNames) {
          if (!has_prev || c != prev_color) colors.push_back(c);
        }
        const Color color = colors[RandInt(0, static_cast<int>(colors.size()))];
        grid_.Set(r.entry_x, r.entry_y, NewDoor(color));
        prev_color = color;
        has_prev = true;
      }
    }
    const Room& first = rooms.front();
    PlaceAgent(first.top_x, first.top_y, first.size_x, first.size_y);
    const Room& last = rooms.back();
    PlaceObj(NewObj(kGoal, kGreen), last.top_x, last.top_y, last.size_x,
             last.size_y);
    SetMission("traverse the rooms to get to the goal");
  }

 private:
  // _placeRoom
  bool PlaceRoom(int num_left, std::vector<Room>* rooms, int min_sz, int max_sz,
                 int entry_wall, int entry_x, int entry_y) {
    const int size_x = RandInt(min_sz, max_sz + 1);
    const int size_y = RandInt(min_sz, max_sz + 1);
    int top_x, top_y;
    if (rooms->empty()) {
      top_x = entry_x;
      top_y = entry_y;
    } else if (entry_wall == 0) {
      top_x = entry_x - size_x + 1;
      top_y = RandInt(entry_y - size_y + 2, entry_y);
    } else if (entry_wall == 1) {
      top_x = RandInt(entry_x - size_x + 2, entry_x);
      top_y = entry_y - size_y + 1;
    } else if (entry_wall == 2) {
      top_x = entry_x;
      top_y = RandInt(entry_y - size_y + 2, entry_y);
    } else {
      top_x = RandInt(entry_x - size_x + 2, entry_x);
      top_y = entry_y;
    }
    if (top_x < 0 || top_y < 0) return false;
    if (top_x + size_x > width_ || top_y + size_y >= height_) return false;
    for (std::size_t k = 0; k + 1 < rooms->size(); ++k) {
      const Room& r = (*rooms)[k];
      const bool apart =
          top_x + size_x < r.top_x || r.top_x + r.size_x <= top_x ||
          top_y + size_y < r.top_y || r.top_y + r.size_y <= top_y;
      if (!apart) return false;
    }
    rooms->push_back({top_x, top_y, size_x, size_y, entry_x, entry_y});
    if (num_left == 1) return true;
    for (int attempt = 0; attempt < 8; ++attempt) {
      // _rand_elem(sorted({0, 1, 2, 3} minus the entry wall))
      int walls[3], n = 0;
      for (int w = 0; w < 4; ++w) {
        if (w != entry_wall) walls[n++] = w;
      }
      const int exit_wall = walls[RandInt(0, 3)];
      int exit_x, exit_y;
      if (exit_wall == 0) {
        exit_x = top_x + size_x - 1;
        exit_y = top_y + RandInt(1, size_y - 1);
      } else if (exit_wall == 1) {
        exit_x = top_x + RandInt(1, size_x - 1);
        exit_y = top_y + size_y - 1;
      } else if (exit_wall == 2) {
        exit_x = top_x;
        exit_y = top_y + RandInt(1, size_y - 1);
      } else {
        exit_x = top_x + RandInt(1, size_x - 1);
        exit_y = top_y;
      }
      if (PlaceRoom(num_left - 1, rooms, min_sz, max_sz, (exit_wall + 2) % 4,
                    exit_x, exit_y)) {
        break;
      }
    }
    return true;
  }

  int min_rooms_, max_rooms_, max_room_size_;
};

}  // namespace minigrid
}  // namespace envpool_lite
