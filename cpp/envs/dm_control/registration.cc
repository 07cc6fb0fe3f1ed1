// dm_control's suite: the 51 tasks of dm_control 1.0.50's suite.ALL_TASKS,
// named as EnvPool names them, <Domain><Task>-v1. One header per domain
// (the task classes and a Register<Domain>() adding its ids), on
// dmc_env.h's base.
#include "core/registry.h"
#include "envs/dm_control/acrobot.h"
#include "envs/dm_control/ball_in_cup.h"
#include "envs/dm_control/cartpole.h"
#include "envs/dm_control/cheetah.h"
#include "envs/dm_control/dog.h"
#include "envs/dm_control/finger.h"
#include "envs/dm_control/fish.h"
#include "envs/dm_control/hopper.h"
#include "envs/dm_control/humanoid.h"
#include "envs/dm_control/humanoid_CMU.h"
#include "envs/dm_control/lqr.h"
#include "envs/dm_control/manipulator.h"
#include "envs/dm_control/pendulum.h"
#include "envs/dm_control/point_mass.h"
#include "envs/dm_control/quadruped.h"
#include "envs/dm_control/reacher.h"
#include "envs/dm_control/stacker.h"
#include "envs/dm_control/swimmer.h"
#include "envs/dm_control/walker.h"

namespace envpool_lite {

void RegisterDmControl(Registry& registry) {
  dm_control::RegisterAcrobot(registry);
  dm_control::RegisterBallInCup(registry);
  dm_control::RegisterCartpole(registry);
  dm_control::RegisterCheetah(registry);
  dm_control::RegisterDog(registry);
  dm_control::RegisterFinger(registry);
  dm_control::RegisterFish(registry);
  dm_control::RegisterHopper(registry);
  dm_control::RegisterHumanoid(registry);
  dm_control::RegisterHumanoidCMU(registry);
  dm_control::RegisterLqr(registry);
  dm_control::RegisterManipulator(registry);
  dm_control::RegisterPendulum(registry);
  dm_control::RegisterPointMass(registry);
  dm_control::RegisterQuadruped(registry);
  dm_control::RegisterReacher(registry);
  dm_control::RegisterStacker(registry);
  dm_control::RegisterSwimmer(registry);
  dm_control::RegisterWalker(registry);
}

}  // namespace envpool_lite
