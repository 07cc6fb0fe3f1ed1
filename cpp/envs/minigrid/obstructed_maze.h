// MiniGrid-ObstructedMaze-*: pick up the blue ball, hidden behind locked
// doors whose keys may lie in boxes (grey) and whose doors may be blocked by
// a (green) ball (minigrid/envs/obstructedmaze.py, obstructedmaze_v1.py).
//
// ObstructedMaze1DlhbEnv: ObstructedMaze_1Dlhb (1 x 2 rooms; the ids 1Dl,
// 1Dlh, 1Dlhb). ObstructedMazeFullEnv: ObstructedMaze_Full (3 x 3 rooms; 2Dl,
// 2Dlh, 2Dlhb, 1Q, 2Q, Full -v0), and ObstructedMazeFullV1Env its v1
// (ObstructedMaze_Full_V1: every door and blocking ball of a side room
// before its keys, so that no ball lands on a key's box).
#pragma once

#include <cmath>
#include <iterator>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "envs/minigrid/room_grid.h"

namespace envpool_lite {
namespace minigrid {

class ObstructedMazeEnv : public RoomGridEnv {
 public:
  static constexpr int kRoomSize = 6;

  ObstructedMazeEnv(const Config& config, uint64_t seed, int num_rows,
                    int num_cols, int64_t num_rooms_visited)
      : RoomGridEnv(config, seed, kRoomSize, num_rows, num_cols,
                    4 * num_rooms_visited * kRoomSize * kRoomSize),
        key_in_box_(config.GetBool("key_in_box")),
        blocked_(config.GetBool("blocked")) {}

  StepResult Step(const void* action) override {
    StepResult result = MiniGridEnv::Step(action);
    if (*static_cast<const int32_t*>(action) == 3 && carrying_ != kNone &&
        carrying_ == target_) {
      result.reward = Reward();
      result.terminated = true;
    }
    return result;
  }

  ENVPOOL_LITE_STATE_AFTER(RoomGridEnv, door_colors_, target_)

 protected:
  void DebugTask(DebugState* s) const override { DebugTarget(s, target_); }

  // COLOR_NAMES[0], [1], [2]: the ball to find, the blocking balls, the
  // boxes.
  static constexpr Color kBallColor = kColorNames[0];
  static constexpr Color kBlockingColor = kColorNames[1];
  static constexpr Color kBoxColor = kColorNames[2];

  // ObstructedMazeEnv._gen_grid: the rooms, then door_colors =
  // _rand_subset(COLOR_NAMES, 6).
  void GenMaze() {
    GenRooms();
    std::vector<Color> left(std::begin(kColorNames), std::end(kColorNames));
    door_colors_.clear();
    while (!left.empty()) {
      const int k = RandInt(0, static_cast<int>(left.size()));
      door_colors_.push_back(left[k]);
      left.erase(left.begin() + k);
    }
    SetMission(std::string("pick up the ") + ColorName(kBallColor) + " ball");
  }

  // RoomGrid.add_door with the given colour and lock, then the blocking
  // ball in front of it (grid.set: over whatever is there) where blocked.
  void AddLockedDoor(int i, int j, int door_idx, Color color, bool locked,
                     bool blocked) {
    const auto pos = AddDoor(i, j, door_idx, color, locked ? 1 : 0).second;
    if (blocked) {
      grid_.Set(pos.first - kDirX[door_idx], pos.second - kDirY[door_idx],
                NewObj(kBall, kBlockingColor));
    }
  }

  // add_key: the key (in a box where key_in_box) placed in the room.
  void AddKey(int i, int j, Color color, bool key_in_box) {
    int obj = NewObj(kKey, color);
    if (key_in_box) {
      const int box = NewObj(kBox, kBoxColor);
      objs_[box].contains = obj;
      obj = box;
    }
    PlaceInRoom(i, j, obj);
  }

  // ObstructedMazeEnv.add_door: the door, its blocking ball, its key.
  void AddMazeDoor(int i, int j, int door_idx, Color color, bool locked,
                   bool key_in_box, bool blocked) {
    AddLockedDoor(i, j, door_idx, color, locked, blocked);
    if (locked) AddKey(i, j, color, key_in_box);
  }

  void AddTarget(int i, int j) {
    target_ = AddObject(i, j, kBall, kBallColor).first;
  }

  bool key_in_box_, blocked_;
  std::vector<Color> door_colors_;
  int target_ = kNone;
};

// ObstructedMaze_1Dlhb: two rooms, the locked door between them.
class ObstructedMaze1DlhbEnv : public ObstructedMazeEnv {
 public:
  static Config DefaultConfig() {
    return {{"key_in_box", true},
            {"blocked", true},
            {"max_steps", int64_t{-1}},  // -1: 4 * 2 * 6**2
            {"agent_view_size", int64_t{7}}};
  }

