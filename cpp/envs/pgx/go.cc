// pgx's go: its ids. The board size is a template parameter (it fixes the
// action count), so each size is its own game class and its ids fix the
// `size` option: go_9x9 and Go9x9-v1 (9), Go13x13-v1 (13, an EnvPool id;
// pgx.make has no 13x13 id, Go(size=13) is its peer), go_19x19 and
// Go19x19-v1 (19). komi 7.5, as pgx.make and EnvPool.
#include "envs/pgx/go.h"

#include "core/registry.h"
#include "envs/pgx/pgx_env.h"

namespace envpool_lite {

void RegisterPgxGo(Registry& registry) {
  registry.Add<pgx::PgxEnv<pgx::GoGame<9>>>("go_9x9");
  registry.Add<pgx::PgxEnv<pgx::GoGame<19>>>("go_19x19");
  registry.Add<pgx::PgxEnv<pgx::GoGame<9>>>("Go9x9-v1");
  registry.Add<pgx::PgxEnv<pgx::GoGame<13>>>("Go13x13-v1");
  registry.Add<pgx::PgxEnv<pgx::GoGame<19>>>("Go19x19-v1");
}

}  // namespace envpool_lite
