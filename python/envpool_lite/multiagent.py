"""Faces of a multi-player pool (docs/api.md, "Multi-player tasks").

A task of several players keeps one batch row per env, with a player axis
in its arrays (docs/how-it-works.md, "Players"); its family says how the
players sit there (``families.Family.players``). Over that:

- :class:`FlatAgentsEnv` (``make_flat_agents``): agents flattened into the
  batch, row ``env * num_players + player``, with an ``active`` mask: the
  convention of SuperSuit's vector envs and PufferLib, which a single-agent
  learner (a CleanRL-style PPO) consumes unchanged;
- :class:`ParallelEnv` and :class:`AECEnv` (``make_pettingzoo``):
  PettingZoo's two APIs over one env of a pool.

EnvPool's own format (``info["players"]``, one observation and reward row
per (env, player)) is the ``envpool`` module's (compat/envpool).
"""

from __future__ import annotations

import functools
import hashlib
import pickle
import struct
from typing import Any

import gymnasium
import numpy as np

from envpool_lite import families
from envpool_lite.gymnasium_api import GymnasiumEnvPool
from envpool_lite.spec import EnvSpec, make_spec


def players_of(spec: EnvSpec) -> families.Players:
    """The players of ``spec``'s task, or ValueError for a one-player task."""
    layout = families.plugin_of(spec.task_id).players(spec)
    if layout is None:
        raise ValueError(f"{spec.task_id} has one player; the multi-agent faces take a task of several (docs/api.md, 'Multi-player tasks')")
    return layout


def _player_space(space: gymnasium.spaces.Space, players: int) -> gymnasium.spaces.Space:
    """One player's part of a space with a player axis first."""
    if isinstance(space, gymnasium.spaces.Dict):
        return gymnasium.spaces.Dict({k: _player_space(v, players) for k, v in space.spaces.items()})
    if isinstance(space, gymnasium.spaces.Box) and space.shape[:1] == (players,):
        low, high = space.low[0], space.high[0]
        if np.issubdtype(space.dtype, np.integer) and space.shape == (players,) and np.all(low == low.flat[0]) and low.flat[0] == 0:
            return gymnasium.spaces.Discrete(int(high.max()) + 1)  # a stacked Discrete
        return gymnasium.spaces.Box(low, high, space.shape[1:], space.dtype)
    raise ValueError(f"a multi-player space has a player axis of {players} first, got {space}")


class _Players:
    """Reads a multi-player batch player by player (shared by the faces)."""

    def __init__(self, spec: EnvSpec):
        self.spec = spec
        self.layout = players_of(spec)
        p = self.num_players = self.layout.num_players
        self.observation_space = _player_space(spec.observation_space, p)
        self.action_space = spec.action_space if self.layout.turn_based else _player_space(spec.action_space, p)
        self.num_actions = int(self.action_space.n) if isinstance(self.action_space, gymnasium.spaces.Discrete) else 0

    def rewards(self, reward: np.ndarray, info: dict) -> np.ndarray:
        """(n, players)."""
        return np.asarray(info[self.layout.reward_info] if self.layout.reward_info else reward)

    def active(self, info: dict, n: int) -> np.ndarray:
        """(n, players) bool: who acts at the next step."""
        if not self.layout.turn_based:
            return np.ones((n, self.num_players), bool)
        return np.arange(self.num_players) == np.asarray(info["current_player"])[:, None]

    def masks(self, info: dict, n: int) -> np.ndarray:
        """(n, players, actions) int8: the legal actions of the acting
        player, none for the others (PettingZoo's action_mask)."""
        active = self.active(info, n)
        if self.layout.turn_based:
            legal = np.asarray(info["legal_action_mask"], np.int8)[:, None, :]
        else:
            legal = np.ones((n, 1, self.num_actions), np.int8)
        return (legal * active[:, :, None]).astype(np.int8)

    def joint_action(self, per_player: np.ndarray, info: dict) -> np.ndarray:
        """(n, players) actions to what the pool takes: the acting player's
        (turn-based) or all of them."""
        if self.layout.turn_based:
            current = np.asarray(info["current_player"])
            return per_player[np.arange(len(current)), current]
        return per_player


def make_flat_agents(task_id: str, **options: Any) -> FlatAgentsEnv:
    """A multi-player pool with its agents flattened into the batch
    (:class:`FlatAgentsEnv`)."""
    return FlatAgentsEnv(make_spec(task_id, **options))


