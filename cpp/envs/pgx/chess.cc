// pgx's chess: its ids.
#include "envs/pgx/chess.h"

#include "core/registry.h"
#include "envs/pgx/pgx_env.h"

namespace envpool_lite {

void RegisterPgxChess(Registry& registry) {
  registry.Add<pgx::PgxEnv<pgx::Chess>>("chess");
  registry.Add<pgx::PgxEnv<pgx::Chess>>("Chess-v1");
}

}  // namespace envpool_lite
