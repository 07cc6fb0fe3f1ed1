"""EnvPool's envpool.mujoco.dmc: the tasks are envpool_lite's dm_control
family."""
