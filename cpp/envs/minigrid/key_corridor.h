// MiniGrid-KeyCorridorS*R*: a corridor of rooms; the object is behind a
// locked door, its key in another room (minigrid/envs/keycorridor.py).
#pragma once

#include <string>

#include "envs/minigrid/room_grid.h"

namespace envpool_lite {
namespace minigrid {

class KeyCorridorEnv : public RoomGridEnv {
 public:
  static Config DefaultConfig() {
    return {{"num_rows", int64_t{3}},
            {"obj_type", std::string("ball")},
            {"room_size", int64_t{6}},
            {"max_steps", int64_t{-1}},  // -1: 30 * room_size**2
            {"agent_view_size", int64_t{7}}};
  }

  static EnvSpec MakeSpec(const Config& config) {
    config.GetInt("num_rows", 1, 32);
    config.GetInt("room_size", 3, 64);
    ObjType(config);
    return MakeMiniGridSpec(config);
  }

  KeyCorridorEnv(const Config& config, uint64_t seed)
      : RoomGridEnv(
            config, seed, static_cast<int>(config.GetInt("room_size")),
            static_cast<int>(config.GetInt("num_rows")), 3,
            30 * config.GetInt("room_size") * config.GetInt("room_size")),
        obj_type_(ObjType(config)) {}

  StepResult Step(const void* action) override {
    StepResult result = MiniGridEnv::Step(action);
    if (*static_cast<const int32_t*>(action) == 3 && carrying_ != kNone &&
        carrying_ == target_) {
      result.reward = Reward();
      result.terminated = true;
    }
    return result;
  }

  ENVPOOL_LITE_STATE_AFTER(RoomGridEnv, target_)

 protected:
  const char* DebugName() const override { return "key_corridor"; }
  void DebugTask(DebugState* s) const override { DebugTarget(s, target_); }

  void GenGrid() override {
    GenRooms();
    for (int j = 1; j < num_rows_; ++j) RemoveWall(1, j, 3);
    const int room = RandInt(0, num_rows_);
    const int door = AddDoor(2, room, 2, -1, /*locked=*/1).first;
    target_ = AddObject(2, room, obj_type_).first;
    AddObject(0, RandInt(0, num_rows_), kKey, objs_[door].color);
    PlaceAgentInRoom(1, num_rows_ / 2);
    ConnectAll();
    SetMission(std::string("pick up the ") + ColorName(objs_[target_].color) +
               " " + TypeName(obj_type_));
  }

 private:
  static Type ObjType(const Config& config) {
    const std::string& t = config.GetString("obj_type");
    if (t == "ball") return kBall;
    if (t == "key") return kKey;
    if (t == "box") return kBox;
    throw std::invalid_argument(
        "option 'obj_type' must be 'ball', 'key' or 'box', got '" + t + "'");
  }
  Type obj_type_;
  int target_ = kNone;
};

}  // namespace minigrid
}  // namespace envpool_lite
