// BabyAI's other levels (minigrid/envs/babyai/other.py): ActionObjDoor,
// FindObj, KeyCorridor, OneRoom and MoveTwoAcross.
#pragma once

#include <vector>

#include "envs/minigrid/babyai/goto.h"

namespace envpool_lite {
namespace minigrid {
namespace babyai {

// ActionObjDoor: go to, pick up or open an object or door of the middle
// room.
class ActionObjDoorEnv : public BabyAILevel {
 public:
  static Config DefaultConfig() { return BabyAIConfig({}); }
  static EnvSpec MakeSpec(const Config& config) {
    return MakeLevelSpec(config);
  }
  ActionObjDoorEnv(const Config& config, uint64_t seed)
      : BabyAILevel(config, seed, 7, 3, 3) {}

 protected:
  void GenMission() override {
    std::vector<int> objs = AddDistractors(1, 1, 5);
    for (int k = 0; k < 4; ++k) objs.push_back(AddDoor(1, 1, -1, -1, 0).first);
    PlaceAgentInRoom(1, 1);
    const int obj = RandElem(objs);
    ObjDesc desc = DescOf(obj);
    if (objs_[obj].type == kDoor) {
      instrs_ = RandBool() ? GoTo(std::move(desc)) : Open(std::move(desc));
    } else {
      instrs_ = RandBool() ? GoTo(std::move(desc)) : Pickup(std::move(desc));
    }
  }
};

// FindObjS5/S6/S7: pick up the one object, somewhere in a maze of rooms.
class FindObjEnv : public BabyAILevel {
 public:
  static Config DefaultConfig() {
    return BabyAIConfig({{"room_size", int64_t{5}}});
  }
  static EnvSpec MakeSpec(const Config& config) {
    return MakeLevelSpec(config);
  }
  FindObjEnv(const Config& config, uint64_t seed)
      : BabyAILevel(
            config, seed, Opt(config, "room_size"), 3, 3,
            20 * config.GetInt("room_size") * config.GetInt("room_size")) {}

 protected:
  void GenMission() override {
    const int i = RandInt(0, num_rows_);
    const int j = RandInt(0, num_cols_);
    const int obj = AddObject(i, j).first;
    PlaceAgentInRoom(1, 1);
    ConnectAll();
    instrs_ = Pickup(Desc(objs_[obj].type));
  }
};

// KeyCorridor: the object behind a locked door off a corridor, its key in
// a room across.
class KeyCorridorEnv : public BabyAILevel {
 public:
  static Config DefaultConfig() {
    return BabyAIConfig({{"num_rows", int64_t{3}},
                         {"obj_type", std::string("ball")},
                         {"room_size", int64_t{6}}});
  }
  static EnvSpec MakeSpec(const Config& config) {
    ObjType(config);
    return MakeLevelSpec(config);
  }
  KeyCorridorEnv(const Config& config, uint64_t seed)
      : BabyAILevel(
            config, seed, Opt(config, "room_size"), Opt(config, "num_rows"), 3,
            30 * config.GetInt("room_size") * config.GetInt("room_size")),
        obj_type_(ObjType(config)) {}

 protected:
  void GenMission() override {
    for (int j = 1; j < num_rows_; ++j) RemoveWall(1, j, 3);
    const int room = RandInt(0, num_rows_);
    const int door = AddDoor(2, room, 2, -1, /*locked=*/1).first;
    const int obj = AddObject(2, room, obj_type_).first;
    AddObject(0, RandInt(0, num_rows_), kKey, objs_[door].color);
    PlaceAgentInRoom(1, num_rows_ / 2);
    ConnectAll();
    instrs_ = Pickup(Desc(objs_[obj].type));
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
};

// OneRoomS8/12/16/20: pick up the ball.
class OneRoomEnv : public BabyAILevel {
 public:
  static Config DefaultConfig() {
    return BabyAIConfig({{"room_size", int64_t{8}}});
  }
  static EnvSpec MakeSpec(const Config& config) {
    return MakeLevelSpec(config);
  }
  OneRoomEnv(const Config& config, uint64_t seed)
      : BabyAILevel(config, seed, Opt(config, "room_size"), 1, 1) {}

 protected:
  void GenMission() override {
    const int obj = AddObject(0, 0, kBall).first;
    PlaceAgentInRoom();
    instrs_ = Pickup(Desc(objs_[obj].type));
  }
};

// MoveTwoAcross: two rooms joined by an opening; put an object next to one
// across, then another back.
class MoveTwoAcrossEnv : public BabyAILevel {
 public:
  static Config DefaultConfig() {
    return BabyAIConfig(
        {{"room_size", int64_t{5}}, {"objs_per_room", int64_t{2}}});
  }
  static EnvSpec MakeSpec(const Config& config) {
    config.GetInt("objs_per_room", 2, 9);
    return MakeLevelSpec(config);
  }
  MoveTwoAcrossEnv(const Config& config, uint64_t seed)
      : BabyAILevel(
            config, seed, Opt(config, "room_size"), 1, 2,
            16 * config.GetInt("room_size") * config.GetInt("room_size")),
        objs_per_room_(Opt(config, "objs_per_room")) {}

 protected:
  void GenMission() override {
    PlaceAgentInRoom(0, 0);
    std::vector<int> left = AddDistractors(0, 0, objs_per_room_);
    std::vector<int> right = AddDistractors(1, 0, objs_per_room_);
    RemoveWall(0, 0, 0);
    left = RandSubset(left, 2);
    right = RandSubset(right, 2);
    instrs_ =
        Sequence(Instr::kBefore, PutNext(DescOf(left[0]), DescOf(right[0])),
                 PutNext(DescOf(right[1]), DescOf(left[1])));
  }

 private:
  int objs_per_room_;
};

}  // namespace babyai
}  // namespace minigrid
}  // namespace envpool_lite
