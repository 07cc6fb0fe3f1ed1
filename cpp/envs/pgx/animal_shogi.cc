// pgx's animal_shogi: its ids.
#include "envs/pgx/animal_shogi.h"

#include "core/registry.h"
#include "envs/pgx/pgx_env.h"

namespace envpool_lite {

void RegisterPgxAnimalShogi(Registry& registry) {
  registry.Add<pgx::PgxEnv<pgx::AnimalShogi>>("animal_shogi");
  registry.Add<pgx::PgxEnv<pgx::AnimalShogi>>("AnimalShogi-v1");
}

}  // namespace envpool_lite
