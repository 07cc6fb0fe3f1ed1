// gymnasium-robotics 1.4.2's Franka Kitchen (kitchen.h): FrankaKitchen-v1,
// max_episode_steps=280, all seven tasks by default.
#include "envs/gymnasium_robotics/kitchen.h"

#include "core/registry.h"

namespace envpool_lite {
namespace gymnasium_robotics {

void RegisterKitchen(Registry& registry) {
  registry.Add<KitchenEnv>("FrankaKitchen-v1");
}

}  // namespace gymnasium_robotics
}  // namespace envpool_lite
