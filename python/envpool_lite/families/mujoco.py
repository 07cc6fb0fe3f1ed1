"""The MuJoCo family (cpp/envs/mujoco/): gymnasium's MuJoCo tasks, v5 and
v4, and EnvPool's v3/v2 ids (the v4 envs without MuJoCo's post-constraint
pass, as EnvPool registers them; gymnasium no longer has them). This module finds the family's files, the MJCF models of the installed
gymnasium package (gymnasium/envs/mujoco/assets) and the MuJoCo library of the
installed mujoco package (libmujoco.so.X, the exact version this build was
made for, which the C++ envs load at make())."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import numpy as np

from envpool_lite.families import BenchmarkTask, Family, NetworkKind
from envpool_lite.refkit.mujoco_lib import RENDER_FIELDS, gl_backend, gymnasium_models_dir

if TYPE_CHECKING:
    from envpool_lite.spec import EnvSpec


def model_path(task_id: str, xml_file: str) -> str:
    """gymnasium's expand_model_path: a path starting with '.' or '/' as is,
    '~' expanded, else a file of gymnasium's assets folder."""
    if xml_file.startswith(".") or xml_file.startswith("/"):
        path = xml_file
    elif xml_file.startswith("~"):
        path = os.path.expanduser(xml_file)
    else:
        path = os.path.join(gymnasium_models_dir(), xml_file)
    if not os.path.exists(path):
        raise FileNotFoundError(f"{task_id}: model file {path} does not exist")
    return os.path.abspath(path)


def gymnasium_id(task_id: str) -> str:
    """The gymnasium id whose env (model, code) a task's env follows: its
    own, or -v4 for EnvPool's -v3/-v2 ids."""
    name, version = task_id.rsplit("-", 1)
    return f"{name}-v4" if version in ("v2", "v3") else task_id


# --- rendering ----------------------------------------------------------------
# render_mode="rgb_array": each env's picture is drawn by gymnasium's own
# MuJoCo renderer (MuJoCo's OpenGL renderer, headless), from the kinematics
# the pool's env hands over (``_core.EnvPool.render_state``, see
# MujocoEnv::RenderState), written into a gymnasium env of the same task, so a
# frame is the one gymnasium's render() draws for the same state.
class MujocoRenderer:
    """Draws states of one MuJoCo task with gymnasium's renderer: its
    default camera and size (480 x 480), or make()'s render_width,
    render_height and render_camera_id (MuJoCo draws at that size, as in
    EnvPool)."""

    def __init__(self, spec):
        task_id = spec.task_id
        gl_backend(task_id)
        import gymnasium

        config = spec.config
        kwargs = {"render_mode": "rgb_array", "width": config["render_width"] or 480, "height": config["render_height"] or 480}
        if config["render_camera_id"] != -1:
            kwargs["camera_id"] = config["render_camera_id"]
        if "xml_file" in spec.config:
            kwargs["xml_file"] = spec.env_options["mujoco_model"]
        ctx = contextlib.nullcontext()
        reference = gymnasium_id(task_id)  # the v3/v2 ids draw v4's model
        if reference == "Pusher-v4":  # gymnasium refuses it on mujoco >= 3; its renderer is fine
            ctx = _pusher_v4_allowed()
        with ctx:
            self._env = gymnasium.make(reference, **kwargs).unwrapped
        model = self._env.model
        if config["render_camera_id"] >= model.ncam:
            self._env.close()
            raise ValueError(f"render_camera_id must be -1 (the default view) or one of {task_id}'s {model.ncam} cameras (0 to {model.ncam - 1}), got {config['render_camera_id']}")
        self._slices, start = [], 0
        for name, count, width in RENDER_FIELDS:
            n = getattr(model, count) * width
            self._slices.append((name, slice(start, start + n)))
            start += n
        self._size = start
        self._lookat: dict[int, np.ndarray] = {}  # per env: its camera's point, from its first render
        self._viewer_cam = None  # gymnasium's camera, once its viewer exists
        self._cam_config = self._env.mujoco_renderer.default_cam_config or {}

    def draw(self, states: np.ndarray, env_ids: np.ndarray) -> np.ndarray:
        """(n, H, W, 3) uint8 pictures of n states (rows of render_state) of
        the envs env_ids."""
        env = self._env
        frames = []
        for state, env_id in zip(states, env_ids):
            assert len(state) == self._size, (len(state), self._size)
            for name, where in self._slices:
                getattr(env.data, name).flat[:] = state[where]
            # gymnasium's free camera looks at the median of the geoms'
            # positions when the env is first rendered (unless the task's
            # default_camera_config sets lookat), and keeps that point: each
            # env keeps its own, taken at its first render().
            lookat = self._lookat.get(int(env_id))
            if lookat is None:
                if self._viewer_cam is None or "lookat" in self._cam_config:
                    lookat = None  # the viewer's own (it is made on this render)
                else:
                    lookat = np.median(env.data.geom_xpos, axis=0)
            if lookat is not None and self._viewer_cam is not None:
                self._viewer_cam.lookat[:] = lookat
            frames.append(env.render())
            if self._viewer_cam is None:
                self._viewer_cam = env.mujoco_renderer.viewer.cam
            self._lookat.setdefault(int(env_id), np.array(self._viewer_cam.lookat))
        return np.stack(frames)

    def close(self) -> None:
        self._env.close()


