"""EnvPool's envpool.mujoco.robotics."""
