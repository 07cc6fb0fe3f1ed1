// The highway family's intersection (single- and multi-agent) tasks.
#include "core/registry.h"

namespace envpool_lite {

void RegisterHighwayIntersection(Registry& registry) { (void)registry; }

}  // namespace envpool_lite
