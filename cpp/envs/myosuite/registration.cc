// MyoSuite's tasks, as myosuite 2.12.2 names them, and EnvPool's ids for
// them. Built into libenvpool_lite_myosuite.so against MuJoCo 3.6.0's
// headers; RegisterMyosuite is the library's one exported function.
#include "envs/myosuite/registration.h"

namespace envpool_lite {

__attribute__((visibility("default"))) void RegisterMyosuite(
    Registry& registry) {
  myosuite::RegisterTasks(registry);
}

}  // namespace envpool_lite
