"""EnvPool's envpool.toy_text: the tasks are envpool_lite's toy_text family."""
