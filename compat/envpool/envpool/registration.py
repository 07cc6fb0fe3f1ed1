"""envpool.registration: EnvPool's make functions and task list. envpool_lite's
tasks are registered by its families (python/envpool_lite/families), so
register() says so instead of adding one."""

from typing import Any

from envpool import list_all_envs, make, make_dm, make_gym, make_gymnasium, make_spec  # noqa: F401


def register(task_id: str, import_path: str, spec_cls: str, dm_cls: str, gym_cls: str, gymnasium_cls: str, **kwargs: Any) -> None:
    """EnvPool's register() adds a task backed by EnvPool's own C++ classes;
    envpool_lite has no such classes to point at."""
    raise NotImplementedError(
        f"envpool.registration.register({task_id!r}, ...): envpool_lite's tasks come from its families "
        "(python/envpool_lite/families, one plug-in per family); EnvPool's C++ env classes cannot be registered"
    )
