"""MiniGrid: bit-exact with minigrid 3.2.0's own envs under the seed
convention (env i of a pool seeded s behaves as gymnasium.make(id) reset with
seed s + i, then reset without a seed after each episode end, continuing its
np_random).

The reference is installed by scripts/setup_compat.sh into
build/compat/minigrid_oracle (make test runs it). At every step of every env
the test compares the image, the direction, the mission, the reward (float64,
==), terminated, truncated and the agent's position, through episode ends
and auto-resets.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import numpy as np
import pytest
import scope
from libcompat import COMPAT

import envpool_lite
from envpool_lite.families.minigrid import decode_mission

ORACLE = COMPAT / "minigrid_oracle"
TASKS = envpool_lite.families.task_ids("minigrid")

pytestmark = pytest.mark.usefixtures("quiet_gymnasium")


@pytest.fixture(scope="module")
def make_ref(tmp_path_factory):
    """gymnasium.make of minigrid's own env (minigrid registers its ids on
    import)."""
    if not (ORACLE / "minigrid" / "minigrid_env.py").is_file():
        message = f"minigrid 3.2.0 is not installed in {ORACLE} (run: bash scripts/setup_compat.sh)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    if str(ORACLE) not in sys.path:
        sys.path.append(str(ORACLE))
    import gymnasium
    import minigrid  # noqa: F401

    install_wfc_patterns(tmp_path_factory.mktemp("wfc_patterns"))
    return lambda task, **kwargs: gymnasium.make(task, **kwargs).unwrapped


# The pattern images of minigrid's registered WFC presets: minigrid 3.2.0's
# config.py reads them from minigrid/envs/wfc/patterns/*.png, which its wheel
# does not ship (they are in its git repository). Their pixels ('#' black,
# '.' white, ',' (254, 254, 254)), copied from the repository's PNGs, are
# written as PNGs for the reference (cpp/envs/minigrid/wfc_model.h has the
# same rows for the pool).
WFC_PATTERNS = {
    "SimpleMaze.png": ["....", ".###", ".#.#", ".###"],
    "ScaledMaze.png": ["........", "........", "..######", "..######", "..##..##", "..##..##", "..######", "..######"],
    "Fabric.png": ["..#..", "..,..", "#####", "..,..", "..#.."],
    "Blackdots.png": ["...", ".#.", "..."],
    "Angular.png": ["..........."] + [".....#####."] * 4 + [".#########."] * 5 + ["..........."],
    "Hogs.png": [
        ".................",
        ".......#....#....",
        "..#...###..###...",
        ".###...#....#....",
        "..#..............",
        ".........#.......",
        "....#...###...#..",
        "...###...#...###.",
        "....#.........#..",
        ".................",
        ".......#....#....",
        "..#...###..###...",
        ".###...#....#....",
        "..#..#...#....#..",
        "....###.###..###.",
        ".....#...#....#..",
        ".................",
    ],
}


def install_wfc_patterns(directory):
    """Points minigrid's WFC presets at WFC_PATTERNS written into directory
    (the WFC envs also need imageio and networkx: minigrid[wfc])."""
    try:
        from imageio.v2 import imwrite
        from minigrid.envs.wfc.config import WFC_PRESETS
    except ImportError:
        return
    value = {"#": 0, ".": 255, ",": 254}
    for name, rows in WFC_PATTERNS.items():
        pixels = np.array([[[value[c]] * 3 for c in row] for row in rows], dtype=np.uint8)
        imwrite(directory / name, pixels)
    for config in WFC_PRESETS.values():
        config.pattern_path = directory / Path(config.pattern_path).name


def check(obs, info, row, ref_obs, ref_env, i):
    assert np.array_equal(obs["image"][row], ref_obs["image"]), f"env {i}: image differs"
    assert obs["direction"][row] == ref_obs["direction"], f"env {i}: direction"
    assert decode_mission(obs["mission"][row]) == ref_obs["mission"], f"env {i}: mission"
    assert tuple(info["agent_pos"][row]) == tuple(int(v) for v in ref_env.agent_pos), f"env {i}: agent_pos"


def run(make_ref, task, *, num_envs=2, steps=400, seed=5, policy_seed=0, **kwargs):
    """Pool and reference side by side; returns how episodes ended."""
    env = envpool_lite.make_gymnasium(task, num_envs=num_envs, seed=seed, **kwargs)
    refs = [make_ref(task, **kwargs) for _ in range(num_envs)]
    rng = np.random.default_rng(policy_seed)
    stats = {"goal": 0, "other_end": 0, "truncated": 0}
    try:
        obs, info = env.reset()
        for i, r in enumerate(refs):
            check(obs, info, i, r.reset(seed=seed + i)[0], r, i)
        needs_reset = np.zeros(num_envs, bool)
        for _ in range(steps):
            actions = rng.integers(0, env.single_action_space.n, num_envs)
            obs, rew, term, trunc, info = env.step(actions)
            for i, r in enumerate(refs):
                if needs_reset[i]:
                    ref_obs, _ = r.reset()
                    assert rew[i] == 0 and not term[i] and not trunc[i]
                else:
                    ref_obs, ref_rew, ref_term, ref_trunc, _ = r.step(int(actions[i]))
                    assert rew[i] == ref_rew, f"env {i}: reward {rew[i]!r} != {ref_rew!r}"
                    assert term[i] == ref_term and trunc[i] == ref_trunc, f"env {i}: {term[i]}/{trunc[i]} != {ref_term}/{ref_trunc}"
                    if ref_term:
                        stats["goal" if ref_rew > 0 else "other_end"] += 1
                    elif ref_trunc:
                        stats["truncated"] += 1
                check(obs, info, i, ref_obs, r, i)
            needs_reset = term | trunc
    finally:
        env.close()
    return stats


@pytest.mark.parametrize("task", TASKS)
def test_every_task_exact(make_ref, task):
    """Every id: 2 envs, random actions through several episodes (the WFC
    ids, whose every reset runs the wave function collapse in minigrid's
    Python, through 6: their level generation is tested further below)."""
    stats = run(make_ref, task, steps=scope.steps(200, full=1000) if "-WFC-" in task else scope.steps(600, full=3000), max_steps=60)
    assert stats["truncated"] + stats["goal"] + stats["other_end"] >= 4, stats


def test_goals_reached(make_ref):
    """Episodes that reach the goal (reward 1 - 0.9 * steps / max_steps)."""
    stats = run(make_ref, "MiniGrid-Empty-5x5-v0", num_envs=4, steps=800)
    assert stats["goal"] >= 3, stats
    stats = run(make_ref, "MiniGrid-Empty-Random-6x6-v0", num_envs=4, steps=800)
    assert stats["goal"] >= 3, stats


def test_lava_ends_episodes(make_ref):
    """Stepping into lava terminates with reward 0."""
    stats = run(make_ref, "MiniGrid-LavaGapS5-v0", num_envs=4, steps=400)
    assert stats["other_end"] >= 3, stats
    stats = run(make_ref, "MiniGrid-LavaCrossingS9N2-v0", num_envs=4, steps=400)
    assert stats["other_end"] >= 3, stats


def test_obstacles_end_episodes(make_ref):
    """Dynamic obstacles: a forward move into a ball or a wall ends the
    episode with -1."""
    stats = run(make_ref, "MiniGrid-Dynamic-Obstacles-6x6-v0", num_envs=4, steps=300)
    assert stats["other_end"] >= 3, stats


def test_task_rules_end_episodes(make_ref):
    """The tasks' own endings: GoTo's toggle and done, Memory's two ends of
    the hallway, RedBlueDoors' doors, each seen."""
    for task in ("MiniGrid-GoToDoor-5x5-v0", "MiniGrid-GoToObject-6x6-N2-v0", "MiniGrid-RedBlueDoors-6x6-v0", "MiniGrid-Fetch-5x5-N2-v0", "MiniGrid-PutNear-6x6-N2-v0"):
        stats = run(make_ref, task, num_envs=4, steps=800)
        assert stats["other_end"] + stats["goal"] >= 3, (task, stats)
    stats = run(make_ref, "MiniGrid-MemoryS7-v0", num_envs=4, steps=600)
    assert stats["other_end"] + stats["goal"] >= 2, stats


