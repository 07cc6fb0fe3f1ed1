import os
import signal
import warnings

import numpy as np
import pytest
from family_seconds import register as _register_family_seconds

import envpool_lite

# dm_control chooses its OpenGL backend when it is first imported (from
# MUJOCO_GL): the reference renders of the dm_control tests draw with the
# headless backend envpool_lite finds (EGL or OSMesa), as its envs do.
if "MUJOCO_GL" not in os.environ:
    from envpool_lite.refkit import mujoco_lib as _mujoco_lib

    try:
        _mujoco_lib.gl_backend("the tests")
    except RuntimeError:
        pass  # no headless OpenGL here: the rendering tests say so

# A pytest started in the background by a shell (`make test &`, nohup)
# inherits SIGINT ignored, and Python then leaves it ignored: the Ctrl-C
# tests (test_errors.py, test_distributed.py) get Python's own handler, as a
# process in a terminal has.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


def pytest_configure(config):
    _register_family_seconds(config)


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
