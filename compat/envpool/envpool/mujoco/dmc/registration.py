"""EnvPool's envpool.mujoco.dmc.registration table (its tests import it):
(domain, task, max_episode_steps) of each dm_control task, from
envpool_lite's registry. The last is EnvPool's 1000 for every task; here
the episode ends at dm_control's own time_limit (README, "dm_control
options")."""

from envpool_lite import _core
from envpool_lite.families import task_ids as _task_ids


def _tasks() -> list[tuple[str, str, int]]:
    out = []
    for task_id in _task_ids("dm_control"):
        d = _core.task_defaults(task_id)
        domain, task = d["domain_name"], d["task_name"]
        assert isinstance(domain, str) and isinstance(task, str)
        out.append((domain, task, 1000))
    return sorted(out)


dmc_mujoco_envs = _tasks()