  static EnvSpec MakeSpec(const Config& config) {
    config.GetBool("key_in_box");
    config.GetBool("blocked");
    return MakeMiniGridSpec(config);
  }

  ObstructedMaze1DlhbEnv(const Config& config, uint64_t seed)
      : ObstructedMazeEnv(config, seed, 1, 2, 2) {}

 protected:
  const char* DebugName() const override { return "obstructed_maze_1dlhb"; }

  void GenGrid() override {
    GenMaze();
    AddMazeDoor(0, 0, 0, door_colors_[0], true, key_in_box_, blocked_);
    AddTarget(1, 0);
    PlaceAgentInRoom(0, 0);
  }
};

// ObstructedMaze_Full: the middle room's doors to num_quarters side rooms,
// each side room's two locked doors to the corners, the ball in one of
// those corners.
class ObstructedMazeFullEnv : public ObstructedMazeEnv {
 public:
  static Config DefaultConfig() {
    return {{"agent_room", NumberList{1, 1}},
            {"key_in_box", true},
            {"blocked", true},
            {"num_quarters", int64_t{4}},
            {"num_rooms_visited", int64_t{25}},
            {"max_steps", int64_t{-1}},  // -1: 4 * num_rooms_visited * 6**2
            {"agent_view_size", int64_t{7}}};
  }

  static EnvSpec MakeSpec(const Config& config) {
    config.GetBool("key_in_box");
    config.GetBool("blocked");
    config.GetInt("num_quarters", 1, 4);
    config.GetInt("num_rooms_visited", 1, 1 << 20);
    AgentRoom(config);
    return MakeMiniGridSpec(config);
  }

  ObstructedMazeFullEnv(const Config& config, uint64_t seed, bool v1 = false)
      : ObstructedMazeEnv(config, seed, 3, 3,
                          config.GetInt("num_rooms_visited")),
        agent_room_(AgentRoom(config)),
        num_quarters_(static_cast<int>(config.GetInt("num_quarters"))),
        v1_(v1) {}

 protected:
  const char* DebugName() const override { return "obstructed_maze_full"; }

  void GenGrid() override {
    GenMaze();
    constexpr int kSide[4][2] = {{2, 1}, {1, 2}, {0, 1}, {1, 0}};
    constexpr int kCorner[4][2] = {{2, 0}, {2, 2}, {0, 2}, {0, 0}};
    const int n_colors = static_cast<int>(door_colors_.size());
    for (int i = 0; i < num_quarters_; ++i) {
      const int si = kSide[i][0], sj = kSide[i][1];
      AddMazeDoor(1, 1, i, door_colors_[i], false, false, false);
      for (int k : {-1, 1}) {
        const int idx = (i + k + 4) % 4;
        const Color color = door_colors_[(i + k + n_colors) % n_colors];
        if (v1_) {
          AddLockedDoor(si, sj, idx, color, true, blocked_);
        } else {
          AddMazeDoor(si, sj, idx, color, true, key_in_box_, blocked_);
        }
      }
      if (v1_) {
        for (int k : {-1, 1}) {
          AddKey(si, sj, door_colors_[(i + k + n_colors) % n_colors],
                 key_in_box_);
        }
      }
    }
    const int c = RandInt(0, num_quarters_);  // _rand_elem(corners)
    AddTarget(kCorner[c][0], kCorner[c][1]);
    PlaceAgentInRoom(agent_room_.first, agent_room_.second);
  }

 private:
  // agent_room: the (column, row) of the agent's room, each 0 to 2.
  static std::pair<int, int> AgentRoom(const Config& config) {
    const NumberList& p = config.GetNumberList("agent_room");
    auto room = [](double v) { return v >= 0 && v <= 2 && v == std::floor(v); };
    if (p.size() != 2 || !room(p[0]) || !room(p[1])) {
      throw std::invalid_argument(
          "option 'agent_room' must be a pair (i, j) of ints, each 0 to 2 "
          "(a room of the 3x3 maze)");
    }
    return {static_cast<int>(p[0]), static_cast<int>(p[1])};
  }

  std::pair<int, int> agent_room_;
  int num_quarters_;
  bool v1_;
};

// ObstructedMaze_Full_V1
class ObstructedMazeFullV1Env : public ObstructedMazeFullEnv {
 public:
  ObstructedMazeFullV1Env(const Config& config, uint64_t seed)
      : ObstructedMazeFullEnv(config, seed, /*v1=*/true) {}

 protected:
  const char* DebugName() const override { return "obstructed_maze_full_v1"; }
};

}  // namespace minigrid
}  // namespace envpool_lite
