"""The goal functions HER relabelling calls (compute_reward,
compute_terminated, compute_truncated), over a goal or a batch of goals:
their common part, and Fetch's."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from envpool_lite.spec import EnvSpec


# --- the goal functions -------------------------------------------------------
# Each reference computes its reward from (achieved_goal, desired_goal, info)
# with numpy, over the last axis, so that HER can relabel a batch at once;
# these are the same expressions (so the same values), with shapes checked.


def _goal_pair(achieved_goal: Any, desired_goal: Any, size: int) -> tuple[np.ndarray, np.ndarray]:
    a = np.asarray(achieved_goal, dtype=np.float64)
    b = np.asarray(desired_goal, dtype=np.float64)
    if a.shape != b.shape:
        raise ValueError(f"achieved_goal and desired_goal must have the same shape, got {a.shape} and {b.shape}")
    if a.ndim == 0 or a.shape[-1] != size:
        raise ValueError(f"goals must have {size} values on their last axis, got shape {a.shape}")
    return a, b


def goal_distance(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """fetch_env.goal_distance (and hand reach's, maze's): the norm over the
    last axis."""
    return np.linalg.norm(a - b, axis=-1)


def _falses(a: np.ndarray) -> Any:
    """compute_terminated / compute_truncated of a continuing task: False,
    per goal."""
    return np.zeros(a.shape[:-1], dtype=bool) if a.ndim > 1 else False


class GoalFunctions:
    """compute_reward, compute_terminated and compute_truncated of one task,
    over a goal or a batch of goals (the last axis is the goal)."""

    def __init__(self, goal_size: int, reward: Callable[[np.ndarray, np.ndarray, Any], Any], terminated: Callable[[np.ndarray, np.ndarray, Any], Any] | None = None):
        self.goal_size = goal_size
        self._reward = reward
        self._terminated = terminated

    def compute_reward(self, achieved_goal: Any, desired_goal: Any, info: Any = None) -> Any:
        a, b = _goal_pair(achieved_goal, desired_goal, self.goal_size)
        return self._reward(a, b, info)

    def compute_terminated(self, achieved_goal: Any, desired_goal: Any, info: Any = None) -> Any:
        a, b = _goal_pair(achieved_goal, desired_goal, self.goal_size)
        return _falses(a) if self._terminated is None else self._terminated(a, b, info)

    def compute_truncated(self, achieved_goal: Any, desired_goal: Any, info: Any = None) -> Any:
        a, _ = _goal_pair(achieved_goal, desired_goal, self.goal_size)
        return _falses(a)


def fetch_goals(spec: EnvSpec) -> GoalFunctions:
    threshold = 0.05
    if spec.config["reward_type"] == "sparse":
        return GoalFunctions(3, lambda a, b, info: -(goal_distance(a, b) > threshold).astype(np.float32))
    return GoalFunctions(3, lambda a, b, info: -goal_distance(a, b))
