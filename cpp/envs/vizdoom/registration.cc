// Basic-v1, DeadlyCorridor-v1, ...: the standard ViZDoom scenarios,
// EnvPool's D1Basic-v1 ... D4Battle2-v1, and VizdoomCustom-v1 (cfg_path=,
// wad_path=).
#include "core/registry.h"
#include "envs/vizdoom/vizdoom_env.h"

namespace envpool_lite {

void RegisterVizdoom(Registry& registry) {
  for (const VizdoomTask& t : kVizdoomTasks) {
    registry.Add<VizdoomEnv>(t.task_id,
                             {{"scenario", std::string(t.scenario)},
                              {"max_episode_steps", t.max_episode_steps}});
  }
}

}  // namespace envpool_lite
