"""The testing family (cpp/envs/testing/): Dummy-v0, an env for testing the
engine itself. It has no hooks: its options are plain typed values and it
cannot be rendered."""

from __future__ import annotations

from envpool_lite.families import Family

family = Family()
