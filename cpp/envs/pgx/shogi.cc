// pgx's shogi: its ids.
#include "envs/pgx/shogi.h"

#include "core/registry.h"
#include "envs/pgx/pgx_env.h"

namespace envpool_lite {

void RegisterPgxShogi(Registry& registry) {
  registry.Add<pgx::PgxEnv<pgx::Shogi>>("shogi");
  registry.Add<pgx::PgxEnv<pgx::Shogi>>("Shogi-v1");
}

}  // namespace envpool_lite
