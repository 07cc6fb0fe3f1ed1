"""EnvPool's raw pybind11 Atari classes, `_AtariEnvSpec` and `_AtariEnvPool`,
have no envpool_lite counterpart (README.md, "Differences from EnvPool":
low-level API). These names exist only so that a module importing them (as
EnvPool's atari_envpool_test.py does) loads and its other tests run; any use
raises NotImplementedError.
"""


class _Absent(type):
    def __getattr__(cls, name):
        if name.startswith("__"):
            raise AttributeError(name)
        raise NotImplementedError(f"{cls.__name__}.{name}: EnvPool's raw C++ binding is not part of envpool_lite; use envpool.make_spec / envpool.make")

    def __call__(cls, *args, **kwargs):
        raise NotImplementedError(f"{cls.__name__}: EnvPool's raw C++ binding is not part of envpool_lite; use envpool.make_spec / envpool.make")


class _AtariEnvSpec(metaclass=_Absent):
    pass


class _AtariEnvPool(metaclass=_Absent):
    pass
