// pgx's kuhn_poker: its ids.
#include "envs/pgx/kuhn_poker.h"

#include "core/registry.h"
#include "envs/pgx/pgx_env.h"

namespace envpool_lite {

void RegisterPgxKuhnPoker(Registry& registry) {
  registry.Add<pgx::PgxEnv<pgx::KuhnPoker>>("kuhn_poker");
  registry.Add<pgx::PgxEnv<pgx::KuhnPoker>>("KuhnPoker-v1");
}

}  // namespace envpool_lite
