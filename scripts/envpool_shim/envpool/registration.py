from envpool import list_all_envs, make, make_dm, make_gym, make_gymnasium, make_spec  # noqa: F401
