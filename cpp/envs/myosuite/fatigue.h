// MyoSuite's muscle fatigue (envs/myo/fatigue.py, CumulativeFatigue): the
// 3CC-r model of each muscle's active (MA), resting (MR) and fatigued (MF)
// fractions, stepped once per env step (dt = timestep * frame_skip); the
// muscle's command becomes its active fraction. Its own generator (seeded
// with the env's seed, as myosuite seeds it) draws the fractions only when
// fatigue_reset_random is on.
#pragma once

#include <mujoco/mujoco.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "core/config.h"
#include "core/env_state.h"
#include "refkit/numpy/random.h"

namespace envpool_lite {
namespace myosuite {

struct Fatigue {
  // The reference's constants: r = 10 * 15, F = 0.00912, R = 0.1 * 0.00094.
  double r = 10 * 15;
  double f = 0.00912;
  double rec = 0.1 * 0.00094;
  double dt = 0.0;
  std::vector<double> tauact, taudeact;
  std::vector<double> ma, mr, mf, target_load;
  NumpyRandom rng{0};

  void Seed(uint64_t seed) { rng.Seed(seed); }

  void Init(const mjModel* m, int frame_skip) {
    dt = m->opt.timestep * static_cast<double>(frame_skip);
    tauact.clear();
    taudeact.clear();
    for (int i = 0; i < m->nu; ++i) {
      if (m->actuator_dyntype[i] != mjDYN_MUSCLE) continue;
      tauact.push_back(m->actuator_dynprm[mjNDYN * i]);
      taudeact.push_back(m->actuator_dynprm[mjNDYN * i + 1]);
    }
    const std::size_t n = tauact.size();
    ma.assign(n, 0.0);
    mr.assign(n, 1.0);
    mf.assign(n, 0.0);
    target_load.assign(n, 0.0);
  }

  // compute_act: target_load holds the commands; ma becomes the new ones.
  void ComputeAct() {
    const std::size_t n = ma.size();
    for (std::size_t i = 0; i < n; ++i) {
      const double tl = target_load[i];
      const double ld = 1 / tauact[i] * (0.5 + 1.5 * ma[i]);
      const double lr = (0.5 + 1.5 * ma[i]) / taudeact[i];
      double c = 0.0;
      if (ma[i] < tl && mr[i] > (tl - ma[i])) {
        c = ld * (tl - ma[i]);
      } else if (ma[i] < tl && mr[i] <= (tl - ma[i])) {
        c = ld * mr[i];
      } else if (ma[i] >= tl) {
        c = lr * (tl - ma[i]);
      }
      double r_r = 0.0;
      if (ma[i] >= tl) {
        r_r = r * rec;
      } else if (ma[i] < tl) {
        r_r = rec;
      }
      const double lo =
          std::max(-ma[i] / dt + f * ma[i], (mr[i] - 1) / dt + r_r * mf[i]);
      const double hi =
          std::min((1 - ma[i]) / dt + f * ma[i], mr[i] / dt + r_r * mf[i]);
      c = std::min(std::max(c, lo), hi);
      const double d_ma = (c - f * ma[i]) * dt;
      const double d_mr = (-c + r_r * mf[i]) * dt;
      const double d_mf = (f * ma[i] - r_r * mf[i]) * dt;
      ma[i] += d_ma;
      mr[i] += d_mr;
      mf[i] += d_mf;
    }
  }

  void Reset(const NumberList& reset_vec, bool reset_random) {
    const std::size_t n = ma.size();
    if (reset_random) {
      std::vector<double> non_fatigued(n), active(n);
      for (std::size_t i = 0; i < n; ++i) non_fatigued[i] = rng.NextDouble();
      for (std::size_t i = 0; i < n; ++i) active[i] = rng.NextDouble();
      for (std::size_t i = 0; i < n; ++i) {
        ma[i] = non_fatigued[i] * active[i];
        mr[i] = non_fatigued[i] * (1 - active[i]);
        mf[i] = 1 - non_fatigued[i];
      }
    } else if (!reset_vec.empty()) {
      for (std::size_t i = 0; i < n; ++i) {
        mf[i] = reset_vec[i];
        mr[i] = 1 - reset_vec[i];
        ma[i] = 0.0;
      }
    } else {
      std::fill(ma.begin(), ma.end(), 0.0);
      std::fill(mr.begin(), mr.end(), 1.0);
      std::fill(mf.begin(), mf.end(), 0.0);
    }
  }

  ENVPOOL_LITE_STATE_FIELDS(dt, tauact, taudeact, ma, mr, mf, target_load, rng)
};

}  // namespace myosuite
}  // namespace envpool_lite
