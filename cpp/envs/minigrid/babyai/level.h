// BabyAI's levels (minigrid/envs/babyai/core/roomgrid_level.py and
// levelgen.py of minigrid 3.2.0): a RoomGrid whose mission is an
// instruction of the baby language (babyai/instr.h).
//
// A level writes GenMission(): objects, doors, the agent and the
// instruction. Reset generates the rooms and the mission again until
// nothing rejects them (RejectSampling, RecursionError, validate_instrs),
// every draw in minigrid's order; the mission string is the instruction's
// surface form. Each step verifies the instruction: success ends the
// episode with 1 - 0.9 * step_count / max_steps, failure with 0. Without a
// max_steps option, max_steps is the number of navigations the instruction
// needs times room_size**2 * num_rows * num_cols.
#pragma once

#include <algorithm>
#include <cstdlib>
#include <iterator>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "envs/minigrid/babyai/instr.h"
#include "envs/minigrid/room_grid.h"

namespace envpool_lite {
namespace minigrid {
namespace babyai {

// RejectSampling: the level is generated again.
struct RejectSampling : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// OBJ_TYPES and OBJ_TYPES_NOT_DOOR
inline const std::vector<int> kObjTypes = {kBox, kBall, kKey, kDoor};
inline const std::vector<int> kObjTypesNotDoor = {kBox, kBall, kKey};

inline EnvSpec MakeBabyAISpec(const Config& config) {
  return MakeMiniGridSpec(config, kBabyAIMissionBytes);
}

class BabyAILevel : public RoomGridEnv {
 public:
  // fixed_max_steps: the level's own default (e.g. 20 * room_size**2), or
  // -1 where minigrid computes it from the instruction at each reset.
  BabyAILevel(const Config& config, uint64_t seed, int room_size, int num_rows,
              int num_cols, int64_t fixed_max_steps = -1)
      : RoomGridEnv(config, seed, room_size, num_rows, num_cols,
                    fixed_max_steps < 0 ? 0 : fixed_max_steps),
        dynamic_max_steps_(config.GetInt("max_steps") < 0 &&
                           fixed_max_steps < 0) {
    mission_bytes_ = kBabyAIMissionBytes;
  }

  void Reset() override {
    RoomGridEnv::Reset();
    ResetVerifier(*instrs_);
    if (dynamic_max_steps_) {
      max_steps_ = static_cast<int64_t>(NumNavsNeeded(*instrs_)) * room_size_ *
                   room_size_ * num_rows_ * num_cols_;
    }
  }

  StepResult Step(const void* action) override {
    StepResult result = MiniGridEnv::Step(action);
    const int a = *static_cast<const int32_t*>(action);
    if (a == kDrop) UpdateObjsPoss(*instrs_);
    const Status status = Verify(*instrs_, a);
    if (status == Status::kSuccess) {
      result.terminated = true;
      result.reward = Reward();
    } else if (status == Status::kFailure) {
      result.terminated = true;
      result.reward = 0.0;
    }
    return result;
  }

  // get_state: the instruction with its matched objects (indices) and how
  // far each part is, after the rooms.
  ENVPOOL_LITE_STATE_AFTER(RoomGridEnv, instrs_)

 protected:
  static constexpr int kPickup = 3, kDrop = 4, kToggle = 5;

  // The level's objects, doors, agent and instrs_.
  virtual void GenMission() = 0;
  // LevelGen's `unblocking` (validate_instrs looks at keys of locked doors).
  virtual bool Unblocking() const { return false; }

  // _gen_grid: again until a level is accepted.
  void GenGrid() override {
    for (int tries = 0;; ++tries) {
      if (tries >= kMaxGenerations) {
        throw std::runtime_error(
            "BabyAI: no level accepted after " +
            std::to_string(kMaxGenerations) +
            " generations (minigrid would try for ever); check the options");
      }
      objs_.assign(1, Obj{});
      grid_.Resize(width_, height_);
      instrs_.reset();
      try {
        GenRooms();
        GenMission();
        ValidateInstrs(*instrs_);
      } catch (const RecursionError&) {
        continue;
      } catch (const RejectSampling&) {
        continue;
      }
      break;
    }
    SetMission(Surface(*instrs_));
  }

