"""EnvPool's envpool.procgen.registration tables (its tests import them):
each game with its timeout and distribution modes, and the modes' names,
from envpool_lite's registry."""

from envpool_lite import _core
from envpool_lite.families import task_ids as _task_ids

distribution = {0: "Easy", 1: "Hard", 2: "Extreme", 10: "Memory", 20: "Exploration"}


def _games() -> list[tuple[str, int, list[int]]]:
    games: dict[str, tuple[int, list[int]]] = {}
    for task in _task_ids("procgen"):
        defaults = _core.task_defaults(task)
        name, timeout, mode = defaults["env_name"], defaults["max_episode_steps"], defaults["distribution_mode"]
        assert isinstance(name, str) and isinstance(timeout, int) and isinstance(mode, int)
        games.setdefault(name, (timeout, []))[1].append(mode)
    return [(name, timeout, sorted(modes)) for name, (timeout, modes) in sorted(games.items())]


procgen_game_config = _games()
