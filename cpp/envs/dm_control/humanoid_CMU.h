// dm_control/suite/humanoid_CMU.py: stand, walk, run. The task is
// humanoid.py's (HumanoidEnv, envs/dm_control/humanoid.h) on the CMU model:
// the thorax's frame, its y axis's z for uprightness.
#pragma once

#include "envs/dm_control/humanoid.h"

namespace envpool_lite {
namespace dm_control {

inline constexpr HumanoidNames kHumanoidCMU{
    "humanoid_CMU",
    "thorax",
    "thorax_subtreelinvel",
    {"lhand", "lfoot", "rhand", "rfoot"},
    7,  // zy
    20,
    0.02};

inline void RegisterHumanoidCMU(Registry& registry) {
  registry.Add<Task<HumanoidEnv<kHumanoidCMU, 0>>>("HumanoidCMUStand-v1");
  registry.Add<Task<HumanoidEnv<kHumanoidCMU, 1>>>("HumanoidCMUWalk-v1");
  registry.Add<Task<HumanoidEnv<kHumanoidCMU, 2>>>("HumanoidCMURun-v1");
}

}  // namespace dm_control
}  // namespace envpool_lite
