"""V-trace (Espeholt et al. 2018, IMPALA, section 4): off-policy corrected
value targets and policy-gradient advantages for a batch of trajectories.

All arguments are time-major [T, B] tensors except bootstrap_value ([B]):

    log_rhos[t]  = log pi(a_t | x_t) - log mu(a_t | x_t)   (target / behaviour)
    discounts[t] = gamma at step t, 0 where the episode terminated there
    rewards[t]   = r_t
    values[t]    = V(x_t),  bootstrap_value = V(x_T)

With rho_t = min(rho_bar, pi/mu), c_t = lambda * min(c_bar, pi/mu) and
delta_t = rho_t (r_t + discounts[t] V(x_{t+1}) - V(x_t)):

    vs_s - V(x_s) = sum_{t=s}^{T-1} (prod_{i=s}^{t-1} discounts[i] c_i) delta_t
                  = delta_s + discounts[s] c_s (vs_{s+1} - V(x_{s+1}))
    pg_advantages_s = min(pg_rho_bar, pi/mu) (r_s + discounts[s] vs_{s+1} - V(x_s))

where vs_T = V(x_T). On-policy (pi = mu) with c_bar >= 1, vs - V is
GAE(lambda) and, with lambda = 1, vs is the n-step return. A discount of 0
stops both the bootstrap and the trace, so terminated episodes inside the
batch do not leak into each other. Nothing here needs a gradient.
"""

from __future__ import annotations

import torch


@torch.no_grad()
def vtrace(
    log_rhos: torch.Tensor,
    discounts: torch.Tensor,
    rewards: torch.Tensor,
    values: torch.Tensor,
    bootstrap_value: torch.Tensor,
    rho_bar: float = 1.0,
    pg_rho_bar: float = 1.0,
    c_bar: float = 1.0,
    lambda_: float = 1.0,
) -> tuple[torch.Tensor, torch.Tensor]:
    """Returns (vs, pg_advantages), both [T, B]. Pass float("inf") for a
    truncation level to leave the importance weights unclipped."""
    rhos = torch.exp(log_rhos)
    clipped_rhos = torch.clamp(rhos, max=rho_bar)
    cs = lambda_ * torch.clamp(rhos, max=c_bar)
    next_values = torch.cat([values[1:], bootstrap_value.unsqueeze(0)], dim=0)
    deltas = clipped_rhos * (rewards + discounts * next_values - values)

    # vs_s - V(x_s), accumulated backwards in time.
    vs_minus_v = torch.empty_like(values)
    acc = torch.zeros_like(bootstrap_value)
    for t in range(values.shape[0] - 1, -1, -1):
        acc = deltas[t] + discounts[t] * cs[t] * acc
        vs_minus_v[t] = acc
    vs = values + vs_minus_v

    next_vs = torch.cat([vs[1:], bootstrap_value.unsqueeze(0)], dim=0)
    pg_advantages = torch.clamp(rhos, max=pg_rho_bar) * (rewards + discounts * next_vs - values)
    return vs, pg_advantages
