"""envpool.python.envpool: EnvPoolMixin, the class that libraries check
EnvPool's pools against (TorchRL's MultiThreadedEnvWrapper:
``isinstance(env, envpool.python.envpool.EnvPoolMixin)``). Every envpool_lite
pool is one: the pools' base class is registered as a virtual subclass."""

import abc

from envpool_lite.pool import EnvPoolBase


class EnvPoolMixin(abc.ABC):  # noqa: B024 (a marker: nothing to implement)
    """EnvPool's base of every pool; envpool_lite's pools are instances."""


EnvPoolMixin.register(EnvPoolBase)
