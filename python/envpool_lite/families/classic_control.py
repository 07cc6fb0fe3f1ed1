"""The classic-control family (cpp/envs/classic_control/): gymnasium's
CartPole, Acrobot, MountainCar(Continuous) and Pendulum, and EnvPool's
"phys2d/" aliases. Its options are plain typed values; this module draws its
pictures with gymnasium's own renderer.

A pool's classic-control envs live in C++; their render() pictures are made
here by handing each env's physical state (``_core.EnvPool.render_state``:
the exact float64 or float32 values gymnasium's env would hold) to one
gymnasium env of the same task made with ``render_mode="rgb_array"``, so a
picture is the one gymnasium draws for that state, pixel for pixel. It draws
into a pygame Surface, without a display: pygame is imported only when a
pool renders, and needed only then (``pip install envpool_lite[render]``).
"""

from __future__ import annotations

import math
import os
from typing import TYPE_CHECKING, Callable

import numpy as np

from envpool_lite.families import BenchmarkTask, Family

if TYPE_CHECKING:
    from envpool_lite.spec import EnvSpec


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


# How a render state becomes the gymnasium env's state, by env name (a
# task id without its "-vN").
_SET_STATE: dict[str, Callable] = {
    "CartPole": _set_cartpole,
    "Acrobot": _set_acrobot,
    "MountainCar": _set_mountain_car,
    "MountainCarContinuous": _set_mountain_car_continuous,
    "Pendulum": _set_pendulum,
}


def gymnasium_task(task_id: str) -> str:
    """The gymnasium task whose renderer draws ours: the same id, without
    EnvPool's "phys2d/" prefix (Pendulum-v0, EnvPool's, draws as
    Pendulum-v1: the same picture of the same state)."""
    task = task_id.removeprefix("phys2d/")
    return "Pendulum-v1" if task == "Pendulum-v0" else task


def _env_name(task_id: str) -> str:
    return gymnasium_task(task_id).rsplit("-v", 1)[0]


def can_render(task_id: str) -> bool:
    return _env_name(task_id) in _SET_STATE


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

        self._env = gymnasium.make(gymnasium_task(task_id), render_mode="rgb_array").unwrapped
        self._set_state = _SET_STATE[_env_name(task_id)]

    def draw(self, states: np.ndarray, env_ids: np.ndarray) -> np.ndarray:
        """(n, H, W, 3) uint8 pictures of n states (rows of render_state;
        env_ids unused: a classic-control picture depends on the state only)."""
        frames = []
        for state in states:
            self._set_state(self._env, state)
            frames.append(np.asarray(self._env.render()))
        return np.stack(frames)

    def close(self) -> None:
        self._env.close()


class ClassicControl(Family):
    # report_state: Acrobot's info["state"] (EnvPool's), for the envpool module.
    internal_options = frozenset({"report_state"})

    # Round trip (1 env), sync like gymnasium's vector envs (16), async (256).
    benchmark_tasks = (BenchmarkTask("CartPole-v1", headline=((1, 1, 1), (16, 16, 2), (256, 128, 2)), quick=((1, 1, 1), (256, 128, 2)), peers={"gymnasium": "CartPole-v1"}),)

    def check_render(self, spec: EnvSpec) -> None:
        if not can_render(spec.task_id):
            raise ValueError(f"{spec.task_id} cannot be rendered")

    def make_renderer(self, spec: EnvSpec) -> ClassicRenderer:
        return ClassicRenderer(spec.task_id)


family = ClassicControl()
