// Envs for testing the engine itself.
#include "core/registry.h"
#include "envs/testing/dummy.h"

namespace envpool_lite {

void RegisterTesting(Registry& registry) { registry.Add<DummyEnv>("Dummy-v0"); }

}  // namespace envpool_lite
