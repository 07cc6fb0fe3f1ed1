// Meta-World: the tools tasks.
#include "envs/metaworld/assembly.h"
#include "envs/metaworld/basketball.h"
#include "envs/metaworld/box_close.h"
#include "envs/metaworld/hammer.h"
#include "envs/metaworld/peg_side.h"
#include "envs/metaworld/registration.h"

namespace envpool_lite {
namespace metaworld {

void RegisterTools(Registry& registry) {
  AddTask<AssemblyEnv>(registry, "assembly-v3");
  AddTask<DisassembleEnv>(registry, "disassemble-v3");
  AddTask<PegInsertSideEnv>(registry, "peg-insert-side-v3");
  AddTask<PegUnplugSideEnv>(registry, "peg-unplug-side-v3");
  AddTask<HammerEnv>(registry, "hammer-v3");
  AddTask<BasketballEnv>(registry, "basketball-v3");
  AddTask<BoxCloseEnv>(registry, "box-close-v3");
}

}  // namespace metaworld
}  // namespace envpool_lite
