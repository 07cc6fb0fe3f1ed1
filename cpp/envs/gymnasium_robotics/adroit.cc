// gymnasium-robotics' Adroit tasks (to be written).
#include "core/registry.h"

namespace envpool_lite {
namespace gymnasium_robotics {

void RegisterAdroit(Registry& registry) { (void)registry; }

}  // namespace gymnasium_robotics
}  // namespace envpool_lite
