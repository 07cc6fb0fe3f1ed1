// pgx's hex: its ids.
#include "envs/pgx/hex.h"

#include "core/registry.h"
#include "envs/pgx/pgx_env.h"

namespace envpool_lite {

void RegisterPgxHex(Registry& registry) {
  registry.Add<pgx::PgxEnv<pgx::Hex>>("hex");
  registry.Add<pgx::PgxEnv<pgx::Hex>>("Hex-v1");
}

}  // namespace envpool_lite
