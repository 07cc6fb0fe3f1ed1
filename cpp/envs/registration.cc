// Every task the pool can make: one line per task (one per family).
#include "core/registry.h"
#ifdef ENVPOOL_LITE_ATARI
#include "envs/atari/atari_env.h"
#endif
#include "envs/classic_control/acrobot.h"
#include "envs/classic_control/cartpole.h"
#include "envs/classic_control/mountain_car.h"
#include "envs/classic_control/mountain_car_continuous.h"
#include "envs/classic_control/pendulum.h"
#ifdef ENVPOOL_LITE_MUJOCO
#include "envs/mujoco/ant.h"
#include "envs/mujoco/humanoid.h"
#include "envs/mujoco/manipulators.h"
#include "envs/mujoco/pendulums.h"
#include "envs/mujoco/planar.h"
#endif
#include "envs/testing/dummy.h"
#ifdef ENVPOOL_LITE_VIZDOOM
#include "envs/vizdoom/vizdoom_env.h"
#endif

namespace envpool_lite {

void RegisterAllEnvs(Registry& registry) {
  registry.Add<CartPoleEnv>("CartPole-v0", {{"max_episode_steps", int64_t{200}}});
  registry.Add<CartPoleEnv>("CartPole-v1");
  registry.Add<AcrobotEnv>("Acrobot-v1");
  registry.Add<MountainCarEnv>("MountainCar-v0");
  registry.Add<MountainCarContinuousEnv>("MountainCarContinuous-v0");
  registry.Add<PendulumEnv>("Pendulum-v0", {{"version", int64_t{0}}});
  registry.Add<PendulumEnv>("Pendulum-v1");
  // EnvPool's aliases (gymnasium's functional "phys2d" ids).
  registry.Add<CartPoleEnv>("phys2d/CartPole-v0", {{"max_episode_steps", int64_t{200}}});
  registry.Add<CartPoleEnv>("phys2d/CartPole-v1");
  registry.Add<PendulumEnv>("phys2d/Pendulum-v0", {{"version", int64_t{0}}});
  registry.Add<DummyEnv>("Dummy-v0");  // for testing the engine
#ifdef ENVPOOL_LITE_ATARI
  // Pong-v5, Breakout-v5, ...: every single-player ALE game.
  for (const char* game : kAtariGames) {
    registry.Add<AtariEnv>(AtariTaskId(game), {{"game", std::string(game)}});
  }
#endif
#ifdef ENVPOOL_LITE_MUJOCO
  // gymnasium's MuJoCo tasks, v5 and v4.
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
#endif
#ifdef ENVPOOL_LITE_VIZDOOM
  // Basic-v1, DeadlyCorridor-v1, ...: the standard ViZDoom scenarios, and
  // VizdoomCustom-v1 (cfg_path=, wad_path=).
  for (const VizdoomTask& t : kVizdoomTasks) {
    registry.Add<VizdoomEnv>(t.task_id,
                             {{"scenario", std::string(t.scenario)},
                              {"max_episode_steps", t.max_episode_steps}});
  }
#endif
}

}  // namespace envpool_lite
