// gymnasium's MuJoCo tasks, v5 and v4, and EnvPool's v3/v2 ids (the v4
// code without mj_rnePostConstraint: refkit/gymnasium/mujoco_env.h).
#include "core/registry.h"
#include "envs/mujoco/humanoid.h"
#include "envs/mujoco/manipulators.h"
#include "envs/mujoco/pendulums.h"
#include "envs/mujoco/planar.h"
#include "refkit/gymnasium/ant.h"

namespace envpool_lite {

void RegisterMujoco(Registry& registry) {
  registry.Add<AntEnv<5>>("Ant-v5");
  registry.Add<AntEnv<4>>("Ant-v4");
  registry.Add<HalfCheetahEnv<5>>("HalfCheetah-v5");
  registry.Add<HalfCheetahEnv<4>>("HalfCheetah-v4");
  registry.Add<HopperEnv<5>>("Hopper-v5");
  registry.Add<HopperEnv<4>>("Hopper-v4");
  registry.Add<HumanoidEnv<5>>("Humanoid-v5");
  registry.Add<HumanoidEnv<4>>("Humanoid-v4");
  registry.Add<HumanoidStandupEnv<5>>("HumanoidStandup-v5");
  registry.Add<HumanoidStandupEnv<4>>("HumanoidStandup-v4");
  registry.Add<InvertedDoublePendulumEnv<5>>("InvertedDoublePendulum-v5");
  registry.Add<InvertedDoublePendulumEnv<4>>("InvertedDoublePendulum-v4");
  registry.Add<InvertedPendulumEnv<5>>("InvertedPendulum-v5");
  registry.Add<InvertedPendulumEnv<4>>("InvertedPendulum-v4");
  registry.Add<PusherEnv<5>>("Pusher-v5");
  registry.Add<PusherEnv<4>>("Pusher-v4");
  registry.Add<ReacherEnv<5>>("Reacher-v5");
  registry.Add<ReacherEnv<4>>("Reacher-v4");
  registry.Add<SwimmerEnv<5>>("Swimmer-v5");
  registry.Add<SwimmerEnv<4>>("Swimmer-v4");
  registry.Add<Walker2dEnv<5>>("Walker2d-v5");
  registry.Add<Walker2dEnv<4>>("Walker2d-v4");
  registry.Add<AntEnv<3>>("Ant-v3");
  registry.Add<HalfCheetahEnv<3>>("HalfCheetah-v3");
  registry.Add<HopperEnv<3>>("Hopper-v3");
  registry.Add<HumanoidEnv<3>>("Humanoid-v3");
  registry.Add<HumanoidStandupEnv<2>>("HumanoidStandup-v2");
  registry.Add<InvertedDoublePendulumEnv<2>>("InvertedDoublePendulum-v2");
  registry.Add<InvertedPendulumEnv<2>>("InvertedPendulum-v2");
  registry.Add<PusherEnv<2>>("Pusher-v2");
  registry.Add<ReacherEnv<2>>("Reacher-v2");
  registry.Add<SwimmerEnv<3>>("Swimmer-v3");
  registry.Add<Walker2dEnv<3>>("Walker2d-v3");
}

}  // namespace envpool_lite
