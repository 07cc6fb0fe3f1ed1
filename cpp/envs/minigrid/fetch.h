// MiniGrid-Fetch-*: pick up the named object; picking up any other one ends
// the episode unrewarded (minigrid/envs/fetch.py).
#pragma once

#include <string>
#include <vector>

#include "envs/minigrid/minigrid_env.h"

namespace envpool_lite {
namespace minigrid {

class FetchEnv : public MiniGridEnv {
 public:
  static Config DefaultConfig() {
    return {{"size", int64_t{8}},
            {"numObjs", int64_t{3}},
            {"max_steps", int64_t{-1}},  // -1: 5 * size**2
            {"agent_view_size", int64_t{7}}};
  }

  static EnvSpec MakeSpec(const Config& config) {
    const int64_t size = config.GetInt("size", 4, 255);
    config.GetInt("numObjs", 1, (size - 2) * (size - 2) - 1);
    return MakeMiniGridSpec(config);
  }

  FetchEnv(const Config& config, uint64_t seed)
      : MiniGridEnv(config, seed, Size(config), Size(config),
                    5 * int64_t{Size(config)} * Size(config),
                    /*see_through_walls=*/true),
        num_objs_(static_cast<int>(config.GetInt("numObjs"))) {}

  StepResult Step(const void* action) override {
    StepResult result = MiniGridEnv::Step(action);
    if (carrying_ != kNone) {
      const Obj& c = objs_[carrying_];
      const bool target = c.color == target_color_ && c.type == target_type_;
      result.reward = target ? Reward() : 0.0;
      result.terminated = true;
    }
    return result;
  }

  ENVPOOL_LITE_STATE_AFTER(MiniGridEnv, target_type_, target_color_)

 protected:
  const char* DebugName() const override { return "fetch"; }
  void DebugTask(DebugState* s) const override {
    s->Int("target_type", {static_cast<int64_t>(target_type_)});
    s->Int("target_color", {static_cast<int64_t>(target_color_)});
  }

  void GenGrid() override {
    HorzWall(0, 0);
    HorzWall(0, height_ - 1);
    VertWall(0, 0);
    VertWall(width_ - 1, 0);
    std::vector<int> objs;
    while (static_cast<int>(objs.size()) < num_objs_) {
      const Type type = RandInt(0, 2) == 0 ? kKey : kBall;  // ["key", "ball"]
      const int obj = NewObj(type, RandColor());
      PlaceObj(obj);
      objs.push_back(obj);
    }
    PlaceAgent();
    const Obj& target = objs_[objs[RandInt(0, static_cast<int>(objs.size()))]];
    target_type_ = target.type;
    target_color_ = target.color;
    static const char* kSyntax[5] = {"get a", "go get a", "fetch a",
                                     "go fetch a", "you must fetch a"};
    SetMission(std::string(kSyntax[RandInt(0, 5)]) + " " +
               ColorName(target_color_) + " " + TypeName(target_type_));
  }

 private:
  static int Size(const Config& config) {
    return static_cast<int>(config.GetInt("size"));
  }
  int num_objs_;
  Type target_type_ = kKey;
  Color target_color_ = kRed;
};

}  // namespace minigrid
}  // namespace envpool_lite
