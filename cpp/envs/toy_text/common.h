// What the gymnasium toy-text envs share: a Discrete observation (an int64
// scalar, as gymnasium's Discrete space holds), categorical_sample, the one
// draw each of their steps makes, and (FrozenLake, CliffWalking, Taxi) the
// state of a tabular env: TabularEnv.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/array_spec.h"
#include "core/env.h"
#include "refkit/numpy/random.h"

namespace envpool_lite {
namespace toy_text {

// A Discrete(num_values) observation: an int64 scalar in [0, num_values),
// the dtype of gymnasium's Discrete space (MakeDiscrete is int32, for
// actions).
inline ArraySpec MakeDiscreteObs(std::string name, int64_t num_values) {
  ArraySpec spec = MakeDiscrete(std::move(name), num_values);
  spec.dtype = DType::kInt64;
  return spec;
}

// gymnasium.envs.toy_text.utils.categorical_sample(probs, np_random):
//   np.argmax(np.cumsum(probs) > np_random.random())
// One draw, always (even for a single outcome). np.cumsum adds in order, as
// this loop does; argmax of all-False is 0 (a sum that rounds below the
// draw picks the first outcome).
inline int CategoricalSample(const double* probs, int n, NumpyRandom& rng) {
  const double r = rng.NextDouble();
  double cumulative = 0.0;
  for (int i = 0; i < n; ++i) {
    cumulative += probs[i];
    if (cumulative > r) return i;
  }
  return 0;
}

// One outcome of a step, as the rows of gymnasium's P[s][a]:
// (probability, next state, reward, terminated).
struct Transition {
  double prob = 1.0;
  int64_t next_state = 0;
  double reward = 0.0;
  bool terminated = false;
};

// Samples one of n transitions by their probabilities.
inline const Transition& SampleTransition(const Transition* t, int n,
                                          NumpyRandom& rng) {
  double probs[4];
  for (int i = 0; i < n; ++i) probs[i] = t[i].prob;
  return t[CategoricalSample(probs, n, rng)];
}

// A tabular env as gymnasium writes them (FrozenLake, CliffWalking, Taxi):
// the state s, the last action (self.lastaction, -1: None), the
// probability of the last transition (info["prob"]) and np_random.
// Observation: s; info field 0: prob.
class TabularEnv : public Env {
 public:
  explicit TabularEnv(uint64_t seed) : rng_(seed) {}

  void Seed(uint64_t seed) override { rng_.Seed(seed); }

  // What gymnasium's renderer reads: self.s and self.lastaction.
  std::vector<double> RenderState() const override {
    return {static_cast<double>(s_), static_cast<double>(last_action_)};
  }

  void WriteObs(const Row& row) override {
    *row.Obs<int64_t>() = s_;
    *row.Info<double>(0) = prob_;
  }

  ENVPOOL_LITE_STATE(rng_, s_, last_action_, prob_)

 protected:
  // reset(): s = categorical_sample(initial_state_distrib), lastaction =
  // None, prob 1.
  void Start(const double* initial_state_distrib, int num_states) {
    s_ = CategoricalSample(initial_state_distrib, num_states, rng_);
    last_action_ = -1;
    prob_ = 1.0;
  }

  // step(a): one of the n rows of P[s][a], sampled; s, lastaction and prob
  // follow it.
  StepResult Take(const Transition* rows, int n, int action) {
    const Transition& t = SampleTransition(rows, n, rng_);
    s_ = t.next_state;
    last_action_ = action;
    prob_ = t.prob;
    StepResult result;
    result.reward = t.reward;
    result.terminated = t.terminated;
    return result;
  }

  NumpyRandom rng_;
  int64_t s_ = 0;
  int last_action_ = -1;  // -1: None
  double prob_ = 1.0;
};

}  // namespace toy_text
}  // namespace envpool_lite
