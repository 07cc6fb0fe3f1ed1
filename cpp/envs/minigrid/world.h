// MiniGrid's world: the objects (minigrid/core/world_object.py), their
// encoding (minigrid/core/constants.py) and the grid (minigrid/core/grid.py).
//
// Objects live in the env's object table and the grid holds their indices,
// so that an object keeps its identity wherever it moves (picked up,
// dropped, inside a box), as a Python object does.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/env_state.h"

namespace envpool_lite {
namespace minigrid {

// OBJECT_TO_IDX
enum Type : uint8_t {
  kUnseen = 0,
  kEmpty = 1,
  kWall = 2,
  kFloor = 3,
  kDoor = 4,
  kKey = 5,
  kBall = 6,
  kBox = 7,
  kGoal = 8,
  kLava = 9,
  kAgent = 10,
};

// COLOR_TO_IDX
enum Color : uint8_t {
  kRed = 0,
  kGreen = 1,
  kBlue = 2,
  kPurple = 3,
  kYellow = 4,
  kGrey = 5,
};

// COLOR_NAMES: sorted by name, the order _rand_color draws from.
inline constexpr Color kColorNames[6] = {kBlue,   kGreen, kGrey,
                                         kPurple, kRed,   kYellow};

inline const char* ColorName(Color c) {
  static const char* names[6] = {"red",    "green",  "blue",
                                 "purple", "yellow", "grey"};
  return names[c];
}

inline const char* TypeName(Type t) {
  static const char* names[11] = {"unseen", "empty", "wall", "floor",
                                  "door",   "key",   "ball", "box",
                                  "goal",   "lava",  "agent"};
  return names[t];
}

constexpr int kNone = -1;  // an empty cell, or no object

struct Obj {
  Type type = kWall;
  Color color = kGrey;
  bool is_open = false;    // doors
  bool is_locked = false;  // doors
  int contains = kNone;    // boxes: the object inside
  int init_x = -1, init_y = -1, cur_x = -1, cur_y = -1;

  bool CanOverlap() const {
    return type == kGoal || type == kFloor || type == kLava ||
           (type == kDoor && is_open);
  }
  bool CanPickup() const {
    return type == kKey || type == kBall || type == kBox;
  }
  bool SeeBehind() const {
    return type == kWall ? false : (type == kDoor ? is_open : true);
  }
  // (type, color, state): a door's state is 0 open, 1 closed, 2 locked.
  uint8_t State() const {
    if (type != kDoor) return 0;
    return is_open ? 0 : (is_locked ? 2 : 1);
  }
};

class Grid {
 public:
  Grid() = default;
  Grid(int width, int height) { Resize(width, height); }
  void Resize(int width, int height) {
    width_ = width;
    height_ = height;
    cells_.assign(static_cast<std::size_t>(width) * height, kNone);
  }
  int width() const { return width_; }
  int height() const { return height_; }
  bool InBounds(int i, int j) const {
    return 0 <= i && i < width_ && 0 <= j && j < height_;
  }
  int Get(int i, int j) const { return cells_[Index(i, j)]; }
  void Set(int i, int j, int obj) { cells_[Index(i, j)] = obj; }
  // get_state: the size and every cell (object indices, as objects are
  // saved in the env's table).
  ENVPOOL_LITE_STATE_FIELDS(width_, height_, cells_)

 private:
  std::size_t Index(int i, int j) const {
    if (!InBounds(i, j)) {
      throw std::logic_error("MiniGrid: cell (" + std::to_string(i) + ", " +
                             std::to_string(j) + ") outside the " +
                             std::to_string(width_) + "x" +
                             std::to_string(height_) + " grid");
    }
    return static_cast<std::size_t>(j) * width_ + i;
  }
  int width_ = 0, height_ = 0;
  std::vector<int> cells_;
};

}  // namespace minigrid
}  // namespace envpool_lite
