// The highway family's parking and lane-keeping tasks.
#include "core/registry.h"
#include "envs/highway/lane_keeping_env.h"
#include "envs/highway/parking_env.h"

namespace envpool_lite {

void RegisterHighwayParking(Registry& registry) {
  using highway::HighwayPoolEnv;
  using highway::ParkingEnv;
  // ParkingEnvActionRepeat and ParkingEnvParkedVehicles: ParkingEnv with
  // these config changes.
  const Config action_repeat = {{"policy_frequency", int64_t{1}},
                                {"duration", 20.0}};
  const Config parked = {{"vehicles_count", int64_t{10}}};
  registry.Add<HighwayPoolEnv<ParkingEnv>>("parking-v0");
  registry.Add<HighwayPoolEnv<ParkingEnv>>("parking-ActionRepeat-v0",
                                           action_repeat);
  registry.Add<HighwayPoolEnv<ParkingEnv>>("parking-parked-v0", parked);
  // EnvPool's names.
  registry.Add<HighwayPoolEnv<ParkingEnv>>("Parking-v0");
  registry.Add<HighwayPoolEnv<ParkingEnv>>("ParkingActionRepeat-v0",
                                           action_repeat);
  registry.Add<HighwayPoolEnv<ParkingEnv>>("ParkingParked-v0", parked);
  // lane-keeping-v0: registered by highway-env with max_episode_steps=200.
  const Config time_limit = {{"max_episode_steps", int64_t{200}}};
  registry.Add<HighwayPoolEnv<highway::LaneKeepingEnv>>("lane-keeping-v0",
                                                        time_limit);
  registry.Add<HighwayPoolEnv<highway::LaneKeepingEnv>>("LaneKeeping-v0",
                                                        time_limit);
}

}  // namespace envpool_lite