def test_default_max_steps(make_ref):
    """minigrid's own max_steps (4 size**2, 10 size**2, 100) truncates."""
    stats = run(make_ref, "MiniGrid-DoorKey-5x5-v0", num_envs=2, steps=520)
    assert stats["truncated"] >= 2, stats
    stats = run(make_ref, "MiniGrid-FourRooms-v0", num_envs=2, steps=220)
    assert stats["truncated"] + stats["goal"] >= 2, stats


@pytest.mark.parametrize(
    ("task", "kwargs"),
    [
        ("MiniGrid-Empty-8x8-v0", {"agent_start_pos": (3, 2), "agent_start_dir": 2, "size": 9}),
        ("MiniGrid-Empty-8x8-v0", {"agent_start_pos": None}),
        ("MiniGrid-DoorKey-8x8-v0", {"agent_view_size": 5}),
        ("MiniGrid-DoorKey-6x6-v0", {"agent_view_size": 9, "max_steps": 30}),
        ("MiniGrid-FourRooms-v0", {"agent_pos": (2, 3), "goal_pos": (15, 15)}),
        ("MiniGrid-LavaCrossingS9N1-v0", {"size": 13, "num_crossings": 7, "obstacle_type": "wall"}),
        ("MiniGrid-SimpleCrossingS9N1-v0", {"num_crossings": 0}),
        ("MiniGrid-LavaGapS5-v0", {"size": 9}),
        ("MiniGrid-DistShift1-v0", {"width": 11, "height": 9, "strip2_row": 6, "agent_start_pos": None}),
        ("MiniGrid-Dynamic-Obstacles-8x8-v0", {"n_obstacles": 9, "agent_start_pos": (3, 3), "agent_start_dir": 1}),
        ("MiniGrid-MultiRoom-N2-S4-v0", {"minNumRooms": 2, "maxNumRooms": 4, "maxRoomSize": 6, "width": 20, "height": 18}),
        ("MiniGrid-MemoryS7-v0", {"size": 15, "random_length": True}),
        ("MiniGrid-GoToObject-6x6-N2-v0", {"numObjs": 5, "size": 7}),
        ("MiniGrid-GoToDoor-5x5-v0", {"size": 10}),
        ("MiniGrid-RedBlueDoors-6x6-v0", {"size": 5}),
        ("MiniGrid-Fetch-5x5-N2-v0", {"size": 7, "numObjs": 6}),
        ("MiniGrid-PutNear-6x6-N2-v0", {"size": 9, "numObjs": 4}),
        ("MiniGrid-LockedRoom-v0", {"size": 13}),
        ("MiniGrid-KeyCorridorS3R1-v0", {"obj_type": "key", "num_rows": 2, "room_size": 4}),
        ("MiniGrid-KeyCorridorS6R3-v0", {"obj_type": "box", "agent_view_size": 3}),
        ("MiniGrid-ObstructedMaze-1Dl-v0", {"key_in_box": True, "blocked": True, "agent_view_size": 5}),
        ("MiniGrid-ObstructedMaze-Full-v0", {"agent_room": (0, 2), "num_quarters": 3, "key_in_box": False, "num_rooms_visited": 2}),
        ("MiniGrid-ObstructedMaze-Full-v1", {"agent_room": (2, 2), "num_quarters": 2, "blocked": False, "max_steps": 80}),
        ("MiniGrid-ObstructedMaze-2Q-v0", {"agent_room": (1, 0), "num_quarters": 4, "agent_view_size": 9}),
        ("MiniGrid-Playground-v0", {"see_through_walls": True, "agent_view_size": 9, "max_steps": 50}),
        # Many short WFC episodes: some levels' largest component has under half the open cells (networkx then orders it as a Python set).
        ("MiniGrid-WFC-MazeSimple-v0", {"size": 20, "max_steps": 12}),
        ("MiniGrid-WFC-ObstaclesBlackdots-v0", {"wfc_config": "DungeonMazeScaled", "size": 15, "ensure_connected": False, "agent_view_size": 5}),
    ],
)
def test_options(make_ref, task, kwargs):
    run(make_ref, task, steps=300, **kwargs)