  // ---- the generation helpers of RoomGridLevel and RoomGrid ----

  // _rand_elem of a list
  template <typename T>
  T RandElem(const std::vector<T>& list) {
    return list[RandInt(0, static_cast<int>(list.size()))];
  }
  // _rand_subset: num elements drawn one by one, without replacement.
  template <typename T>
  std::vector<T> RandSubset(std::vector<T> list, int num) {
    std::vector<T> out;
    while (static_cast<int>(out.size()) < num) {
      const int k = RandInt(0, static_cast<int>(list.size()));
      out.push_back(list[k]);
      list.erase(list.begin() + k);
    }
    return out;
  }
  std::vector<Color> AllColors() const {
    return {std::begin(kColorNames), std::end(kColorNames)};
  }

  // add_distractors(i, j, num_distractors, all_unique): random room where
  // i / j is -1; colour drawn before type.
  std::vector<int> AddDistractors(int i = -1, int j = -1,
                                  int num_distractors = 10,
                                  bool all_unique = true) {
    std::vector<std::pair<int, int>> kinds;  // (type, color) of every object
    for (const Room& room : rooms_) {
      for (int obj : room.objs) {
        kinds.emplace_back(objs_[obj].type, objs_[obj].color);
      }
    }
    std::vector<int> dists;
    constexpr Type kTypes[3] = {kKey, kBall, kBox};
    while (static_cast<int>(dists.size()) < num_distractors) {
      const Color color = RandColor();
      const Type type = kTypes[RandInt(0, 3)];
      const std::pair<int, int> kind{type, color};
      if (all_unique &&
          std::find(kinds.begin(), kinds.end(), kind) != kinds.end()) {
        continue;
      }
      const int room_i = i >= 0 ? i : RandInt(0, num_cols_);
      const int room_j = j >= 0 ? j : RandInt(0, num_rows_);
      dists.push_back(AddObject(room_i, room_j, type, color).first);
      kinds.push_back(kind);
    }
    return dists;
  }

  // place_in_room(i, j, obj) for an object made by the level.
  void PlaceObjInRoom(int i, int j, int obj) { PlaceInRoom(i, j, obj); }

  // RoomGrid.place_agent, again while the agent starts in `avoid_room`.
  void PlaceAgentNotIn(int avoid_room) {
    do {
      PlaceAgentInRoom();
    } while (RoomFromPos(agent_x_, agent_y_) == avoid_room);
  }

  // Unlock's and GoToImpUnlock's start: a locked door into room (i, j),
  // the locked room, and its key in a random room. minigrid's `ik is id and
  // jk is jd` compares numpy ints by identity: never true, so the key may
  // land in the locked room.
  struct LockedDoor {
    int door, i, j, room;
  };
  LockedDoor AddLockedDoorAndKey() {
    const int id = RandInt(0, num_cols_);
    const int jd = RandInt(0, num_rows_);
    const int door = AddDoor(id, jd, -1, -1, /*locked=*/1).first;
    const int ik = RandInt(0, num_cols_);
    const int jk = RandInt(0, num_rows_);
    AddObject(ik, jk, kKey, objs_[door].color);
    return {door, id, jd, RoomIndex(id, jd)};
  }

  // open_all_doors
  void OpenAllDoors() {
    for (int i = 0; i < num_cols_; ++i) {
      for (int j = 0; j < num_rows_; ++j) {
        for (int door : GetRoom(i, j).doors) {
          if (door >= 0) objs_[door].is_open = true;
        }
      }
    }
  }

  // The doors of every room (i outer, j inner, each room's four walls), a
  // door between two rooms twice, as Open's list.
  std::vector<int> AllDoors() {
    std::vector<int> doors;
    for (int i = 0; i < num_cols_; ++i) {
      for (int j = 0; j < num_rows_; ++j) {
        for (int door : GetRoom(i, j).doors) {
          if (door >= 0) doors.push_back(door);
        }
      }
    }
    return doors;
  }

