"""Families are plug-ins: each registered family has its C++ folder, its
Python module with a Family, its docs page and its README row; the generic
layers name none of them; option types reach C++ typed."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import numpy as np
import pytest

import envpool_lite
from envpool_lite import _core, families

ROOT = Path(__file__).resolve().parents[1]
GENERIC = ["options.py", "spec.py", "pool.py", "gymnasium_api.py", "gym_api.py", "dm_api.py", "multiagent.py"] + [
    f"distributed/{p.name}" for p in sorted((ROOT / "python" / "envpool_lite" / "distributed").glob("*.py"))
]
# The families in the tree: every folder of cpp/envs with a registration.cc.
# make test's setup installs every upstream library, so the build registers
# them all.
EXPECTED = {d.name for d in (ROOT / "cpp" / "envs").iterdir() if (d / "registration.cc").is_file()}


def test_every_family_is_registered_with_its_parts():
    names = families.names()
    assert {"atari", "classic_control", "mujoco", "testing", "toy_text", "vizdoom"} <= EXPECTED
    assert set(names) == EXPECTED
    for name in names:
        assert (ROOT / "cpp" / "envs" / name / "registration.cc").is_file(), name
        assert isinstance(families.plugin(name), families.Family), name
        assert families.task_ids(name), name
        if name != "testing":
            assert (ROOT / "docs" / "families" / f"{name}.md").is_file(), name
            assert f"docs/families/{name}.md" in (ROOT / "README.md").read_text(), name


def test_the_registry_is_the_one_task_list():
    tasks = envpool_lite.list_all_envs()
    assert sorted(t for name in families.names() for t in families.task_ids(name)) == tasks
    assert all(families.family_of(t) in EXPECTED for t in tasks)


def test_generic_layers_name_no_family():
    # Every family's name, its spelling in prose, and its tasks' env names
    # (a task id without "-vN", e.g. "CartPole", "Pong", "FrozenLake").
    words = set()
    for name in families.names():
        words |= {name, name.replace("_", " "), name.replace("_", "")}
    for task in envpool_lite.list_all_envs():
        env = task.rsplit("/", 1)[-1].rsplit("-v", 1)[0]
        if len(env) > 3:
            words.add(env)
    words |= {"vzd_path", "rom_path", "mujoco_lib", "ale", "doom"}
    pattern = re.compile("|".join(sorted((re.escape(w) for w in words), key=len, reverse=True)), re.IGNORECASE)
    for file in GENERIC:
        text = (ROOT / "python" / "envpool_lite" / file).read_text()
        found = sorted({m.group(0) for m in pattern.finditer(text) if not _inside_word(text, m)})
        assert not found, f"{file} names {found}: a family's code belongs in envpool_lite/families/<family>.py"


def _inside_word(text: str, m: re.Match) -> bool:
    """'ale' in 'scale' or 'testing' in 'for testing': part of another word."""
    before = text[m.start() - 1] if m.start() > 0 else " "
    after = text[m.end()] if m.end() < len(text) else " "
    return before.isalnum() or before == "_" or after.isalnum() or after == "_"


def test_option_types_come_from_cpp():
    def kinds(task_id):
        return {name: kind for name, (_, kind) in _core.task_options(task_id).items()}

    vizdoom = kinds("Basic-v1") if "vizdoom" in families.names() else {}
    assert vizdoom["reward_config"] == "named_numbers"
    assert vizdoom["selected_weapon_reward_config"] == "int_keyed_numbers"
    assert vizdoom["game_variables"] == "string_list"
    assert kinds("Ant-v5")["healthy_z_range"] == "number_list"
    assert kinds("CartPole-v1")["max_episode_steps"] == "int"
    assert _core.task_options("CartPole-v1")["max_episode_steps"][0] == _core.task_defaults("CartPole-v1")["max_episode_steps"]


@pytest.mark.parametrize(
    ("value", "message"),
    [({"HEALTH": (1, 2, 3)}, "reward_config"), ({"HEALTH": [1, "x"]}, "reward_config"), (["HEALTH"], "reward_config")],
)
def test_typed_options_are_checked_with_the_option_named(value, message):
    with pytest.raises((TypeError, ValueError), match=message):
        envpool_lite.make_spec("Basic-v1", reward_config=value)


def test_cpp_refuses_a_value_of_another_type():
    """The C++ side converts by the default's type, so a value that skipped
    spec.py's checks still cannot reach an env as the wrong type."""
    options = envpool_lite.make_spec("Basic-v1").env_options
    with pytest.raises(TypeError, match="option 'game_variables' must be a list of str"):
        _core.Task("Basic-v1", {**options, "game_variables": "HEALTH"})
    with pytest.raises(TypeError, match="option 'reward_config' must be a dict"):
        _core.Task("Basic-v1", {**options, "reward_config": "HEALTH:1:-1"})
    with pytest.raises(TypeError, match="option 'max_episode_steps' must be an int"):
        _core.Task("CartPole-v1", {"max_episode_steps": 1.5})