@pytest.mark.parametrize(
    ("task", "kwargs", "words"),
    [
        ("MiniGrid-Empty-8x8-v0", {"agent_view_size": 4}, "agent_view_size"),
        ("MiniGrid-Empty-8x8-v0", {"agent_view_size": 1}, "agent_view_size"),
        ("MiniGrid-DoorKey-8x8-v0", {"size": 4}, "size"),
        ("MiniGrid-Empty-8x8-v0", {"size": 3, "agent_start_pos": None}, "size"),
        ("MiniGrid-Empty-8x8-v0", {"agent_start_pos": (0, 3)}, "agent_start_pos"),
        ("MiniGrid-Empty-8x8-v0", {"agent_start_pos": (1, 9)}, "agent_start_pos"),
        ("MiniGrid-Empty-8x8-v0", {"agent_start_dir": 4}, "agent_start_dir"),
        ("MiniGrid-FourRooms-v0", {"goal_pos": (19, 1)}, "goal_pos"),
        ("MiniGrid-DoorKey-8x8-v0", {"max_steps": 0}, "max_steps"),
        ("MiniGrid-LavaCrossingS9N1-v0", {"size": 10}, "size"),
        ("MiniGrid-LavaCrossingS9N1-v0", {"num_crossings": 7}, "num_crossings"),
        ("MiniGrid-LavaCrossingS9N1-v0", {"obstacle_type": "water"}, "obstacle_type"),
        ("MiniGrid-LavaGapS5-v0", {"size": 4}, "size"),
        ("MiniGrid-DistShift1-v0", {"strip2_row": 6}, "strip2_row"),
        ("MiniGrid-Dynamic-Obstacles-8x8-v0", {"size": 3}, "size"),
        ("MiniGrid-MultiRoom-N6-v0", {"minNumRooms": 3, "maxNumRooms": 2}, "maxNumRooms"),
        ("MiniGrid-MultiRoom-N6-v0", {"maxRoomSize": 3}, "maxRoomSize"),
        ("MiniGrid-MemoryS7-v0", {"size": 8}, "size"),
        ("MiniGrid-GoToDoor-5x5-v0", {"size": 4}, "size"),
        ("MiniGrid-GoToObject-6x6-N2-v0", {"numObjs": 19}, "numObjs"),
        ("MiniGrid-PutNear-6x6-N2-v0", {"numObjs": 1}, "numObjs"),
        ("MiniGrid-PutNear-6x6-N2-v0", {"numObjs": 5}, "numObjs"),
        ("MiniGrid-LockedRoom-v0", {"size": 9}, "size"),
        ("MiniGrid-KeyCorridorS3R1-v0", {"obj_type": "door"}, "obj_type"),
        ("MiniGrid-KeyCorridorS3R1-v0", {"room_size": 2}, "room_size"),
        ("MiniGrid-ObstructedMaze-Full-v0", {"num_quarters": 0}, "num_quarters"),
        ("MiniGrid-ObstructedMaze-2Q-v1", {"num_quarters": 5}, "num_quarters"),
        ("MiniGrid-ObstructedMaze-1Q-v0", {"agent_room": (3, 1)}, "agent_room"),
        ("MiniGrid-ObstructedMaze-Full-v1", {"agent_room": (1, -1)}, "agent_room"),
        ("MiniGrid-ObstructedMaze-2Dl-v0", {"num_rooms_visited": 0}, "num_rooms_visited"),
        ("MiniGrid-Playground-v0", {"max_steps": 0}, "max_steps"),
        ("MiniGrid-WFC-MazeSimple-v0", {"wfc_config": "Maze"}, "wfc_config"),
        ("MiniGrid-WFC-RoomsFabric-v0", {"size": 2}, "size"),
        ("MiniGrid-Nope-v0", {}, "unknown task"),
    ],
)
def test_bad_options(task, kwargs, words):
    with pytest.raises(ValueError, match=words):
        envpool_lite.make_gymnasium(task, **kwargs)


def test_obstructed_maze_and_playground_ends(make_ref):
    """ObstructedMaze ends on picking up the blue ball: with the agent in
    the ball's corner room (num_quarters=1 leaves one corner), random
    actions pick it up. Without a goal they truncate at minigrid's
    max_steps (4 * num_rooms_visited * 36; Playground: 100)."""
    stats = run(make_ref, "MiniGrid-ObstructedMaze-2Dlhb-v1", num_envs=4, steps=800, agent_room=(2, 0))
    assert stats["goal"] >= 3, stats
    stats = run(make_ref, "MiniGrid-ObstructedMaze-2Q-v0", num_envs=4, steps=800, agent_room=(2, 0), num_quarters=1)
    assert stats["goal"] >= 3, stats
    stats = run(make_ref, "MiniGrid-ObstructedMaze-1Dl-v0", num_envs=2, steps=300)
    assert stats["truncated"] == 2, stats
    stats = run(make_ref, "MiniGrid-Playground-v0", num_envs=2, steps=210)
    assert stats["truncated"] == 4 and stats["goal"] + stats["other_end"] == 0, stats
    with pytest.raises(TypeError, match="agent_room"):
        envpool_lite.make_gymnasium("MiniGrid-ObstructedMaze-1Dlhb-v0", agent_room=(1, 1))


