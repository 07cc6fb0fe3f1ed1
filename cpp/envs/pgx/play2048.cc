// pgx's 2048: its ids.
#include "envs/pgx/play2048.h"

#include "core/registry.h"
#include "envs/pgx/pgx_env.h"

namespace envpool_lite {

void RegisterPgxPlay2048(Registry& registry) {
  registry.Add<pgx::PgxEnv<pgx::Play2048>>("2048");
  registry.Add<pgx::PgxEnv<pgx::Play2048>>("Play2048-v1");
}

}  // namespace envpool_lite
