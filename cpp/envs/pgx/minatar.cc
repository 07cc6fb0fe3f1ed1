// pgx's minatar: its ids (pgx's only; EnvPool registers no MinAtar).
#include "core/registry.h"
#include "envs/pgx/minatar_asterix.h"
#include "envs/pgx/minatar_breakout.h"
#include "envs/pgx/minatar_freeway.h"
#include "envs/pgx/minatar_seaquest.h"
#include "envs/pgx/minatar_space_invaders.h"
#include "envs/pgx/pgx_env.h"

namespace envpool_lite {

void RegisterPgxMinatar(Registry& registry) {
  registry.Add<pgx::PgxEnv<pgx::MinAtarAsterix>>("minatar-asterix");
  registry.Add<pgx::PgxEnv<pgx::MinAtarBreakout>>("minatar-breakout");
  registry.Add<pgx::PgxEnv<pgx::MinAtarFreeway>>("minatar-freeway");
  registry.Add<pgx::PgxEnv<pgx::MinAtarSeaquest>>("minatar-seaquest");
  registry.Add<pgx::PgxEnv<pgx::MinAtarSpaceInvaders>>(
      "minatar-space_invaders");
}

}  // namespace envpool_lite
