// The toy-text tasks: gymnasium's FrozenLake, Taxi, CliffWalking and
// Blackjack, and EnvPool's NChain and Catch. Every id of EnvPool's
// toy-text list, and gymnasium 1.4.0's ids of the same envs; an alias is
// registered as its own id.
#include "core/registry.h"
#include "envs/toy_text/blackjack.h"
#include "envs/toy_text/catch.h"
#include "envs/toy_text/cliffwalking.h"
#include "envs/toy_text/frozen_lake.h"
#include "envs/toy_text/nchain.h"
#include "envs/toy_text/taxi.h"

namespace envpool_lite {

void RegisterToyText(Registry& registry) {
  registry.Add<FrozenLakeEnv>("FrozenLake-v1");
  registry.Add<FrozenLakeEnv>(
      "FrozenLake8x8-v1",
      {{"map_name", std::string("8x8")}, {"max_episode_steps", int64_t{200}}});
  // Taxi-v3: gymnasium 1.2's (EnvPool's id); Taxi-v4: gymnasium 1.4's.
  registry.Add<TaxiV3Env>("Taxi-v3");
  registry.Add<TaxiEnv>("Taxi-v4");
  registry.Add<NChainEnv>("NChain-v0");
  registry.Add<CliffWalkingEnv>("CliffWalking-v1");
  registry.Add<CliffWalkingEnv>("tabular/CliffWalking-v0");  // EnvPool's alias
  registry.Add<CliffWalkingEnv>("CliffWalkingSlippery-v1",
                                {{"is_slippery", true}});
  registry.Add<CliffWalkingEnv>("CliffWalking-v0");  // gymnasium 1.1's id
  registry.Add<BlackjackEnv>("Blackjack-v1");
  registry.Add<BlackjackEnv>("tabular/Blackjack-v0");  // EnvPool's alias
  registry.Add<CatchEnv>("Catch-v0");
}

}  // namespace envpool_lite
