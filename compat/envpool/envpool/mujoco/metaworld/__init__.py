"""EnvPool's envpool.mujoco.metaworld."""
