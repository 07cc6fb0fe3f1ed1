"""trainers/vtrace.py against the IMPALA paper's formula, written naively."""

import sys
from pathlib import Path

import numpy as np
import pytest
from libcompat import NO_TORCH

torch = pytest.importorskip("torch", reason=NO_TORCH)  # installed by scripts/setup.sh on Python 3.11
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "trainers"))

from vtrace import vtrace  # noqa: E402


def naive_vtrace(log_rhos, discounts, rewards, values, bootstrap, rho_bar, pg_rho_bar, c_bar, lambda_):
    """The definition as a double sum, one trajectory column at a time:
    vs_s = V(x_s) + sum_{t>=s} (prod_{i=s}^{t-1} discount_i c_i) delta_t."""
    T, B = values.shape
    rhos = np.exp(log_rhos)
    vs = np.zeros((T, B))
    pg = np.zeros((T, B))
    for b in range(B):
        v = np.append(values[:, b], bootstrap[b])  # V(x_0..x_T)
        for s in range(T):
            total = v[s]
            for t in range(s, T):
                trace = 1.0
                for i in range(s, t):
                    trace *= discounts[i, b] * lambda_ * min(c_bar, rhos[i, b])
                delta = min(rho_bar, rhos[t, b]) * (rewards[t, b] + discounts[t, b] * v[t + 1] - v[t])
                total += trace * delta
            vs[s, b] = total
        for s in range(T):
            next_vs = vs[s + 1, b] if s + 1 < T else bootstrap[b]
            pg[s, b] = min(pg_rho_bar, rhos[s, b]) * (rewards[s, b] + discounts[s, b] * next_vs - v[s])
    return vs, pg


def random_batch(rng, T=9, B=5, p_term=0.15):
    return dict(
        log_rhos=rng.normal(0.0, 1.2, (T, B)),
        discounts=np.where(rng.random((T, B)) < p_term, 0.0, 0.97),
        rewards=rng.normal(size=(T, B)),
        values=rng.normal(size=(T, B)),
        bootstrap=rng.normal(size=B),
    )


def run(batch, **kw):
    t = {k: torch.as_tensor(v, dtype=torch.float64) for k, v in batch.items()}
    vs, pg = vtrace(t["log_rhos"], t["discounts"], t["rewards"], t["values"], t["bootstrap"], **kw)
    return vs.numpy(), pg.numpy()


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("rho_bar, pg_rho_bar, c_bar, lambda_", [(3.7, 2.2, 1.0, 1.0), (3.7, 2.2, 1.4, 0.9), (1.0, 1.0, 1.0, 0.95)])
def test_matches_the_double_sum_with_clipping_active(seed, rho_bar, pg_rho_bar, c_bar, lambda_):
    rng = np.random.default_rng(seed)
    batch = random_batch(rng)
    rhos = np.exp(batch["log_rhos"])
    # Every clipping regime occurs: above rho_bar, between the bars, below c_bar.
    assert (rhos > rho_bar).any() and (rhos < min(c_bar, pg_rho_bar)).any()
    assert pg_rho_bar == rho_bar or ((rhos > pg_rho_bar) & (rhos < rho_bar)).any()
    vs, pg = run(batch, rho_bar=rho_bar, pg_rho_bar=pg_rho_bar, c_bar=c_bar, lambda_=lambda_)
    want_vs, want_pg = naive_vtrace(*batch.values(), rho_bar, pg_rho_bar, c_bar, lambda_)
    np.testing.assert_allclose(vs, want_vs, rtol=1e-10, atol=1e-10)
    np.testing.assert_allclose(pg, want_pg, rtol=1e-10, atol=1e-10)


def n_step_returns(discounts, rewards, bootstrap):
    T = len(rewards)
    out = np.zeros_like(rewards)
    acc = bootstrap
    for t in range(T - 1, -1, -1):
        acc = rewards[t] + discounts[t] * acc
        out[t] = acc
    return out


