"""The dm_control family (cpp/envs/dm_control/): the tasks of dm_control's
suite, bit-exact with dm_control 1.0.50 (env i of a pool seeded s is
``suite.load(domain, task, task_kwargs={"random": s + i})``).

The physics is the MuJoCo family's libmujoco (the installed mujoco wheel's).
Each task's model is dm_control's own: its MJCF text and assets, exactly as
the installed dm_control package builds them for ``suite.load`` (caught where
the task hands them to ``Physics.from_xml_string``), passed to the C++ env,
which loads them as that function does. Nothing of dm_control is copied.

Options (dm_control's names): ``task_kwargs={"time_limit": ..., "random":
...}`` and ``environment_kwargs={"control_timestep": ..., "n_sub_steps":
..., "flat_observation": ...}``, or the same names as plain options.
``random`` is the seed (``seed=``).
"""

from __future__ import annotations

import functools
import os
import sys
from collections.abc import Mapping
from typing import Any

from envpool_lite.families import BenchmarkTask, Family
from envpool_lite.refkit import mujoco_lib

DM_CONTROL_VERSION = "1.0.50"
_TASK_KWARGS = ("time_limit", "random")
_ENV_KWARGS = ("control_timestep", "n_sub_steps", "flat_observation")


class _Captured(Exception):
    pass


@functools.cache
def model_and_assets(domain: str, task: str, random: int = 0) -> tuple[bytes, tuple[str, ...], tuple[bytes, ...]]:
    """The MJCF text and assets dm_control's suite.load(domain, task) builds
    its Physics from: suite.load runs until the task's Physics.from_xml_string
    call, which hands them over here instead of compiling them. ``random``
    matters only for models drawn at random (LQR's)."""
    try:
        from dm_control import suite
        from dm_control.mujoco import engine
    except ImportError as e:
        raise ImportError(f"the dm_control tasks read their models from the dm_control package: pip install dm_control=={DM_CONTROL_VERSION} ({e})") from e
    captured: dict[str, Any] = {}

    def capture(cls, xml_string, assets=None):
        captured["xml"], captured["assets"] = xml_string, dict(assets or {})
        raise _Captured

    original = engine.Physics.__dict__["from_xml_string"]
    engine.Physics.from_xml_string = classmethod(capture)
    try:
        suite.load(domain, task, task_kwargs={"random": random})
    except _Captured:
        pass
    finally:
        engine.Physics.from_xml_string = original
    if not captured:
        raise RuntimeError(f"dm_control's {domain}/{task} built no model through Physics.from_xml_string")

    def as_bytes(v: Any) -> bytes:
        return v.encode() if isinstance(v, str) else bytes(v)

    names = tuple(sorted(captured["assets"]))
    return as_bytes(captured["xml"]), names, tuple(as_bytes(captured["assets"][n]) for n in names)


