"""Franka Kitchen's pieces of the gymnasium_robotics family
(cpp/envs/gymnasium_robotics/kitchen.h): the task names in the order of the
info fields' bool arrays, and the goal function the pool offers as
compute_reward.

The reference's observation is {"achieved_goal": {task: array},
"desired_goal": {task: array}, "observation": array}; the pool's arrays are
named "achieved_goal/<task>", "desired_goal/<task>" and "observation", and
the pool returns them nested as the reference's dict. Its info lists of task
names (tasks_to_complete, step_task_completions, episode_task_completions)
are bool arrays over TASKS: ``task_names(info["tasks_to_complete"][i])``
gives env i's list."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from envpool_lite.families.gymnasium_robotics.goals import GoalFunctions

if TYPE_CHECKING:
    from envpool_lite.spec import EnvSpec

# kitchen_env.OBS_ELEMENT_GOALS' order.
TASKS = ("bottom burner", "top burner", "light switch", "slide cabinet", "hinge cabinet", "microwave", "kettle")
BONUS_THRESH = 0.3


def task_names(mask: Any) -> list[str]:
    """The task names of one env's bool array (an info field's row)."""
    mask = np.asarray(mask, dtype=bool)
    if mask.shape != (len(TASKS),):
        raise ValueError(f"a kitchen task mask has {len(TASKS)} values, got shape {mask.shape}")
    return [task for task, done in zip(TASKS, mask) if done]


class KitchenGoals(GoalFunctions):
    """KitchenEnv.compute_reward(achieved_goal, desired_goal, info): the
    number of tasks whose achieved goal is within BONUS_THRESH of the desired
    one, as a float. The reference counts the tasks its env still has to
    complete (all of the task's tasks_to_complete after a reset, and always
    with remove_task_when_completed=False); this function has no env state,
    and counts all of them. Goals are dicts by task (an observation's
    achieved_goal and desired_goal), of single goals (the reference's norm,
    a float) or of batches (norms over the last axis, a float64 array; one
    goal broadcasts against a batch).
    compute_terminated and compute_truncated raise NotImplementedError, as
    the reference's do."""

    def __init__(self, spec: EnvSpec):
        super().__init__(0, lambda a, b, info: None)
        self.tasks = sorted(set(spec.config["tasks_to_complete"]))

    def compute_reward(self, achieved_goal: Any, desired_goal: Any, info: Any = None) -> Any:
        if not isinstance(achieved_goal, dict) or not isinstance(desired_goal, dict):
            raise ValueError("FrankaKitchen's goals are dicts by task (an observation's achieved_goal and desired_goal)")
        count: Any = 0
        for task in self.tasks:
            if task not in achieved_goal or task not in desired_goal:
                raise ValueError(f"the goals have no task {task!r}")
            a = np.asarray(achieved_goal[task], dtype=np.float64)
            b = np.asarray(desired_goal[task], dtype=np.float64)
            if a.ndim == 0 or a.shape[-1:] != b.shape[-1:]:
                raise ValueError(f"achieved_goal[{task!r}] and desired_goal[{task!r}] must have the same last axis, got shapes {a.shape} and {b.shape}")
            diff = a - b  # a batch of goals and one goal broadcast
            distance = np.linalg.norm(diff) if diff.ndim == 1 else np.linalg.norm(diff, axis=-1)
            count = count + (distance < BONUS_THRESH)
        if np.ndim(count) == 0:
            return float(count)
        return np.asarray(count, dtype=np.float64)

    def compute_terminated(self, achieved_goal: Any, desired_goal: Any, info: Any = None) -> Any:
        raise NotImplementedError("FrankaKitchen has no compute_terminated (gymnasium-robotics' KitchenEnv neither)")

    def compute_truncated(self, achieved_goal: Any, desired_goal: Any, info: Any = None) -> Any:
        raise NotImplementedError("FrankaKitchen has no compute_truncated (gymnasium-robotics' KitchenEnv neither)")


def goals(spec: EnvSpec) -> GoalFunctions:
    return KitchenGoals(spec)