  // check_objs_reachable: every object can be reached from the agent
  // without moving another (doors, locked or not, let through).
  bool CheckObjsReachable(bool raise = true) {
    const int w = grid_.width(), h = grid_.height();
    std::vector<uint8_t> reachable(static_cast<std::size_t>(w) * h, 0);
    std::vector<std::pair<int, int>> stack = {{agent_x_, agent_y_}};
    while (!stack.empty()) {
      auto [i, j] = stack.back();
      stack.pop_back();
      if (i < 0 || i >= w || j < 0 || j >= h) continue;
      uint8_t& seen = reachable[static_cast<std::size_t>(j) * w + i];
      if (seen) continue;
      seen = 1;
      const int cell = grid_.Get(i, j);
      if (cell != kNone && objs_[cell].type != kDoor) continue;
      stack.push_back({i + 1, j});
      stack.push_back({i - 1, j});
      stack.push_back({i, j + 1});
      stack.push_back({i, j - 1});
    }
    for (int i = 0; i < w; ++i) {
      for (int j = 0; j < h; ++j) {
        const int cell = grid_.Get(i, j);
        if (cell == kNone || objs_[cell].type == kWall) continue;
        if (!reachable[static_cast<std::size_t>(j) * w + i]) {
          if (!raise) return false;
          throw RejectSampling("unreachable object");
        }
      }
    }
    return true;
  }

  ObjDesc DescOf(int obj) const {
    return Desc(objs_[obj].type, objs_[obj].color);
  }

  // ---- the instruction: matching, surface form, verification ----

  // ObjDesc.find_matching_objs: with use_location, the objects of the
  // grid that fit the description (a location: in the agent's room, on
  // that side of it); without, the positions of those already found.
  void FindMatchingObjs(ObjDesc& d, bool use_location = true) {
    if (use_location) d.obj_set.clear();
    d.obj_poss.clear();
    const Room& agent_room = rooms_[RoomFromPos(agent_x_, agent_y_)];
    const std::vector<int> tracked = d.obj_set;
    for (int i = 0; i < grid_.width(); ++i) {
      for (int j = 0; j < grid_.height(); ++j) {
        const int cell = grid_.Get(i, j);
        if (cell == kNone) continue;
        if (!use_location &&
            std::find(tracked.begin(), tracked.end(), cell) == tracked.end()) {
          continue;
        }
        const Obj& o = objs_[cell];
        if (d.type != kAny && o.type != d.type) continue;
        if (d.color != kAny && o.color != d.color) continue;
        if (use_location && d.loc != kAny) {
          if (i < agent_room.top_x || j < agent_room.top_y ||
              i >= agent_room.top_x + agent_room.size_x ||
              j >= agent_room.top_y + agent_room.size_y) {
            continue;
          }
          const int vx = i - agent_x_, vy = j - agent_y_;
          const int d1x = kDirX[agent_dir_], d1y = kDirY[agent_dir_];
          const int d2x = -d1y, d2y = d1x;
          const int along = vx * d1x + vy * d1y, across = vx * d2x + vy * d2y;
          const bool matches = d.loc == kLeft    ? across < 0
                               : d.loc == kRight ? across > 0
                               : d.loc == kFront ? along > 0
                                                 : along < 0;
          if (!matches) continue;
        }
        if (use_location) d.obj_set.push_back(cell);
        d.obj_poss.emplace_back(i, j);
      }
    }
  }

  // ObjDesc.surface: "the red ball on your left", "a key", ...
  std::string Surface(ObjDesc& d) {
    FindMatchingObjs(d);
    if (d.obj_set.empty()) {
      throw std::logic_error("BabyAI: no object matching the description");
    }
    std::string s = d.type == kAny ? "object" : TypeName(Type(d.type));
    if (d.color != kAny) s = std::string(ColorName(Color(d.color))) + " " + s;
    if (d.loc == kFront) {
      s += " in front of you";
    } else if (d.loc == kBehind) {
      s += " behind you";
    } else if (d.loc == kLeft) {
      s += " on your left";
    } else if (d.loc == kRight) {
      s += " on your right";
    }
    return (d.obj_set.size() > 1 ? "a " : "the ") + s;
  }

