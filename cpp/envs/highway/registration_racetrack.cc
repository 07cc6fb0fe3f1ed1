// The highway family's racetrack tasks (envs/racetrack_env.py):
// racetrack-v0/v1, racetrack-large-v0/v1, racetrack-oval-v0/v1, and
// EnvPool's names Racetrack-v0, RacetrackLarge-v0, RacetrackOval-v0.
#include "core/registry.h"
#include "envs/highway/racetrack_env.h"

namespace envpool_lite {

void RegisterHighwayRacetrack(Registry& registry) {
  using highway::HighwayPoolEnv;
  using highway::RacetrackEnv;
  using highway::RacetrackEnvLarge;
  using highway::RacetrackEnvOval;
  // ConnectedLaneNeighboursMixin: the v1 variants.
  const Config connected{{"neighbour_vehicles_connected_lanes", true}};
  registry.Add<HighwayPoolEnv<RacetrackEnv>>("racetrack-v0");
  registry.Add<HighwayPoolEnv<RacetrackEnv>>("racetrack-v1", connected);
  registry.Add<HighwayPoolEnv<RacetrackEnvLarge>>("racetrack-large-v0");
  registry.Add<HighwayPoolEnv<RacetrackEnvLarge>>("racetrack-large-v1",
                                                  connected);
  registry.Add<HighwayPoolEnv<RacetrackEnvOval>>("racetrack-oval-v0");
  registry.Add<HighwayPoolEnv<RacetrackEnvOval>>("racetrack-oval-v1",
                                                 connected);
  // EnvPool's names.
  registry.Add<HighwayPoolEnv<RacetrackEnv>>("Racetrack-v0");
  registry.Add<HighwayPoolEnv<RacetrackEnvLarge>>("RacetrackLarge-v0");
  registry.Add<HighwayPoolEnv<RacetrackEnvOval>>("RacetrackOval-v0");
}

}  // namespace envpool_lite
