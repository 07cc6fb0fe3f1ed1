"""xla(): a pool's send / recv / step as JAX functions that run inside
jax.jit, lax.scan and lax.fori_loop (EnvPool's xla(), rebuilt on XLA's typed
FFI, jax.ffi). JAX is imported only here, when xla() is called.

    handle, recv, send, step = env.xla()
    handle, (obs, reward, done, info) = step(handle, action)   # the gym face

The handle is a small array naming the pool. Each call takes it and returns
it; threading it through the loop (as CleanRL's and PureJaxQL's scripts do)
orders the calls. The FFI handlers (send, recv, step) live in a library of their own,
compiled against the XLA FFI headers of the jaxlib present when envpool_lite
was built (cpp/xla/xla_ffi.cc); they call into _core through a table of C
functions (cpp/xla/xla_bridge.h). CPU only: a computation placed on a GPU
cannot call them (see the README's xla() section).
"""

from __future__ import annotations

import ctypes
import itertools
import os
import pathlib
from typing import Any, Callable

import numpy as np

from envpool_lite import _core

_SEND, _RECV, _STEP = "envpool_lite_xla_send", "envpool_lite_xla_recv", "envpool_lite_xla_step"
_LIBRARY = "libenvpool_lite_xla.so"
_library: ctypes.CDLL | None = None  # loaded and registered once per process


def _jax():
    try:
        import jax
        import jax.numpy as jnp
    except ImportError:
        raise ImportError("xla() needs JAX: pip install 'envpool_lite[jax]'") from None
    if not hasattr(jax, "ffi"):
        raise ImportError(f"xla() needs jax >= 0.5 (jax.ffi); this is jax {jax.__version__}")
    return jax, jnp


def _library_path() -> pathlib.Path:
    """The handlers' library: the one built with the package, or the one
    ENVPOOL_LITE_XLA_LIBRARY names (compiled against another jaxlib's
    headers, as tests/test_xla_jax_range.py does)."""
    override = os.environ.get("ENVPOOL_LITE_XLA_LIBRARY")
    return pathlib.Path(override) if override else pathlib.Path(_core.__file__).with_name(_LIBRARY)


def _register(jax) -> None:
    """Loads the FFI handlers' library, hands it _core's C table and
    registers the three targets with XLA (once per process)."""
    global _library
    if _library is not None:
        return
    path = _library_path()
    if not path.exists():
        raise RuntimeError(
            "xla() is not in this build of envpool_lite: its XLA FFI handlers were not compiled (the build found no jax and could not fetch jaxlib's FFI headers by name). "
            "Reinstall envpool_lite where the package index is reachable (the wheels carry xla()), or install JAX first and rebuild: pip install 'envpool_lite[jax]', then pip install --no-build-isolation envpool_lite"
        )
    library = ctypes.CDLL(str(path))
    library.envpool_lite_xla_jax_version.restype = ctypes.c_char_p
    built = library.envpool_lite_xla_jax_version().decode()
    if _version(jax.__version__) < _version(built):
        # XLA accepts handlers built against its own FFI headers or older
        # ones, never newer ones.
        raise RuntimeError(
            f"xla()'s handlers were compiled against the XLA FFI headers of jax {built}, and this jax {jax.__version__} is older, so XLA would refuse them. "
            "Upgrade jax, or rebuild envpool_lite with this jax installed (pip install --no-build-isolation envpool_lite, or bash scripts/setup.sh)"
        )
    library.envpool_lite_xla_set_bridge.argtypes = [ctypes.c_void_p]
    if not library.envpool_lite_xla_set_bridge(ctypes.c_void_p(_core.xla_bridge())):
        raise RuntimeError(f"{path} does not match this envpool_lite._core: rebuild envpool_lite")
    jax.ffi.register_ffi_target(_SEND, jax.ffi.pycapsule(library.envpool_lite_xla_send), platform="cpu")
    jax.ffi.register_ffi_target(_RECV, jax.ffi.pycapsule(library.envpool_lite_xla_recv), platform="cpu")
    jax.ffi.register_ffi_target(_STEP, jax.ffi.pycapsule(library.envpool_lite_xla_step), platform="cpu")
    _library = library


def built_with_jax() -> str | None:
    """The jax version whose FFI headers xla()'s handlers were compiled
    against (None: built without JAX)."""
    path = _library_path()
    if not path.exists():
        return None
    library = ctypes.CDLL(str(path))
    library.envpool_lite_xla_jax_version.restype = ctypes.c_char_p
    return library.envpool_lite_xla_jax_version().decode()


