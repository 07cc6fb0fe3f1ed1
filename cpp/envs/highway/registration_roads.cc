// The highway family's merge, roundabout, two-way, u-turn and exit tasks.
#include "core/registry.h"

namespace envpool_lite {

void RegisterHighwayRoads(Registry& registry) { (void)registry; }

}  // namespace envpool_lite
