// gymnasium-robotics 1.4.2's MuJoCo tasks: Fetch (fetch.h), Shadow Hand
// (hand.cc), PointMaze and AntMaze (maze.cc), Adroit (adroit.cc) and
// Franka Kitchen (kitchen.cc). The ids of its mujoco-py versions (Fetch -v1,
// Hand -v0) run the mujoco versions' code, as EnvPool registers them.
#include "core/registry.h"
#include "envs/gymnasium_robotics/fetch.h"

namespace envpool_lite {
namespace gymnasium_robotics {

void RegisterHand(Registry& registry);
void RegisterMaze(Registry& registry);
void RegisterAdroit(Registry& registry);
void RegisterKitchen(Registry& registry);

template <FetchKind K>
void AddFetch(Registry& registry, const std::string& name) {
  const Config sparse{{"reward_type", std::string("sparse")}};
  const Config dense{{"reward_type", std::string("dense")}};
  for (const char* version : {"-v4", "-v1"}) {
    registry.Add<FetchEnv<K>>(name + version, sparse);
    registry.Add<FetchEnv<K>>(name + "Dense" + version, dense);
  }
}

}  // namespace gymnasium_robotics

void RegisterGymnasiumRobotics(Registry& registry) {
  using namespace gymnasium_robotics;  // NOLINT
  AddFetch<FetchKind::kReach>(registry, "FetchReach");
  AddFetch<FetchKind::kPush>(registry, "FetchPush");
  AddFetch<FetchKind::kSlide>(registry, "FetchSlide");
  AddFetch<FetchKind::kPickAndPlace>(registry, "FetchPickAndPlace");
  RegisterHand(registry);
  RegisterMaze(registry);
  RegisterAdroit(registry);
  RegisterKitchen(registry);
}

}  // namespace envpool_lite
