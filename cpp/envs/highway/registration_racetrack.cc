// The highway family's racetrack tasks.
#include "core/registry.h"

namespace envpool_lite {

void RegisterHighwayRacetrack(Registry& registry) { (void)registry; }

}  // namespace envpool_lite
