// Meta-World: the tools tasks (to be written).
#include "envs/metaworld/registration.h"

namespace envpool_lite {
namespace metaworld {

void RegisterTools(Registry& registry) { (void)registry; }

}  // namespace metaworld
}  // namespace envpool_lite
