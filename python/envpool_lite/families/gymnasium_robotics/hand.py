"""The goal functions of the Shadow Hand tasks (gymnasium-robotics 1.4.2's
envs/shadow_dexterous_hand), over a goal or a batch of goals, as HER calls
them: HandReach's compute_reward (the norm of the fingertips' offsets), the
manipulate tasks' (``_goal_distance``: the position distance and the angle
between the quaternions). The quaternion math follows utils/rotations.py
expression for expression (numpy's ufuncs in the same order), so that the
values equal the reference's."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from envpool_lite.families.gymnasium_robotics.goals import GoalFunctions, goal_distance

if TYPE_CHECKING:
    from envpool_lite.spec import EnvSpec

_FLOAT_EPS = np.finfo(np.float64).eps
_EPS4 = _FLOAT_EPS * 4.0


def quat_mul(q0: np.ndarray, q1: np.ndarray) -> np.ndarray:
    w0, x0, y0, z0 = q0[..., 0], q0[..., 1], q0[..., 2], q0[..., 3]
    w1, x1, y1, z1 = q1[..., 0], q1[..., 1], q1[..., 2], q1[..., 3]
    w = w0 * w1 - x0 * x1 - y0 * y1 - z0 * z1
    x = w0 * x1 + x0 * w1 + y0 * z1 - z0 * y1
    y = w0 * y1 + y0 * w1 + z0 * x1 - x0 * z1
    z = w0 * z1 + z0 * w1 + x0 * y1 - y0 * x1
    return np.stack([w, x, y, z], axis=-1)


def quat_conjugate(q: np.ndarray) -> np.ndarray:
    inv_q = -q
    inv_q[..., 0] *= -1
    return inv_q


def quat2mat(quat: np.ndarray) -> np.ndarray:
    w, x, y, z = quat[..., 0], quat[..., 1], quat[..., 2], quat[..., 3]
    nq = np.sum(quat * quat, axis=-1)
    s = 2.0 / nq
    big_x, big_y, big_z = x * s, y * s, z * s
    w_x, w_y, w_z = w * big_x, w * big_y, w * big_z
    x_x, x_y, x_z = x * big_x, x * big_y, x * big_z
    y_y, y_z, z_z = y * big_y, y * big_z, z * big_z
    mat = np.empty(quat.shape[:-1] + (3, 3), dtype=np.float64)
    mat[..., 0, 0] = 1.0 - (y_y + z_z)
    mat[..., 0, 1] = x_y - w_z
    mat[..., 0, 2] = x_z + w_y
    mat[..., 1, 0] = x_y + w_z
    mat[..., 1, 1] = 1.0 - (x_x + z_z)
    mat[..., 1, 2] = y_z - w_x
    mat[..., 2, 0] = x_z - w_y
    mat[..., 2, 1] = y_z + w_x
    mat[..., 2, 2] = 1.0 - (x_x + y_y)
    return np.where((nq > _FLOAT_EPS)[..., np.newaxis, np.newaxis], mat, np.eye(3))


def mat2euler(mat: np.ndarray) -> np.ndarray:
    cy = np.sqrt(mat[..., 2, 2] * mat[..., 2, 2] + mat[..., 1, 2] * mat[..., 1, 2])
    condition = cy > _EPS4
    euler = np.empty(mat.shape[:-1], dtype=np.float64)
    euler[..., 2] = np.where(condition, -np.arctan2(mat[..., 0, 1], mat[..., 0, 0]), -np.arctan2(-mat[..., 1, 0], mat[..., 1, 1]))
    euler[..., 1] = -np.arctan2(-mat[..., 0, 2], cy)
    euler[..., 0] = np.where(condition, -np.arctan2(mat[..., 1, 2], mat[..., 2, 2]), 0.0)
    return euler


def euler2quat(euler: np.ndarray) -> np.ndarray:
    ai, aj, ak = euler[..., 2] / 2, -euler[..., 1] / 2, euler[..., 0] / 2
    si, sj, sk = np.sin(ai), np.sin(aj), np.sin(ak)
    ci, cj, ck = np.cos(ai), np.cos(aj), np.cos(ak)
    cc, cs = ci * ck, ci * sk
    sc, ss = si * ck, si * sk
    quat = np.empty(euler.shape[:-1] + (4,), dtype=np.float64)
    quat[..., 0] = cj * cc + sj * ss
    quat[..., 3] = cj * sc - sj * cs
    quat[..., 2] = -(cj * ss + sj * cc)
    quat[..., 1] = cj * cs - sj * sc
    return quat


def manipulategoal_distance(goal_a: np.ndarray, goal_b: np.ndarray, config: Any, ignore_z_target_rotation: bool) -> tuple[Any, Any]:
    """manipulate.py's _goal_distance: (d_pos, d_rot), zeros where the
    position or the rotation is ignored."""
    d_pos = np.zeros_like(goal_a[..., 0])
    d_rot = np.zeros_like(goal_b[..., 0])
    if config["target_position"] != "ignore":
        d_pos = np.linalg.norm(goal_a[..., :3] - goal_b[..., :3], axis=-1)
    if config["target_rotation"] != "ignore":
        quat_a, quat_b = goal_a[..., 3:], goal_b[..., 3:]
        if ignore_z_target_rotation:
            euler_a = mat2euler(quat2mat(quat_a))
            euler_b = mat2euler(quat2mat(quat_b))
            # As the reference writes it: index 2 of the first axis. For one
            # goal that is the Z angle; for a batch of goals it is the whole
            # third goal (the reference's compute_reward does this on
            # batches, so the batched values here are the same).
            euler_a[2] = euler_b[2]
            quat_a = euler2quat(euler_a)
        quat_diff = quat_mul(quat_a, quat_conjugate(quat_b))
        d_rot = 2 * np.arccos(np.clip(quat_diff[..., 0], -1.0, 1.0))
    return d_pos, d_rot


def hand_goals(spec: EnvSpec) -> GoalFunctions:
    config = spec.config
    # The pen's constructor fixes distance_threshold=0.05 and
    # ignore_z_target_rotation=True (no options of the pen tasks).
    pen = spec.task_id.startswith("HandManipulatePen")
    threshold = 0.05 if pen else config["distance_threshold"]
    if spec.task_id.startswith("HandReach"):
        if config["reward_type"] == "sparse":
            return GoalFunctions(15, lambda a, b, info: -(goal_distance(a, b) > threshold).astype(np.float32))
        return GoalFunctions(15, lambda a, b, info: -goal_distance(a, b))
    rotation_threshold = config["rotation_threshold"]
    ignore_z = True if pen else config["ignore_z_target_rotation"]

    def sparse(a: np.ndarray, b: np.ndarray, info: Any) -> Any:
        d_pos, d_rot = manipulategoal_distance(a, b, config, ignore_z)
        achieved = (d_pos < threshold).astype(np.float32) * (d_rot < rotation_threshold).astype(np.float32)
        return achieved.astype(np.float32) - 1.0

    def dense(a: np.ndarray, b: np.ndarray, info: Any) -> Any:
        d_pos, d_rot = manipulategoal_distance(a, b, config, ignore_z)
        return -(10.0 * d_pos + d_rot)

    return GoalFunctions(7, sparse if config["reward_type"] == "sparse" else dense)
