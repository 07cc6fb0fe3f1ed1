"""EnvPool's envpool.pgx: the tasks are envpool_lite's pgx family."""
