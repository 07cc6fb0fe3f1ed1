// FrozenLake-v1 and FrozenLake8x8-v1, bit-exact with gymnasium 1.4.0's
// gymnasium/envs/toy_text/frozen_lake.py.
//
// gymnasium builds a table P[s][a] of (prob, next state, reward,
// terminated) rows at construction; this env computes the same rows for
// the current state when it steps, in the same order, and samples one with
// categorical_sample (one np_random.random() per step, slippery or not).
// reset() samples the start tile from the same initial distribution (one
// draw). info["prob"] is the sampled row's probability (1 after a reset).
#pragma once

#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/env.h"
#include "envs/toy_text/common.h"
#include "refkit/numpy/random.h"

namespace envpool_lite {

class FrozenLakeEnv : public toy_text::TabularEnv {
 public:
  static Config DefaultConfig() {
    return {{"max_episode_steps", int64_t{100}},
            {"desc", StringList{}},  // empty: the map named by map_name
            {"map_name", std::string("4x4")},
            {"is_slippery", true},
            {"success_rate", 1.0 / 3.0},
            {"reward_schedule", NumberList{1.0, 0.0, 0.0}}};
  }

  static EnvSpec MakeSpec(const Config& config) {
    const std::vector<std::string> desc = Desc(config);
    config.GetBool("is_slippery");  // type check
    config.GetFloat("success_rate", 0.0, 1.0);
    const NumberList schedule = RewardSchedule(config);
    EnvSpec spec;
    spec.obs = toy_text::MakeDiscreteObs(
        "obs", static_cast<int64_t>(desc.size() * desc[0].size()));
    spec.action = MakeDiscrete("action", 4);
    spec.info = {MakeScalar<double>("prob")};
    spec.max_episode_steps = config.GetInt("max_episode_steps", 1,
                                           std::numeric_limits<int32_t>::max());
    // gymnasium's rewards are the schedule's numbers: float32 holds the
    // default (1, 0, 0), not every number a user may pass (0.1).
    for (double r : schedule) {
      if (static_cast<double>(static_cast<float>(r)) != r) {
        spec.reward_float64 = true;
      }
    }
    return spec;
  }

  FrozenLakeEnv(const Config& config, uint64_t seed)
      : TabularEnv(seed),
        is_slippery_(config.GetBool("is_slippery")),
        success_rate_(config.GetFloat("success_rate")),
        // gymnasium: fail_rate = (1.0 - success_rate) / 2.0
        fail_rate_((1.0 - success_rate_) / 2.0) {
    const std::vector<std::string> desc = Desc(config);
    nrow_ = static_cast<int64_t>(desc.size());
    ncol_ = static_cast<int64_t>(desc[0].size());
    for (const std::string& row : desc) tiles_ += row;
    const NumberList schedule = RewardSchedule(config);
    for (int i = 0; i < 3; ++i) reward_schedule_[i] = schedule[i];
    // initial_state_distrib: 1 on each start tile, divided by their count.
    int64_t starts = 0;
    for (char c : tiles_) starts += c == 'S';
    initial_state_distrib_.resize(tiles_.size(), 0.0);
    for (std::size_t s = 0; s < tiles_.size(); ++s) {
      if (tiles_[s] == 'S') {
        initial_state_distrib_[s] = 1.0 / static_cast<double>(starts);
      }
    }
  }

  void Reset() override {
    Start(initial_state_distrib_.data(), static_cast<int>(tiles_.size()));
  }

  StepResult Step(const void* action) override {
    const int a = *static_cast<const int32_t*>(action);
    toy_text::Transition rows[3];
    int n = 0;
    const char letter = tiles_[s_];
    if (letter == 'G' || letter == 'H') {
      rows[n++] = {1.0, s_, 0.0, true};
    } else if (is_slippery_) {
      // b in [(a - 1) % 4, a, (a + 1) % 4]
      for (int b : {(a + 3) % 4, a, (a + 1) % 4}) {
        rows[n++] = Move(b, b == a ? success_rate_ : fail_rate_);
      }
    } else {
      rows[n++] = Move(a, 1.0);
    }
    return Take(rows, n, a);
  }

 private:
  enum Action { kLeft = 0, kDown = 1, kRight = 2, kUp = 3 };

