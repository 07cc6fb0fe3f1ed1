"""The package's version (pyproject.toml's), at the bottom of the house:
the Ray pool compares its workers' with the driver's."""

__version__ = "0.1.0"