def gae(discounts, rewards, values, bootstrap, lam):
    T = len(rewards)
    next_values = np.concatenate([values[1:], bootstrap[None]])
    adv = np.zeros_like(rewards)
    acc = np.zeros_like(bootstrap)
    for t in range(T - 1, -1, -1):
        delta = rewards[t] + discounts[t] * next_values[t] - values[t]
        acc = delta + discounts[t] * lam * acc
        adv[t] = acc
    return adv


@pytest.mark.parametrize("seed", range(3))
def test_on_policy_is_n_step_returns_and_gae(seed):
    """rho = 1: vs is the n-step (bootstrapped) return and pg_advantages is
    GAE(lambda=1); with lambda < 1, vs - V is GAE(lambda)."""
    rng = np.random.default_rng(seed)
    batch = random_batch(rng)
    batch["log_rhos"] = np.zeros_like(batch["log_rhos"])
    vs, pg = run(batch, rho_bar=3.7, pg_rho_bar=2.2, c_bar=1.0, lambda_=1.0)
    returns = n_step_returns(batch["discounts"], batch["rewards"], batch["bootstrap"])
    np.testing.assert_allclose(vs, returns, rtol=1e-12, atol=1e-12)
    adv1 = gae(batch["discounts"], batch["rewards"], batch["values"], batch["bootstrap"], 1.0)
    np.testing.assert_allclose(pg, adv1, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(pg, returns - batch["values"], rtol=1e-12, atol=1e-12)
    vs, pg = run(batch, lambda_=0.95)
    adv = gae(batch["discounts"], batch["rewards"], batch["values"], batch["bootstrap"], 0.95)
    np.testing.assert_allclose(vs - batch["values"], adv, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("seed", range(3))
def test_terminations_inside_the_batch_split_it_into_independent_trajectories(seed):
    """A column holding several episodes (discount 0 where each terminated)
    gives, for each episode, what V-trace on that episode alone gives."""
    rng = np.random.default_rng(seed)
    T, B = 16, 4
    batch = random_batch(rng, T, B, p_term=0.2)
    batch["discounts"][5, :] = 0.0  # at least one termination per column
    kw = dict(rho_bar=3.7, pg_rho_bar=2.2, c_bar=1.2, lambda_=0.9)
    vs, pg = run(batch, **kw)
    for b in range(B):
        ends = [t + 1 for t in range(T) if batch["discounts"][t, b] == 0.0]
        starts = [0] + ends
        for s, e in zip(starts, ends + [T]):
            if s >= e:
                continue
            # After a termination the bootstrap is irrelevant: any value will do.
            boot = batch["bootstrap"][b : b + 1] if e == T else rng.normal(size=1) * 100
            part = {k: v[s:e, b : b + 1] for k, v in batch.items() if k != "bootstrap"}
            part["bootstrap"] = boot
            part_vs, part_pg = run({k: part[k] for k in ("log_rhos", "discounts", "rewards", "values", "bootstrap")}, **kw)
            np.testing.assert_allclose(vs[s:e, b], part_vs[:, 0], rtol=1e-12, atol=1e-12)
            np.testing.assert_allclose(pg[s:e, b], part_pg[:, 0], rtol=1e-12, atol=1e-12)


def test_no_gradient_and_float32():
    rng = np.random.default_rng(0)
    batch = random_batch(rng)
    t = {k: torch.as_tensor(v, dtype=torch.float32).requires_grad_() for k, v in batch.items()}
    vs, pg = vtrace(t["log_rhos"], t["discounts"], t["rewards"], t["values"], t["bootstrap"], rho_bar=3.7, pg_rho_bar=2.2)
    assert not vs.requires_grad and not pg.requires_grad
    assert vs.dtype == pg.dtype == torch.float32 and vs.shape == pg.shape == (9, 5)
    want_vs, want_pg = naive_vtrace(*batch.values(), 3.7, 2.2, 1.0, 1.0)
    np.testing.assert_allclose(vs.numpy(), want_vs, rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(pg.numpy(), want_pg, rtol=1e-4, atol=1e-4)