def test_impossible_multiroom_raises_instead_of_hanging():
    """minigrid searches for ever for rooms that cannot fit; here the reset
    fails with a clear error after 100,000 tries, and the pool is closed
    cleanly."""
    env = envpool_lite.make_gymnasium("MiniGrid-MultiRoom-N6-v0", width=6, height=6, minNumRooms=6)
    with pytest.raises(RuntimeError, match="no chain of 6 rooms"):
        env.reset()
    env.close()


def test_internal_options_are_not_options():
    with pytest.raises(TypeError, match="variant"):
        envpool_lite.make_gymnasium("MiniGrid-Unlock-v0", variant=1)


def test_bad_position_type():
    with pytest.raises(TypeError, match="agent_start_pos"):
        envpool_lite.make_gymnasium("MiniGrid-Empty-8x8-v0", agent_start_pos=(1, 2, 3))


def test_bad_action_keeps_pool_usable():
    env = envpool_lite.make_gymnasium("MiniGrid-DoorKey-5x5-v0", num_envs=2, seed=1)
    env.reset()
    for bad in (7, -1):
        with pytest.raises(ValueError, match="action"):
            env.step(np.array([0, bad]))
    obs, *_ = env.step(np.array([1, 2]))
    assert obs["image"].shape == (2, 7, 7, 3)
    env.close()


def test_spaces_and_mission_decoding():
    env = envpool_lite.make_gymnasium("MiniGrid-FourRooms-v0", num_envs=3)
    space = env.single_observation_space
    assert list(space.spaces) == ["direction", "image", "mission"]
    assert space["image"].shape == (7, 7, 3) and space["direction"].n == 4
    obs, _ = env.reset()
    assert decode_mission(obs["mission"]) == ["reach the goal"] * 3
    assert decode_mission(obs["mission"][0]) == "reach the goal"
    env.close()
