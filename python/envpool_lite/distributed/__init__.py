"""The pool spread over a Ray cluster: ``make(..., num_workers=K)``.

The caller's process (the driver) keeps the pool's protocol; K Ray actors
each run an ordinary in-process pool, in async mode, over a contiguous block
of the global env ids. Read in this order:

- ``protocol.py``: the messages between the driver and a worker (typed);
- ``worker.py``: the worker actor;
- ``channel.py`` and ``ring.py``: how a worker on the driver's node sends
  its batches (a socket for small messages, shared memory for the rows);
- ``link.py``: the driver's view of one worker (its calls in flight, epoch);
- ``pool.py``: ``DistributedPool``, ``_core.EnvPool``'s interface over the
  workers, and how a batch travels; its parts:
- ``startup.py``: the cluster joined, the workers placed and checked, their
  channels attached;
- ``sending.py``: send()'s env ids checked and split per worker, and the
  requests that carry them;
- ``receiving.py``: recv(): the batches collected and assembled;
- ``faults.py``: what the driver does when a worker dies, hangs or is cut off.
"""

from envpool_lite.distributed.pool import DistributedPool
from envpool_lite.distributed.sending import REQUESTS_PER_WORKER
from envpool_lite.distributed.startup import LOCAL_CLUSTER_OPTIONS, import_ray
from envpool_lite.distributed.worker import EnvPoolWorker

__all__ = ["LOCAL_CLUSTER_OPTIONS", "REQUESTS_PER_WORKER", "DistributedPool", "EnvPoolWorker", "import_ray"]
