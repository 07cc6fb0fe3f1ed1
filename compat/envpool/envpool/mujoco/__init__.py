"""EnvPool's envpool.mujoco: the tasks are envpool_lite's mujoco (gym) and
dm_control families."""
