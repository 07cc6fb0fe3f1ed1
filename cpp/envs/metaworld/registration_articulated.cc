// Meta-World: the articulated tasks (doors, drawers, faucets, windows, the
// lever and the dial).
#include "envs/metaworld/dial_turn.h"
#include "envs/metaworld/door.h"
#include "envs/metaworld/door_lock.h"
#include "envs/metaworld/drawer.h"
#include "envs/metaworld/faucet.h"
#include "envs/metaworld/lever_pull.h"
#include "envs/metaworld/registration.h"
#include "envs/metaworld/window.h"

namespace envpool_lite {
namespace metaworld {

void RegisterArticulated(Registry& registry) {
  AddTask<DoorCloseEnv>(registry, "door-close-v3");
  AddTask<DoorLockEnv>(registry, "door-lock-v3");
  AddTask<DoorOpenEnv>(registry, "door-open-v3");
  AddTask<DoorUnlockEnv>(registry, "door-unlock-v3");
  AddTask<DrawerCloseEnv>(registry, "drawer-close-v3");
  AddTask<DrawerOpenEnv>(registry, "drawer-open-v3");
  AddTask<FaucetOpenEnv>(registry, "faucet-open-v3");
  AddTask<FaucetCloseEnv>(registry, "faucet-close-v3");
  AddTask<WindowOpenEnv>(registry, "window-open-v3");
  AddTask<WindowCloseEnv>(registry, "window-close-v3");
  AddTask<LeverPullEnv>(registry, "lever-pull-v3");
  AddTask<DialTurnEnv>(registry, "dial-turn-v3");
}

}  // namespace metaworld
}  // namespace envpool_lite
