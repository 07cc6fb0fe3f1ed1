// The BipedalWalker ids: EnvPool's (= gymnasium 1.4.0's), with gymnasium's
// time limits (gymnasium/envs/__init__.py).
#include "envs/box2d/bipedal_walker.h"

#include "core/registry.h"

namespace envpool_lite {

void RegisterBipedalWalker(Registry& registry) {
  registry.Add<BipedalWalkerEnv>("BipedalWalker-v3");
  registry.Add<BipedalWalkerEnv>(
      "BipedalWalkerHardcore-v3",
      {{"hardcore", true}, {"max_episode_steps", int64_t{2000}}});
}

}  // namespace envpool_lite
