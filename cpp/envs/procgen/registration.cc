// The Procgen tasks, named as EnvPool names them: <Game><Mode>-v0 for each
// of the 16 games in each distribution mode it has (50 ids), with the game's
// timeout in that mode as max_episode_steps (procgen::Timeout).
#include <cctype>
#include <string>

#include "core/registry.h"
#include "envs/procgen/procgen_env.h"

namespace envpool_lite {

void RegisterProcgen(Registry& registry) {
  using procgen::Game;
  const std::pair<int64_t, const char*> modes[] = {
      {procgen::kEasy, "Easy"},
      {procgen::kHard, "Hard"},
      {procgen::kExtreme, "Extreme"},
      {procgen::kMemory, "Memory"},
      {procgen::kExploration, "Exploration"}};
  for (const Game& game : procgen::kGames) {
    std::string name = game.name;
    name[0] = static_cast<char>(std::toupper(name[0]));
    for (const auto& [mode, mode_name] : modes) {
      if (!procgen::HasMode(game, mode)) continue;
      registry.Add<procgen::ProcgenEnv>(
          name + mode_name + "-v0",
          {{"env_name", std::string(game.name)},
           {"distribution_mode", mode},
           {"max_episode_steps", procgen::Timeout(game, mode)}});
    }
  }
}

}  // namespace envpool_lite
