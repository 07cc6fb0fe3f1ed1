"""TorchRL's MultiThreadedEnv / MultiThreadedEnvWrapper (torchrl 0.14.1) on
envpool_lite through `import envpool`, as TorchRL's users run it: rollout()
across episode ends, its trajectory equal to envpool_lite's own pool stepped
with the same actions, and partial resets by mask.

Two gym versions: TorchRL converts EnvPool's spaces with its gym backend.
gym 0.26.2 gives the gymnasium step API through env_type="gym" (as EnvPool
0.8 did with it); gym 0.23.1 (the jax_scripts group's, first on the path)
the old 4-tuple one."""

import pytest
from libcompat import run_with

GYMS = {"gym 0.26.2": ("torchrl",), "gym 0.23.1": ("jax_scripts", "torchrl")}


@pytest.mark.parametrize("gym", sorted(GYMS))
@pytest.mark.parametrize("task, steps", [("CartPole-v1", 200), ("Pong-v5", 60)])
def test_multithreaded_env_rollout_equals_the_pool(task, steps, gym):
    out = run_with(
        GYMS[gym],
        f"""
        import gym, numpy as np, torch
        import envpool_lite
        from torchrl.envs import MultiThreadedEnv
        torch.manual_seed(0)
        env = MultiThreadedEnv(4, {task!r}, create_env_kwargs={{"seed": 7}})
        td = env.rollout({steps}, break_when_any_done=False)
        env.close()
        assert td.batch_size == torch.Size([4, {steps}]), td.batch_size
        nxt = td["next"]
        # Our own pool, seeded alike, stepped with TorchRL's actions: the
        # same trajectory through every auto-reset.
        ref = envpool_lite.make_gymnasium({task!r}, num_envs=4, seed=7)
        obs, _ = ref.reset()
        assert np.array_equal(td["observation"][:, 0].numpy(), obs)
        ends = 0
        for t in range({steps}):
            obs, rew, term, trunc, _ = ref.step(td["action"][:, t].numpy())
            assert np.array_equal(nxt["observation"][:, t].numpy(), obs), t
            assert np.array_equal(nxt["reward"][:, t].numpy().reshape(-1), rew), t
            assert np.array_equal(nxt["terminated"][:, t].numpy().reshape(-1), term), t
            assert np.array_equal(nxt["truncated"][:, t].numpy().reshape(-1), trunc), t
            ends += int((term | trunc).sum())
        print("gym", gym.__version__, "episode ends", ends)
        """,
    )
    version = gym.split()[1]
    assert f"gym {version} episode ends" in out, out
    if task == "CartPole-v1":
        assert int(out.split()[-1]) > 0, out  # the rollout crossed auto-resets


def test_wrapper_resets_the_masked_envs_only():
    """MultiThreadedEnvWrapper over a pool made as its docs say
    (envpool.make(env_type="gym", gym_reset_return_info=True)); a reset with
    a "_reset" mask calls reset(env_ids) and changes only those envs."""
    out = run_with(
        ("torchrl",),
        """
        import envpool, envpool_lite, numpy as np, torch
        from tensordict import TensorDict
        from torchrl.envs import MultiThreadedEnvWrapper
        base = envpool.make(task_id="CartPole-v1", env_type="gym", num_envs=4, gym_reset_return_info=True, seed=3)
        env = MultiThreadedEnvWrapper(base)
        assert env.batch_size == torch.Size([4])
        td = env.rand_step(env.reset())
        # (cloned: the wrapper's partial reset writes into the step's output)
        moved, action = td["next", "observation"].clone(), td["action"].clone()
        mask = torch.tensor([True, False, True, False])
        again = env.reset(TensorDict({"_reset": mask}, batch_size=[4]))["observation"]
        # The same on our own pool: reset, the same step, reset envs 0 and 2.
        ref = envpool_lite.make_gymnasium("CartPole-v1", num_envs=4, seed=3)
        ref.reset()
        obs, *_ = ref.step(action.numpy())
        assert np.array_equal(moved.numpy(), obs)
        obs, _ = ref.reset(np.array([0, 2]))
        assert np.array_equal(again[mask].numpy(), obs)
        print("ok")
        """,
    )
    assert out.strip().endswith("ok"), out
