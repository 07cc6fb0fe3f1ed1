from envpool_lite.families.vizdoom import vizdoom_scenarios as _vizdoom_game_list  # noqa: F401
