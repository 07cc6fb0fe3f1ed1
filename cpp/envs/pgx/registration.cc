// The pgx family: pgx 2.6.0's games ported to C++ (docs/families/pgx.md).
// Each game registers its ids in its own file, <game>.cc: pgx's id
// (pgx.make's, e.g. "tic_tac_toe") and EnvPool's name for it
// ("TicTacToe-v1").
#include "core/registry.h"

namespace envpool_lite {

void RegisterPgxTicTacToe(Registry& registry);
void RegisterPgxConnectFour(Registry& registry);
void RegisterPgxHex(Registry& registry);
void RegisterPgxOthello(Registry& registry);
void RegisterPgxKuhnPoker(Registry& registry);
void RegisterPgxLeducHoldem(Registry& registry);
void RegisterPgxPlay2048(Registry& registry);
void RegisterPgxSparrowMahjong(Registry& registry);
void RegisterPgxBackgammon(Registry& registry);
void RegisterPgxMinatar(Registry& registry);
void RegisterPgxChess(Registry& registry);
void RegisterPgxGardnerChess(Registry& registry);
void RegisterPgxGo(Registry& registry);
void RegisterPgxAnimalShogi(Registry& registry);
void RegisterPgxShogi(Registry& registry);

void RegisterPgx(Registry& registry) {
  RegisterPgxTicTacToe(registry);
  RegisterPgxConnectFour(registry);
  RegisterPgxHex(registry);
  RegisterPgxOthello(registry);
  RegisterPgxKuhnPoker(registry);
  RegisterPgxLeducHoldem(registry);
  RegisterPgxPlay2048(registry);
  RegisterPgxSparrowMahjong(registry);
  RegisterPgxBackgammon(registry);
  RegisterPgxMinatar(registry);
  RegisterPgxChess(registry);
  RegisterPgxGardnerChess(registry);
  RegisterPgxGo(registry);
  RegisterPgxAnimalShogi(registry);
  RegisterPgxShogi(registry);
}

}  // namespace envpool_lite
