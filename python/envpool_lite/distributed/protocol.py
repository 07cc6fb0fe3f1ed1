"""What the driver and a worker say to each other.

A worker on another node: the driver calls one method of the worker actor,
``run(request)``, with a :class:`Request`; the worker queues the request's
resets and actions in its in-process pool and answers with the next batch
it receives, or with why it has none:

- :class:`Batch`: the rows of one ``recv()`` of the worker's pool, env ids
  already global (with checkpoint_every, the states of the envs whose
  checkpoint fell due at these rows);
- :class:`EnvFailed`: an env raised while stepping (the in-process pool's
  ``EnvStepError``, env ids global);
- :class:`Restarted`: this process is not the one the driver's earlier calls
  of the epoch reached (Ray restarted the actor between two calls).

A worker on the driver's node (channel.py): the driver sends the same
:class:`Request` objects, and :class:`Free`, over the channel's wire; the
worker answers each batch with :class:`RingBatch` (the rows are in a slot
of the ring) or :class:`EnvFailed`.

``describe()`` answers with a :class:`WorkerInfo`: where the worker runs
and which envpool_lite it runs.

Checkpoints (checkpoint_every=N): a worker takes the state of each env
every N rows of it, right after the row (the env awaits its next action),
and sends it with the batch; the driver keeps each env's last state and
the commands sent since. A worker that fails is restarted with a
:class:`Restore` of its envs.

Epochs: every failure of a worker starts a new epoch for it in the driver.
A request carries its epoch and whether it is the epoch's first call, so a
worker can tell a new epoch (start a fresh pool) from a restart the driver
has not seen (answer :class:`Restarted`).
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

ENV_ID_FIELD = 5  # the env_id field of a raw batch (the pool's field order)


# One command the driver sent an env, as its log keeps it (checkpoint_every):
# ("reset", seed or None), ("step", action row) or ("state", bytes), the
# last also what a checkpoint starts a log with.
Command = tuple[str, Any]


@dataclasses.dataclass(frozen=True)
class Restore:
    """A restarted worker's envs put back where the lost ones were
    (checkpoint_every): each env's log (local id -> its commands since its
    last checkpoint, that checkpoint's state first), replayed with the
    results dropped, except the last command of each `pending` env (its
    result was lost in flight): that one is sent, and its row returned as
    the original would have been."""

    logs: dict[int, list[Command]]
    pending: np.ndarray  # int32, local ids


@dataclasses.dataclass(frozen=True)
class Request:
    """One call of ``run``: queue these resets, actions, restored states or
    a Restore (local env ids), then return one batch. Any may be None (a
    request that only collects)."""

    epoch: int
    first: bool  # the driver's first call of this epoch to this worker
    reset_ids: np.ndarray | None = None  # int32
    reset_seeds: list[int] | None = None  # one per reset id, or None: the env's own next seed
    actions: np.ndarray | None = None  # the converted actions, one row per action id
    action_ids: np.ndarray | None = None  # int32
    state_ids: np.ndarray | None = None  # int32: set_state() of these envs ...
    states: list[bytes] | None = None  # ... to these states
    restore: Restore | None = None

    @property
    def sent_ids(self) -> np.ndarray:
        """The envs this request sends (resets, actions, states, or a
        Restore's pending envs), local ids."""
        for ids in (self.reset_ids, self.action_ids, self.state_ids):
            if ids is not None:
                return ids
        if self.restore is not None:
            return self.restore.pending
        return np.zeros(0, np.int32)


@dataclasses.dataclass(frozen=True)
class RingInfo:
    """A ring file (ring.py) and its number of slots."""

    path: str
    slots: int


@dataclasses.dataclass(frozen=True)
class ChannelInfo:
    """What ``open_channel`` needs: the driver's listening socket (an
    abstract name) and the ring."""

    address: str
    ring: RingInfo


@dataclasses.dataclass(frozen=True)
class Free:
    """The driver has read this slot of the ring: the worker may fill it."""

    slot: int


@dataclasses.dataclass(frozen=True)
class Batch:
    """Rows of one batch: the pool's raw fields (global env ids)."""

    fields: tuple
    owned: bool = False  # the arrays are the driver's own copies (from a ring)
    states: dict[int, bytes] | None = None  # checkpoints taken at these rows (global ids)

    @property
    def env_ids(self) -> np.ndarray:
        return self.fields[ENV_ID_FIELD]

    def __len__(self) -> int:
        return len(self.fields[ENV_ID_FIELD])


@dataclasses.dataclass(frozen=True)
class RingBatch:
    """A batch the worker wrote into a slot of its ring (the channel's
    message): the rows to read."""

    slot: int
    rows: int
    states: dict[int, bytes] | None = None  # checkpoints taken at these rows (global ids)


@dataclasses.dataclass(frozen=True)
class EnvFailed:
    """An env raised while stepping on the worker."""

    message: str
    env_ids: list[int]  # the envs that raised
    dropped_env_ids: list[int]  # every env whose result was dropped with them


@dataclasses.dataclass(frozen=True)
class Restarted:
    """The worker was restarted by Ray while none of the driver's calls were
    in flight on it: the envs the driver believes mid-episode are gone."""

    pid: int


Reply = Batch | RingBatch | EnvFailed | Restarted


@dataclasses.dataclass(frozen=True)
class WorkerInfo:
    """``describe()``'s answer."""

    pid: int
    node_id: str
    node_ip: str
    version: str  # the worker's envpool_lite.__version__
    field_names: list[str]
    field_specs: list
    num_threads: int
