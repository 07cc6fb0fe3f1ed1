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
