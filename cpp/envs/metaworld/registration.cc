// Meta-World's 50 v3 tasks, as metaworld 3.1.1 names them, and EnvPool's ids
// for them. Built into libenvpool_lite_metaworld.so against MuJoCo 3.3.0's
// headers; RegisterMetaworld is the library's one exported function.
#include "envs/metaworld/registration.h"

#include "envs/metaworld/reach.h"

namespace envpool_lite {

__attribute__((visibility("default"))) void RegisterMetaworld(
    Registry& registry) {
  using namespace metaworld;  // NOLINT
  AddTask<ReachEnv>(registry, "reach-v3");
  RegisterPickPush(registry);
  RegisterButtons(registry);
  RegisterArticulated(registry);
  RegisterSliding(registry);
  RegisterTools(registry);
  RegisterBenchmarks(registry);
}

}  // namespace envpool_lite
