// dm_control's suite (dm_control 1.0.50's suite.ALL_TASKS), named as EnvPool
// names them: <Domain><Task>-v1. One header per domain, each with its
// Register<Domain>().
#include "core/registry.h"
#if __has_include("envs/dm_control/acrobot.h")
#include "envs/dm_control/acrobot.h"
#define ENVPOOL_LITE_DMC_ACROBOT
#endif
#if __has_include("envs/dm_control/ball_in_cup.h")
#include "envs/dm_control/ball_in_cup.h"
#define ENVPOOL_LITE_DMC_BALL_IN_CUP
#endif
#if __has_include("envs/dm_control/cartpole.h")
#include "envs/dm_control/cartpole.h"
#define ENVPOOL_LITE_DMC_CARTPOLE
#endif
#if __has_include("envs/dm_control/cheetah.h")
#include "envs/dm_control/cheetah.h"
#define ENVPOOL_LITE_DMC_CHEETAH
#endif
#if __has_include("envs/dm_control/dog.h")
#include "envs/dm_control/dog.h"
#define ENVPOOL_LITE_DMC_DOG
#endif
#if __has_include("envs/dm_control/finger.h")
#include "envs/dm_control/finger.h"
#define ENVPOOL_LITE_DMC_FINGER
#endif
#if __has_include("envs/dm_control/fish.h")
#include "envs/dm_control/fish.h"
#define ENVPOOL_LITE_DMC_FISH
#endif
#if __has_include("envs/dm_control/hopper.h")
#include "envs/dm_control/hopper.h"
#define ENVPOOL_LITE_DMC_HOPPER
#endif
#if __has_include("envs/dm_control/humanoid.h")
#include "envs/dm_control/humanoid.h"
#define ENVPOOL_LITE_DMC_HUMANOID
#endif
#if __has_include("envs/dm_control/humanoid_CMU.h")
#include "envs/dm_control/humanoid_CMU.h"
#define ENVPOOL_LITE_DMC_HUMANOID_CMU
#endif
#if __has_include("envs/dm_control/lqr.h")
#include "envs/dm_control/lqr.h"
#define ENVPOOL_LITE_DMC_LQR
#endif
#if __has_include("envs/dm_control/manipulator.h")
#include "envs/dm_control/manipulator.h"
#define ENVPOOL_LITE_DMC_MANIPULATOR
#endif
#if __has_include("envs/dm_control/pendulum.h")
#include "envs/dm_control/pendulum.h"
#define ENVPOOL_LITE_DMC_PENDULUM
#endif
#if __has_include("envs/dm_control/point_mass.h")
#include "envs/dm_control/point_mass.h"
#define ENVPOOL_LITE_DMC_POINT_MASS
#endif
#if __has_include("envs/dm_control/quadruped.h")
#include "envs/dm_control/quadruped.h"
#define ENVPOOL_LITE_DMC_QUADRUPED
#endif
#if __has_include("envs/dm_control/reacher.h")
#include "envs/dm_control/reacher.h"
#define ENVPOOL_LITE_DMC_REACHER
#endif
#if __has_include("envs/dm_control/stacker.h")
#include "envs/dm_control/stacker.h"
#define ENVPOOL_LITE_DMC_STACKER
#endif
#if __has_include("envs/dm_control/swimmer.h")
#include "envs/dm_control/swimmer.h"
#define ENVPOOL_LITE_DMC_SWIMMER
#endif
#if __has_include("envs/dm_control/walker.h")
#include "envs/dm_control/walker.h"
#define ENVPOOL_LITE_DMC_WALKER
#endif

namespace envpool_lite {

void RegisterDmControl(Registry& registry) {
#ifdef ENVPOOL_LITE_DMC_ACROBOT
  dm_control::RegisterAcrobot(registry);
#endif
#ifdef ENVPOOL_LITE_DMC_BALL_IN_CUP
  dm_control::RegisterBallInCup(registry);
#endif
#ifdef ENVPOOL_LITE_DMC_CARTPOLE
  dm_control::RegisterCartpole(registry);
#endif
#ifdef ENVPOOL_LITE_DMC_CHEETAH
  dm_control::RegisterCheetah(registry);
#endif
#ifdef ENVPOOL_LITE_DMC_DOG
  dm_control::RegisterDog(registry);
#endif
#ifdef ENVPOOL_LITE_DMC_FINGER
  dm_control::RegisterFinger(registry);
#endif
#ifdef ENVPOOL_LITE_DMC_FISH
  dm_control::RegisterFish(registry);
#endif
#ifdef ENVPOOL_LITE_DMC_HOPPER
  dm_control::RegisterHopper(registry);
#endif
#ifdef ENVPOOL_LITE_DMC_HUMANOID
  dm_control::RegisterHumanoid(registry);
#endif
#ifdef ENVPOOL_LITE_DMC_HUMANOID_CMU
  dm_control::RegisterHumanoidCMU(registry);
#endif
#ifdef ENVPOOL_LITE_DMC_LQR
  dm_control::RegisterLqr(registry);
#endif
#ifdef ENVPOOL_LITE_DMC_MANIPULATOR
  dm_control::RegisterManipulator(registry);
#endif
#ifdef ENVPOOL_LITE_DMC_PENDULUM
  dm_control::RegisterPendulum(registry);
#endif
#ifdef ENVPOOL_LITE_DMC_POINT_MASS
  dm_control::RegisterPointMass(registry);
#endif
#ifdef ENVPOOL_LITE_DMC_QUADRUPED
  dm_control::RegisterQuadruped(registry);
#endif
#ifdef ENVPOOL_LITE_DMC_REACHER
  dm_control::RegisterReacher(registry);
#endif
#ifdef ENVPOOL_LITE_DMC_STACKER
  dm_control::RegisterStacker(registry);
#endif
#ifdef ENVPOOL_LITE_DMC_SWIMMER
  dm_control::RegisterSwimmer(registry);
#endif
#ifdef ENVPOOL_LITE_DMC_WALKER
  dm_control::RegisterWalker(registry);
#endif
}

}  // namespace envpool_lite
