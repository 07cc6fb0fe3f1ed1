"""EnvPool's envpool.mujoco.dmc.registration table (its tests import it):
(domain, task, time limit in steps) of each dm_control task, from
envpool_lite's registry."""

from envpool_lite import _core
from envpool_lite.families import task_ids as _task_ids


def _tasks() -> list[tuple[str, str, int]]:
    out = []
    for task_id in _task_ids("dm_control"):
        d = _core.task_defaults(task_id)
        domain, task, limit, step = d["domain_name"], d["task_name"], d["time_limit"], d["control_timestep"]
        assert isinstance(domain, str) and isinstance(task, str) and isinstance(limit, float) and isinstance(step, float)
        out.append((domain, task, round(limit / step) if step > 0 else 1000))
    return sorted(out)


dmc_mujoco_envs = _tasks()
