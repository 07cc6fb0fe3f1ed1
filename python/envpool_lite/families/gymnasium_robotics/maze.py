"""PointMaze and AntMaze (cpp/envs/gymnasium_robotics/maze.h): the maze's
map in the env's typed form, the maze's model (gymnasium-robotics' own
Maze.make_maze: the agent's MJCF with a box per wall cell and the target
site), the reference's arguments of a task (for its renderer) and the goal
functions HER calls, as gymnasium-robotics 1.4.2's envs/maze computes them."""

from __future__ import annotations

import collections.abc
import functools
import hashlib
import numbers
import os
import tempfile
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import numpy as np

from envpool_lite.families.gymnasium_robotics.assets import model_path
from envpool_lite.families.gymnasium_robotics.goals import GoalFunctions
from envpool_lite.refkit import mujoco_lib

if TYPE_CHECKING:
    from envpool_lite.spec import EnvSpec

# The goal radius of MazeEnv's compute_reward (sparse), compute_terminated,
# info["success"] and update_goal.
GOAL_RADIUS = 0.45

# maps.py's RESET, GOAL, COMBINED cells.
_NAMED_CELLS = ("r", "g", "c")


def _cell(i: int, j: int, cell: Any) -> str:
    """One cell of the reference's form as the env's character."""
    if isinstance(cell, str):
        if cell in _NAMED_CELLS:
            return cell
    elif isinstance(cell, numbers.Number) and not isinstance(cell, (bool, np.bool_)) and cell in (0, 1):
        return "1" if cell == 1 else "0"
    raise ValueError(f"option 'maze_map' has an unknown cell {cell!r} at ({i}, {j}): cells are 1 (wall), 0 (empty), 'g' (goal), 'r' (reset) or 'c' (goal or reset)")


def map_rows(value: Any) -> tuple[str, ...]:
    """maze_map as the env takes it, a string per row, a character per cell
    ('1', '0', 'g', 'r', 'c'), from the reference's form (a list of rows of
    1, 0, 'g', 'r', 'c') or from this form itself (the pool's config)."""
    if isinstance(value, (str, bytes)) or not isinstance(value, (collections.abc.Sequence, np.ndarray)) or len(value) == 0:
        raise ValueError(f"option 'maze_map' must be a non-empty list of rows (lists of 1, 0, 'g', 'r', 'c'), got {value!r}")
    rows = []
    for i, row in enumerate(value):
        if isinstance(row, str):  # the env's own form
            cells = [c if c in "01grc" else _cell(i, j, c) for j, c in enumerate(row)]
        elif isinstance(row, (collections.abc.Sequence, np.ndarray)) and not isinstance(row, bytes):
            cells = [_cell(i, j, c) for j, c in enumerate(row)]
        else:
            raise ValueError(f"option 'maze_map' row {i} must be a list of cells, got {row!r}")
        rows.append("".join(cells))
    if not rows[0]:
        raise ValueError("option 'maze_map' must have at least one cell")
    for i, row in enumerate(rows):
        if len(row) != len(rows[0]):
            raise ValueError(f"option 'maze_map' must be rectangular: row {i} has {len(row)} cells, row 0 has {len(rows[0])}")
    return tuple(rows)


def reference_map(rows: Any) -> list[list[int | str]]:
    """The env's rows in the reference's form (maps.py's)."""
    return [[1 if c == "1" else 0 if c == "0" else c for c in row] for row in rows]


def resolve(task_id: str, kwargs: dict[str, Any]) -> dict[str, Any]:
    if "maze_map" in kwargs:
        kwargs = {**kwargs, "maze_map": map_rows(kwargs["maze_map"])}
    return kwargs


# --- the model ------------------------------------------------------------------
# PointMazeEnv and AntMazeEnv pass make_maze these (maze_size_scaling,
# maze_height).
_POINT = (1, 0.4)
_ANT = (4, 0.5)


@functools.lru_cache(maxsize=64)
def _maze_model(agent_xml: str, rows: tuple[str, ...], scaling: int, height: float) -> str:
    """The maze's MJCF as gymnasium-robotics' Maze.make_maze writes it (its
    own code; the file it leaves in the temp folder is removed), kept as
    <tmp>/envpool_lite_maze/<its sha256>.xml, which the C++ envs load."""
    from gymnasium_robotics.envs.maze.maze_v4 import Maze

    _, written = Maze.make_maze(agent_xml, reference_map(rows), scaling, height)
    try:
        with open(written, "rb") as f:
            text = f.read()
    finally:
        os.remove(written)
    folder = os.path.join(tempfile.gettempdir(), "envpool_lite_maze")
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, hashlib.sha256(text).hexdigest()[:32] + ".xml")
    if not os.path.exists(path):
        partial = f"{path}.{os.getpid()}.tmp"
        with open(partial, "wb") as f:
            f.write(text)
        os.replace(partial, path)
    return path


def _agent(task_id: str, config: Mapping[str, Any]) -> tuple[str, tuple[int, float]]:
    """The agent's MJCF and the maze's scaling and height of a task."""
    if task_id.startswith("PointMaze"):
        return model_path(task_id, "point/point.xml"), _POINT
    xml_file = config.get("xml_file") or ""  # AntMaze-v5's; "": gymnasium's ant.xml
    if not xml_file:
        return os.path.join(mujoco_lib.gymnasium_models_dir(), "ant.xml"), _ANT
    if not os.path.exists(xml_file):
        raise FileNotFoundError(f"{task_id}: option 'xml_file': {xml_file} does not exist")
    return os.path.abspath(xml_file), _ANT


def fill(task_id: str, config: Mapping[str, Any], internal: dict[str, Any]) -> dict[str, Any]:
    agent, (scaling, height) = _agent(task_id, config)
    path = _maze_model(agent, tuple(config["maze_map"]), scaling, height)
    if not os.path.exists(path):  # removed since: write it again
        _maze_model.cache_clear()
        path = _maze_model(agent, tuple(config["maze_map"]), scaling, height)
    return {**internal, "mujoco_model": path}


def reference_kwargs(spec: EnvSpec) -> dict[str, Any]:
    """The reference env's arguments for a task's options (its renderer's)."""
    config = spec.config
    kwargs: dict[str, Any] = {"maze_map": reference_map(config["maze_map"])}
    for key in ("reward_type", "continuing_task", "reset_target"):
        if key in config:
            kwargs[key] = config[key]
    if config.get("xml_file"):
        kwargs["xml_file"] = config["xml_file"]
    return kwargs


# --- the goal functions ---------------------------------------------------------


def goals(spec: EnvSpec) -> GoalFunctions:
    """MazeEnv's compute_reward (dense: np.exp(-d); sparse: d <= 0.45 as
    float64, d the norm over the last axis) and compute_terminated (a
    continuing task never terminates; else the goal is reached: the
    reference's np.linalg.norm without an axis for one goal, per goal over
    the last axis for a batch)."""
    config = spec.config

    def reward(a: np.ndarray, b: np.ndarray, info: Any) -> Any:
        distance = np.linalg.norm(a - b, axis=-1)
        if config["reward_type"] == "dense":
            return np.exp(-distance)
        return (distance <= GOAL_RADIUS).astype(np.float64)

    def terminated(a: np.ndarray, b: np.ndarray, info: Any) -> Any:
        if a.ndim == 1:
            return bool(np.linalg.norm(a - b) <= GOAL_RADIUS)
        return np.linalg.norm(a - b, axis=-1) <= GOAL_RADIUS

    return GoalFunctions(2, reward, None if config["continuing_task"] else terminated)
