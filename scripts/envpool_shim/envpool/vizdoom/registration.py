from envpool_lite.spec import vizdoom_scenarios as _vizdoom_game_list  # noqa: F401
