// BabyAI's PutNext levels (minigrid/envs/babyai/putnext.py): put an object
// next to another.
#pragma once

#include <vector>

#include "envs/minigrid/babyai/goto.h"

namespace envpool_lite {
namespace minigrid {
namespace babyai {

// PutNextLocal: one room, num_objs distinct objects.
class PutNextLocalEnv : public BabyAILevel {
 public:
  static Config DefaultConfig() {
    return BabyAIConfig({{"room_size", int64_t{8}}, {"num_objs", int64_t{8}}});
  }
  static EnvSpec MakeSpec(const Config& config) {
    // distinct (type, colour) pairs: 18 at most
    config.GetInt("num_objs", 2, 18);
    return MakeLevelSpec(config);
  }
  PutNextLocalEnv(const Config& config, uint64_t seed)
      : BabyAILevel(config, seed, Opt(config, "room_size"), 1, 1),
        num_objs_(Opt(config, "num_objs")) {}

 protected:
  void GenMission() override {
    PlaceAgentInRoom();
    const std::vector<int> objs = AddDistractors(-1, -1, num_objs_, true);
    CheckObjsReachable();
    const std::vector<int> two = RandSubset(objs, 2);
    instrs_ = PutNext(DescOf(two[0]), DescOf(two[1]));
  }

 private:
  int num_objs_;
};

// PutNextS*N* (Carrying): two rooms joined by an opening, objs_per_room
// each; put an object of one room next to one of the other. start_carrying:
// the agent starts holding the object to move (the first observation
// still shows it on the floor, as minigrid's reset does).
class PutNextEnv : public BabyAILevel {
 public:
  static Config DefaultConfig() {
    return BabyAIConfig({{"room_size", int64_t{5}},
                         {"objs_per_room", int64_t{2}},
                         {"start_carrying", false}});
  }
  static EnvSpec MakeSpec(const Config& config) {
    config.GetInt("room_size", 4, 64);
    config.GetInt("objs_per_room", 1, 9);
    config.GetBool("start_carrying");
    return MakeLevelSpec(config);
  }
  PutNextEnv(const Config& config, uint64_t seed)
      : BabyAILevel(
            config, seed, Opt(config, "room_size"), 1, 2,
            8 * config.GetInt("room_size") * config.GetInt("room_size")),
        objs_per_room_(Opt(config, "objs_per_room")),
        start_carrying_(config.GetBool("start_carrying")) {}

  void Reset() override {
    BabyAILevel::Reset();
    reset_obs_pending_ = false;
    if (start_carrying_) {
      const Obj& a = objs_[obj_a_];
      grid_.Set(a.init_x, a.init_y, kNone);
      carrying_ = obj_a_;
      reset_obs_pending_ = true;
    }
  }

  StepResult Step(const void* action) override {
    reset_obs_pending_ = false;
    return BabyAILevel::Step(action);
  }

  void WriteObs(const Row& row) override {
    if (!reset_obs_pending_) {
      BabyAILevel::WriteObs(row);
      return;
    }
    // reset's observation: made before the object was taken up
    const Obj& a = objs_[obj_a_];
    grid_.Set(a.init_x, a.init_y, obj_a_);
    carrying_ = kNone;
    BabyAILevel::WriteObs(row);
    grid_.Set(a.init_x, a.init_y, kNone);
    carrying_ = obj_a_;
  }

  // reset_obs_pending_: WriteObs still shows the reset's observation.
  ENVPOOL_LITE_STATE_AFTER(BabyAILevel, obj_a_, reset_obs_pending_)

 protected:
  void GenMission() override {
    PlaceAgentInRoom(0, 0);
    const std::vector<int> left = AddDistractors(0, 0, objs_per_room_);
    const std::vector<int> right = AddDistractors(1, 0, objs_per_room_);
    RemoveWall(0, 0, 0);
    int a = RandElem(left);
    int b = RandElem(right);
    if (RandBool()) std::swap(a, b);
    obj_a_ = a;
    instrs_ = PutNext(DescOf(a), DescOf(b));
  }

 private:
  int objs_per_room_;
  bool start_carrying_;
  int obj_a_ = kNone;
  bool reset_obs_pending_ = false;
};

}  // namespace babyai
}  // namespace minigrid
}  // namespace envpool_lite
