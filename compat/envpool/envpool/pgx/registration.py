"""EnvPool's envpool.pgx.registration: importing it registers nothing
more (envpool_lite's tasks are registered by its families)."""
