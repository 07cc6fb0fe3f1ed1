// Taxi-v4, bit-exact with gymnasium 1.4.0's gymnasium/envs/toy_text/taxi.py,
// and Taxi-v3, bit-exact with gymnasium 1.2's (the last to register it):
// the same taxi without rain or a fickle passenger; with them, 1.2's
// versions (gymnasium 1.3 fixed both, as Taxi-v4).
//
// gymnasium builds a table P[s][a] of (prob, next state, reward,
// terminated) rows at construction; this env computes the same rows for
// the current state when it steps, in the same order, and samples one with
// categorical_sample (one np_random.random() per step). A fickle passenger
// may then change destination (np_random.choice of the 3 others). reset()
// samples the state from gymnasium's initial distribution (one draw) and,
// with fickle_passenger, whether this episode's passenger is fickle
// (another draw).
//
// State: ((taxi_row * 5 + taxi_col) * 5 + passenger) * 4 + destination;
// passenger 0-3 waits at a location (R, G, Y, B), 4 rides in the taxi.
#pragma once

#include <array>
#include <cstdint>
#include <limits>
#include <vector>

#include "core/env.h"
#include "envs/toy_text/common.h"
#include "refkit/numpy/random.h"

namespace envpool_lite {

class TaxiEnv : public toy_text::TabularEnv {
 public:
  static Config DefaultConfig() {
    return {{"max_episode_steps", int64_t{200}},
            {"is_rainy", false},
            {"fickle_passenger", false},
            {"rainy_probability", 0.8},
            {"fickle_probability", 0.3}};
  }

  static EnvSpec MakeSpec(const Config& config) {
    config.GetBool("is_rainy");  // type checks
    config.GetBool("fickle_passenger");
    if (config.Has("rainy_probability")) {
      config.GetFloat("rainy_probability", 0.0, 1.0);
      config.GetFloat("fickle_probability", 0.0, 1.0);
    }
    EnvSpec spec;
    spec.obs = toy_text::MakeDiscreteObs("obs", kNumStates);
    spec.action = MakeDiscrete("action", 6);
    spec.info = {MakeScalar<double>("prob"),
                 MakeBox<int8_t>("action_mask", {6}, {0.0}, {1.0})};
    spec.max_episode_steps = config.GetInt("max_episode_steps", 1,
                                           std::numeric_limits<int32_t>::max());
    return spec;
  }

  TaxiEnv(const Config& config, uint64_t seed)
      : TaxiEnv(config, seed, /*version=*/4) {}

  void Reset() override {
    Start(InitialStateDistrib().data(), kNumStates);
    // fickle_passenger and np_random.random() < fickle_probability: no draw
    // without a fickle passenger.
    fickle_step_ = fickle_passenger_ && rng_.NextDouble() < fickle_probability_;
    taxi_orientation_ = 0;
  }

  StepResult Step(const void* action) override {
    const int a = *static_cast<const int32_t*>(action);
    toy_text::Transition rows[3];
    const int n =
        is_rainy_ ? RainyTransitions(a, rows) : DryTransition(a, rows);
    const Decoded before = Decode(s_);
    const StepResult result = Take(rows, n, a);
    const Decoded after = Decode(s_);
    if (fickle_passenger_ && fickle_step_ && before.passenger == 4 &&
        (after.row != before.row || after.col != before.col)) {
      fickle_step_ = false;
      // np_random.choice([i for i in range(4) if i != destination])
      int possible[3], k = 0;
      for (int i = 0; i < 4; ++i) {
        if (i != before.destination) possible[k++] = i;
      }
      const int destination = possible[rng_.Choice(3)];
      s_ = Encode(after.row, after.col, after.passenger, destination);
    }
    // gymnasium's renderer turns the taxi to face its last move.
    if (a <= 3) taxi_orientation_ = a;
    return result;
  }

  // What gymnasium's renderer reads: self.s, self.lastaction (-1: None) and
  // self.taxi_orientation (the last move since reset, as gymnasium's has
  // when it renders every step: its render() sets it from lastaction).
  std::vector<double> RenderState() const override {
    return {static_cast<double>(s_), static_cast<double>(last_action_),
            static_cast<double>(taxi_orientation_)};
  }

  void WriteObs(const Row& row) override {
    TabularEnv::WriteObs(row);
    ActionMask(row.Info<int8_t>(1));
  }

 protected:
  static constexpr int kNumStates = 500;

  // version 4: gymnasium 1.4's Taxi-v4; 3: gymnasium 1.2's Taxi-v3 (its
  // rainy moves, and rain and fickleness at 0.8 and 0.3 without options).
  TaxiEnv(const Config& config, uint64_t seed, int version)
      : TabularEnv(seed),
        version_(version),
        is_rainy_(config.GetBool("is_rainy")),
        fickle_passenger_(config.GetBool("fickle_passenger")) {
    if (version_ >= 4) {
      rainy_probability_ = config.GetFloat("rainy_probability");
      // (1.0 - rainy_probability) / 2.0
      rainy_lateral_probability_ = (1.0 - rainy_probability_) / 2.0;
      fickle_probability_ = config.GetFloat("fickle_probability");
    }
  }

