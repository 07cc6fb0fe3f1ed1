"""EnvPool's envpool.box2d: the tasks are envpool_lite's box2d family."""
