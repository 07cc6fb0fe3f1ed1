"""EnvPool's envpool.mujoco.gym: the tasks are envpool_lite's mujoco family."""