  ENVPOOL_LITE_STATE_AFTER(TabularEnv, fickle_step_, taxi_orientation_)

 private:
  struct Decoded {
    int row, col, passenger, destination;
  };
  struct Cell {
    int row, col;
    bool operator==(const Cell& o) const {
      return row == o.row && col == o.col;
    }
  };

  // gymnasium's MAP: walls '|' between columns, ':' where the taxi passes.
  static constexpr const char* kMap[7] = {
      "+---------+", "|R: | : :G|", "| : | : : |", "| : : : : |",
      "| | : | : |", "|Y| : |B: |", "+---------+"};
  static constexpr Cell kLocs[4] = {{0, 0}, {0, 4}, {4, 0}, {4, 3}};
  static constexpr int kMaxRow = 4;
  static constexpr int kMaxCol = 4;

  static int64_t Encode(int row, int col, int passenger, int destination) {
    return ((row * 5 + col) * 5 + passenger) * 4 + destination;
  }
  static Decoded Decode(int64_t s) {
    Decoded d;
    d.destination = static_cast<int>(s % 4);
    s /= 4;
    d.passenger = static_cast<int>(s % 5);
    s /= 5;
    d.col = static_cast<int>(s % 5);
    d.row = static_cast<int>(s / 5);
    return d;
  }
  static bool Passable(int map_row, int map_col) {
    return kMap[map_row][map_col] == ':';
  }
  static int Clamp(int v, int hi) { return v < 0 ? 0 : v > hi ? hi : v; }

  // initial_state_distrib: 1 for each state whose passenger waits at a
  // location other than its destination (300 of them), divided by 300.
  static const std::array<double, kNumStates>& InitialStateDistrib() {
    static const std::array<double, kNumStates> distrib = [] {
      std::array<double, kNumStates> d{};
      for (int s = 0; s < kNumStates; ++s) {
        const Decoded x = Decode(s);
        if (x.passenger < 4 && x.passenger != x.destination) d[s] = 1.0;
      }
      for (double& p : d) p /= 300.0;
      return d;
    }();
    return distrib;
  }

  // _pickup: the passenger boards where it waits; elsewhere -10.
  static void Pickup(Cell taxi, int* passenger, double* reward) {
    if (*passenger < 4 && taxi == kLocs[*passenger]) {
      *passenger = 4;
    } else {
      *reward = -10.0;
    }
  }

  // _dropoff: at the destination the episode ends (+20); at another
  // location the passenger waits there; elsewhere -10.
  static void Dropoff(Cell taxi, int destination, int* passenger,
                      double* reward, bool* terminated) {
    if (taxi == kLocs[destination] && *passenger == 4) {
      *passenger = destination;
      *terminated = true;
      *reward = 20.0;
      return;
    }
    for (int i = 0; i < 4; ++i) {
      if (taxi == kLocs[i] && *passenger == 4) {
        *passenger = i;
        return;
      }
    }
    *reward = -10.0;
  }

  // _build_dry_transitions for the current state: one row, probability 1.
  int DryTransition(int a, toy_text::Transition* rows) const {
    const Decoded d = Decode(s_);
    int new_row = d.row, new_col = d.col, passenger = d.passenger;
    double reward = -1.0;
    bool terminated = false;
    if (a == 0) {
      new_row = d.row + 1 < kMaxRow ? d.row + 1 : kMaxRow;
    } else if (a == 1) {
      new_row = d.row - 1 > 0 ? d.row - 1 : 0;
    }
    if (a == 2 && Passable(1 + d.row, 2 * d.col + 2)) {
      new_col = d.col + 1 < kMaxCol ? d.col + 1 : kMaxCol;
    } else if (a == 3 && Passable(1 + d.row, 2 * d.col)) {
      new_col = d.col - 1 > 0 ? d.col - 1 : 0;
    } else if (a == 4) {
      Pickup({d.row, d.col}, &passenger, &reward);
    } else if (a == 5) {
      Dropoff({d.row, d.col}, d.destination, &passenger, &reward, &terminated);
    }
    rows[0] = {1.0, Encode(new_row, new_col, passenger, d.destination), reward,
               terminated};
    return 1;
  }

  // _calc_new_position: where a lateral slide in the rain ends.
  Cell SlideTo(int row, int col, int dr, int dc, int v3_offset) const {
    const int new_row = Clamp(row + dr, kMaxRow);
    const int new_col = Clamp(col + dc, kMaxCol);
    if (version_ == 3) {
      // 1.2: passable if the map cell at 2 * new_col + offset is ':'.
      if (Passable(1 + new_row, 2 * new_col + v3_offset))
        return {new_row, new_col};
      return {row, col};
    }
    if (dc == 1 && !Passable(1 + new_row, 2 * new_col)) return {row, col};
    if (dc == -1 && !Passable(1 + new_row, 2 * new_col + 2)) return {row, col};
    return {new_row, new_col};
  }

  // _build_rainy_transitions for the current state: a move goes forward, or
  // slides to its left or right (three rows, reward -1); pickup and dropoff
  // stay one row of probability 1.
  int RainyTransitions(int a, toy_text::Transition* rows) const {
    // (forward, left, right) (dr, dc) per move.
    static constexpr int kMovesV4[4][3][2] = {{{1, 0}, {0, 1}, {0, -1}},
                                              {{-1, 0}, {0, -1}, {0, 1}},
                                              {{0, 1}, {-1, 0}, {1, 0}},
                                              {{0, -1}, {1, 0}, {-1, 0}}};
    static constexpr int kMovesV3[4][3][2] = {{{1, 0}, {0, -1}, {0, 1}},
                                              {{-1, 0}, {0, -1}, {0, 1}},
                                              {{0, 1}, {1, 0}, {-1, 0}},
                                              {{0, -1}, {1, 0}, {-1, 0}}};
    const Decoded d = Decode(s_);
    Cell left{d.row, d.col}, right{d.row, d.col};
    int new_row = d.row, new_col = d.col, passenger = d.passenger;
    double reward = -1.0;
    bool terminated = false;
    bool can_move;
    if (version_ == 3) {
      can_move = a == 0 || a == 1 ||
                 (a == 2 && Passable(1 + d.row, 2 * d.col + 2)) ||
                 (a == 3 && Passable(1 + d.row, 2 * d.col));
    } else {
      can_move = (a == 0 && d.row < kMaxRow) || (a == 1 && d.row > 0) ||
                 (a == 2 && Passable(1 + d.row, 2 * d.col + 2)) ||
                 (a == 3 && Passable(1 + d.row, 2 * d.col));
    }
    if (can_move) {
      const auto& m = version_ == 3 ? kMovesV3[a] : kMovesV4[a];
      new_row = Clamp(d.row + m[0][0], kMaxRow);
      new_col = Clamp(d.col + m[0][1], kMaxCol);
      left = SlideTo(d.row, d.col, m[1][0], m[1][1], /*v3_offset=*/2);
      right = SlideTo(d.row, d.col, m[2][0], m[2][1], /*v3_offset=*/0);
    } else if (a == 4) {
      Pickup({d.row, d.col}, &passenger, &reward);
    } else if (a == 5) {
      Dropoff({d.row, d.col}, d.destination, &passenger, &reward, &terminated);
    }
    const int64_t intended = Encode(new_row, new_col, passenger, d.destination);
    if (a > 3) {
      rows[0] = {1.0, intended, reward, terminated};
      return 1;
    }
    rows[0] = {rainy_probability_, intended, -1.0, terminated};
    rows[1] = {rainy_lateral_probability_,
               Encode(left.row, left.col, passenger, d.destination), -1.0,
               terminated};
    rows[2] = {rainy_lateral_probability_,
               Encode(right.row, right.col, passenger, d.destination), -1.0,
               terminated};
    return 3;
  }

  // gymnasium's action_mask(s): 1 for each action that changes the state.
  void ActionMask(int8_t* mask) const {
    const Decoded d = Decode(s_);
    const Cell taxi{d.row, d.col};
    mask[0] = d.row < kMaxRow;
    mask[1] = d.row > 0;
    mask[2] = d.col < kMaxCol && Passable(d.row + 1, 2 * d.col + 2);
    mask[3] = d.col > 0 && Passable(d.row + 1, 2 * d.col);
    mask[4] = d.passenger < 4 && taxi == kLocs[d.passenger];
    bool at_location = false;
    for (const Cell& loc : kLocs) at_location |= taxi == loc;
    mask[5] = d.passenger == 4 && (taxi == kLocs[d.destination] || at_location);
  }

  int version_;
  bool is_rainy_;
  bool fickle_passenger_;
  double rainy_probability_ = 0.8;  // v3: 0.8, 0.1, 0.1 as written
  double rainy_lateral_probability_ = 0.1;
  double fickle_probability_ = 0.3;
  bool fickle_step_ = false;
  int taxi_orientation_ = 0;
};

// Taxi-v3: gymnasium 1.2's options (no rainy_probability or
// fickle_probability) and its rain.
class TaxiV3Env : public TaxiEnv {
 public:
  static Config DefaultConfig() {
    return {{"max_episode_steps", int64_t{200}},
            {"is_rainy", false},
            {"fickle_passenger", false}};
  }

  TaxiV3Env(const Config& config, uint64_t seed)
      : TaxiEnv(config, seed, /*version=*/3) {}
};

}  // namespace envpool_lite
