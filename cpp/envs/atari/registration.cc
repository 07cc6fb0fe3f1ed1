// The Atari tasks: Pong-v5, Breakout-v5, ...: every single-player ALE game.
#include "core/registry.h"
#include "envs/atari/atari_env.h"

namespace envpool_lite {

void RegisterAtari(Registry& registry) {
  for (const char* game : kAtariGames) {
    registry.Add<AtariEnv>(AtariTaskId(game), {{"game", std::string(game)}});
  }
}

}  // namespace envpool_lite
