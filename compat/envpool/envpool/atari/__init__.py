from envpool_lite import EnvSpec as AtariEnvSpec  # noqa: F401
