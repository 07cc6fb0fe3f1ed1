// RoomGrid (minigrid/core/roomgrid.py): a num_rows x num_cols grid of
// square rooms sharing walls, with doors between neighbours; the base of
// Unlock, KeyCorridor, ObstructedMaze and BabyAI's levels. The rooms, the
// door positions, add_object / add_door / remove_wall / place_agent /
// connect_all draw as minigrid's do, in its order.
#pragma once

#include <array>
#include <cstdlib>
#include <iterator>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "envs/minigrid/minigrid_env.h"

namespace envpool_lite {
namespace minigrid {

// What minigrid raises as RecursionError (place_obj's or connect_all's
// tries used up): an error of the reset for most tasks, a rejected level
// that BabyAI generates again.
struct RecursionError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class RoomGridEnv : public MiniGridEnv {
 public:
  RoomGridEnv(const Config& config, uint64_t seed, int room_size, int num_rows,
              int num_cols, int64_t default_max_steps)
      : MiniGridEnv(config, seed, (room_size - 1) * num_cols + 1,
                    (room_size - 1) * num_rows + 1, default_max_steps,
                    /*see_through_walls=*/false),
        room_size_(room_size),
        num_rows_(num_rows),
        num_cols_(num_cols) {}

  // get_state: the rooms as generated (their doors and objects), after the
  // grid.
  ENVPOOL_LITE_STATE_AFTER(MiniGridEnv, rooms_)

 protected:
  struct Room {
    int top_x = 0, top_y = 0, size_x = 0, size_y = 0;
    // per wall (0 right, 1 down, 2 left, 3 up): the door (an object
    // index; kOpening for a removed wall; kNone: none), its position, the
    // neighbour (-1: none)
    std::array<int, 4> doors{kNone, kNone, kNone, kNone};
    std::array<std::pair<int, int>, 4> door_pos{};
    std::array<bool, 4> has_door_pos{false, false, false, false};
    std::array<int, 4> neighbors{-1, -1, -1, -1};
    bool locked = false;
    std::vector<int> objs;
    ENVPOOL_LITE_STATE_FIELDS(top_x, top_y, size_x, size_y, doors, door_pos,
                              has_door_pos, neighbors, locked, objs)
  };
  static constexpr int kOpening = -3;  // remove_wall's True

  int RoomIndex(int i, int j) const { return j * num_cols_ + i; }
  Room& GetRoom(int i, int j) { return rooms_[RoomIndex(i, j)]; }
  int RoomFromPos(int x, int y) const {
    return RoomIndex(x / (room_size_ - 1), y / (room_size_ - 1));
  }

  // RoomGrid._gen_grid: the rooms, their walls, door positions, and the
  // agent in the middle room facing right.
  void GenRooms() {
    rooms_.assign(static_cast<std::size_t>(num_rows_) * num_cols_, Room{});
    for (int j = 0; j < num_rows_; ++j) {
      for (int i = 0; i < num_cols_; ++i) {
        Room& r = GetRoom(i, j);
        r.top_x = i * (room_size_ - 1);
        r.top_y = j * (room_size_ - 1);
        r.size_x = r.size_y = room_size_;
        WallRect(r.top_x, r.top_y, r.size_x, r.size_y);
      }
    }
    for (int j = 0; j < num_rows_; ++j) {
      for (int i = 0; i < num_cols_; ++i) {
        Room& r = GetRoom(i, j);
        const int xl = r.top_x + 1, yl = r.top_y + 1;
        const int xm = r.top_x + r.size_x - 1, ym = r.top_y + r.size_y - 1;
        if (i < num_cols_ - 1) {
          r.neighbors[0] = RoomIndex(i + 1, j);
          r.door_pos[0] = {xm, RandInt(yl, ym)};
          r.has_door_pos[0] = true;
        }
        if (j < num_rows_ - 1) {
          r.neighbors[1] = RoomIndex(i, j + 1);
          r.door_pos[1] = {RandInt(xl, xm), ym};
          r.has_door_pos[1] = true;
        }
        if (i > 0) {
          r.neighbors[2] = RoomIndex(i - 1, j);
          r.door_pos[2] = rooms_[r.neighbors[2]].door_pos[0];
          r.has_door_pos[2] = true;
        }
        if (j > 0) {
          r.neighbors[3] = RoomIndex(i, j - 1);
          r.door_pos[3] = rooms_[r.neighbors[3]].door_pos[1];
          r.has_door_pos[3] = true;
        }
      }
    }
    agent_x_ = (num_cols_ / 2) * (room_size_ - 1) + room_size_ / 2;
    agent_y_ = (num_rows_ / 2) * (room_size_ - 1) + room_size_ / 2;
    agent_dir_ = 0;
  }

  // place_in_room: place_obj in the room, not next to the agent
  // (reject_next_to), at most 1000 tries.
  std::pair<int, int> PlaceInRoom(int i, int j, int obj) {
    Room& r = GetRoom(i, j);
    auto pos = TryPlaceObj(
        obj, r.top_x, r.top_y, r.size_x, r.size_y, 1000, [&](int x, int y) {
          return std::abs(agent_x_ - x) + std::abs(agent_y_ - y) < 2;
        });
    if (!pos) Fail("rejection sampling failed in place_obj");
    r.objs.push_back(obj);
    return *pos;
  }

