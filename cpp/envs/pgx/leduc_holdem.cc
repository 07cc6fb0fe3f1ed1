// pgx's leduc_holdem: its ids.
#include "envs/pgx/leduc_holdem.h"

#include "core/registry.h"
#include "envs/pgx/pgx_env.h"

namespace envpool_lite {

void RegisterPgxLeducHoldem(Registry& registry) {
  registry.Add<pgx::PgxEnv<pgx::LeducHoldem>>("leduc_holdem");
  registry.Add<pgx::PgxEnv<pgx::LeducHoldem>>("LeducHoldem-v1");
}

}  // namespace envpool_lite