SAME_SEED_TASKS = [
    "CartPole-v1",
    "FrozenLake-v1",
    "HalfCheetah-v5",
    "CheetahRun-v1",
    "FetchReach-v4",
    "reach-v3",
    "LunarLander-v3",
    "CoinrunEasy-v0",
    "MiniGrid-ObstructedMaze-Full-v0",
    "MiniGrid-ObstructedMaze-2Dlhb-v0",
    "BabyAI-GoToLocal-v0",
    "highway-v0",
]


@pytest.mark.parametrize("task_id", SAME_SEED_TASKS)
def test_envs_of_one_pool_with_one_seed_are_the_same_env(task_id):
    """Env 1 of a pool is the same env as env 0 when both get one seed: no
    env depends on its place in the pool unless it says so (a regression:
    the pool's env index once reached ObstructedMaze_Full's v1 flag through
    an int-to-bool constructor argument)."""
    if task_id not in envpool_lite.list_all_envs():
        pytest.skip(f"{task_id} is not built in")
    env = envpool_lite.make_gymnasium(task_id, num_envs=2, seed=[3, 3], num_threads=1)
    space = env.single_action_space
    rng = np.random.default_rng(0)
    try:
        obs, _ = env.reset()
        for t in range(350):
            one = np.asarray(space.sample() if not hasattr(space, "n") else rng.integers(0, space.n))
            obs, reward, term, trunc, _ = env.step(np.stack([one, one]))
            flat = obs if isinstance(obs, np.ndarray) else np.concatenate([np.asarray(v).reshape(2, -1).astype(np.float64) for v in obs.values()], axis=1)
            assert np.array_equal(flat[0], flat[1]), f"{task_id} step {t}: env 1 differs from env 0"
            assert reward[0] == reward[1] and term[0] == term[1] and trunc[0] == trunc[1], t
    finally:
        env.close()


NETWORK_KINDS = [
    ("CartPole-v1", families.NetworkKind.VECTOR),  # the default: a vector
    ("Pong-v5", families.NetworkKind.PIXELS),  # the default: three axes
    ("HalfCheetah-v5", families.NetworkKind.CONTROL),  # mujoco's plug-in
    ("MiniGrid-DoorKey-5x5-v0", families.NetworkKind.GRID),  # minigrid's
    ("BabyAI-GoToLocal-v0", families.NetworkKind.GRID),
    ("minatar-breakout", families.NetworkKind.PLANES),  # pgx's: three axes are planes
    ("2048", families.NetworkKind.PLANES),
    ("go_9x9", families.NetworkKind.VECTOR),  # pgx's board games: a player axis first, the default
]


@pytest.mark.parametrize(("task_id", "kind"), NETWORK_KINDS)
def test_a_family_says_which_network_its_tasks_want(task_id, kind):
    """Family.network_kind: what the trainers build for a task (and the preset
    they train it with), said by its family's plug-in, typed."""
    if task_id not in envpool_lite.list_all_envs():
        pytest.skip(f"{task_id} is not built in")
    assert families.plugin_of(task_id).network_kind(envpool_lite.make_spec(task_id)) is kind


def test_the_default_network_goes_by_the_observation():
    import gymnasium

    of = families.NetworkKind.of_observation
    assert of(gymnasium.spaces.Box(0, 255, (4, 84, 84), np.uint8)) is families.NetworkKind.PIXELS
    assert of(gymnasium.spaces.Box(-1, 1, (17,))) is families.NetworkKind.VECTOR
    assert of(gymnasium.spaces.Box(-1, 1, (2, 9, 9, 17))) is families.NetworkKind.VECTOR
    assert of(gymnasium.spaces.Discrete(500)) is families.NetworkKind.VECTOR
    with pytest.raises(ValueError, match="no default network for a Dict observation"):
        of(gymnasium.spaces.Dict({"position": gymnasium.spaces.Box(-1, 1, (3,))}))


def test_trainers_name_no_family():
    """The trainers choose a network and a preset by the family's
    NetworkKind, never by a family's name (issue 59)."""
    names = set(families.names())
    for path in sorted((ROOT / "trainers").glob("*.py")):
        tree = ast.parse(path.read_text())
        strings = {n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)}
        assert not strings & names, f"{path.name} names the families {sorted(strings & names)}: a family says what it needs through its plug-in"
        calls = {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)}
        assert "family_of" not in calls, f"{path.name} asks a task's family: ask its plug-in (families.plugin_of(task_id)) instead"
