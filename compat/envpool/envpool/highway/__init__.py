"""EnvPool's envpool.highway: the tasks are envpool_lite's highway family."""
