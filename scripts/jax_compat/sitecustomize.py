"""For scripts/run_jax_scripts.sh only: two JAX-library APIs that CleanRL's
XLA scripts call and today's jax (0.10.2) and flax (0.12.8) removed, put back
as they were in the versions CleanRL pins (jax 0.4.8, flax 0.6.8). Neither
touches envpool; without them the scripts stop on any EnvPool.

- ``jax.tree_map``: removed in jax 0.6 (now ``jax.tree.map``).
- flax's TrainState with parameters that are not a Mapping: CleanRL keeps
  them in a flax.struct dataclass (AgentParams). Every flax that runs on jax
  >= 0.6 tests ``OVERWRITE_WITH_GRADIENT in params`` in TrainState.create and
  apply_gradients, a TypeError for such a dataclass.
"""

from collections.abc import Mapping

import jax
import optax
from flax.training.train_state import TrainState

_create = TrainState.create.__func__
_apply_gradients = TrainState.apply_gradients


def _create_any(cls, *, apply_fn, params, tx, **kwargs):
    if isinstance(params, Mapping):
        return _create(cls, apply_fn=apply_fn, params=params, tx=tx, **kwargs)
    return cls(step=0, apply_fn=apply_fn, params=params, tx=tx, opt_state=tx.init(params), **kwargs)


def _apply_gradients_any(self, *, grads, **kwargs):
    if isinstance(grads, Mapping):
        return _apply_gradients(self, grads=grads, **kwargs)
    updates, opt_state = self.tx.update(grads, self.opt_state, self.params)
    return self.replace(step=self.step + 1, params=optax.apply_updates(self.params, updates), opt_state=opt_state, **kwargs)


if not hasattr(jax, "tree_map"):
    jax.tree_map = jax.tree_util.tree_map

TrainState.create = classmethod(_create_any)
TrainState.apply_gradients = _apply_gradients_any
