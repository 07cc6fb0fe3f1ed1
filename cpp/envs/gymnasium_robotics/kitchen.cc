// gymnasium-robotics' Kitchen tasks (to be written).
#include "core/registry.h"

namespace envpool_lite {
namespace gymnasium_robotics {

void RegisterKitchen(Registry& registry) { (void)registry; }

}  // namespace gymnasium_robotics
}  // namespace envpool_lite
