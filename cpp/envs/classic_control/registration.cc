// The classic-control tasks: gymnasium's, and EnvPool's "phys2d/" aliases.
#include "core/registry.h"
#include "envs/classic_control/acrobot.h"
#include "envs/classic_control/cartpole.h"
#include "envs/classic_control/mountain_car.h"
#include "envs/classic_control/mountain_car_continuous.h"
#include "envs/classic_control/pendulum.h"

namespace envpool_lite {

void RegisterClassicControl(Registry& registry) {
  registry.Add<CartPoleEnv>("CartPole-v0",
                            {{"max_episode_steps", int64_t{200}}});
  registry.Add<CartPoleEnv>("CartPole-v1");
  registry.Add<AcrobotEnv>("Acrobot-v1");
  registry.Add<MountainCarEnv>("MountainCar-v0");
  registry.Add<MountainCarContinuousEnv>("MountainCarContinuous-v0");
  registry.Add<PendulumEnv>("Pendulum-v0", {{"version", int64_t{0}}});
  registry.Add<PendulumEnv>("Pendulum-v1");
  // EnvPool's aliases (gymnasium's functional "phys2d" ids).
  registry.Add<CartPoleEnv>("phys2d/CartPole-v0",
                            {{"max_episode_steps", int64_t{200}}});
  registry.Add<CartPoleEnv>("phys2d/CartPole-v1");
  registry.Add<PendulumEnv>("phys2d/Pendulum-v0", {{"version", int64_t{0}}});
}

}  // namespace envpool_lite
