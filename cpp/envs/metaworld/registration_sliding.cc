// Meta-World: the sliding tasks.
#include "envs/metaworld/plate_slide.h"
#include "envs/metaworld/registration.h"
#include "envs/metaworld/soccer.h"
#include "envs/metaworld/stick.h"
#include "envs/metaworld/sweep.h"
#include "envs/metaworld/sweep_into.h"

namespace envpool_lite {
namespace metaworld {

void RegisterSliding(Registry& registry) {
  AddTask<PlateSlideV3Env>(registry, "plate-slide-v3");
  AddTask<PlateSlideSideV3Env>(registry, "plate-slide-side-v3");
  AddTask<PlateSlideBackV3Env>(registry, "plate-slide-back-v3");
  AddTask<PlateSlideBackSideV3Env>(registry, "plate-slide-back-side-v3");
  AddTask<SweepIntoEnv>(registry, "sweep-into-v3");
  AddTask<SweepEnv>(registry, "sweep-v3");
  AddTask<SoccerEnv>(registry, "soccer-v3");
  AddTask<StickPushEnv>(registry, "stick-push-v3");
  AddTask<StickPullEnv>(registry, "stick-pull-v3");
}

}  // namespace metaworld
}  // namespace envpool_lite
