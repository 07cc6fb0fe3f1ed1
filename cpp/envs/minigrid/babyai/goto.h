// BabyAI's GoTo levels (minigrid/envs/babyai/goto.py): go to (next to, and
// facing) an object or a door.
#pragma once

#include <string>
#include <vector>

#include "envs/minigrid/babyai/level.h"

namespace envpool_lite {
namespace minigrid {
namespace babyai {

// The room options of a level, checked at make() (RoomGrid's asserts).
inline void CheckRoomOptions(const Config& config) {
  if (config.Has("room_size")) config.GetInt("room_size", 3, 64);
  if (config.Has("num_rows")) config.GetInt("num_rows", 1, 16);
  if (config.Has("num_cols")) config.GetInt("num_cols", 1, 16);
  if (config.Has("num_dists")) config.GetInt("num_dists", 0, 1000);
}

inline EnvSpec MakeLevelSpec(const Config& config) {
  CheckRoomOptions(config);
  return MakeBabyAISpec(config);
}

// MakeLevelSpec for a level that needs two rooms or more (a door between
// them, a locked room).
inline EnvSpec MakeMultiRoomLevelSpec(const Config& config,
                                      const std::string& level) {
  if (config.GetInt("num_rows", 1, 16) * config.GetInt("num_cols", 1, 16) < 2) {
    throw std::invalid_argument(
        level + " needs two rooms or more (num_rows * num_cols >= 2)");
  }
  return MakeLevelSpec(config);
}

inline int Opt(const Config& config, const char* name) {
  return static_cast<int>(config.GetInt(name));
}

// A colour option: a name of COLOR_NAMES, or "" (None: drawn at random).
inline int ColorOption(const Config& config, const char* name) {
  const std::string& s = config.GetString(name);
  if (s.empty()) return kAny;
  for (Color c : kColorNames) {
    if (s == ColorName(c)) return c;
  }
  throw std::invalid_argument(std::string("option '") + name +
                              "' must be a colour (red, green, blue, purple, "
                              "yellow, grey) or None, got '" +
                              s + "'");
}

// GoToRedBall (variant 0), GoToRedBallGrey (1: the distractors turned
// grey), GoToRedBallNoDists (2): one room, the red ball among distractors.
class GoToRedBallEnv : public BabyAILevel {
 public:
  enum Variant { kPlain = 0, kGreyDists = 1, kNoDists = 2 };
  static Config DefaultConfig() {
    return BabyAIConfig({{"room_size", int64_t{8}},
                         {"num_dists", int64_t{7}},
                         {"variant", int64_t{kPlain}}});
  }
  static EnvSpec MakeSpec(const Config& config) {
    config.GetInt("variant", 0, 2);
    return MakeLevelSpec(config);
  }
  GoToRedBallEnv(const Config& config, uint64_t seed)
      : BabyAILevel(config, seed, Opt(config, "room_size"), 1, 1),
        num_dists_(Opt(config, "num_dists")),
        variant_(Opt(config, "variant")) {}

 protected:
  void GenMission() override {
    PlaceAgentInRoom();
    const int obj = AddObject(0, 0, kBall, kRed).first;
    const std::vector<int> dists = AddDistractors(-1, -1, num_dists_, false);
    if (variant_ == kGreyDists) {
      for (int d : dists) objs_[d].color = kGrey;
    }
    CheckObjsReachable();
    instrs_ = GoTo(DescOf(obj));
  }

 private:
  int num_dists_, variant_;
};

// GoToObj: one room, one object.
class GoToObjEnv : public BabyAILevel {
 public:
  static Config DefaultConfig() {
    return BabyAIConfig({{"room_size", int64_t{8}}});
  }
  static EnvSpec MakeSpec(const Config& config) {
    return MakeLevelSpec(config);
  }
  GoToObjEnv(const Config& config, uint64_t seed)
      : BabyAILevel(config, seed, Opt(config, "room_size"), 1, 1) {}

 protected:
  void GenMission() override {
    PlaceAgentInRoom();
    const int obj = AddDistractors(-1, -1, 1).front();
    instrs_ = GoTo(DescOf(obj));
  }
};

// GoToLocal: one room, one of num_dists objects.
class GoToLocalEnv : public BabyAILevel {
 public:
  static Config DefaultConfig() {
    return BabyAIConfig({{"room_size", int64_t{8}}, {"num_dists", int64_t{8}}});
  }
  static EnvSpec MakeSpec(const Config& config) {
    return MakeLevelSpec(config);
  }
  GoToLocalEnv(const Config& config, uint64_t seed)
      : BabyAILevel(config, seed, Opt(config, "room_size"), 1, 1),
        num_dists_(Opt(config, "num_dists")) {}

 protected:
  void GenMission() override {
    PlaceAgentInRoom();
    const std::vector<int> objs = AddDistractors(-1, -1, num_dists_, false);
    CheckObjsReachable();
    instrs_ = GoTo(DescOf(RandElem(objs)));
  }

