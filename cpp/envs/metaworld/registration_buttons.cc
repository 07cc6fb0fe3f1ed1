// Meta-World: the buttons tasks (to be written).
#include "envs/metaworld/registration.h"

namespace envpool_lite {
namespace metaworld {

void RegisterButtons(Registry& registry) { (void)registry; }

}  // namespace metaworld
}  // namespace envpool_lite
