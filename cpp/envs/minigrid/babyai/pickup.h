// BabyAI's Pickup levels (minigrid/envs/babyai/pickup.py): pick up an
// object. (PickupLoc is a LevelGen, babyai/levelgen.h.)
#pragma once

#include <vector>

#include "envs/minigrid/babyai/goto.h"

namespace envpool_lite {
namespace minigrid {
namespace babyai {

// Pickup (variant 0): a maze of rooms, pick up one of 18 objects.
// UnblockPickup (1): 20 objects, some blocking the way (a level where all
// are reachable is rejected).
class PickupEnv : public BabyAILevel {
 public:
  static Config DefaultConfig() {
    return BabyAIConfig({{"room_size", int64_t{8}},
                         {"num_rows", int64_t{3}},
                         {"num_cols", int64_t{3}},
                         {"variant", int64_t{0}}});
  }
  static EnvSpec MakeSpec(const Config& config) {
    config.GetInt("variant", 0, 1);
    return MakeLevelSpec(config);
  }
  PickupEnv(const Config& config, uint64_t seed)
      : BabyAILevel(config, seed, Opt(config, "room_size"),
                    Opt(config, "num_rows"), Opt(config, "num_cols")),
        unblock_(config.GetInt("variant") == 1) {}

 protected:
  void GenMission() override {
    PlaceAgentInRoom();
    ConnectAll();
    const std::vector<int> objs =
        AddDistractors(-1, -1, unblock_ ? 20 : 18, false);
    if (unblock_) {
      if (CheckObjsReachable(false)) {
        throw RejectSampling("all objects reachable");
      }
    } else {
      CheckObjsReachable();
    }
    instrs_ = Pickup(DescOf(RandElem(objs)));
  }

 private:
  bool unblock_;
};

// PickupDist (Debug): one room, five distinct objects; pick up the one
// named by type, colour or both (debug: picking up another fails).
class PickupDistEnv : public BabyAILevel {
 public:
  static Config DefaultConfig() { return BabyAIConfig({{"debug", false}}); }
  static EnvSpec MakeSpec(const Config& config) {
    config.GetBool("debug");
    return MakeLevelSpec(config);
  }
  PickupDistEnv(const Config& config, uint64_t seed)
      : BabyAILevel(config, seed, 7, 1, 1), debug_(config.GetBool("debug")) {}

 protected:
  void GenMission() override {
    const std::vector<int> objs = AddDistractors(-1, -1, 5);
    PlaceAgentInRoom(0, 0);
    const int obj = RandElem(objs);
    int type = objs_[obj].type, color = objs_[obj].color;
    const int select_by = RandInt(0, 3);  // type, color, both
    if (select_by == 1) type = kAny;
    if (select_by == 0) color = kAny;
    instrs_ = Pickup(Desc(type, color), debug_);
  }

 private:
  bool debug_;
};

// PickupAbove: pick up the object in the room above the agent's.
class PickupAboveEnv : public BabyAILevel {
 public:
  static Config DefaultConfig() { return BabyAIConfig({}); }
  static EnvSpec MakeSpec(const Config& config) {
    return MakeLevelSpec(config);
  }
  PickupAboveEnv(const Config& config, uint64_t seed)
      : BabyAILevel(config, seed, 6, 3, 3, 8 * 6 * 6) {}

 protected:
  void GenMission() override {
    const int obj = AddObject(1, 0).first;
    AddDoor(1, 1, 3, -1, 0);
    PlaceAgentInRoom(1, 1);
    ConnectAll();
    instrs_ = Pickup(DescOf(obj));
  }
};

}  // namespace babyai
}  // namespace minigrid
}  // namespace envpool_lite