  std::string Surface(Instr& in) {
    switch (in.kind) {
      case Instr::kGoTo:
        return "go to " + Surface(in.desc);
      case Instr::kOpen:
        return "open " + Surface(in.desc);
      case Instr::kPickup:
        return "pick up " + Surface(in.desc);
      case Instr::kPutNext: {
        std::string s = "put " + Surface(in.desc);
        return s + " next to " + Surface(in.desc_fixed);
      }
      case Instr::kBefore: {
        std::string s = Surface(*in.a);
        return s + ", then " + Surface(*in.b);
      }
      case Instr::kAfter: {
        std::string s = Surface(*in.a);
        return s + " after you " + Surface(*in.b);
      }
      case Instr::kAnd: {
        std::string s = Surface(*in.a);
        return s + " and " + Surface(*in.b);
      }
    }
    return {};
  }

  // reset_verifier
  void ResetVerifier(Instr& in) {
    in.pre_carrying = kNone;
    in.a_done = in.b_done = Status::kContinue;
    if (in.IsAction()) {
      FindMatchingObjs(in.desc);
      if (in.kind == Instr::kPutNext) FindMatchingObjs(in.desc_fixed);
    } else {
      ResetVerifier(*in.a);
      ResetVerifier(*in.b);
    }
  }

  // update_objs_poss (after every drop)
  void UpdateObjsPoss(Instr& in) {
    if (in.IsAction()) {
      FindMatchingObjs(in.desc, false);
      if (in.kind == Instr::kPutNext) FindMatchingObjs(in.desc_fixed, false);
    } else {
      UpdateObjsPoss(*in.a);
      UpdateObjsPoss(*in.b);
    }
  }

  // PutNextInstr.objs_next: a moved object is already next to a fixed one.
  bool ObjsNext(const Instr& in) const {
    for (int a : in.desc.obj_set) {
      for (auto [bx, by] : in.desc_fixed.obj_poss) {
        if (PosNextTo(objs_[a].cur_x, objs_[a].cur_y, bx, by)) return true;
      }
    }
    return false;
  }

