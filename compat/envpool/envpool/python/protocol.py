from envpool import DMEnvPool, EnvPool, EnvSpec, GymnasiumEnvPool  # noqa: F401
