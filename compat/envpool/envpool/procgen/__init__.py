"""EnvPool's envpool.procgen: its spec class name, for code that imports it."""

from envpool_lite import EnvSpec as ProcgenEnvSpec  # noqa: F401
