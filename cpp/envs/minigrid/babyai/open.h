// BabyAI's Open levels (minigrid/envs/babyai/open.py): open a door, two
// doors in order, or the door named by colour or location.
#pragma once

#include <string>
#include <vector>

#include "envs/minigrid/babyai/goto.h"

namespace envpool_lite {
namespace minigrid {
namespace babyai {

// Open: a maze of rooms with distractors; open one of its doors.
class OpenEnv : public BabyAILevel {
 public:
  static Config DefaultConfig() {
    return BabyAIConfig({{"room_size", int64_t{8}},
                         {"num_rows", int64_t{3}},
                         {"num_cols", int64_t{3}}});
  }
  static EnvSpec MakeSpec(const Config& config) {
    return MakeMultiRoomLevelSpec(config, "Open");
  }
  OpenEnv(const Config& config, uint64_t seed)
      : BabyAILevel(config, seed, Opt(config, "room_size"),
                    Opt(config, "num_rows"), Opt(config, "num_cols")) {}

 protected:
  void GenMission() override {
    PlaceAgentInRoom();
    ConnectAll();
    AddDistractors(-1, -1, 18, false);
    CheckObjsReachable();
    const int door = RandElem(AllDoors());
    instrs_ = Open(DescOf(door));
  }
};

// OpenRedDoor: two rooms, open the red door between them.
class OpenRedDoorEnv : public BabyAILevel {
 public:
  static Config DefaultConfig() { return BabyAIConfig({}); }
  static EnvSpec MakeSpec(const Config& config) {
    return MakeLevelSpec(config);
  }
  OpenRedDoorEnv(const Config& config, uint64_t seed)
      : BabyAILevel(config, seed, 5, 1, 2) {}

 protected:
  void GenMission() override {
    AddDoor(0, 0, 0, kRed, 0);
    PlaceAgentInRoom(0, 0);
    instrs_ = Open(Desc(kDoor, kRed));
  }
};

// OpenDoor (OpenDoorColor, OpenDoorLoc, OpenDoorDebug): four doors of the
// middle room, one named by its colour or its location; debug: opening
// another door fails. select_by: "color", "loc", or None (random).
class OpenDoorEnv : public BabyAILevel {
 public:
  static Config DefaultConfig() {
    return BabyAIConfig({{"room_size", int64_t{8}},
                         {"debug", false},
                         {"select_by", std::string()}});
  }
  static EnvSpec MakeSpec(const Config& config) {
    config.GetBool("debug");
    SelectBy(config);
    return MakeLevelSpec(config);
  }
  OpenDoorEnv(const Config& config, uint64_t seed)
      : BabyAILevel(config, seed, Opt(config, "room_size"), 3, 3),
        debug_(config.GetBool("debug")),
        select_by_(SelectBy(config)) {}

 protected:
  void GenMission() override {
    const std::vector<Color> colors = RandSubset(AllColors(), 4);
    std::vector<int> doors;
    for (int k = 0; k < 4; ++k) {
      doors.push_back(AddDoor(1, 1, k, colors[k], 0).first);
    }
    int select_by = select_by_;
    if (select_by < 0) select_by = RandElem(std::vector<int>{kColor, kLoc});
    ObjDesc desc =
        select_by == kColor
            ? Desc(kDoor, objs_[doors[0]].color)
            : Desc(kDoor, kAny,
                   RandElem(std::vector<int>{kLeft, kRight, kFront, kBehind}));
    PlaceAgentInRoom(1, 1);
    instrs_ = Open(std::move(desc), debug_);
  }

 private:
  enum { kColor = 0, kLoc = 1 };
  static int SelectBy(const Config& config) {
    const std::string& s = config.GetString("select_by");
    if (s.empty()) return -1;
    if (s == "color") return kColor;
    if (s == "loc") return kLoc;
    throw std::invalid_argument(
        "option 'select_by' must be 'color', 'loc' or None, got '" + s + "'");
  }
  bool debug_;
  int select_by_;
};

// OpenTwoDoors (OpenRedBlueDoors, ...Debug): open the first door, then the
// second; strict: opening the second first fails.
class OpenTwoDoorsEnv : public BabyAILevel {
 public:
  static Config DefaultConfig() {
    return BabyAIConfig({{"first_color", std::string()},
                         {"second_color", std::string()},
                         {"strict", false}});
  }
  static EnvSpec MakeSpec(const Config& config) {
    ColorOption(config, "first_color");
    ColorOption(config, "second_color");
    config.GetBool("strict");
    return MakeLevelSpec(config);
  }
  OpenTwoDoorsEnv(const Config& config, uint64_t seed)
      : BabyAILevel(config, seed, 6, 3, 3, 20 * 6 * 6),
        first_color_(ColorOption(config, "first_color")),
        second_color_(ColorOption(config, "second_color")),
        strict_(config.GetBool("strict")) {}

 protected:
  void GenMission() override {
    const std::vector<Color> colors = RandSubset(AllColors(), 2);
    const int first = first_color_ < 0 ? colors[0] : first_color_;
    const int second = second_color_ < 0 ? colors[1] : second_color_;
    const int door1 = AddDoor(1, 1, 2, first, 0).first;
    const int door2 = AddDoor(1, 1, 0, second, 0).first;
    PlaceAgentInRoom(1, 1);
    instrs_ = Sequence(Instr::kBefore, Open(DescOf(door1), strict_),
                       Open(DescOf(door2)));
  }

 private:
  int first_color_, second_color_;
  bool strict_;
};

// OpenDoorsOrderN2/N4 (Debug): num_doors doors; open one, or two in the
// order said ("then" / "after you").
class OpenDoorsOrderEnv : public BabyAILevel {
 public:
  static Config DefaultConfig() {
    return BabyAIConfig({{"num_doors", int64_t{2}}, {"debug", false}});
  }
  static EnvSpec MakeSpec(const Config& config) {
    config.GetInt("num_doors", 2, 4);
    config.GetBool("debug");
    return MakeLevelSpec(config);
  }
  OpenDoorsOrderEnv(const Config& config, uint64_t seed)
      : BabyAILevel(config, seed, 6, 3, 3, 20 * 6 * 6),
        num_doors_(Opt(config, "num_doors")),
        debug_(config.GetBool("debug")) {}

 protected:
  void GenMission() override {
    const std::vector<Color> colors = RandSubset(AllColors(), num_doors_);
    std::vector<int> doors;
    for (int k = 0; k < num_doors_; ++k) {
      doors.push_back(AddDoor(1, 1, -1, colors[k], 0).first);
    }
    PlaceAgentInRoom(1, 1);
    const std::vector<int> two = RandSubset(doors, 2);
    const int mode = RandInt(0, 3);
    if (mode == 0) {
      instrs_ = Open(DescOf(two[0]), debug_);
    } else {
      instrs_ =
          Sequence(mode == 1 ? Instr::kBefore : Instr::kAfter,
                   Open(DescOf(two[0]), debug_), Open(DescOf(two[1]), debug_));
    }
  }

 private:
  int num_doors_;
  bool debug_;
};

}  // namespace babyai
}  // namespace minigrid
}  // namespace envpool_lite
