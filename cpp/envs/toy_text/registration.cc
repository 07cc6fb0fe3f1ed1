// The toy-text tasks: gymnasium's FrozenLake, Taxi, CliffWalking and
// Blackjack, and EnvPool's NChain and Catch.
#include "core/registry.h"

namespace envpool_lite {

void RegisterToyText(Registry& registry) {}

}  // namespace envpool_lite
