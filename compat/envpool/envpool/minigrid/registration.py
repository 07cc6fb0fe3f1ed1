"""EnvPool's envpool.minigrid.registration: importing it registers nothing
more (envpool_lite's tasks are registered by its families)."""
