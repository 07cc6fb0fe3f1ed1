"""The installed packages the references come from."""

from __future__ import annotations

import importlib.util


def package_dir(name: str) -> str | None:
    """The folder of an installed package, found without importing it, or
    None when it is not installed."""
    spec = importlib.util.find_spec(name)
    if spec is None or not spec.submodule_search_locations:
        return None
    return list(spec.submodule_search_locations)[0]
