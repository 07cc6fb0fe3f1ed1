// The highway family's parking and lane-keeping tasks.
#include "core/registry.h"

namespace envpool_lite {

void RegisterHighwayParking(Registry& registry) { (void)registry; }

}  // namespace envpool_lite
