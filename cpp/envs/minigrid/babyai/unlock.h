// BabyAI's Unlock levels (minigrid/envs/babyai/unlock.py): find the key of
// a locked door; open it, or fetch what is behind it.
#pragma once

#include <vector>

#include "envs/minigrid/babyai/goto.h"

namespace envpool_lite {
namespace minigrid {
namespace babyai {

// Unlock: a maze of rooms, one locked; its key in another room.
class UnlockEnv : public BabyAILevel {
 public:
  static Config DefaultConfig() {
    return BabyAIConfig({{"room_size", int64_t{8}},
                         {"num_rows", int64_t{3}},
                         {"num_cols", int64_t{3}}});
  }
  static EnvSpec MakeSpec(const Config& config) {
    return MakeMultiRoomLevelSpec(config, "Unlock");
  }
  UnlockEnv(const Config& config, uint64_t seed)
      : BabyAILevel(config, seed, Opt(config, "room_size"),
                    Opt(config, "num_rows"), Opt(config, "num_cols")) {}

 protected:
  void GenMission() override {
    const auto [door, id, jd, locked_room] = AddLockedDoorAndKey();
    if (RandBool()) {
      std::vector<Color> colors;
      for (Color c : kColorNames) {
        if (c != objs_[door].color) colors.push_back(c);
      }
      ConnectAll(colors);
    } else {
      ConnectAll();
    }
    // `i is not id or j is not jd`: always true (numpy ints), every room
    for (int i = 0; i < num_cols_; ++i) {
      for (int j = 0; j < num_rows_; ++j) AddDistractors(i, j, 3, false);
    }
    PlaceAgentNotIn(locked_room);
    CheckObjsReachable();
    instrs_ = Open(DescOf(door));
  }
};

// UnlockLocal (Dist): the key and the locked door in the agent's room.
// KeyInBox (variant 1): the key inside a box.
class UnlockLocalEnv : public BabyAILevel {
 public:
  static Config DefaultConfig() {
    return BabyAIConfig({{"room_size", int64_t{8}},
                         {"distractors", false},
                         {"variant", int64_t{0}}});
  }
  static EnvSpec MakeSpec(const Config& config) {
    config.GetBool("distractors");
    config.GetInt("variant", 0, 1);
    return MakeLevelSpec(config);
  }
  UnlockLocalEnv(const Config& config, uint64_t seed)
      : BabyAILevel(config, seed, Opt(config, "room_size"), 3, 3),
        distractors_(config.GetBool("distractors")),
        key_in_box_(config.GetInt("variant") == 1) {}

 protected:
  void GenMission() override {
    const int door = AddDoor(1, 1, -1, -1, /*locked=*/1).first;
    if (key_in_box_) {
      const int key = NewObj(kKey, objs_[door].color);
      const int box = NewObj(kBox, RandColor());
      objs_[box].contains = key;
      PlaceObjInRoom(1, 1, box);
    } else {
      AddObject(1, 1, kKey, objs_[door].color);
      if (distractors_) AddDistractors(1, 1, 3);
    }
    PlaceAgentInRoom(1, 1);
    instrs_ = Open(Desc(kDoor));
  }

 private:
  bool distractors_, key_in_box_;
};

// UnlockPickup (Dist): pick up the box behind the locked door (minigrid's
// `if max is None` leaves max_steps to the instruction). BlockedUnlockPickup
// (variant 1): a ball blocks the door. UnlockToUnlock (variant 2): three
// rooms, two locked doors, the ball in the far room.
class UnlockPickupEnv : public BabyAILevel {
 public:
  enum Variant { kPlain = 0, kBlocked = 1, kUnlockToUnlock = 2 };
  static Config DefaultConfig() {
    return BabyAIConfig({{"distractors", false}, {"variant", int64_t{0}}});
  }
  static EnvSpec MakeSpec(const Config& config) {
    config.GetBool("distractors");
    config.GetInt("variant", 0, 2);
    return MakeLevelSpec(config);
  }
  UnlockPickupEnv(const Config& config, uint64_t seed)
      : BabyAILevel(config, seed, 6, 1,
                    config.GetInt("variant") == kUnlockToUnlock ? 3 : 2,
                    FixedMaxSteps(config.GetInt("variant"))),
        distractors_(config.GetBool("distractors")),
        variant_(static_cast<int>(config.GetInt("variant"))) {}

 protected:
  void GenMission() override {
    if (variant_ == kUnlockToUnlock) {
      const std::vector<Color> colors = RandSubset(AllColors(), 2);
      AddDoor(0, 0, 0, colors[0], 1);
      AddObject(2, 0, kKey, colors[0]);
      AddDoor(1, 0, 0, colors[1], 1);
      AddObject(1, 0, kKey, colors[1]);
      const int obj = AddObject(0, 0, kBall).first;
      PlaceAgentInRoom(1, 0);
      instrs_ = Pickup(Desc(objs_[obj].type));
      return;
    }
    const int obj = AddObject(1, 0, kBox).first;
    auto [door, pos] = AddDoor(0, 0, 0, -1, /*locked=*/1);
    if (variant_ == kBlocked) {
      grid_.Set(pos.first - 1, pos.second, NewObj(kBall, RandColor()));
    }
    AddObject(0, 0, kKey, objs_[door].color);
    if (variant_ == kPlain && distractors_) AddDistractors(-1, -1, 4);
    PlaceAgentInRoom(0, 0);
    instrs_ = variant_ == kBlocked ? Pickup(Desc(kBox)) : Pickup(DescOf(obj));
  }

 private:
  static int64_t FixedMaxSteps(int64_t variant) {
    if (variant == kBlocked) return 16 * 36;
    if (variant == kUnlockToUnlock) return 30 * 36;
    return -1;
  }
  bool distractors_;
  int variant_;
};

}  // namespace babyai
}  // namespace minigrid
}  // namespace envpool_lite