  // The rows of the map: desc, or the map named by map_name (gymnasium's
  // MAPS), checked.
  static std::vector<std::string> Desc(const Config& config) {
    std::vector<std::string> desc = config.GetStringList("desc");
    if (desc.empty()) {
      const std::string& name = config.GetString("map_name");
      if (name == "4x4") {
        desc = {"SFFF", "FHFH", "FFFH", "HFFG"};
      } else if (name == "8x8") {
        desc = {"SFFFFFFF", "FFFFFFFF", "FFFHFFFF", "FFFFFHFF",
                "FFFHFFFF", "FHHFFFHF", "FHFFHFHF", "FFFHFFFG"};
      } else {
        throw std::invalid_argument(
            "option 'map_name' must be '4x4' or '8x8' (or pass desc=[...] "
            "for another map), got '" +
            name + "'");
      }
      return desc;
    }
    const std::size_t ncol = desc[0].size();
    if (ncol == 0) {
      throw std::invalid_argument("option 'desc': row 0 is empty");
    }
    if (desc.size() * ncol >
        static_cast<std::size_t>(std::numeric_limits<int32_t>::max())) {
      throw std::invalid_argument("option 'desc' has too many tiles");
    }
    bool has_start = false, has_goal = false;
    for (std::size_t r = 0; r < desc.size(); ++r) {
      if (desc[r].size() != ncol) {
        throw std::invalid_argument(
            "option 'desc' must be rectangular: row " + std::to_string(r) +
            " has " + std::to_string(desc[r].size()) + " tiles, row 0 has " +
            std::to_string(ncol));
      }
      for (std::size_t c = 0; c < ncol; ++c) {
        const char t = desc[r][c];
        if (t != 'S' && t != 'F' && t != 'H' && t != 'G') {
          throw std::invalid_argument(
              "option 'desc' holds '" + std::string(1, t) + "' at row " +
              std::to_string(r) + ", column " + std::to_string(c) +
              ": tiles are S (start), F (frozen), H (hole) and G (goal)");
        }
        has_start |= t == 'S';
        has_goal |= t == 'G';
      }
    }
    if (!has_start) {
      throw std::invalid_argument("option 'desc' has no start tile 'S'");
    }
    if (!has_goal) {
      throw std::invalid_argument("option 'desc' has no goal tile 'G'");
    }
    return desc;
  }

  static NumberList RewardSchedule(const Config& config) {
    const NumberList& schedule = config.GetNumberList("reward_schedule");
    bool finite = true;
    for (double r : schedule) {
      finite &= r >= -std::numeric_limits<double>::max() &&
                r <= std::numeric_limits<double>::max();
    }
    if (schedule.size() != 3 || !finite) {
      throw std::invalid_argument(
          "option 'reward_schedule' must be 3 finite numbers: the rewards "
          "for reaching the goal, a hole and a frozen tile");
    }
    return schedule;
  }

  // gymnasium's update_probability_matrix(row, col, b) for the current
  // state: the tile reached by moving b (walls clamp), its reward by letter
  // (reward_schedule[b"GHF".index(letter)], S counting as F), and whether
  // it ends the episode (G or H).
  toy_text::Transition Move(int b, double prob) const {
    int64_t row = s_ / ncol_, col = s_ % ncol_;
    if (b == kLeft) {
      col = col > 0 ? col - 1 : 0;
    } else if (b == kDown) {
      row = row + 1 < nrow_ ? row + 1 : nrow_ - 1;
    } else if (b == kRight) {
      col = col + 1 < ncol_ ? col + 1 : ncol_ - 1;
    } else if (b == kUp) {
      row = row > 0 ? row - 1 : 0;
    }
    const int64_t next = row * ncol_ + col;
    const char letter = tiles_[next];
    const int index = letter == 'G' ? 0 : letter == 'H' ? 1 : 2;
    return {prob, next, reward_schedule_[index],
            letter == 'G' || letter == 'H'};
  }

  bool is_slippery_;
  double success_rate_;
  double fail_rate_;
  double reward_schedule_[3] = {1.0, 0.0, 0.0};
  int64_t nrow_ = 0;
  int64_t ncol_ = 0;
  std::string tiles_;  // the map, row after row
  std::vector<double> initial_state_distrib_;
};

}  // namespace envpool_lite
