// Meta-World: the pick and push tasks.
#include "envs/metaworld/bin_picking.h"
#include "envs/metaworld/hand_insert.h"
#include "envs/metaworld/pick_out_of_hole.h"
#include "envs/metaworld/pick_place.h"
#include "envs/metaworld/push.h"
#include "envs/metaworld/reach_wall.h"
#include "envs/metaworld/registration.h"
#include "envs/metaworld/shelf_place.h"

namespace envpool_lite {
namespace metaworld {

void RegisterPickPush(Registry& registry) {
  AddTask<PushV3Env>(registry, "push-v3");
  AddTask<PushWallV3Env>(registry, "push-wall-v3");
  AddTask<PushBackV3Env>(registry, "push-back-v3");
  AddTask<PickPlaceV3Env>(registry, "pick-place-v3");
  AddTask<PickPlaceWallV3Env>(registry, "pick-place-wall-v3");
  AddTask<PickOutOfHoleV3Env>(registry, "pick-out-of-hole-v3");
  AddTask<ReachWallV3Env>(registry, "reach-wall-v3");
  AddTask<ShelfPlaceV3Env>(registry, "shelf-place-v3");
  AddTask<BinPickingV3Env>(registry, "bin-picking-v3");
  AddTask<HandInsertV3Env>(registry, "hand-insert-v3");
}

}  // namespace metaworld
}  // namespace envpool_lite
