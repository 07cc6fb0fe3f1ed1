// pgx's tic_tac_toe: its ids.
#include "envs/pgx/tic_tac_toe.h"

#include "core/registry.h"
#include "envs/pgx/pgx_env.h"

namespace envpool_lite {

void RegisterPgxTicTacToe(Registry& registry) {
  registry.Add<pgx::PgxEnv<pgx::TicTacToe>>("tic_tac_toe");
  registry.Add<pgx::PgxEnv<pgx::TicTacToe>>("TicTacToe-v1");
}

}  // namespace envpool_lite
