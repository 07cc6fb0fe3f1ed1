// pgx's sparrow_mahjong: its ids.
#include "envs/pgx/sparrow_mahjong.h"

#include "core/registry.h"
#include "envs/pgx/pgx_env.h"

namespace envpool_lite {

void RegisterPgxSparrowMahjong(Registry& registry) {
  registry.Add<pgx::PgxEnv<pgx::SparrowMahjong>>("sparrow_mahjong");
  registry.Add<pgx::PgxEnv<pgx::SparrowMahjong>>("SparrowMahjong-v1");
}

}  // namespace envpool_lite
