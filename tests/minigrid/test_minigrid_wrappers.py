"""MiniGrid's observation options and render(), pixel for pixel against
minigrid 3.2.0: each option set beside the minigrid wrapper it stands for
(minigrid/wrappers.py) applied to gymnasium.make(id) with the same seeds,
compared at every step of every env (the image, and the direction, mission,
reward, terminated and truncated), through episode ends and auto-resets; and
render() beside minigrid's env.render() with render_mode="rgb_array".

The reference is installed by scripts/setup_compat.sh into
build/compat/minigrid_oracle (tests/minigrid/test_minigrid.py's fixture).
"""

from __future__ import annotations

import os
import sys

import gymnasium
import numpy as np
import pytest
from libcompat import COMPAT

import envpool_lite
from envpool_lite.families.minigrid import decode_mission

ORACLE = COMPAT / "minigrid_oracle"

pytestmark = pytest.mark.usefixtures("quiet_gymnasium")


@pytest.fixture(scope="module")
def mg():
    """minigrid's package (it registers its ids on import)."""
    if not (ORACLE / "minigrid" / "minigrid_env.py").is_file():
        message = f"minigrid 3.2.0 is not installed in {ORACLE} (run: bash scripts/setup_compat.sh)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    if str(ORACLE) not in sys.path:
        sys.path.append(str(ORACLE))
    import minigrid
    import minigrid.wrappers

    return minigrid


# Each wrapper (name, its tile_size) and the options that stand for it.
def wrap(mg, ref, wrapper, tile, image_only):
    w = mg.wrappers
    if wrapper == "FullyObs":
        ref = w.FullyObsWrapper(ref)
    elif wrapper == "RGBImgPartialObs":
        ref = w.RGBImgPartialObsWrapper(ref, tile_size=tile)
    elif wrapper == "RGBImgObs":
        ref = w.RGBImgObsWrapper(ref, tile_size=tile)
    return w.ImgObsWrapper(ref) if image_only else ref


def options(wrapper, tile, image_only):
    return {
        "fully_obs": wrapper in ("FullyObs", "RGBImgObs"),
        "rgb_img": wrapper in ("RGBImgPartialObs", "RGBImgObs"),
        "rgb_tile_size": tile,
        "image_only": image_only,
    }


def check(obs, row, ref_obs, i, image_only):
    if image_only:
        assert obs[row].shape == ref_obs.shape, f"env {i}: image shape {obs[row].shape} != {ref_obs.shape}"
        assert np.array_equal(obs[row], ref_obs), f"env {i}: image differs in {np.count_nonzero(obs[row] != ref_obs)} values"
        return
    assert obs["image"][row].shape == ref_obs["image"].shape, f"env {i}: image shape"
    assert np.array_equal(obs["image"][row], ref_obs["image"]), f"env {i}: image differs in {np.count_nonzero(obs['image'][row] != ref_obs['image'])} values"
    assert obs["direction"][row] == ref_obs["direction"], f"env {i}: direction"
    assert decode_mission(obs["mission"][row]) == ref_obs["mission"], f"env {i}: mission"


def run(mg, task, wrapper, *, tile=8, image_only=False, num_envs=2, steps=150, seed=3, policy_seed=0, **kwargs):
    """Pool and wrapped references side by side, every step; returns how many
    episodes ended."""
    env = envpool_lite.make_gymnasium(task, num_envs=num_envs, seed=seed, **options(wrapper, tile, image_only), **kwargs)
    refs = [wrap(mg, gymnasium.make(task, **kwargs), wrapper, tile, image_only) for _ in range(num_envs)]
    space = env.single_observation_space
    ref_space = refs[0].observation_space
    if image_only:
        assert space == ref_space, (space, ref_space)
    else:
        assert space["image"] == ref_space["image"], (space["image"], ref_space["image"])
        assert list(space.spaces) == ["direction", "image", "mission"]
    rng = np.random.default_rng(policy_seed)
    ends = 0
    try:
        obs, _ = env.reset()
        for i, r in enumerate(refs):
            check(obs, i, r.reset(seed=seed + i)[0], i, image_only)
        needs_reset = np.zeros(num_envs, bool)
        for _ in range(steps):
            actions = rng.integers(0, env.single_action_space.n, num_envs)
            obs, rew, term, trunc, _ = env.step(actions)
            for i, r in enumerate(refs):
                if needs_reset[i]:
                    ref_obs, _ = r.reset()
                else:
                    ref_obs, ref_rew, ref_term, ref_trunc, _ = r.step(int(actions[i]))
                    assert rew[i] == ref_rew and term[i] == ref_term and trunc[i] == ref_trunc, f"env {i}: step result"
                    ends += bool(ref_term or ref_trunc)
                check(obs, i, ref_obs, i, image_only)
            needs_reset = term | trunc
    finally:
        env.close()
    return ends


