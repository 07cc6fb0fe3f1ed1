// Meta-World: the sliding tasks (to be written).
#include "envs/metaworld/registration.h"

namespace envpool_lite {
namespace metaworld {

void RegisterSliding(Registry& registry) { (void)registry; }

}  // namespace metaworld
}  // namespace envpool_lite
