"""The pgx family (cpp/envs/pgx/): pgx 2.6.0's games ported to C++, bit-exact
with pgx under one key convention (docs/families/pgx.md).

pgx itself (JAX) is the reference the tests run beside; the envs need
nothing installed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from envpool_lite.families import BenchmarkTask, Family, NetworkKind

if TYPE_CHECKING:
    from envpool_lite.spec import EnvSpec


class PgxFamily(Family):
    # pgx 2.6.0's games (pgx's ids), beside EnvPool 1.2.5's ports (it has no
    # MinAtar) and pgx itself. Random actions are legal ones on every system:
    # uniform ones would end nearly every board game at once as an illegal
    # move (a loss in pgx). pgx has no async batch: at 64:32:2 every call
    # steps all 64 games. The board games have no single-thread limit (its
    # C++ loop's uniform random actions would measure illegal moves and
    # resets, not play); MinAtar's actions are all legal. Only in --full (and
    # --tasks).
    benchmark_tasks = (
        BenchmarkTask("go_9x9", full=((1, 1, 1), (64, 32, 2)), steps=32000, has_limit=False, peers={"envpool": "Go9x9-v1", "pgx": "go_9x9"}),
        BenchmarkTask("chess", full=((1, 1, 1), (64, 32, 2)), steps=8000, has_limit=False, peers={"envpool": "Chess-v1", "pgx": "chess"}),
        BenchmarkTask("minatar-breakout", full=((1, 1, 1), (64, 32, 2)), steps=64000, peers={"pgx": "minatar-breakout"}),
    )

    def network_kind(self, spec: EnvSpec) -> NetworkKind:
        # An observation of three axes is (H, W, C) bool planes (the MinAtar
        # games', 2048's, Sparrow Mahjong's), not pixels: pgx's MinAtar
        # example's network. The board games' have a player axis first
        # (four axes) and take the default.
        shape = spec.observation_space.shape
        if shape is not None and len(shape) == 3:
            return NetworkKind.PLANES
        return super().network_kind(spec)


family = PgxFamily()