class FlatAgentsEnv:
    """A multi-player pool as a batch of ``num_envs * num_players`` agents,
    row ``env * num_players + player`` (SuperSuit's and PufferLib's layout).

    - ``reset()`` -> (obs, info); ``step(actions)`` -> (obs, rewards,
      terminated, truncated, info), every array with one row per agent.
    - ``actions``: one per agent; only the active agents' are used (a
      turn-based game's acting player; every agent of a simultaneous one).
    - ``info["active"]``: which agents act at the next step (a learner
      stores the transitions of the active rows); ``info["action_mask"]``
      (int8): their legal actions (none for the inactive);
      ``info["env_id"]``, ``info["player_id"]``; ``info["env_info"]``: the
      pool's own info, one row per env.
    - A row's reward is its player's; an ended game ends the episode of
      every agent in it (terminated/truncated), and the pool resets it at
      the next step (next-step auto-reset, whose actions are ignored).
    """

    def __init__(self, spec: EnvSpec):
        self._players = _Players(spec)
        self._pool = GymnasiumEnvPool(spec)
        if self._pool.is_async:
            self._pool.close()
            raise ValueError("make_flat_agents needs every env at every step: batch_size must equal num_envs")
        self.spec = spec
        self.num_envs = spec.config["num_envs"]
        self.num_players = self._players.num_players
        self.num_agents = self.num_envs * self.num_players
        self.single_observation_space = self._players.observation_space
        self.single_action_space = self._players.action_space
        self.observation_space = gymnasium.vector.utils.batch_space(self.single_observation_space, self.num_agents)
        self.action_space = gymnasium.vector.utils.batch_space(self.single_action_space, self.num_agents)
        self._info: dict | None = None

    def _flat(self, x: Any) -> Any:
        if isinstance(x, dict):
            return {k: self._flat(v) for k, v in x.items()}
        x = np.asarray(x)
        return x.reshape(self.num_agents, *x.shape[2:])

    def _agent_info(self, info: dict) -> dict:
        n, p = self.num_envs, self.num_players
        return {
            "active": self._players.active(info, n).reshape(-1),
            "action_mask": self._players.masks(info, n).reshape(n * p, -1),
            "env_id": np.repeat(np.asarray(info["env_id"]), p),
            "player_id": np.tile(np.arange(p, dtype=np.int32), n),
            "env_info": info,
        }

    def reset(self, *, seed: Any = None, options: dict | None = None):
        obs, info = self._pool.reset(seed=seed, options=options)
        self._info = info
        return self._flat(obs), self._agent_info(info)

    def step(self, actions: Any):
        if self._info is None:
            raise RuntimeError("call reset() before step()")
        actions = np.asarray(actions)
        if actions.shape[:1] != (self.num_agents,):
            raise ValueError(f"step() takes one action per agent: shape ({self.num_agents}, ...) (num_envs {self.num_envs} x num_players {self.num_players}), got {actions.shape}")
        joint = self._players.joint_action(actions.reshape(self.num_envs, self.num_players, *actions.shape[1:]), self._info)
        obs, reward, terminated, truncated, info = self._pool.step(joint)
        self._info = info
        p = self.num_players
        rewards = self._players.rewards(reward, info).reshape(-1)
        return self._flat(obs), rewards, np.repeat(terminated, p), np.repeat(truncated, p), self._agent_info(info)

    def get_state(self) -> list[bytes]:
        """Every env's state (the pool's get_state())."""
        return self._pool.get_state()

    def set_state(self, states: Any):
        """Every env put back where ``states`` (from get_state) were taken;
        returns (obs, info) of that moment, one row per agent, as reset()
        does."""
        self._pool.set_state(None, states)
        obs, _, _, _, info = self._pool.recv()
        self._info = info
        return self._flat(obs), self._agent_info(info)

    def close(self) -> None:
        self._pool.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


def make_pettingzoo(task_id: str, api: str = "parallel", render_mode: str | None = None, **options: Any):
    """One env of a multi-player task as a PettingZoo env: ``api="parallel"``
    (:class:`ParallelEnv`) or ``"aec"`` (:class:`AECEnv`). Options are the
    task's (``num_envs`` must be 1, the default). Needs pettingzoo
    (``pip install 'envpool_lite[pettingzoo]'``)."""
    try:
        import pettingzoo  # noqa: F401
    except ImportError:
        raise ImportError("make_pettingzoo needs pettingzoo: pip install 'envpool_lite[pettingzoo]'") from None
    if options.get("num_envs", 1) != 1:
        raise ValueError(f"a PettingZoo env is one env of a pool: num_envs must be 1, got {options['num_envs']}")
    spec = make_spec(task_id, **options)
    if api == "parallel":
        return _parallel_class()(spec, render_mode)
    if api == "aec":
        return _aec_class()(spec, render_mode)
    raise ValueError(f"api must be 'parallel' or 'aec', got {api!r}")


