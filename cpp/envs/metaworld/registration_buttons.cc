// Meta-World: the buttons tasks (button presses, the coffee machine, the
// handles).
#include "envs/metaworld/button_press.h"
#include "envs/metaworld/coffee.h"
#include "envs/metaworld/handle.h"
#include "envs/metaworld/registration.h"

namespace envpool_lite {
namespace metaworld {

void RegisterButtons(Registry& registry) {
  AddTask<ButtonPressTopdownEnv>(registry, "button-press-topdown-v3");
  AddTask<ButtonPressTopdownWallEnv>(registry, "button-press-topdown-wall-v3");
  AddTask<ButtonPressEnv>(registry, "button-press-v3");
  AddTask<ButtonPressWallEnv>(registry, "button-press-wall-v3");
  AddTask<CoffeeButtonEnv>(registry, "coffee-button-v3");
  AddTask<CoffeePullEnv>(registry, "coffee-pull-v3");
  AddTask<CoffeePushEnv>(registry, "coffee-push-v3");
  AddTask<HandlePressSideEnv>(registry, "handle-press-side-v3");
  AddTask<HandlePressEnv>(registry, "handle-press-v3");
  AddTask<HandlePullSideEnv>(registry, "handle-pull-side-v3");
  AddTask<HandlePullEnv>(registry, "handle-pull-v3");
}

}  // namespace metaworld
}  // namespace envpool_lite
