"""Step-by-step alignment of envpool_lite's dm_control tasks with dm_control
itself: env i of a pool seeded s against suite.load(domain, task,
task_kwargs={"random": s + i}), every observation key, the reward, the
discount and the step type compared with ==, through time limits,
terminations and auto-resets. Shared by tests/dm_control/test_dm_control*.py."""

from __future__ import annotations

import numpy as np

import envpool_lite


def reference(domain: str, task: str, seed: int, time_limit: float | None = None, environment_kwargs: dict | None = None):
    from dm_control import suite

    task_kwargs: dict = {"random": seed}
    if time_limit is not None:
        task_kwargs["time_limit"] = time_limit
    return suite.load(domain, task, task_kwargs=task_kwargs, environment_kwargs=environment_kwargs)


def assert_aligned(
    task_id: str,
    domain: str,
    task: str,
    steps: int,
    num_envs: int = 2,
    seed: int = 3,
    time_limit: float | None = None,
    environment_kwargs: dict | None = None,
    action_scale: float = 1.0,
    max_episode_steps: int | None = None,
) -> dict:
    """Steps a pool of num_envs envs and their references with the same
    random actions (uniform in the action spec's bounds, times action_scale,
    clipped to +-1 where unbounded) and asserts every field equal. Returns
    counts: episodes ended by the time limit and by termination."""
    options: dict = {}
    if max_episode_steps is not None:
        # EnvPool's option on the pool; dm_control's time_limit (given) on
        # the reference.
        options["max_episode_steps"] = max_episode_steps
    elif time_limit is not None:
        options["task_kwargs"] = {"time_limit": time_limit}
    if environment_kwargs:
        options["environment_kwargs"] = environment_kwargs
    env = envpool_lite.make_dm(task_id, num_envs=num_envs, seed=seed, **options)
    refs = [reference(domain, task, seed + i, time_limit, environment_kwargs) for i in range(num_envs)]
    spec = refs[0].action_spec()
    low = np.where(np.isfinite(spec.minimum), spec.minimum, -1.0)
    high = np.where(np.isfinite(spec.maximum), spec.maximum, 1.0)
    rng = np.random.default_rng(seed)
    counts = {"truncated": 0, "terminated": 0}
    try:
        ts = env.reset()
        rts = [r.reset() for r in refs]
        keys = list(rts[0].observation.keys())
        assert list(env.observation_spec()._fields[: len(keys)]) == keys, (env.observation_spec()._fields, keys)
        for t in range(steps + 1):
            for i, r in enumerate(rts):
                where = f"{task_id} env {i} step {t}"
                assert int(ts.step_type[i]) == int(r.step_type), f"{where}: step_type {ts.step_type[i]} != {r.step_type}"
                for k in keys:
                    mine, theirs = ts.observation[k][i], np.asarray(r.observation[k])
                    assert mine.shape == theirs.shape and mine.dtype == theirs.dtype, f"{where}: {k} {mine.shape} {mine.dtype} != {theirs.shape} {theirs.dtype}"
                    assert np.array_equal(mine, theirs), f"{where}: {k} differs by {np.max(np.abs(mine - theirs))}"
                if r.reward is None:
                    assert ts.reward[i] == 0.0, where
                else:
                    assert ts.reward[i] == r.reward, f"{where}: reward {ts.reward[i]!r} != {r.reward!r}"
                if r.discount is not None:
                    assert ts.discount[i] == r.discount, f"{where}: discount {ts.discount[i]} != {r.discount}"
                if r.last():
                    counts["terminated" if r.discount == 0 else "truncated"] += 1
            if t == steps:
                break
            action = rng.uniform(low, high, size=(num_envs, len(low))) * action_scale
            ts = env.step(action)
            rts = [r.step(action[i]) for i, r in enumerate(refs)]
    finally:
        env.close()
    return counts