WRAPPED_TASKS = [
    ("MiniGrid-DoorKey-5x5-v0", {"max_steps": 30}),
    ("MiniGrid-FourRooms-v0", {"max_steps": 40}),
    ("MiniGrid-KeyCorridorS3R1-v0", {"max_steps": 40}),
    ("MiniGrid-LavaCrossingS9N1-v0", {"max_steps": 30}),
    ("MiniGrid-Dynamic-Obstacles-6x6-v0", {"max_steps": 30}),
    ("MiniGrid-DistShift1-v0", {"max_steps": 30}),  # 9 wide, 7 high
]


@pytest.mark.parametrize("wrapper", ["FullyObs", "RGBImgPartialObs", "RGBImgObs"])
@pytest.mark.parametrize(("task", "kwargs"), WRAPPED_TASKS, ids=[t for t, _ in WRAPPED_TASKS])
def test_wrapper_exact(mg, task, kwargs, wrapper):
    """Each wrapper on each task: 2 envs, random actions through episode
    ends."""
    assert run(mg, task, wrapper, **kwargs) >= 2


@pytest.mark.parametrize("wrapper", [None, "FullyObs", "RGBImgPartialObs", "RGBImgObs"])
def test_image_only(mg, wrapper):
    """ImgObsWrapper, alone and over each of the others: a Box observation."""
    assert run(mg, "MiniGrid-DoorKey-6x6-v0", wrapper, image_only=True, steps=120, max_steps=30) >= 2


@pytest.mark.parametrize(
    ("task", "wrapper", "tile", "kwargs"),
    [
        ("MiniGrid-DoorKey-8x8-v0", "RGBImgPartialObs", 1, {"max_steps": 30}),
        ("MiniGrid-LavaGapS6-v0", "RGBImgPartialObs", 5, {}),
        ("MiniGrid-LavaCrossingS9N2-v0", "RGBImgObs", 3, {}),
        ("MiniGrid-KeyCorridorS3R2-v0", "RGBImgObs", 12, {"max_steps": 30}),
        ("MiniGrid-MultiRoom-N2-S4-v0", "RGBImgObs", 8, {"highlight": False, "max_steps": 30}),
        ("MiniGrid-Unlock-v0", "RGBImgPartialObs", 8, {"agent_view_size": 5, "max_steps": 30}),
        ("MiniGrid-Fetch-5x5-N2-v0", "FullyObs", 8, {}),
        ("MiniGrid-RedBlueDoors-6x6-v0", "RGBImgObs", 4, {"max_steps": 30}),  # 12 wide, 6 high
    ],
)
def test_wrapper_options(mg, task, wrapper, tile, kwargs):
    """Other tile sizes, agent_view_size, highlight=False (RGBImgObsWrapper
    takes the env's highlight), more tasks."""
    run(mg, task, wrapper, tile=tile, steps=100, **kwargs)


def test_carried_objects_and_open_doors(mg):
    """Long runs where keys are carried (drawn in the agent's cell of the
    partial view) and doors opened (the agent drawn over an open door)."""
    for wrapper in ("RGBImgPartialObs", "RGBImgObs", "FullyObs"):
        run(mg, "MiniGrid-DoorKey-5x5-v0", wrapper, num_envs=4, steps=400, seed=11)


RENDER_CASES = [
    ("MiniGrid-DoorKey-5x5-v0", {}),
    ("MiniGrid-FourRooms-v0", {"tile_size": 8}),
    ("MiniGrid-LavaCrossingS9N1-v0", {"highlight": False}),
    ("MiniGrid-KeyCorridorS3R1-v0", {"tile_size": 13}),
    ("MiniGrid-Dynamic-Obstacles-6x6-v0", {"tile_size": 16, "highlight": True}),
    ("MiniGrid-DistShift1-v0", {"tile_size": 7}),
    ("MiniGrid-DoorKey-6x6-v0", {"agent_pov": True}),
    ("MiniGrid-LavaGapS5-v0", {"agent_pov": True, "tile_size": 10, "agent_view_size": 5}),
    ("MiniGrid-MemoryS7-v0", {"tile_size": 4, "highlight": False, "rgb_img": True}),
]


