// BabyAI's language (minigrid/envs/babyai/core/verifier.py): object
// descriptions ("the red ball on your left") and the instructions built from
// them (go to, open, pick up, put next to; and, then, after you), as plain
// data. The level (babyai/level.h) matches them against its grid, writes
// their surface form and verifies them step by step.
#pragma once

#include <memory>
#include <utility>
#include <vector>

#include "core/env_state.h"
#include "envs/minigrid/world.h"

namespace envpool_lite {
namespace minigrid {
namespace babyai {

constexpr int kAny = -1;  // a description's None (type, colour or location)

// LOC_NAMES, relative to the agent's starting position and direction.
enum Loc { kLeft = 0, kRight = 1, kFront = 2, kBehind = 3 };

// ObjDesc: type, colour, location (kAny: not given), and what
// find_matching_objs found: the objects (obj_set) and their positions
// (obj_poss).
struct ObjDesc {
  int type = kAny;
  int color = kAny;
  int loc = kAny;
  std::vector<int> obj_set;
  std::vector<std::pair<int, int>> obj_poss;
  ENVPOOL_LITE_STATE_FIELDS(type, color, loc, obj_set, obj_poss)
};

// verify()'s 'continue', 'success' and 'failure'.
enum class Status { kContinue, kSuccess, kFailure };

struct Instr {
  enum Kind { kGoTo, kOpen, kPickup, kPutNext, kBefore, kAfter, kAnd };
  Kind kind = kGoTo;
  // The action instructions: desc (PutNext: the object moved) and
  // desc_fixed (PutNext: the object it goes next to); strict: a wrong door
  // opened or a wrong object picked up fails.
  ObjDesc desc, desc_fixed;
  bool strict = false;
  int pre_carrying = kNone;
  // The sequences: their two parts and how far each is.
  std::unique_ptr<Instr> a, b;
  Status a_done = Status::kContinue, b_done = Status::kContinue;

  bool IsAction() const { return kind <= kPutNext; }
  // get_state: the tree, its parts saved after it (a flag, then the part).
  // Written out: ENVPOOL_LITE_STATE_FIELDS's parameter is named `a`, as
  // the first part is.
  template <class Archive>
  void StateFields(Archive& ar) {
    ar(kind, desc, desc_fixed, strict, pre_carrying, a, b, a_done, b_done);
  }
};

using InstrPtr = std::unique_ptr<Instr>;

inline InstrPtr MakeAction(Instr::Kind kind, ObjDesc desc, bool strict = false,
                           ObjDesc fixed = {}) {
  auto instr = std::make_unique<Instr>();
  instr->kind = kind;
  instr->desc = std::move(desc);
  instr->desc_fixed = std::move(fixed);
  instr->strict = strict;
  return instr;
}
inline InstrPtr GoTo(ObjDesc desc) {
  return MakeAction(Instr::kGoTo, std::move(desc));
}
inline InstrPtr Open(ObjDesc desc, bool strict = false) {
  return MakeAction(Instr::kOpen, std::move(desc), strict);
}
inline InstrPtr Pickup(ObjDesc desc, bool strict = false) {
  return MakeAction(Instr::kPickup, std::move(desc), strict);
}
inline InstrPtr PutNext(ObjDesc move, ObjDesc fixed, bool strict = false) {
  return MakeAction(Instr::kPutNext, std::move(move), strict, std::move(fixed));
}
inline InstrPtr Sequence(Instr::Kind kind, InstrPtr a, InstrPtr b) {
  auto instr = std::make_unique<Instr>();
  instr->kind = kind;
  instr->a = std::move(a);
  instr->b = std::move(b);
  return instr;
}

inline ObjDesc Desc(int type, int color = kAny, int loc = kAny) {
  ObjDesc d;
  d.type = type;
  d.color = color;
  d.loc = loc;
  return d;
}

}  // namespace babyai
}  // namespace minigrid
}  // namespace envpool_lite
