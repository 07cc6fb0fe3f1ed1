"""EnvPool's envpool.mujoco.metaworld.registration: importing it registers nothing
more (envpool_lite's tasks are registered by its families)."""
