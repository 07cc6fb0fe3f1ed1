"""The pgx family (cpp/envs/pgx/): pgx 2.6.0's games ported to C++, bit-exact
with pgx under one key convention (docs/families/pgx.md).

pgx itself (JAX) is the reference the tests run beside; the envs need
nothing installed.
"""

from __future__ import annotations

from envpool_lite.families import Family


class PgxFamily(Family):
    pass


family = PgxFamily()
