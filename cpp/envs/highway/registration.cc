// The highway family: highway-env 1.12.1's tasks under its ids, and
// EnvPool's names for them.
#include "core/registry.h"
#include "envs/highway/highway_env.h"

namespace envpool_lite {

// The other tasks, one file each group (registration_<group>.cc).
void RegisterHighwayRoads(Registry& registry);
void RegisterHighwayIntersection(Registry& registry);
void RegisterHighwayParking(Registry& registry);
void RegisterHighwayRacetrack(Registry& registry);

void RegisterHighway(Registry& registry) {
  using highway::HighwayPoolEnv;
  registry.Add<HighwayPoolEnv<highway::HighwayEnv>>("highway-v0");
  registry.Add<HighwayPoolEnv<highway::HighwayEnvFast>>("highway-fast-v0");
  // EnvPool's names.
  registry.Add<HighwayPoolEnv<highway::HighwayEnv>>("Highway-v0");
  registry.Add<HighwayPoolEnv<highway::HighwayEnvFast>>("HighwayFast-v0");
  RegisterHighwayRoads(registry);
  RegisterHighwayIntersection(registry);
  RegisterHighwayParking(registry);
  RegisterHighwayRacetrack(registry);
}

}  // namespace envpool_lite
