// BabyAI's LevelGen (minigrid/envs/babyai/core/levelgen.py) and the levels
// made from it (GoToSeq, PickupLoc, Synth*, MiniBossLevel, BossLevel*): a
// maze of rooms, maybe a locked one, distractors, and a random instruction
// of the whole baby language (actions, "and", "then" / "after you").
#pragma once

#include <string>
#include <vector>

#include "envs/minigrid/babyai/goto.h"

namespace envpool_lite {
namespace minigrid {
namespace babyai {

class LevelGenEnv : public BabyAILevel {
 public:
  // Which kinds of action and instruction a level draws from (its class;
  // set by the registration): all (BossLevel), goto only (GoToSeq),
  // pickup actions only (PickupLoc), actions only (Synth, SynthLoc).
  enum Kinds { kAll = 0, kGoToSeq = 1, kPickupAction = 2, kActionOnly = 3 };

  static Config DefaultConfig() {
    return BabyAIConfig({{"room_size", int64_t{8}},
                         {"num_rows", int64_t{3}},
                         {"num_cols", int64_t{3}},
                         {"num_dists", int64_t{18}},
                         {"locked_room_prob", 0.5},
                         {"locations", true},
                         {"unblocking", true},
                         {"implicit_unlock", true},
                         {"variant", int64_t{kAll}}});
  }
  static EnvSpec MakeSpec(const Config& config) {
    config.GetInt("variant", 0, 3);
    config.GetFloat("locked_room_prob", 0.0, 1.0);
    config.GetBool("locations");
    config.GetBool("unblocking");
    config.GetBool("implicit_unlock");
    if (config.GetFloat("locked_room_prob") > 0 &&
        config.GetInt("num_rows", 1, 16) * config.GetInt("num_cols", 1, 16) <
            2) {
      throw std::invalid_argument(
          "a locked room needs two rooms or more (num_rows * num_cols >= 2, "
          "or locked_room_prob=0)");
    }
    return MakeLevelSpec(config);
  }
  LevelGenEnv(const Config& config, uint64_t seed)
      : BabyAILevel(config, seed, Opt(config, "room_size"),
                    Opt(config, "num_rows"), Opt(config, "num_cols")),
        num_dists_(Opt(config, "num_dists")),
        locked_room_prob_(config.GetFloat("locked_room_prob")),
        locations_(config.GetBool("locations")),
        unblocking_(config.GetBool("unblocking")),
        implicit_unlock_(config.GetBool("implicit_unlock")) {
    const int64_t kinds = config.GetInt("variant");
    action_kinds_ =
        kinds == kGoToSeq ? std::vector<int>{kGoToAct}
        : kinds == kPickupAction
            ? std::vector<int>{kPickupAct}
            : std::vector<int>{kGoToAct, kPickupAct, kOpenAct, kPutNextAct};
    instr_kinds_ = kinds >= kPickupAction
                       ? std::vector<int>{kActionKind}
                       : std::vector<int>{kActionKind, kAndKind, kSeqKind};
  }

  ENVPOOL_LITE_STATE_AFTER(BabyAILevel, locked_room_)

 protected:
  bool Unblocking() const override { return unblocking_; }

  void GenMission() override {
    locked_room_ = -1;
    if (rng_.Uniform(0.0, 1.0) < locked_room_prob_) AddLockedRoom();
    ConnectAll();
    AddDistractors(-1, -1, num_dists_, false);
    PlaceAgentNotIn(locked_room_);
    if (!unblocking_) CheckObjsReachable();
    instrs_ = RandInstr(instr_kinds_);
  }

 private:
  enum { kGoToAct, kPickupAct, kOpenAct, kPutNextAct };
  enum { kActionKind, kAndKind, kSeqKind };

  void AddLockedRoom() {
    int door = kNone;
    for (;;) {
      const int i = RandInt(0, num_cols_);
      const int j = RandInt(0, num_rows_);
      const int door_idx = RandInt(0, 4);
      locked_room_ = RoomIndex(i, j);
      if (rooms_[locked_room_].neighbors[door_idx] < 0) continue;
      door = AddDoor(i, j, door_idx, -1, /*locked=*/1).first;
      break;
    }
    for (;;) {
      const int i = RandInt(0, num_cols_);
      const int j = RandInt(0, num_rows_);
      if (RoomIndex(i, j) == locked_room_) continue;
      AddObject(i, j, kKey, objs_[door].color);
      break;
    }
  }

  // rand_obj: a description that matches at least one object (not only
  // objects of the locked room, without implicit_unlock).
  ObjDesc RandObj(const std::vector<int>& types, int max_tries = 100) {
    for (int tries = 0;; ++tries) {
      if (tries > max_tries) {
        throw RecursionError("failed to find suitable object");
      }
      const int c = RandInt(0, 7);  // [None, *COLOR_NAMES]
      const int color = c == 0 ? kAny : kColorNames[c - 1];
      const int type = RandElem(types);
      int loc = kAny;
      if (locations_ && RandBool()) {
        loc = RandElem(std::vector<int>{kLeft, kRight, kFront, kBehind});
      }
      ObjDesc desc = Desc(type, color, loc);
      FindMatchingObjs(desc);
      if (desc.obj_set.empty()) continue;
      if (!implicit_unlock_ && locked_room_ >= 0) {
        const Room& r = rooms_[locked_room_];
        bool outside = false;
        for (auto [x, y] : desc.obj_poss) {
          if (x < r.top_x || y < r.top_y || x >= r.top_x + r.size_x ||
              y >= r.top_y + r.size_y) {
            outside = true;
          }
        }
        if (!outside) continue;
      }
      return desc;
    }
  }

  InstrPtr RandInstr(const std::vector<int>& instr_kinds) {
    const int kind = RandElem(instr_kinds);
    if (kind == kActionKind) {
      const int action = RandElem(action_kinds_);
      if (action == kGoToAct) return GoTo(RandObj(kObjTypes));
      if (action == kPickupAct) return Pickup(RandObj(kObjTypesNotDoor));
      if (action == kOpenAct) return Open(RandObj({kDoor}));
      ObjDesc move = RandObj(kObjTypesNotDoor);
      ObjDesc fixed = RandObj(kObjTypes);
      return PutNext(std::move(move), std::move(fixed));
    }
    if (kind == kAndKind) {
      InstrPtr a = RandInstr({kActionKind});
      InstrPtr b = RandInstr({kActionKind});
      return Sequence(Instr::kAnd, std::move(a), std::move(b));
    }
    InstrPtr a = RandInstr({kActionKind, kAndKind});
    InstrPtr b = RandInstr({kActionKind, kAndKind});
    const bool before = RandInt(0, 2) == 0;
    return Sequence(before ? Instr::kBefore : Instr::kAfter, std::move(a),
                    std::move(b));
  }

  int num_dists_;
  double locked_room_prob_;
  bool locations_, unblocking_, implicit_unlock_;
  std::vector<int> action_kinds_, instr_kinds_;
  int locked_room_ = -1;
};

}  // namespace babyai
}  // namespace minigrid
}  // namespace envpool_lite