def _version(text: str) -> tuple[int, ...]:
    """'0.10.2' -> (0, 10, 2); a suffix ('0.5.0rc1', '.dev') ends it."""
    parts = []
    for piece in text.split("."):
        digits = "".join(itertools.takewhile(str.isdigit, piece))
        if not digits:
            break
        parts.append(int(digits))
        if digits != piece:
            break
    return tuple(parts)


def _shape_text(shape: tuple) -> str:
    """A shape as Python prints a tuple: (8,) or (8, 3)."""
    return str(tuple(int(d) for d in shape))


def make_xla(face: Any) -> tuple[np.ndarray, Callable, Callable, Callable]:
    """(handle, recv, send, step) for a pool face (see EnvPoolBase.xla)."""
    jax, jnp = _jax()
    pool = face._pool
    if not isinstance(pool, _core.EnvPool):
        raise RuntimeError("xla() serves an in-process pool; a pool spread over Ray workers (num_workers > 0) steps in other processes, which XLA cannot call")
    if face._spec.obs_keys:
        raise RuntimeError(f"xla() returns one array per field; {face._spec.task_id}'s observation is a dict ({', '.join(face._spec.obs_keys)})")
    if face._same_step_autoreset:
        raise RuntimeError("xla() supports autoreset_mode NEXT_STEP only: SAME_STEP's final_obs is an object array, which JAX cannot trace")
    _register(jax)

    num_envs, batch = pool.num_envs, pool.batch_size
    is_async = batch < num_envs
    # Without jax_enable_x64, JAX has no float64 / int64 arrays: those fields
    # come back as float32 / int32 (the handler converts them).
    fields = [jax.ShapeDtypeStruct((batch, *shape), jax.dtypes.canonicalize_dtype(np.dtype(dtype))) for _, dtype, shape in pool.field_specs]
    handle_struct = jax.ShapeDtypeStruct((2,), jnp.uint32)
    action_spec = pool.spec["action"]
    action_shape = tuple(action_spec["shape"])
    action_dtype = jax.dtypes.canonicalize_dtype(np.dtype(action_spec["dtype"]))
    all_ids = np.arange(num_envs, dtype=np.int32)
    formatter = face._format_traced
    send_call = jax.ffi.ffi_call(_SEND, handle_struct, has_side_effect=True)
    recv_call = jax.ffi.ffi_call(_RECV, (handle_struct, *fields), has_side_effect=True)
    # A sync pool's step of every env: one call, in which the pool writes the
    # batch straight into XLA's result buffers.
    step_call = jax.ffi.ffi_call(_STEP, (handle_struct, *fields), has_side_effect=True)

    def checked(action: Any, env_id: Any) -> tuple[Any, Any]:
        """The action array and the env ids (all_ids by default), checked
        as step() checks them."""
        if isinstance(action, dict):  # EnvPool's dict form
            env_id = action.get("env_id", env_id)
            action = action["action"]
        action = jnp.asarray(action)
        if env_id is None:
            if is_async:
                raise ValueError("send() in an async pool (batch_size < num_envs) needs env_id: the env ids recv() returned (info['env_id'])")
            env_id = all_ids
        env_id = jnp.asarray(env_id)
        if env_id.ndim != 1 or not jnp.issubdtype(env_id.dtype, jnp.integer):
            raise ValueError(f"env_id must be a 1-D array of ints, got shape {_shape_text(env_id.shape)} and dtype {env_id.dtype}")
        n = env_id.shape[0]
        want = (n, *action_shape)
        if tuple(action.shape) != want:
            raise ValueError(f"action has shape {_shape_text(action.shape)}, expected {_shape_text(want)} (one action per env id)")
        if action.dtype not in (jnp.bool_, jnp.uint8, jnp.int8, jnp.int32, jnp.int64, jnp.float32, jnp.float64):
            action = action.astype(action_dtype)
        return action, env_id

    def send(handle: Any, action: Any, env_id: Any = None) -> Any:
        """Queue one action per env id (default: every env, sync pools);
        returns the handle for the next call."""
        action, env_id = checked(action, env_id)
        return send_call(handle, action, env_id.astype(jnp.int32))

    def recv(handle: Any) -> tuple[Any, Any]:
        """Wait for the next batch; returns (handle, the face's batch)."""
        out = recv_call(handle)
        return out[0], formatter(tuple(out[1:]))

    def step(handle: Any, action: Any, env_id: Any = None) -> tuple[Any, Any]:
        """send() then recv()."""
        if is_async or env_id is not None or (isinstance(action, dict) and "env_id" in action):
            return recv(send(handle, action, env_id))
        action, _ = checked(action, None)
        out = step_call(handle, action)
        return out[0], formatter(tuple(out[1:]))

    pool_id = pool.xla_id()
    handle = np.frombuffer(np.array([pool_id], dtype="<i8").tobytes(), dtype="<u4").copy()
    return handle, recv, send, step