  // add_object(i, j, kind, color): a random kind (key, ball, box) and
  // colour where not given (kinds as kKey/kBall/kBox; kUnseen: random).
  std::pair<int, std::pair<int, int>> AddObject(int i, int j,
                                                Type kind = kUnseen,
                                                int color = -1) {
    if (kind == kUnseen) {
      constexpr Type kKinds[3] = {kKey, kBall, kBox};
      kind = kKinds[RandInt(0, 3)];
    }
    const Color c = color < 0 ? RandColor() : static_cast<Color>(color);
    const int obj = NewObj(kind, c);
    return {obj, PlaceInRoom(i, j, obj)};
  }

  // add_door(i, j, door_idx, color, locked): -1 for a random door index
  // (among those with a neighbour and no door yet) and colour; locked:
  // 0 no, 1 yes, -1 random.
  std::pair<int, std::pair<int, int>> AddDoor(int i, int j, int door_idx = -1,
                                              int color = -1, int locked = -1) {
    Room& r = GetRoom(i, j);
    if (door_idx < 0) {
      do {
        door_idx = RandInt(0, 4);
      } while (!(r.neighbors[door_idx] >= 0 && r.doors[door_idx] == kNone));
    }
    const Color c = color < 0 ? RandColor() : static_cast<Color>(color);
    const bool is_locked = locked < 0 ? RandBool() : locked != 0;
    if (r.doors[door_idx] != kNone) Fail("door already exists");
    r.locked = is_locked;
    const int door = NewDoor(c, false, is_locked);
    const auto pos = r.door_pos[door_idx];
    grid_.Set(pos.first, pos.second, door);
    objs_[door].cur_x = pos.first;
    objs_[door].cur_y = pos.second;
    r.doors[door_idx] = door;
    rooms_[r.neighbors[door_idx]].doors[(door_idx + 2) % 4] = door;
    return {door, pos};
  }

  // remove_wall
  void RemoveWall(int i, int j, int wall_idx) {
    Room& r = GetRoom(i, j);
    const int tx = r.top_x, ty = r.top_y, w = r.size_x, h = r.size_y;
    if (wall_idx == 0) {
      for (int k = 1; k < h - 1; ++k) grid_.Set(tx + w - 1, ty + k, kNone);
    } else if (wall_idx == 1) {
      for (int k = 1; k < w - 1; ++k) grid_.Set(tx + k, ty + h - 1, kNone);
    } else if (wall_idx == 2) {
      for (int k = 1; k < h - 1; ++k) grid_.Set(tx, ty + k, kNone);
    } else {
      for (int k = 1; k < w - 1; ++k) grid_.Set(tx + k, ty, kNone);
    }
    r.doors[wall_idx] = kOpening;
    rooms_[r.neighbors[wall_idx]].doors[(wall_idx + 2) % 4] = kOpening;
  }

  // RoomGrid.place_agent(i, j): in the room (random where -1), again until
  // the cell in front is empty or a wall.
  void PlaceAgentInRoom(int i = -1, int j = -1, bool rand_dir = true) {
    if (i < 0) i = RandInt(0, num_cols_);
    if (j < 0) j = RandInt(0, num_rows_);
    const Room& r = GetRoom(i, j);
    for (;;) {
      agent_x_ = agent_y_ = -1;
      auto pos = TryPlaceObj(kNone, r.top_x, r.top_y, r.size_x, r.size_y, 1000);
      if (!pos) Fail("rejection sampling failed in place_obj");
      agent_x_ = pos->first;
      agent_y_ = pos->second;
      if (rand_dir) agent_dir_ = RandInt(0, 4);
      const int front =
          grid_.Get(agent_x_ + kDirX[agent_dir_], agent_y_ + kDirY[agent_dir_]);
      if (front == kNone || objs_[front].type == kWall) break;
    }
  }

  // connect_all: doors (unlocked, colours drawn from door_colors, by
  // default COLOR_NAMES) between random rooms until every room is reachable
  // from the agent's.
  void ConnectAll(int max_itrs = 5000) {
    ConnectAll(
        std::vector<Color>(std::begin(kColorNames), std::end(kColorNames)),
        max_itrs);
  }
  void ConnectAll(const std::vector<Color>& door_colors, int max_itrs = 5000) {
    const int start = RoomFromPos(agent_x_, agent_y_);
    for (int itrs = 0;; ++itrs) {
      if (itrs > max_itrs) Fail("connect_all failed");
      if (static_cast<int>(Reach(start).size()) == num_rows_ * num_cols_) {
        break;
      }
      const int i = RandInt(0, num_cols_);
      const int j = RandInt(0, num_rows_);
      const int k = RandInt(0, 4);
      Room& r = GetRoom(i, j);
      if (!r.has_door_pos[k] || r.doors[k] != kNone) continue;
      if (r.locked || rooms_[r.neighbors[k]].locked) continue;
      AddDoor(i, j, k,
              door_colors[RandInt(0, static_cast<int>(door_colors.size()))], 0);
    }
  }

  [[noreturn]] void Fail(const std::string& what) const {
    throw RecursionError("MiniGrid: " + what +
                         " (as minigrid's "
                         "RecursionError)");
  }

  int room_size_, num_rows_, num_cols_;
  std::vector<Room> rooms_;

 private:
  std::set<int> Reach(int start) const {
    std::set<int> reach;
    std::vector<int> stack = {start};
    while (!stack.empty()) {
      const int room = stack.back();
      stack.pop_back();
      if (!reach.insert(room).second) continue;
      for (int k = 0; k < 4; ++k) {
        if (rooms_[room].doors[k] != kNone) {
          stack.push_back(rooms_[room].neighbors[k]);
        }
      }
    }
    return reach;
  }
};

}  // namespace minigrid
}  // namespace envpool_lite
