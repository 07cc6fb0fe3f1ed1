// pgx's backgammon: its ids.
#include "envs/pgx/backgammon.h"

#include "core/registry.h"
#include "envs/pgx/pgx_env.h"

namespace envpool_lite {

void RegisterPgxBackgammon(Registry& registry) {
  registry.Add<pgx::PgxEnv<pgx::Backgammon>>("backgammon");
  registry.Add<pgx::PgxEnv<pgx::Backgammon>>("Backgammon-v1");
}

}  // namespace envpool_lite
