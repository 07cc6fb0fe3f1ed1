from envpool_lite.families.atari import atari_games as _atari_games

atari_game_list = _atari_games()
