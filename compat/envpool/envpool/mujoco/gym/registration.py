"""EnvPool's envpool.mujoco.gym.registration table (its tests import it):
each task with its versions and time limit, from envpool_lite's registry."""

from envpool_lite import _core
from envpool_lite.families import task_ids as _task_ids


def _tasks() -> list[tuple[str, tuple[str, ...], int]]:
    tasks: dict[str, tuple[list[str], int]] = {}
    for task_id in _task_ids("mujoco"):
        name, version = task_id.rsplit("-", 1)
        steps = _core.task_defaults(task_id)["max_episode_steps"]
        assert isinstance(steps, int)
        tasks.setdefault(name, ([], steps))[0].append(version)
    return [(name, tuple(sorted(versions)), steps) for name, (versions, steps) in sorted(tasks.items())]


gym_mujoco_envs = _tasks()
