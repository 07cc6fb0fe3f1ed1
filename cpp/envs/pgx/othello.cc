// pgx's othello: its ids.
#include "envs/pgx/othello.h"

#include "core/registry.h"
#include "envs/pgx/pgx_env.h"

namespace envpool_lite {

void RegisterPgxOthello(Registry& registry) {
  registry.Add<pgx::PgxEnv<pgx::Othello>>("othello");
  registry.Add<pgx::PgxEnv<pgx::Othello>>("Othello-v1");
}

}  // namespace envpool_lite
