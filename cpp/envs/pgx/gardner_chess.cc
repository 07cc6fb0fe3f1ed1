// pgx's gardner_chess: its ids.
#include "envs/pgx/gardner_chess.h"

#include "core/registry.h"
#include "envs/pgx/pgx_env.h"

namespace envpool_lite {

void RegisterPgxGardnerChess(Registry& registry) {
  registry.Add<pgx::PgxEnv<pgx::GardnerChess>>("gardner_chess");
  registry.Add<pgx::PgxEnv<pgx::GardnerChess>>("GardnerChess-v1");
}

}  // namespace envpool_lite
