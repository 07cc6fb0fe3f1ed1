// Every task the pool can make: one line per task.
#include "core/registry.h"
#include "envs/classic_control/acrobot.h"
#include "envs/classic_control/cartpole.h"
#include "envs/classic_control/mountain_car.h"
#include "envs/classic_control/mountain_car_continuous.h"
#include "envs/classic_control/pendulum.h"
#include "envs/testing/dummy.h"

namespace envpool_lite {

void RegisterAllEnvs(Registry& registry) {
  registry.Add<CartPoleEnv>("CartPole-v1");
  registry.Add<AcrobotEnv>("Acrobot-v1");
  registry.Add<MountainCarEnv>("MountainCar-v0");
  registry.Add<MountainCarContinuousEnv>("MountainCarContinuous-v0");
  registry.Add<PendulumEnv>("Pendulum-v1");
  registry.Add<DummyEnv>("Dummy-v0");  // for testing the engine
}

}  // namespace envpool_lite