class _OneGame:
    """One env of a pool, player by player: what both PettingZoo faces share."""

    def _setup(self, spec: EnvSpec, render_mode: str | None) -> None:
        self._players = _Players(spec)
        self._pool = GymnasiumEnvPool(spec, render_mode=render_mode)
        self.render_mode = render_mode
        self.possible_agents = [f"player_{p}" for p in range(self._players.num_players)]
        self.agents: list[str] = []
        self._turn_based = self._players.layout.turn_based
        self.metadata = {"name": spec.task_id, "render_modes": ["rgb_array"], "is_parallelizable": True}
        obs = self._players.observation_space
        if self._turn_based:  # PettingZoo's classic games: the mask beside the observation
            obs = gymnasium.spaces.Dict({"observation": obs, "action_mask": gymnasium.spaces.Box(0, 1, (self._players.num_actions,), np.int8)})
        self._observation_spaces = dict.fromkeys(self.possible_agents, obs)
        self._action_spaces = {a: self._players.action_space for a in self.possible_agents}
        self._info: dict = {}
        self._obs: Any = None

    def observation_space(self, agent: str) -> gymnasium.spaces.Space:
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space:
        return self._action_spaces[agent]

    def _reset_pool(self, seed: Any) -> None:
        obs, self._info = self._pool.reset(seed=seed)
        self._obs = obs
        self.agents = self.possible_agents[:]

    def _step_pool(self, per_player: np.ndarray) -> tuple[np.ndarray, bool, bool]:
        joint = self._players.joint_action(per_player[None], self._info)
        obs, reward, terminated, truncated, self._info = self._pool.step(joint)
        self._obs = obs
        return self._players.rewards(reward, self._info)[0], bool(terminated[0]), bool(truncated[0])

    def _observation(self, p: int) -> Any:
        obs = {k: v[0, p] for k, v in self._obs.items()} if isinstance(self._obs, dict) else self._obs[0, p]
        if not self._turn_based:
            return obs
        return {"observation": obs, "action_mask": self._players.masks(self._info, 1)[0, p]}

    def _agent_info(self, p: int) -> dict:
        return {"env_info": {k: v[0] for k, v in self._info.items() if not isinstance(v, dict)}}

    def render(self) -> Any:
        if self.render_mode is None:
            return None
        return self._pool.render(env_ids=[0])[0]

    # What a face keeps of the game beside the env (set_state restores it).
    _FACE_STATE: tuple[str, ...] = ("agents",)

    def get_state(self) -> bytes:
        """The game's state: its env's (the pool's get_state) and this
        face's own (who is in the game, and the AEC face's rewards and
        turn), for set_state."""
        env = self._pool.get_state([0])[0]
        face = pickle.dumps({name: getattr(self, name) for name in self._FACE_STATE})
        return struct.pack("<Q", len(env)) + env + face + hashlib.blake2b(face, digest_size=16).digest()

    def set_state(self, state: bytes) -> None:
        """Put the game back where ``state`` (from get_state) was taken; a
        state of another task, options or version, or corrupted, is a
        ValueError that changes nothing."""
        if not isinstance(state, bytes) or len(state) < 24:
            raise ValueError("set_state() takes the bytes get_state() returned")
        (n,) = struct.unpack_from("<Q", state)
        env, face, digest = state[8 : 8 + n], state[8 + n : -16], state[-16:]
        if len(env) != n or hashlib.blake2b(face, digest_size=16).digest() != digest:
            raise ValueError("the state is truncated or corrupted")
        values = pickle.loads(face)
        self._pool.set_state([0], [env])
        self._obs, _, _, _, self._info = self._pool.recv()
        for name, value in values.items():
            setattr(self, name, value)

    def close(self) -> None:
        self._pool.close()


