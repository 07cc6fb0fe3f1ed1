// The LunarLander ids (cpp/envs/box2d/lunar_lander.h). gymnasium 1.4.0
// registers only the v3 ids; EnvPool's v2 ids run the same env (gymnasium's
// v3: the wind's offsets drawn at every reset, a new world at every reset).
#include "envs/box2d/lunar_lander.h"

#include "core/registry.h"

namespace envpool_lite {

void RegisterLunarLander(Registry& registry) {
  registry.Add<LunarLanderEnv>("LunarLander-v2");
  registry.Add<LunarLanderEnv>("LunarLander-v3");
  registry.Add<LunarLanderContinuousEnv>("LunarLanderContinuous-v2",
                                         {{"continuous", true}});
  registry.Add<LunarLanderContinuousEnv>("LunarLanderContinuous-v3",
                                         {{"continuous", true}});
}

}  // namespace envpool_lite
