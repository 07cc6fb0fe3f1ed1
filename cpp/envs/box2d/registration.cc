// The Box2D family: gymnasium 1.4.0's LunarLander, BipedalWalker and
// CarRacing on the Box2D 2.3 that gymnasium's box2d wheel runs
// (third_party/box2d.cmake), with EnvPool's ids. One header per env; each
// env's ids are listed in its own translation unit (<env>.cc), so that a
// change to one env recompiles only it.
#include "core/registry.h"

// replay.h's WorldHistory, defined here once (see there why).
#define ENVPOOL_LITE_BOX2D_REPLAY_DEFINITIONS
#include "envs/box2d/replay.h"

namespace envpool_lite {

void RegisterLunarLander(Registry& registry);    // lunar_lander.cc
void RegisterBipedalWalker(Registry& registry);  // bipedal_walker.cc
void RegisterCarRacing(Registry& registry);      // car_racing.cc

void RegisterBox2d(Registry& registry) {
  RegisterLunarLander(registry);
  RegisterBipedalWalker(registry);
  RegisterCarRacing(registry);
}

}  // namespace envpool_lite
