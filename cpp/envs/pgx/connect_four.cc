// pgx's connect_four: its ids.
#include "envs/pgx/connect_four.h"

#include "core/registry.h"
#include "envs/pgx/pgx_env.h"

namespace envpool_lite {

void RegisterPgxConnectFour(Registry& registry) {
  registry.Add<pgx::PgxEnv<pgx::ConnectFour>>("connect_four");
  registry.Add<pgx::PgxEnv<pgx::ConnectFour>>("ConnectFour-v1");
}

}  // namespace envpool_lite
