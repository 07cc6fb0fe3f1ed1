"""Pictures of the classic-control tasks, drawn by gymnasium's own renderer.

A pool's classic-control envs live in C++; their render() pictures are made
here by handing each env's physical state (``_core.EnvPool.render_state``:
the exact float64 or float32 values gymnasium's env would hold) to one
gymnasium env of the same task made with ``render_mode="rgb_array"``, so a
picture is the one gymnasium draws for that state, pixel for pixel. It draws
into a pygame Surface, without a display. Imported only when a pool renders;
needs pygame (``pip install envpool_lite[render]``).
"""

from __future__ import annotations

import math
import os
from typing import Callable

import numpy as np

# The gymnasium task whose renderer draws ours (same picture, same state).
_GYMNASIUM_TASK = {
    "CartPole-v0": "CartPole-v0",
    "CartPole-v1": "CartPole-v1",
    "Acrobot-v1": "Acrobot-v1",
    "MountainCar-v0": "MountainCar-v0",
    "MountainCarContinuous-v0": "MountainCarContinuous-v0",
    "Pendulum-v0": "Pendulum-v1",
    "Pendulum-v1": "Pendulum-v1",
}


def _set_cartpole(env, s: np.ndarray) -> None:
    env.state = np.array(s[:4], np.float64)


def _set_acrobot(env, s: np.ndarray) -> None:
    # float32 right after reset, float64 after a step, as in gymnasium.
    env.state = np.array(s[:4], np.float32 if s[4] else np.float64)


def _set_mountain_car(env, s: np.ndarray) -> None:
    env.state = np.array(s[:2], np.float64)


def _set_mountain_car_continuous(env, s: np.ndarray) -> None:
    # float64 right after reset, float32 after a step, as in gymnasium.
    env.state = np.array(s[:2], np.float32 if s[2] else np.float64)


def _set_pendulum(env, s: np.ndarray) -> None:
    env.state = np.array(s[:2], np.float64)
    env.last_u = None if math.isnan(s[2]) else np.float32(s[2])


_SET_STATE: dict[str, Callable] = {
    "CartPole-v0": _set_cartpole,
    "CartPole-v1": _set_cartpole,
    "Acrobot-v1": _set_acrobot,
    "MountainCar-v0": _set_mountain_car,
    "MountainCarContinuous-v0": _set_mountain_car_continuous,
    "Pendulum-v0": _set_pendulum,
    "Pendulum-v1": _set_pendulum,
}


def _unaliased(task_id: str) -> str:
    """EnvPool's "phys2d/" aliases draw as the task they alias."""
    return task_id.removeprefix("phys2d/")


def can_render(task_id: str) -> bool:
    return _unaliased(task_id) in _GYMNASIUM_TASK


class ClassicRenderer:
    """Draws states of one classic-control task with gymnasium's renderer."""

    def __init__(self, task_id: str):
        if not can_render(task_id):
            raise ValueError(f"{task_id} cannot be rendered")
        # No window is opened for rgb_array; a dummy video driver keeps pygame
        # from looking for a display at all.
        os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
        try:
            import pygame  # noqa: F401
        except ImportError:
            raise ImportError(f"rendering {task_id} needs pygame: pip install 'envpool_lite[render]'") from None
        import gymnasium

        self._env = gymnasium.make(_GYMNASIUM_TASK[_unaliased(task_id)], render_mode="rgb_array").unwrapped
        self._set_state = _SET_STATE[_unaliased(task_id)]

    def draw(self, states: np.ndarray, env_ids: np.ndarray | None = None) -> np.ndarray:
        """(n, H, W, 3) uint8 pictures of n states (rows of render_state;
        env_ids unused: a classic-control picture depends on the state only)."""
        frames = []
        for state in states:
            self._set_state(self._env, state)
            frames.append(self._env.render())
        return np.stack(frames)

    def close(self) -> None:
        self._env.close()