 private:
  int num_dists_;
};

// GoTo (and GoToObjMaze*, GoToOpen): a maze of rooms, one of num_dists
// objects; doors_open opens every door.
class GoToEnv : public BabyAILevel {
 public:
  static Config DefaultConfig() {
    return BabyAIConfig({{"room_size", int64_t{8}},
                         {"num_rows", int64_t{3}},
                         {"num_cols", int64_t{3}},
                         {"num_dists", int64_t{18}},
                         {"doors_open", false}});
  }
  static EnvSpec MakeSpec(const Config& config) {
    config.GetBool("doors_open");
    return MakeLevelSpec(config);
  }
  GoToEnv(const Config& config, uint64_t seed)
      : BabyAILevel(config, seed, Opt(config, "room_size"),
                    Opt(config, "num_rows"), Opt(config, "num_cols")),
        num_dists_(Opt(config, "num_dists")),
        doors_open_(config.GetBool("doors_open")) {}

 protected:
  void GenMission() override {
    PlaceAgentInRoom();
    ConnectAll();
    const std::vector<int> objs = AddDistractors(-1, -1, num_dists_, false);
    CheckObjsReachable();
    instrs_ = GoTo(DescOf(RandElem(objs)));
    if (doors_open_) OpenAllDoors();
  }

 private:
  int num_dists_;
  bool doors_open_;
};

// GoToImpUnlock: the object is in a locked room whose key is elsewhere.
class GoToImpUnlockEnv : public BabyAILevel {
 public:
  static Config DefaultConfig() {
    return BabyAIConfig({{"room_size", int64_t{8}},
                         {"num_rows", int64_t{3}},
                         {"num_cols", int64_t{3}}});
  }
  static EnvSpec MakeSpec(const Config& config) {
    return MakeMultiRoomLevelSpec(config, "GoToImpUnlock");
  }
  GoToImpUnlockEnv(const Config& config, uint64_t seed)
      : BabyAILevel(config, seed, Opt(config, "room_size"),
                    Opt(config, "num_rows"), Opt(config, "num_cols")) {}

 protected:
  void GenMission() override {
    const auto [door, id, jd, locked_room] = AddLockedDoorAndKey();
    ConnectAll();
    // `i is not id or j is not jd`: always true (numpy ints), every room
    for (int i = 0; i < num_cols_; ++i) {
      for (int j = 0; j < num_rows_; ++j) AddDistractors(i, j, 2, false);
    }
    PlaceAgentNotIn(locked_room);
    CheckObjsReachable();
    const int obj = AddDistractors(id, jd, 1, false).front();
    instrs_ = GoTo(DescOf(obj));
  }
};

// GoToRedBlueBall: go to the one red or blue ball.
class GoToRedBlueBallEnv : public BabyAILevel {
 public:
  static Config DefaultConfig() {
    return BabyAIConfig({{"room_size", int64_t{8}}, {"num_dists", int64_t{7}}});
  }
  static EnvSpec MakeSpec(const Config& config) {
    return MakeLevelSpec(config);
  }
  GoToRedBlueBallEnv(const Config& config, uint64_t seed)
      : BabyAILevel(config, seed, Opt(config, "room_size"), 1, 1),
        num_dists_(Opt(config, "num_dists")) {}

 protected:
  void GenMission() override {
    PlaceAgentInRoom();
    for (int d : AddDistractors(-1, -1, num_dists_, false)) {
      const Obj& o = objs_[d];
      if (o.type == kBall && (o.color == kBlue || o.color == kRed)) {
        throw RejectSampling("can only have one blue or red ball");
      }
    }
    const Color color = RandElem(std::vector<Color>{kRed, kBlue});
    const int obj = AddObject(0, 0, kBall, color).first;
    CheckObjsReachable();
    instrs_ = GoTo(DescOf(obj));
  }

 private:
  int num_dists_;
};

// GoToDoor: go to one of the four doors of the middle room.
class GoToDoorEnv : public BabyAILevel {
 public:
  static Config DefaultConfig() { return BabyAIConfig({}); }
  static EnvSpec MakeSpec(const Config& config) {
    return MakeLevelSpec(config);
  }
  GoToDoorEnv(const Config& config, uint64_t seed)
      : BabyAILevel(config, seed, 7, 3, 3) {}

 protected:
  void GenMission() override {
    std::vector<int> doors;
    for (int k = 0; k < 4; ++k) doors.push_back(AddDoor(1, 1).first);
    PlaceAgentInRoom(1, 1);
    instrs_ = GoTo(Desc(kDoor, objs_[RandElem(doors)].color));
  }
};

// GoToObjDoor: go to an object or a door of the middle room.
class GoToObjDoorEnv : public BabyAILevel {
 public:
  static Config DefaultConfig() { return BabyAIConfig({}); }
  static EnvSpec MakeSpec(const Config& config) {
    return MakeLevelSpec(config);
  }
  GoToObjDoorEnv(const Config& config, uint64_t seed)
      : BabyAILevel(config, seed, 8, 3, 3) {}

 protected:
  void GenMission() override {
    PlaceAgentInRoom(1, 1);
    std::vector<int> objs = AddDistractors(1, 1, 8, false);
    for (int k = 0; k < 4; ++k) objs.push_back(AddDoor(1, 1).first);
    CheckObjsReachable();
    instrs_ = GoTo(DescOf(RandElem(objs)));
  }
};

}  // namespace babyai
}  // namespace minigrid
}  // namespace envpool_lite
