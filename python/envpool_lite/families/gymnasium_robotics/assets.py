"""Where gymnasium-robotics' models and meshes are: the installed package's
envs/assets."""

from __future__ import annotations

import os

from envpool_lite.refkit import packages


def package_dir() -> str:
    """The installed gymnasium_robotics package."""
    root = packages.package_dir("gymnasium_robotics")
    if root is None:
        raise ImportError("the gymnasium_robotics tasks need gymnasium-robotics: pip install 'envpool_lite[gymnasium_robotics]'")
    return root


def assets_dir() -> str:
    """gymnasium_robotics' models and meshes (envs/assets)."""
    return os.path.join(package_dir(), "envs", "assets")


def model_path(task_id: str, relative: str) -> str:
    path = os.path.join(assets_dir(), relative)
    if not os.path.exists(path):
        raise FileNotFoundError(f"{task_id}: model file {path} does not exist (gymnasium-robotics==1.4.2 has it)")
    return path
