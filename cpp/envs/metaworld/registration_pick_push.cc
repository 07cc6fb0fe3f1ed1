// Meta-World: the pick and push tasks (to be written).
#include "envs/metaworld/registration.h"

namespace envpool_lite {
namespace metaworld {

void RegisterPickPush(Registry& registry) { (void)registry; }

}  // namespace metaworld
}  // namespace envpool_lite
