"""The Box2D family (cpp/envs/box2d/): gymnasium's LunarLander and
BipedalWalker, with EnvPool's ids, on the Box2D 2.3 C++ that gymnasium's
box2d wheel runs (built from box2d-py's source distribution,
third_party/box2d.cmake). Every picture is drawn in C++, in the worker
thread, reproducing pygame-ce's drawing arithmetic
(cpp/envs/common/pygame_draw.h).
"""

from __future__ import annotations

from envpool_lite.families import Family


class Box2d(Family):
    def check_render(self, spec) -> None:
        # Every Box2D env draws itself in C++ (EnvSpec render size).
        return None


family = Box2d()
