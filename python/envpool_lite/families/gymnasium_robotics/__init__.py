"""The gymnasium_robotics family (cpp/envs/gymnasium_robotics/):
gymnasium-robotics 1.4.2's MuJoCo tasks (Fetch, Shadow Hand, PointMaze and
AntMaze, Adroit, Franka Kitchen), bit-exact with its own envs. The C++ envs
load the models and meshes of the installed gymnasium_robotics package and
the libmujoco of the installed mujoco package; this package finds them
(assets.py), and gives the pool the goal functions HER relabelling calls
(``compute_reward``, ``compute_terminated``, ``compute_truncated``) over
batches of goals, computed as the reference computes them (goals.py, and
hand.py, maze.py and kitchen.py for those kinds of task; maze.py also
builds a maze's model)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, TypeVar

import numpy as np

from envpool_lite.families import BenchmarkTask, Family
from envpool_lite.families.gymnasium_robotics import hand, kitchen, maze
from envpool_lite.families.gymnasium_robotics.assets import assets_dir as assets_dir  # the tests read it here
from envpool_lite.families.gymnasium_robotics.assets import model_path
from envpool_lite.families.gymnasium_robotics.goals import GoalFunctions, fetch_goals
from envpool_lite.options import POOL_DEFAULTS, RENDER_DEFAULTS
from envpool_lite.refkit import mujoco_lib

if TYPE_CHECKING:
    from envpool_lite.spec import EnvSpec

_T = TypeVar("_T")


def reference_id(task_id: str) -> str:
    """The gymnasium-robotics id whose env a task follows: its own, or for
    the ids of the mujoco-py versions (Fetch -v1, Shadow Hand -v0; mujoco-py
    cannot be installed), the id of the same task on the mujoco bindings, as
    EnvPool registers them."""
    name, version = task_id.rsplit("-", 1)
    if name.startswith("Fetch") and version == "v1":
        return f"{name}-v4"
    if name.startswith("Hand") and version == "v0":
        return f"{name}-v3" if name.startswith("HandReach") else f"{name}-v1"
    return task_id


def _of_kind(table: Mapping[str, _T], task_id: str) -> _T | None:
    """What a table keyed by the start of an id (a kind of task: "Fetch",
    "PointMaze", ...) holds for task_id, or None."""
    for prefix, value in table.items():
        if task_id.startswith(prefix):
            return value
    return None


# The goal functions of each kind of task, by the start of its id.
_GOALS: dict[str, Callable[[EnvSpec], GoalFunctions]] = {
    "Fetch": fetch_goals,
    "Hand": hand.hand_goals,  # Shadow Hand's quaternion math
    "PointMaze": maze.goals,
    "AntMaze": maze.goals,
    "FrankaKitchen": kitchen.goals,  # Franka Kitchen's dict goals
}


def goal_functions(spec: EnvSpec) -> GoalFunctions | None:
    make = _of_kind(_GOALS, spec.task_id)
    return None if make is None else make(spec)


# --- the model of each task -----------------------------------------------------
# Internal options a kind of task fills itself (a maze's generated model), by
# the start of its id: f(task_id, config, internal) -> internal.
_FILL: dict[str, Callable[[str, Mapping[str, Any], dict[str, Any]], dict[str, Any]]] = {
    "PointMaze": maze.fill,
    "AntMaze": maze.fill,
}

# The forms of a kind of task's options that users pass (a maze's map as the
# reference's rows of cells), by the start of its id: f(task_id, kwargs) ->
# kwargs with the typed values (Family.resolve_options).
_RESOLVE: dict[str, Callable[[str, dict[str, Any]], dict[str, Any]]] = {
    "PointMaze": maze.resolve,
    "AntMaze": maze.resolve,
}


# --- the reference on mujoco 3.17.0 ---------------------------------------------


class _IntJointTypes:
    """The mujoco module as gymnasium_robotics.utils.mujoco_utils sees it,
    with mjtJoint's members as plain ints.

    gymnasium-robotics 1.4.2 on mujoco 3.17.0 cannot make a Fetch or Shadow
    Hand env: mujoco_utils' set_joint_qpos (get_joint_qpos, ...) checks
    ``assert joint_type in (mujoco.mjtJoint.mjJNT_HINGE,
    mujoco.mjtJoint.mjJNT_SLIDE)`` with joint_type a numpy int, and mujoco
    3.17's enums compare unequal to numpy ints from the left (which the
    tuple's ``in`` does), so the assertion fails for every hinge and slide
    joint. Only that check changes: the values compared are the same."""

    class mjtJoint:  # noqa: N801
        mjJNT_FREE, mjJNT_BALL, mjJNT_SLIDE, mjJNT_HINGE = 0, 1, 2, 3

    def __init__(self, module: Any):
        self._module = module

    def __getattr__(self, name: str) -> Any:
        return getattr(self._module, name)


def patch_reference() -> None:
    """Lets gymnasium-robotics' own envs run on mujoco 3.17.0 (the renderer
    draws with them; the tests and benchmarks compare with them)."""
    from gymnasium_robotics.utils import mujoco_utils

    if not isinstance(mujoco_utils.mujoco, _IntJointTypes):
        mujoco_utils.mujoco = _IntJointTypes(mujoco_utils.mujoco)


# --- rendering ------------------------------------------------------------------
# render_mode="rgb_array": each env's picture is drawn by gymnasium-robotics'
# own env of the task (its MujocoRenderer, camera and size), into which the
# pool's env state is written first (RobotEnv::RenderState): the kinematics
# MuJoCo's scene is built from, then qpos, qvel and the mocap bodies (a task
# whose render() runs mj_forward, as Fetch's _render_callback does, computes
# the same kinematics from them), then the goal the task shows.
_KINEMATICS = mujoco_lib.RENDER_FIELDS

# The reference's constructor arguments of a task from its options (the
# maze's map, say, in the reference's own form), by the start of its id.
_REFERENCE_KWARGS: dict[str, Callable[[EnvSpec], dict[str, Any]]] = {
    "PointMaze": maze.reference_kwargs,
    "AntMaze": maze.reference_kwargs,
}


def reference_kwargs(spec: EnvSpec) -> dict[str, Any]:
    convert = _of_kind(_REFERENCE_KWARGS, spec.task_id)
    if convert is not None:
        return convert(spec)
    # The task's own options are the reference constructor's arguments.
    return {key: value for key, value in spec.config.items() if key not in POOL_DEFAULTS and key not in RENDER_DEFAULTS and key != "max_episode_steps"}


class RobotRenderer:
    """Draws states of one task with gymnasium-robotics' own env of it (at
    make()'s render_width x render_height, default 480 x 480)."""

    def __init__(self, spec: EnvSpec):
        mujoco_lib.gl_backend(spec.task_id)
        import gymnasium
        import gymnasium_robotics

        gymnasium.register_envs(gymnasium_robotics)
        patch_reference()
        config = spec.config
        if config["render_camera_id"] != -1:
            raise ValueError(f"{spec.task_id}: render_camera_id is not supported (the task's own camera is drawn, as gymnasium-robotics draws it)")
        kwargs = reference_kwargs(spec)
        kwargs.update(render_mode="rgb_array", width=config["render_width"] or 480, height=config["render_height"] or 480)
        env: Any = gymnasium.make(reference_id(spec.task_id), disable_env_checker=True, **kwargs).unwrapped
        env.reset(seed=0)
        self._env = env
        model = env.model
        self._slices, start = [], 0
        for name, count, width in _KINEMATICS:
            n = getattr(model, count) * width
            self._slices.append((name, slice(start, start + n)))
            start += n
        self._kinematics = start
        for name, n in (("qpos", model.nq), ("qvel", model.nv), ("mocap_pos", 3 * model.nmocap), ("mocap_quat", 4 * model.nmocap), ("ctrl", model.nu)):
            self._slices.append((name, slice(start, start + n)))
            start += n
        self._state_size = start
        # The model as loaded: a task's render callback moves sites in the
        # model (Fetch's target0 to the goal, from its offset to the site's
        # frame); the pool's envs never do, so each picture starts from it.
        self._site_pos = np.array(model.site_pos)

        self._lookat: dict[int, np.ndarray] = {}  # per env: its free camera's point, from its first render
        self._viewer_cam: Any = None  # the reference renderer's camera, once its viewer exists

    def _renderer(self):
        """The reference's MujocoRenderer (a maze's or Kitchen's is its inner env's)."""
        env = self._env
        for inner in ("point_env", "ant_env", "robot_env"):
            env = getattr(env, inner, env)
        return env.mujoco_renderer

    def draw(self, states: np.ndarray, env_ids: np.ndarray) -> np.ndarray:
        env = self._env
        frames = []
        for state, env_id in zip(states, env_ids):
            env.model.site_pos[:] = self._site_pos
            for name, where in self._slices:
                if where.stop <= len(state):
                    getattr(env.data, name).flat[:] = state[where]
            goal = state[self._state_size :]
            if len(goal) and hasattr(env, "goal"):
                env.goal = np.array(goal)
            # gymnasium's free camera (a task with no lookat in its camera
            # config) looks at the median of the geoms' positions when the
            # env is first drawn, and keeps that point: each env keeps its
            # own, taken at its first render() (as the mujoco family's).
            renderer = self._renderer()
            lookat = self._lookat.get(int(env_id))
            if lookat is None and self._viewer_cam is not None and "lookat" not in (renderer.default_cam_config or {}):
                lookat = np.median(env.data.geom_xpos, axis=0)
            if lookat is not None and self._viewer_cam is not None:
                self._viewer_cam.lookat[:] = lookat
            frames.append(env.render())
            if self._viewer_cam is None:
                self._viewer_cam = renderer.viewer.cam
            self._lookat.setdefault(int(env_id), np.array(self._viewer_cam.lookat))
        return np.stack(frames)

    def close(self) -> None:
        self._env.close()