class DmControl(Family):
    # Found here: the task's names in dm_control, the MuJoCo library,
    # numpy's BLAS and math loops, and the model. report_reset_state: the
    # envpool module's hook, EnvPool's reset-state fields (qpos0, ...).
    internal_options = frozenset({"domain_name", "task_name", "model_xml", "model_asset_names", "model_asset_data", "gl_backend", "report_reset_state"})
    needs = frozenset({"mujoco_lib", "numpy_blas", "numpy_loops"})
    extra = "dm_control"
    requires = {"mujoco": "mujoco", "dm_control": "dm_control"}  # the physics library; the suite's models
    # EnvPool's DMC envs and dm_control's own Python loop (one env), from
    # states; only in --full (and --tasks). From pixels: 84x84 frames of
    # camera 0, drawn by each env's thread (software OpenGL here); EnvPool
    # 1.2.5's from_pixels aborts without a GL context, the peer is
    # dm_control's pixels.Wrapper loop.
    benchmark_tasks = (
        *(
            BenchmarkTask(name, full=((1, 1, 1), (16, 8, 2)), steps=steps, limit_steps=steps, peers={"dm_control": suite_task})
            for name, suite_task, steps in (("CheetahRun-v1", ("cheetah", "run"), 32000), ("WalkerWalk-v1", ("walker", "walk"), 32000), ("HumanoidRun-v1", ("humanoid", "run"), 8000))
        ),
        BenchmarkTask(
            "CheetahRun-v1:pixels",
            env_id="CheetahRun-v1",
            options={"from_pixels": True, "img_height": 84, "img_width": 84, "camera_id": 0},
            full=((1, 1, 1), (2, 2, 2), (4, 2, 2)),
            steps=400,
            limit_steps=400,
            peers={"dm_control": ("cheetah", "run")},
        ),
    )

    def install_hint(self, task_id: str, missing: Mapping[str, str]) -> str:
        hint = super().install_hint(task_id, missing)
        if "dm_control" in missing and sys.version_info >= (3, 13):
            # pyproject.toml's dm_control extra: labmaze, which dm_control
            # requires, has no wheel for Python 3.13.
            hint += f", then pip install --no-deps dm_control=={DM_CONTROL_VERSION} (on Python 3.13 the extra cannot install dm_control itself: it requires labmaze, which has no wheel there and which the suite does not use)"
        return hint

    def resolve_options(self, task_id: str, defaults: Mapping[str, Any], kwargs: dict[str, Any]) -> dict[str, Any]:
        """dm_control's task_kwargs and environment_kwargs dicts become plain
        options; task_kwargs["random"] is the seed."""
        kwargs = dict(kwargs)
        for group, names in (("task_kwargs", _TASK_KWARGS), ("environment_kwargs", _ENV_KWARGS)):
            given = kwargs.pop(group, None)
            if given is None:
                continue
            if not isinstance(given, Mapping):
                raise TypeError(f"{group} must be a dict, got {type(given).__name__}")
            for name, value in given.items():
                if name not in names:
                    raise TypeError(f"{task_id}: unknown {group} key {name!r}; valid: {', '.join(names)}")
                if name in kwargs:
                    raise TypeError(f"{task_id}: {name!r} given both in {group} and as an option")
                kwargs[name] = value
        if "frame_skip" in kwargs:
            # EnvPool's name for dm_control's n_sub_steps (physics steps per
            # step), which replaces the task's own control timestep.
            if "n_sub_steps" in kwargs or "control_timestep" in kwargs:
                raise TypeError(f"{task_id}: frame_skip is EnvPool's name for n_sub_steps; give one of frame_skip, n_sub_steps and control_timestep")
            kwargs["n_sub_steps"] = kwargs.pop("frame_skip")
            kwargs["control_timestep"] = 0.0
        if kwargs.get("max_episode_steps") and kwargs.get("time_limit") is not None:
            # EnvPool's step count and dm_control's seconds both set the end.
            raise ValueError(f"{task_id}: give one of max_episode_steps (EnvPool's, in steps) and time_limit (dm_control's task_kwargs, in seconds)")
        if "random" in kwargs:
            if "seed" in kwargs:
                raise TypeError(f"{task_id}: give the seed once, as seed= or task_kwargs['random']")
            kwargs["seed"] = kwargs.pop("random")
        if kwargs.get("time_limit") is not None and not isinstance(kwargs["time_limit"], bool):
            kwargs["time_limit"] = float(kwargs["time_limit"]) if isinstance(kwargs["time_limit"], (int, float)) else kwargs["time_limit"]
        if kwargs.get("n_sub_steps", 0) is None:
            kwargs["n_sub_steps"] = 0
        if kwargs.get("control_timestep", 0) is None:
            kwargs["control_timestep"] = 0.0
        return kwargs

    def fill_internal(self, task_id: str, config: Mapping[str, Any], internal: dict[str, Any]) -> dict[str, Any]:
        # The OpenGL backend of from_pixels and render(): MUJOCO_GL (which
        # dm_control reads too, when first imported: so found before the
        # model is), else for pixels the first of EGL and OSMesa that works
        # (a clear error now if none does); render() alone tries them when
        # it first draws.
        backend = os.environ.get("MUJOCO_GL", "").lower()
        if not backend and config.get("from_pixels"):
            backend = mujoco_lib.gl_backend(task_id)
        xml, names, data = model_and_assets(internal["domain_name"], internal["task_name"])
        return {
            **internal,
            "model_xml": xml,
            "model_asset_names": list(names),
            "model_asset_data": list(data),
            "gl_backend": backend,
        }


family = DmControl()