@contextlib.contextmanager
def _pusher_v4_allowed():
    """gymnasium refuses Pusher-v4 on mujoco >= 3; its code runs unchanged
    otherwise, so its env is made with the version check skipped (for
    drawing here, and as the reference in the tests)."""
    import mujoco

    version = mujoco.__version__
    mujoco.__version__ = "2.3.7"
    try:
        yield
    finally:
        mujoco.__version__ = version


class Mujoco(Family):
    # The model file (from xml_file where the task takes one, else the
    # registration's), found here; the MuJoCo library and numpy's BLAS,
    # filled by make() from envpool_lite.refkit (needs).
    # report_reset_state: the envpool module's info["qpos0"] / ["qvel0"].
    internal_options = frozenset({"mujoco_model", "report_reset_state"})
    needs = frozenset({"mujoco_lib", "numpy_blas"})
    extra = "mujoco"
    requires = {"mujoco": "mujoco"}  # the physics library (gymnasium's models come with gymnasium)
    # gymnasium's tasks (Box actions): the same model, physics and task code
    # on every system. A step is 5 MuJoCo substeps (frame_skip); Ant and
    # Humanoid are ~7x heavier than HalfCheetah, hence fewer steps. --full's
    # 8:8:2 has gymnasium's AsyncVectorEnv.
    benchmark_tasks = tuple(
        BenchmarkTask(
            name,
            frame_skip=5,
            headline=((1, 1, 1), (16, 8, 2), (16, 16, 2)),
            full=((1, 1, 1), (8, 8, 2), (16, 8, 2), (16, 16, 2), (64, 32, 2)),
            quick=((16, 8, 2),),
            steps=steps,
            limit_steps=steps,
            peers={"gymnasium": name},
        )
        for name, steps in (("Ant-v4", 8000), ("Ant-v5", 8000), ("HalfCheetah-v4", 32000), ("HalfCheetah-v5", 32000), ("Humanoid-v5", 8000))
    )

    def fill_internal(self, task_id: str, config: Mapping[str, Any], internal: dict[str, Any]) -> dict[str, Any]:
        xml_file = config.get("xml_file", internal["mujoco_model"])
        if not isinstance(xml_file, str) or not xml_file:
            raise TypeError(f"option 'xml_file' must be a non-empty str, got {xml_file!r}")
        return {**internal, "mujoco_model": model_path(task_id, xml_file)}

    def check_render(self, spec: EnvSpec) -> None:
        gl_backend(spec.task_id)  # a clear error now if MuJoCo cannot render here

    def make_renderer(self, spec: EnvSpec) -> MujocoRenderer:
        return MujocoRenderer(spec)

    def network_kind(self, spec: EnvSpec) -> NetworkKind:
        return NetworkKind.CONTROL  # joint positions and velocities in, torques out


family = Mujoco()