def compare_renders(task, kwargs, *, steps=25, seed=7, policy_seed=1, num_envs=2, max_steps=10, watch=None):
    """render() of every env beside minigrid's env.render() (rgb_array:
    get_frame(highlight, tile_size, agent_pov) of its constructor's
    arguments) at every step, through episode ends. watch(ref_env) is called
    on each reference at each step."""
    ref_kwargs = {k: v for k, v in kwargs.items() if k != "rgb_img"}
    env = envpool_lite.make_gymnasium(task, num_envs=num_envs, seed=seed, render_mode="rgb_array", max_steps=max_steps, **kwargs)
    refs = [gymnasium.make(task, render_mode="rgb_array", max_steps=max_steps, **ref_kwargs) for _ in range(num_envs)]
    rng = np.random.default_rng(policy_seed)
    try:
        env.reset()
        for i, r in enumerate(refs):
            r.reset(seed=seed + i)
        needs_reset = np.zeros(num_envs, bool)
        for step in range(steps):
            frames = np.asarray(env.render())
            for i, r in enumerate(refs):
                if watch is not None:
                    watch(r.unwrapped)
                ref_frame = r.render()
                assert frames[i].shape == ref_frame.shape, (frames[i].shape, ref_frame.shape)
                assert np.array_equal(frames[i], ref_frame), f"step {step}, env {i}: {np.count_nonzero(frames[i] != ref_frame)} values differ"
            actions = rng.integers(0, env.single_action_space.n, num_envs)
            _, _, term, trunc, _ = env.step(actions)
            for i, r in enumerate(refs):
                if needs_reset[i]:
                    r.reset()
                else:
                    r.step(int(actions[i]))
            needs_reset = term | trunc
    finally:
        env.close()


@pytest.mark.parametrize(("task", "kwargs"), RENDER_CASES, ids=[f"{t}-{'-'.join(map(str, k.values()))}" for t, k in RENDER_CASES])
def test_render_exact(mg, task, kwargs):
    compare_renders(task, kwargs)


@pytest.mark.parametrize("tile_size", [2, 28])
def test_render_agent_in_open_grey_door(mg, tile_size):
    """A tile whose downsampled pixels depend on the order of numpy's mean
    ((m0 + m1) + m2, not m0 + (m1 + m2)): the agent in an open grey door,
    highlighted, at tile sizes 2 and 28 (found by comparing every tile of
    sizes 1 to 64 against Grid.render_tile)."""
    seen = []

    def watch(ref):
        cell = ref.grid.get(*ref.agent_pos)
        seen.append(cell is not None and cell.type == "door" and cell.color == "grey" and ref.agent_dir in (1, 2, 3))

    compare_renders("MiniGrid-KeyCorridorS3R1-v0", {"tile_size": tile_size}, steps=200, seed=10, policy_seed=10, num_envs=1, max_steps=200, watch=watch)
    assert any(seen)


def test_render_one_env_and_spec():
    env = envpool_lite.make_gymnasium("MiniGrid-DoorKey-8x8-v0", num_envs=2, render_mode="rgb_array", tile_size=4)
    assert env.spec.render_shape == (32, 32)
    env.reset()
    one = env.render(env_ids=1)
    both = np.asarray(env.render())
    assert one.shape == (1, 32, 32, 3) and np.array_equal(one[0], both[1])
    env.close()
    pov = envpool_lite.make_gymnasium("MiniGrid-DoorKey-8x8-v0", render_mode="rgb_array", agent_pov=True, agent_view_size=5)
    assert pov.spec.render_shape == (160, 160)
    pov.close()


def test_dm_face_image_only():
    """image_only: the dm face's observation carries the image under its name."""
    env = envpool_lite.make_dm("MiniGrid-Empty-5x5-v0", num_envs=2, image_only=True, rgb_img=True, rgb_tile_size=2)
    ts = env.reset()
    assert ts.observation.image.shape == (2, 14, 14, 3) and ts.observation.image.dtype == np.uint8
    env.close()


@pytest.mark.parametrize(
    ("kwargs", "error", "words"),
    [
        ({"tile_size": 0}, ValueError, "tile_size"),
        ({"tile_size": -3}, ValueError, "tile_size"),
        ({"tile_size": 257}, ValueError, "tile_size"),
        ({"rgb_tile_size": 0}, ValueError, "rgb_tile_size"),
        ({"rgb_tile_size": 0, "rgb_img": True}, ValueError, "rgb_tile_size"),
        ({"fully_obs": "yes"}, TypeError, "fully_obs"),
        ({"image_only": 1}, TypeError, "image_only"),
        ({"tile_size": 2.5}, TypeError, "tile_size"),
    ],
)
def test_bad_options(kwargs, error, words):
    with pytest.raises(error, match=words):
        envpool_lite.make_gymnasium("MiniGrid-DoorKey-5x5-v0", **kwargs)
