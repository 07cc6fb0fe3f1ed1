// The highway family's merge, roundabout, two-way, u-turn and exit tasks
// (highway-env 1.12.1's ids, and EnvPool's names for them).
#include "core/registry.h"
#include "envs/highway/exit_env.h"
#include "envs/highway/merge_env.h"
#include "envs/highway/roundabout_env.h"
#include "envs/highway/two_way_env.h"
#include "envs/highway/u_turn_env.h"

namespace envpool_lite {

void RegisterHighwayRoads(Registry& registry) {
  using highway::HighwayPoolEnv;
  const Config connected{{"neighbour_vehicles_connected_lanes", true}};
  registry.Add<HighwayPoolEnv<highway::MergeEnv>>("merge-v0");
  registry.Add<HighwayPoolEnv<highway::MergeEnv>>("merge-v1", connected);
  registry.Add<HighwayPoolEnv<highway::MergeGenericEnv>>("merge-generic-v0");
  registry.Add<HighwayPoolEnv<highway::MergeGenericEnv>>("merge-generic-v1",
                                                         connected);
  registry.Add<HighwayPoolEnv<highway::RoundaboutEnv>>("roundabout-v0");
  registry.Add<HighwayPoolEnv<highway::RoundaboutEnv>>("roundabout-v1",
                                                       connected);
  registry.Add<HighwayPoolEnv<highway::RoundaboutGenericEnv>>(
      "roundabout-generic-v0");
  registry.Add<HighwayPoolEnv<highway::RoundaboutGenericEnv>>(
      "roundabout-generic-v1", connected);
  // gymnasium's TimeLimit of 15 steps, as highway-env registers it.
  registry.Add<HighwayPoolEnv<highway::TwoWayEnv>>(
      "two-way-v0", {{"max_episode_steps", int64_t{15}}});
  registry.Add<HighwayPoolEnv<highway::UTurnEnv>>("u-turn-v0");
  registry.Add<HighwayPoolEnv<highway::UTurnEnv>>("u-turn-v1", connected);
  registry.Add<HighwayPoolEnv<highway::ExitEnv>>("exit-v0");
  registry.Add<HighwayPoolEnv<highway::ExitEnv>>("exit-v1", connected);
  // EnvPool's names.
  registry.Add<HighwayPoolEnv<highway::MergeEnv>>("Merge-v0");
  registry.Add<HighwayPoolEnv<highway::RoundaboutEnv>>("Roundabout-v0");
  registry.Add<HighwayPoolEnv<highway::TwoWayEnv>>(
      "TwoWay-v0", {{"max_episode_steps", int64_t{15}}});
  registry.Add<HighwayPoolEnv<highway::UTurnEnv>>("UTurn-v0");
  registry.Add<HighwayPoolEnv<highway::ExitEnv>>("Exit-v0");
}

}  // namespace envpool_lite
