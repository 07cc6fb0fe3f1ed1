// Meta-World: the articulated tasks (to be written).
#include "envs/metaworld/registration.h"

namespace envpool_lite {
namespace metaworld {

void RegisterArticulated(Registry& registry) { (void)registry; }

}  // namespace metaworld
}  // namespace envpool_lite
