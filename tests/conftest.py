import warnings

import numpy as np
import pytest

import envpool_lite


@pytest.fixture
def make():
    """envpool_lite.make that closes every pool a test made."""
    pools = []

    def _make(*args, **kwargs):
        env = envpool_lite.make(*args, **kwargs)
        pools.append(env)
        return env

    yield _make
    for env in pools:
        env.close()


def random_actions(space, n, rng):
    """n random actions for one env's action space (batched)."""
    if hasattr(space, "n"):
        return rng.integers(0, int(space.n), size=n).astype(np.int32)
    return rng.uniform(space.low, space.high, size=(n, *space.shape)).astype(space.dtype)


@pytest.fixture
def quiet_gymnasium():
    """Silences gymnasium's warnings for a test that makes its reference envs
    (the passive env checker's notes, CartPole-v0's age)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield
