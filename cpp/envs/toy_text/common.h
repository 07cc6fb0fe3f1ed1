// What the gymnasium toy-text envs share: a Discrete observation (an int64
// scalar, as gymnasium's Discrete space holds) and categorical_sample, the
// one draw each of their steps makes.
#pragma once

#include <cstdint>
#include <string>

#include "core/array_spec.h"
#include "core/np_random.h"

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

}  // namespace toy_text
}  // namespace envpool_lite
