// MiniGrid-Unlock-v0, UnlockPickup-v0 and BlockedUnlockPickup-v0: two rooms
// joined by a locked door, its key in the agent's room
// (minigrid/envs/unlock.py, unlockpickup.py, blockedunlockpickup.py).
// Unlock: open the door. UnlockPickup: then pick up the box in the other
// room. Blocked: a ball stands in front of the door as well.
#pragma once

#include <string>

#include "envs/minigrid/room_grid.h"

namespace envpool_lite {
namespace minigrid {

class UnlockEnv : public RoomGridEnv {
 public:
  enum Variant { kOpenDoor = 0, kPickupBox = 1, kBlocked = 2 };

  static Config DefaultConfig() {
    return {{"max_steps", int64_t{-1}},  // -1: 8 (Blocked: 16) * 6**2
            {"agent_view_size", int64_t{7}},
            // Set by the registration: 0 Unlock, 1 UnlockPickup, 2 Blocked.
            {"variant", int64_t{0}}};
  }

  static EnvSpec MakeSpec(const Config& config) {
    config.GetInt("variant", 0, 2);
    return MakeMiniGridSpec(config);
  }

  UnlockEnv(const Config& config, uint64_t seed)
      : RoomGridEnv(config, seed, 6, 1, 2,
                    (config.GetInt("variant") == kBlocked ? 16 : 8) * 36),
        variant_(static_cast<Variant>(config.GetInt("variant"))) {}

  StepResult Step(const void* action) override {
    StepResult result = MiniGridEnv::Step(action);
    const int32_t a = *static_cast<const int32_t*>(action);
    if (variant_ == kOpenDoor) {
      if (a == 5 && objs_[door_].is_open) {
        result.reward = Reward();
        result.terminated = true;
      }
    } else if (a == 3 && carrying_ != kNone && carrying_ == target_) {
      result.reward = Reward();
      result.terminated = true;
    }
    return result;
  }

  ENVPOOL_LITE_STATE_AFTER(RoomGridEnv, door_, target_)

 protected:
  const char* DebugName() const override {
    return variant_ == kOpenDoor    ? "unlock"
           : variant_ == kPickupBox ? "unlock_pickup"
                                    : "blocked_unlock_pickup";
  }
  void DebugTask(DebugState* s) const override {
    if (variant_ != kOpenDoor) DebugTarget(s, target_);
  }

  void GenGrid() override {
    GenRooms();
    if (variant_ != kOpenDoor) target_ = AddObject(1, 0, kBox).first;
    auto [door, pos] = AddDoor(0, 0, 0, -1, /*locked=*/1);
    door_ = door;
    if (variant_ == kBlocked) {
      grid_.Set(pos.first - 1, pos.second, NewObj(kBall, RandColor()));
    }
    AddObject(0, 0, kKey, objs_[door].color);
    PlaceAgentInRoom(0, 0);
    if (variant_ == kOpenDoor) {
      SetMission("open the door");
    } else {
      SetMission(std::string("pick up the ") + ColorName(objs_[target_].color) +
                 " box");
    }
  }

 private:
  Variant variant_;
  int door_ = 0, target_ = kNone;
};

}  // namespace minigrid
}  // namespace envpool_lite