  Status Verify(Instr& in, int action) {
    switch (in.kind) {
      case Instr::kGoTo: {
        const int fx = agent_x_ + kDirX[agent_dir_];
        const int fy = agent_y_ + kDirY[agent_dir_];
        for (auto [x, y] : in.desc.obj_poss) {
          if (x == fx && y == fy) return Status::kSuccess;
        }
        return Status::kContinue;
      }
      case Instr::kOpen: {
        if (action != kToggle) return Status::kContinue;
        const int front = grid_.Get(agent_x_ + kDirX[agent_dir_],
                                    agent_y_ + kDirY[agent_dir_]);
        for (int door : in.desc.obj_set) {
          if (front != kNone && front == door && objs_[door].is_open) {
            return Status::kSuccess;
          }
        }
        if (in.strict && front != kNone && objs_[front].type == kDoor) {
          return Status::kFailure;
        }
        return Status::kContinue;
      }
      case Instr::kPickup: {
        const int pre = in.pre_carrying;
        in.pre_carrying = carrying_;
        if (action != kPickup) return Status::kContinue;
        for (int obj : in.desc.obj_set) {
          if (pre == kNone && carrying_ == obj) return Status::kSuccess;
        }
        if (in.strict && carrying_ != kNone) return Status::kFailure;
        in.pre_carrying = carrying_;
        return Status::kContinue;
      }
      case Instr::kPutNext: {
        const int pre = in.pre_carrying;
        in.pre_carrying = carrying_;
        if (in.strict && action == kPickup && carrying_ != kNone) {
          return Status::kFailure;
        }
        if (action != kDrop) return Status::kContinue;
        for (int a : in.desc.obj_set) {
          if (pre != a) continue;
          for (auto [bx, by] : in.desc_fixed.obj_poss) {
            if (PosNextTo(objs_[a].cur_x, objs_[a].cur_y, bx, by)) {
              return Status::kSuccess;
            }
          }
        }
        return Status::kContinue;
      }
      case Instr::kBefore:
        if (in.a_done == Status::kSuccess) {
          in.b_done = Verify(*in.b, action);
          if (in.b_done != Status::kContinue) return in.b_done;
        } else {
          in.a_done = Verify(*in.a, action);
          if (in.a_done == Status::kFailure) return Status::kFailure;
          if (in.a_done == Status::kSuccess) return Verify(in, action);
          if (in.strict && Verify(*in.b, action) == Status::kSuccess) {
            return Status::kFailure;
          }
        }
        return Status::kContinue;
      case Instr::kAfter:
        if (in.b_done == Status::kSuccess) {
          in.a_done = Verify(*in.a, action);
          if (in.a_done != Status::kContinue) return in.a_done;
        } else {
          in.b_done = Verify(*in.b, action);
          if (in.b_done == Status::kFailure) return Status::kFailure;
          if (in.b_done == Status::kSuccess) return Verify(in, action);
          if (in.strict && Verify(*in.a, action) == Status::kSuccess) {
            return Status::kFailure;
          }
        }
        return Status::kContinue;
      case Instr::kAnd:
        if (in.a_done != Status::kSuccess) in.a_done = Verify(*in.a, action);
        if (in.b_done != Status::kSuccess) in.b_done = Verify(*in.b, action);
        if (in.a_done == Status::kSuccess && in.b_done == Status::kSuccess) {
          return Status::kSuccess;
        }
        return Status::kContinue;
    }
    return Status::kContinue;
  }

  // validate_instrs
  void ValidateInstrs(Instr& in) {
    std::vector<int> locked_colors;
    if (Unblocking()) {
      for (int i = 0; i < num_cols_; ++i) {
        for (int j = 0; j < num_rows_; ++j) {
          for (int door : GetRoom(i, j).doors) {
            if (door >= 0 && objs_[door].is_locked) {
              locked_colors.push_back(objs_[door].color);
            }
          }
        }
      }
    }
    if (in.kind == Instr::kPutNext) {
      ResetVerifier(in);
      for (int a : in.desc.obj_set) {
        for (int b : in.desc_fixed.obj_set) {
          if (a == b) {
            throw RejectSampling(
                "there are objects that match both lhs and rhs of PutNext");
          }
        }
      }
      if (ObjsNext(in)) throw RejectSampling("objs already next to each other");
    }
    if (in.IsAction()) {
      if (!Unblocking()) return;
      auto check = [&](const ObjDesc& d) {
        if (d.type == kKey &&
            std::find(locked_colors.begin(), locked_colors.end(), d.color) !=
                locked_colors.end()) {
          throw RejectSampling(
              "cannot do anything with/to a key that can be used to open a "
              "door");
        }
      };
      check(in.desc);
      if (in.kind == Instr::kPutNext) check(in.desc_fixed);
      return;
    }
    ValidateInstrs(*in.a);
    ValidateInstrs(*in.b);
  }

  int NumNavsNeeded(const Instr& in) const {
    if (in.kind == Instr::kPutNext) return 2;
    if (in.IsAction()) return 1;
    return NumNavsNeeded(*in.a) + NumNavsNeeded(*in.b);
  }

  InstrPtr instrs_;

 private:
  static constexpr int kMaxGenerations = 10000;
  static bool PosNextTo(int xa, int ya, int xb, int yb) {
    return std::abs(xa - xb) + std::abs(ya - yb) == 1;
  }
  bool dynamic_max_steps_;
};

// The options every level takes.
inline Config BabyAIConfig(Config level_options) {
  level_options.Set("max_steps", int64_t{-1});  // -1: the level's default
  level_options.Set("agent_view_size", int64_t{7});
  return level_options;
}

}  // namespace babyai
}  // namespace minigrid
}  // namespace envpool_lite
