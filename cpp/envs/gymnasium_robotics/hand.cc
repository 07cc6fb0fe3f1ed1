// gymnasium-robotics 1.4.2's Shadow Hand ids (hand.h): HandReach -v3 and
// the HandManipulate{Block,Egg,Pen}* -v1 tasks, sparse and Dense, with and
// without touch sensors, as its __init__.py registers them; and the ids of
// their mujoco-py versions (-v0), which run the same env (as EnvPool
// registers them).
#include "envs/gymnasium_robotics/hand.h"

#include <string>

#include "core/registry.h"

namespace envpool_lite {
namespace gymnasium_robotics {
namespace {

// One manipulate task: the id's middle part and the target modes the
// registration passes.
struct ManipulateTask {
  const char* name;  // after "HandManipulate<Object>"
  const char* target_position;
  const char* target_rotation;
  bool touch_variants;  // registered with _BooleanTouchSensors and
                        // _ContinuousTouchSensors too
};

template <HandObject O>
void AddManipulate(Registry& registry, const std::string& object,
                   const ManipulateTask& task, const std::string& dense,
                   const std::string& reward_type) {
  const Config targets{{"reward_type", reward_type},
                       {"target_position", std::string(task.target_position)},
                       {"target_rotation", std::string(task.target_rotation)}};
  const std::string base = "HandManipulate" + object + task.name;
  for (const char* version : {"-v1", "-v0"}) {
    registry.Add<HandManipulateEnv<O, false>>(base + dense + version, targets);
    if (!task.touch_variants) continue;
    Config boolean = targets, continuous = targets;
    boolean.Set("touch_get_obs", std::string("boolean"));
    continuous.Set("touch_get_obs", std::string("sensordata"));
    registry.Add<HandManipulateEnv<O, true>>(
        base + "_BooleanTouchSensors" + dense + version, boolean);
    registry.Add<HandManipulateEnv<O, true>>(
        base + "_ContinuousTouchSensors" + dense + version, continuous);
  }
}

}  // namespace

void RegisterHand(Registry& registry) {
  static const ManipulateTask kBlock[] = {
      {"RotateZ", "ignore", "z", true},
      {"RotateParallel", "ignore", "parallel", true},
      {"RotateXYZ", "ignore", "xyz", true},
      {"Full", "random", "xyz", false},
      {"", "random", "xyz", true}};
  static const ManipulateTask kEggPen[] = {{"Rotate", "ignore", "xyz", true},
                                           {"Full", "random", "xyz", false},
                                           {"", "random", "xyz", true}};
  for (const char* reward_type : {"sparse", "dense"}) {
    const std::string dense =
        std::string(reward_type) == "dense" ? "Dense" : "";
    const Config reward{{"reward_type", std::string(reward_type)}};
    registry.Add<HandReachEnv>("HandReach" + dense + "-v3", reward);
    registry.Add<HandReachEnv>("HandReach" + dense + "-v0", reward);
    for (const ManipulateTask& t : kBlock) {
      AddManipulate<HandObject::kBlock>(registry, "Block", t, dense,
                                        reward_type);
    }
    for (const ManipulateTask& t : kEggPen) {
      AddManipulate<HandObject::kEgg>(registry, "Egg", t, dense, reward_type);
      AddManipulate<HandObject::kPen>(registry, "Pen", t, dense, reward_type);
    }
  }
}

}  // namespace gymnasium_robotics
}  // namespace envpool_lite