class GymnasiumRobotics(Family):
    # report_reset_state: the mujoco family's hook for the envpool module,
    # which AntMaze's Ant (cpp/refkit/gymnasium/ant.h) carries; off here.
    internal_options = frozenset({"mujoco_model", "report_reset_state"})
    needs = frozenset({"mujoco_lib", "numpy_blas", "numpy_loops"})
    extra = "gymnasium_robotics"
    requires = {"gymnasium_robotics": "gymnasium-robotics", "mujoco": "mujoco"}
    # Gymnasium-Robotics 1.4.2 (goal-conditioned dict observations): the
    # peers are EnvPool's native port (it has no AntMaze) and
    # gymnasium-robotics' own env in a loop and in gymnasium's vector envs.
    # Only in --full (and --tasks).
    benchmark_tasks = tuple(
        BenchmarkTask(name, full=((1, 1, 1), (16, 8, 2)), steps=steps, limit_steps=steps, peers={"gymnasium": f"gymnasium_robotics:{name}"})
        for name, steps in (("FetchPush-v4", 16000), ("HandManipulateBlock-v1", 8000), ("AntMaze_UMaze-v5", 32000))
    )

    def resolve_options(self, task_id: str, defaults: Mapping[str, Any], kwargs: dict[str, Any]) -> dict[str, Any]:
        resolve = _of_kind(_RESOLVE, task_id)
        return kwargs if resolve is None else resolve(task_id, kwargs)

    def fill_internal(self, task_id: str, config: Mapping[str, Any], internal: dict[str, Any]) -> dict[str, Any]:
        fill = _of_kind(_FILL, task_id)
        if fill is not None:
            return fill(task_id, config, internal)
        internal["mujoco_model"] = model_path(task_id, internal["mujoco_model"])
        return internal

    def check_render(self, spec: EnvSpec) -> None:
        mujoco_lib.gl_backend(spec.task_id)  # a clear error now if MuJoCo cannot render here

    def make_renderer(self, spec: EnvSpec) -> RobotRenderer:
        return RobotRenderer(spec)

    def methods(self, spec: EnvSpec) -> dict[str, Callable[..., Any]]:
        goals = goal_functions(spec)
        if goals is None:
            return {}
        return {"compute_reward": goals.compute_reward, "compute_terminated": goals.compute_terminated, "compute_truncated": goals.compute_truncated}


family = GymnasiumRobotics()