@functools.cache
def _parallel_class():
    from pettingzoo.utils.env import ParallelEnv as PZParallelEnv

    class ParallelEnv(_OneGame, PZParallelEnv):
        """PettingZoo's parallel API over one env: every live agent's
        observation at every step; ``step(actions)`` takes a dict of
        actions, of which a turn-based game uses the acting player's (whose
        ``action_mask`` is the legal moves; the others' masks are empty).
        When the game ends every agent leaves (``agents`` is empty) until
        ``reset()``."""

        def __init__(self, spec: EnvSpec, render_mode: str | None = None):
            self._setup(spec, render_mode)

        def reset(self, seed: Any = None, options: dict | None = None):
            self._reset_pool(seed)
            return {a: self._observation(p) for p, a in enumerate(self.agents)}, {a: self._agent_info(p) for p, a in enumerate(self.agents)}

        def step(self, actions: dict):
            if not self.agents:
                raise RuntimeError("the game has ended: call reset()")
            per_player = self._per_player(actions)
            rewards, terminated, truncated = self._step_pool(per_player)
            agents = self.agents
            out = (
                {a: self._observation(p) for p, a in enumerate(agents)},
                {a: float(rewards[p]) for p, a in enumerate(agents)},
                dict.fromkeys(agents, terminated),
                dict.fromkeys(agents, truncated),
                {a: self._agent_info(p) for p, a in enumerate(agents)},
            )
            if terminated or truncated:
                self.agents = []
            return out

        def _per_player(self, actions: dict) -> np.ndarray:
            unknown = sorted(set(actions) - set(self.agents), key=str)
            if unknown:
                raise ValueError(f"actions for agents not in the game: {unknown} (agents: {self.agents})")
            space = self._players.action_space
            blank = np.zeros(space.shape, space.dtype) if space.shape else 0
            if self._turn_based:
                acting = self.possible_agents[int(self._info["current_player"][0])]
                if acting not in actions:
                    raise ValueError(f"it is {acting}'s turn: actions must include an action for {acting}, got one for {sorted(actions)}")
            else:
                missing = [a for a in self.agents if a not in actions]
                if missing:
                    raise ValueError(f"every agent acts at every step: missing actions for {missing}")
            return np.stack([np.asarray(actions.get(a, blank)) for a in self.possible_agents])

    return ParallelEnv


@functools.cache
def _aec_class():
    from pettingzoo.utils.env import AECEnv as PZAECEnv

    class AECEnv(_OneGame, PZAECEnv):
        """PettingZoo's AEC API over one env: ``agent_selection`` is the
        acting player (turn-based games; a simultaneous game's agents act in
        turn and the env steps once all have acted); ``last()`` gives its
        observation (with ``action_mask``), its reward since its last
        action, and whether the game ended. When it ends, each agent steps
        with None to leave, as PettingZoo's classic games do."""

        _FACE_STATE = ("agents", "rewards", "_cumulative_rewards", "terminations", "truncations", "infos", "agent_selection", "_pending")

        def __init__(self, spec: EnvSpec, render_mode: str | None = None):
            self._setup(spec, render_mode)
            self.rewards: dict = {}
            self._cumulative_rewards: dict = {}
            self.terminations: dict = {}
            self.truncations: dict = {}
            self.infos: dict = {}
            self.agent_selection = self.possible_agents[0]
            self._pending: dict = {}

        def reset(self, seed: Any = None, options: dict | None = None) -> None:
            self._reset_pool(seed)
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
            self.terminations = dict.fromkeys(self.agents, False)
            self.truncations = dict.fromkeys(self.agents, False)
            self.infos = {a: self._agent_info(p) for p, a in enumerate(self.agents)}
            self._pending = {}
            self.agent_selection = self._acting()

        def _acting(self) -> str:
            if self._turn_based:
                return self.possible_agents[int(self._info["current_player"][0])]
            return next(a for a in self.possible_agents if a not in self._pending)

        def observe(self, agent: str) -> Any:
            return self._observation(self.possible_agents.index(agent))

        def step(self, action: Any) -> None:
            agent = self.agent_selection
            if self.terminations[agent] or self.truncations[agent]:
                self._was_dead_step(action)
                return
            self._cumulative_rewards[agent] = 0.0
            self._pending[agent] = action
            if not self._turn_based and len(self._pending) < len(self.agents):
                self._clear_rewards()
                self.agent_selection = self._acting()
                return
            space = self._players.action_space
            blank = np.zeros(space.shape, space.dtype) if space.shape else 0
            per_player = np.stack([np.asarray(self._pending.get(a, blank)) for a in self.possible_agents])
            self._pending = {}
            rewards, terminated, truncated = self._step_pool(per_player)
            for p, a in enumerate(self.agents):
                self.rewards[a] = float(rewards[p])
                self.terminations[a] = terminated
                self.truncations[a] = truncated
                self.infos[a] = self._agent_info(p)
            self._accumulate_rewards()
            if terminated or truncated:
                # Every agent leaves in turn (PettingZoo's dead steps),
                # starting from the one that would have moved.
                self.agent_selection = self._acting() if self._turn_based else self.agents[0]
            else:
                self.agent_selection = self._acting()

    return AECEnv
