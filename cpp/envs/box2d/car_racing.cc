// CarRacing's ids (cpp/envs/box2d/car_racing.h). gymnasium 1.4.0 registers
// CarRacing-v3 (time limit 1000); EnvPool's CarRacing-v2 is the same env.
#include "envs/box2d/car_racing.h"

#include "core/registry.h"

namespace envpool_lite {

void RegisterCarRacing(Registry& registry) {
  registry.Add<CarRacingEnv>("CarRacing-v3");
  registry.Add<CarRacingEnv>("CarRacing-v2");
}

}  // namespace envpool_lite
