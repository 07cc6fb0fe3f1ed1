// CliffWalking-v1, CliffWalkingSlippery-v1 and CliffWalking-v0, bit-exact
// with gymnasium 1.4.0's gymnasium/envs/toy_text/cliffwalking.py (v0,
// gymnasium 1.1's id, is the same env).
//
// A 4 x 12 grid: start at (3, 0), goal at (3, 11), the cliff between them
// on row 3. Each step costs -1; stepping onto the cliff costs -100 and
// sends the agent back to the start (the episode goes on). Slippery: the
// move may turn left or right, each outcome with probability 1/3.
// gymnasium builds a table P[s][a] at construction; this env computes the
// same rows for the current state when it steps and samples one with
// categorical_sample (one np_random.random() per step, slippery or not).
#pragma once

#include <cstdint>
#include <limits>
#include <vector>

#include "core/env.h"
#include "envs/toy_text/common.h"
#include "refkit/numpy/random.h"

namespace envpool_lite {

class CliffWalkingEnv : public toy_text::TabularEnv {
 public:
  // gymnasium registers no time limit; the pool's max_episode_steps
  // defaults to EnvPool's "none" (2**31 - 1 steps).
  static Config DefaultConfig() {
    return {{"max_episode_steps", int64_t{std::numeric_limits<int32_t>::max()}},
            {"is_slippery", false}};
  }

  static EnvSpec MakeSpec(const Config& config) {
    config.GetBool("is_slippery");  // type check
    EnvSpec spec;
    spec.obs = toy_text::MakeDiscreteObs("obs", kRows * kCols);
    spec.action = MakeDiscrete("action", 4);
    spec.info = {MakeScalar<double>("prob")};
    spec.max_episode_steps = config.GetInt("max_episode_steps", 1,
                                           std::numeric_limits<int32_t>::max());
    return spec;
  }

  CliffWalkingEnv(const Config& config, uint64_t seed)
      : TabularEnv(seed), is_slippery_(config.GetBool("is_slippery")) {}

  void Reset() override {
    // categorical_sample(initial_state_distrib): 1 at the start, one draw.
    double distrib[kRows * kCols] = {};
    distrib[kStart] = 1.0;
    Start(distrib, kRows * kCols);
  }

  StepResult Step(const void* action) override {
    const int a = *static_cast<const int32_t*>(action);
    toy_text::Transition rows[3];
    int n = 0;
    if (is_slippery_) {
      // [(move - 1) % 4, move, (move + 1) % 4], each 1 / 3
      for (int b : {(a + 3) % 4, a, (a + 1) % 4}) rows[n++] = Move(b, 1.0 / 3);
    } else {
      rows[n++] = Move(a, 1.0);
    }
    return Take(rows, n, a);
  }

 private:
  static constexpr int kRows = 4;
  static constexpr int kCols = 12;
  static constexpr int64_t kStart = 3 * kCols + 0;  // (3, 0)
  // UP, RIGHT, DOWN, LEFT as (drow, dcol): gymnasium's POSITION_MAPPING.
  static constexpr int kDelta[4][2] = {{-1, 0}, {0, 1}, {1, 0}, {0, -1}};

  // _calculate_transition_prob's row for one move: clamp to the grid; the
  // cliff (row 3, columns 1-10) sends back to the start with -100; the goal
  // (3, 11) ends the episode.
  toy_text::Transition Move(int b, double prob) const {
    int row = static_cast<int>(s_ / kCols) + kDelta[b][0];
    int col = static_cast<int>(s_ % kCols) + kDelta[b][1];
    row = row < 0 ? 0 : row > kRows - 1 ? kRows - 1 : row;
    col = col < 0 ? 0 : col > kCols - 1 ? kCols - 1 : col;
    if (row == 3 && col >= 1 && col <= kCols - 2) {
      return {prob, kStart, -100.0, false};
    }
    return {prob, static_cast<int64_t>(row) * kCols + col, -1.0,
            row == kRows - 1 && col == kCols - 1};
  }

  bool is_slippery_;
};

}  // namespace envpool_lite
