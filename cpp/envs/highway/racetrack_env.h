// Port of highway_env/envs/racetrack_env.py (highway-env 1.12.1):
// racetrack-v0 (RacetrackEnv), racetrack-large-v0 (RacetrackEnvLarge),
// racetrack-oval-v0 (RacetrackEnvOval) and their v1 variants
// (ConnectedLane...: neighbour_vehicles_connected_lanes=True). The ego
// vehicle steers (lateral-only ContinuousAction) along a closed track among a
// few IDM vehicles, observed through an occupancy grid aligned with its axes
// (presence and on_road layers); the reward favours the lane centre and
// small actions, and the episode ends at a crash, off the road
// (terminate_off_road) or after `duration` seconds.
//
// The oval's _make_road draws a random track length (length=0) from
// `np.random.default_rng()`, a generator that highway-env never seeds. Ours
// draws the same integers(100, 200) from the env's np_random, at the same
// point of the reset (before any vehicle draw); highway-env patched so that
// its default_rng() is the env's np_random is equal to ours
// (tests/test_highway_racetrack.py). Its no_lanes=0 (a random number of
// lanes) cannot reset in highway-env (its _make_vehicles calls
// np_random.integers(0), a ValueError): ours rejects it at construction.
#pragma once

#include <cmath>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "envs/highway/abstract.h"

namespace envpool_lite::highway {

namespace racetrack_detail {

// np.deg2rad(x) of a Python int: x * (pi / 180) (numpy's loop).
inline double Deg2Rad(double x) { return x * (kPi / 180.0); }

inline std::shared_ptr<StraightLane> Straight(const Vec2& start,
                                              const Vec2& end, int left,
                                              int right, double width,
                                              double speed_limit) {
  return std::make_shared<StraightLane>(
      start, end, width, LineTypes{left, right}, false, speed_limit);
}

// CircularLane(center, radius, np.deg2rad(start), np.deg2rad(end),
// width=width, clockwise=clockwise, line_types=(left, right), speed_limit=).
inline std::shared_ptr<CircularLane> Circular(const Vec2& center, double radius,
                                              double start_deg, double end_deg,
                                              bool clockwise, int left,
                                              int right, double width,
                                              double speed_limit) {
  return std::make_shared<CircularLane>(
      center, radius, Deg2Rad(start_deg), Deg2Rad(end_deg), clockwise, width,
      LineTypes{left, right}, false, speed_limit);
}

}  // namespace racetrack_detail

class RacetrackEnv : public AbstractEnv {
 public:
  static Config DefaultConfig() {
    Config c = AbstractDefaults();
    c.Set("observation.type", std::string("OccupancyGrid"));
    c.Set("observation.features", StringList{"presence", "on_road"});
    c.Set("observation.grid_size", NumberList{-18, 18, -18, 18});
    c.Set("observation.grid_step", NumberList{3, 3});
    c.Set("observation.as_image", false);
    c.Set("observation.align_to_vehicle_axes", true);
    c.Set("action.type", std::string("ContinuousAction"));
    c.Set("action.longitudinal", false);
    c.Set("action.lateral", true);
    c.Set("action.target_speeds", NumberList{0, 5, 10});
    c.Set("simulation_frequency", int64_t{15});
    c.Set("policy_frequency", int64_t{5});
    c.Set("duration", 300.0);
    c.Set("collision_reward", -1.0);
    c.Set("lane_centering_cost", 4.0);
    c.Set("lane_centering_reward", 1.0);
    c.Set("action_reward", -0.3);
    c.Set("controlled_vehicles", int64_t{1});
    c.Set("other_vehicles", int64_t{1});
    c.Set("screen_width", int64_t{600});
    c.Set("screen_height", int64_t{600});
    c.Set("centering_position", NumberList{0.5, 0.5});
    c.Set("speed_limit", 10.0);
    c.Set("terminate_off_road", true);
    return c;
  }
  static std::vector<std::string> RewardNames() {
    return {"lane_centering_reward", "action_reward", "collision_reward",
            "on_road_reward"};
  }

  explicit RacetrackEnv(const Config& config)
      : AbstractEnv(config),
        duration_(config.GetFloat("duration")),
        collision_reward_(config.GetFloat("collision_reward")),
        lane_centering_cost_(config.GetFloat("lane_centering_cost")),
        lane_centering_reward_(config.GetFloat("lane_centering_reward")),
        action_reward_(config.GetFloat("action_reward")),
        controlled_vehicles_count_(
            config.GetInt("controlled_vehicles", 1, 1000)),
        other_vehicles_(config.GetInt("other_vehicles", -(1 << 30), 100000)),
        speed_limit_(config.GetFloat("speed_limit")),
        terminate_off_road_(config.GetBool("terminate_off_road")) {
    // action_type.vehicle_class.make_on_lane: a DiscreteMetaAction's
    // vehicle_class is a functools.partial (of MDPVehicle), which has no
    // make_on_lane, and a MultiAgentAction's is its agents' type's; with
    // either, highway-env fails at every reset (AttributeError).
    const std::string& action_type_name = config.GetString("action.type");
    const std::string& inner_type =
        config.GetString("action.action_config.type");
    if (action_type_name == "DiscreteMetaAction" ||
        (action_type_name == "MultiAgentAction" &&
         inner_type == "DiscreteMetaAction")) {
      throw std::invalid_argument(
          "racetrack: a DiscreteMetaAction cannot reset in highway-env 1.12.1 "
          "(its vehicle_class, a functools.partial, has no make_on_lane)");
    }
    if (action_type_name == "MultiAgentAction") {
      throw std::invalid_argument(
          "racetrack: a MultiAgentAction is not supported (its reward takes "
          "np.linalg.norm of the action tuple)");
    }
  }

  // _reset().
  void ResetScene() override {
    MakeRoad();
    MakeVehicles();
  }

  // _make_road().
  virtual void MakeRoad() {
    using racetrack_detail::Circular;
    using racetrack_detail::Straight;
    constexpr int C = LineType::CONTINUOUS;
    constexpr int S = LineType::STRIPED;
    constexpr int N = LineType::NONE;
    auto net = std::make_shared<RoadNetwork>();
    // speedlimits = [None, 10.0, ...]: 10.0 for every section.
    const double sl = 10.0;
    const double w = 5;

    // Straight section.
    lane = Straight({42, 0}, {100, 0}, C, S, w, sl);
    net->AddLane("a", "b", lane);
    net->AddLane("a", "b", Straight({42, 5}, {100, 5}, S, C, w, sl));

    // 2 - Circular Arc #1
    const Vec2 center1{100, -20};
    const double radii1 = 20;
    net->AddLane("b", "c",
                 Circular(center1, radii1, 90, -1, false, C, N, w, sl));
    net->AddLane("b", "c",
                 Circular(center1, radii1 + 5, 90, -1, false, S, C, w, sl));

    // 3 - Vertical Straight
    net->AddLane("c", "d", Straight({120, -20}, {120, -30}, C, N, w, sl));
    net->AddLane("c", "d", Straight({125, -20}, {125, -30}, S, C, w, sl));

    // 4 - Circular Arc #2
    const Vec2 center2{105, -30};
    const double radii2 = 15;
    net->AddLane("d", "e",
                 Circular(center2, radii2, 0, -181, false, C, N, w, sl));
    net->AddLane("d", "e",
                 Circular(center2, radii2 + 5, 0, -181, false, S, C, w, sl));

    // 5 - Circular Arc #3
    const Vec2 center3{70, -30};
    const double radii3 = 15;
    net->AddLane("e", "f",
                 Circular(center3, radii3 + 5, 0, 136, true, C, S, w, sl));
    net->AddLane("e", "f",
                 Circular(center3, radii3, 0, 137, true, N, C, w, sl));

    // 6 - Slant
    net->AddLane("f", "g", Straight({55.7, -15.7}, {35.7, -35.7}, C, N, w, sl));
    net->AddLane("f", "g",
                 Straight({59.3934, -19.2}, {39.3934, -39.2}, S, C, w, sl));

    // 7 - Circular Arc #4 (two sections)
    const Vec2 center4{18.1, -18.1};
    const double radii4 = 25;
    net->AddLane("g", "h",
                 Circular(center4, radii4, 315, 170, false, C, N, w, sl));
    net->AddLane("g", "h",
                 Circular(center4, radii4 + 5, 315, 165, false, S, C, w, sl));
    net->AddLane("h", "i",
                 Circular(center4, radii4, 170, 56, false, C, N, w, sl));
    net->AddLane("h", "i",
                 Circular(center4, radii4 + 5, 170, 58, false, S, C, w, sl));

    // 8 - Circular Arc #5, back to the start
    const Vec2 center5{43.2, 23.4};
    const double radii5 = 18.5;
    net->AddLane("i", "a",
                 Circular(center5, radii5 + 5, 240, 270, true, C, S, w, sl));
    net->AddLane("i", "a",
                 Circular(center5, radii5, 238, 268, true, N, C, w, sl));

    road = MakeRoadOf(std::move(net));
  }

  // Road(network=net, np_random=self.np_random, record_history=...,
  // neighbour_vehicles_connected_lanes=...).
  std::shared_ptr<Road> MakeRoadOf(std::shared_ptr<RoadNetwork> net) {
    return std::make_shared<Road>(
        std::move(net), std::vector<std::shared_ptr<RoadObject>>{},
        std::vector<std::shared_ptr<RoadObject>>{}, &np_random,
        config.GetBool("show_trajectories"),
        config.GetBool("neighbour_vehicles_connected_lanes"));
  }

  // _make_vehicles(): the ego vehicle on lane ("a", "b", integers(ego_lanes))
  // (RacetrackEnv: 2; the oval: its no_lanes), a vehicle ahead on ("b", "c")
  // and up to other_vehicles - 1 more, each kept if 20 m from the others.
  void MakeVehiclesOn(int64_t ego_lanes) {
    NumpyRandom& rng = np_random;
    controlled_vehicles.clear();
    LaneIndex lane_index;
    for (int64_t i = 0; i < controlled_vehicles_count_; ++i) {
      lane_index = i == 0 ? LaneIndex{"a", "b", rng.Integers(0, ego_lanes)}
                          : road->network->RandomLaneIndex(rng);
      const double longitudinal = rng.Uniform(20, 50);
      std::shared_ptr<Vehicle> controlled_vehicle = action_type->MakeOnLane(
          *road, lane_index, longitudinal, std::nullopt);
      controlled_vehicles.push_back(controlled_vehicle);
      road->vehicles.push_back(controlled_vehicle);
    }

    if (other_vehicles_ > 0) {
      // Front vehicle
      {
        const LaneIndex front{"b", "c", lane_index.id};
        const double longitudinal =
            rng.Uniform(0.0, road->network->GetLane({"b", "c", 0})->length);
        const double speed = 6.0 + rng.Uniform(0.0, 3.0);
        road->vehicles.push_back(
            Vehicle::MakeOnLane<IDMVehicle>(*road, front, longitudinal, speed));
      }
      // Other vehicles
      const int64_t count = rng.Integers(0, other_vehicles_);
      for (int64_t k = 0; k < count; ++k) {
        const LaneIndex rand_lane_index = road->network->RandomLaneIndex(rng);
        const double longitudinal =
            rng.Uniform(0.0, road->network->GetLane(rand_lane_index)->length);
        const double speed = 6.0 + rng.Uniform(0.0, 3.0);
        std::shared_ptr<IDMVehicle> vehicle = Vehicle::MakeOnLane<IDMVehicle>(
            *road, rand_lane_index, longitudinal, speed);
        // Prevent early collisions
        bool close = false;
        for (const auto& v : road->vehicles) {
          if (Norm(vehicle->position - v->position) < 20) {
            close = true;
            break;
          }
        }
        if (!close) road->vehicles.push_back(vehicle);
      }
    }
  }

  virtual void MakeVehicles() { MakeVehiclesOn(2); }

  // _reward(action). The sum of the weighted terms follows numpy's types:
  // the action term is a float32 (np.linalg.norm of the float32 action,
  // times a Python float). On a StraightLane, local_coordinates returns
  // Python floats, so the sum (a Python float, + that float32, + the
  // collision term, a Python int) is a float32 until the on-road term,
  // 0 * np.bool_ (an np.int64), makes it a float64; on a CircularLane it
  // returns np.float64 and the sum is a float64 throughout. (on_road is a
  // Python bool only when it is False, and then the reward is 0 either way.)
  double Reward(const void* action) override {
    const Terms t = ComputeTerms(action);
    Vehicle* v = vehicle();
    const double crashed = v->crashed ? 1.0 : 0.0;
    const double on_road = t.on_road ? 1.0 : 0.0;
    // sum(config.get(name, 0) * reward): on_road_reward's weight is 0.
    const double first = lane_centering_reward_ * t.lane_centering;
    double reward;
    if (t.python_float && t.action_f32) {
      float sum = static_cast<float>(first) + t.action_term_f32;
      sum = sum + static_cast<float>(collision_reward_ * crashed);
      reward = sum;
    } else {
      reward = first + t.action_term;
      reward = reward + collision_reward_ * crashed;
    }
    reward = reward + 0.0;
    // utils.lmap(reward, [collision_reward, 1], [0, 1])
    const double x0 = collision_reward_;
    reward = 0.0 + (reward - x0) * 1.0 / (1 - x0);
    reward *= on_road;
    return reward;
  }

  // _rewards(action).
  std::vector<std::pair<std::string, double>> Rewards(
      const void* action) override {
    const Terms t = ComputeTerms(action);
    return {
        {"lane_centering_reward", t.lane_centering},
        {"action_reward", t.action_norm},
        {"collision_reward", vehicle()->crashed ? 1.0 : 0.0},
        {"on_road_reward", t.on_road ? 1.0 : 0.0},
    };
  }

  bool IsTerminated() override {
    if (terminate_off_road_) {
      return vehicle()->crashed || !vehicle()->OnRoad();
    }
    return vehicle()->crashed;
  }

  bool IsTruncated() override { return time >= duration_; }

  std::shared_ptr<AbstractLane> lane;  // self.lane: the first lane

 protected:
  struct Terms {
    double lane_centering;
    bool python_float;      // local_coordinates returned Python floats
    double action_norm;     // np.linalg.norm(action)
    bool action_f32;        // ... is a float32
    float action_term_f32;  // action_reward * norm, in float32
    double action_term;     // the same as a double
    bool on_road;
  };

  Terms ComputeTerms(const void* action) const {
    Terms t{};
    Vehicle* v = vehicle();
    const Vec2 local = v->lane->LocalCoordinates(v->position);
    const double lateral = local[1];
    t.python_float =
        dynamic_cast<const StraightLane*>(v->lane.get()) != nullptr;
    // 1 / (1 + lane_centering_cost * lateral**2)
    t.lane_centering = 1 / (1 + lane_centering_cost_ * Pow2(lateral));
    const bool discrete =
        dynamic_cast<const DiscreteAction*>(action_type.get()) != nullptr ||
        dynamic_cast<const DiscreteMetaAction*>(action_type.get()) != nullptr;
    if (discrete) {
      // np.linalg.norm(int) is a float64: abs(action).
      t.action_f32 = false;
      const double a =
          action == nullptr ? 0.0 : *static_cast<const int32_t*>(action);
      t.action_norm = std::sqrt(a * a);
      t.action_term = action_reward_ * t.action_norm;
    } else {
      // np.linalg.norm of a float32 array: sqrt(x.dot(x)) in float32.
      t.action_f32 = true;
      float sq = 0.0f;
      if (action != nullptr) {
        const auto* cont =
            static_cast<const ContinuousAction*>(action_type.get());
        const float* x = static_cast<const float*>(action);
        for (int64_t i = 0; i < cont->size; ++i) sq += x[i] * x[i];
      }
      const float norm = std::sqrt(sq);
      t.action_norm = norm;
      // Python float * np.float32: a float32 product.
      t.action_term_f32 = static_cast<float>(action_reward_) * norm;
      t.action_term = t.action_term_f32;
    }
    t.on_road = v->OnRoad();
    return t;
  }

  double duration_, collision_reward_, lane_centering_cost_,
      lane_centering_reward_, action_reward_;
  int64_t controlled_vehicles_count_, other_vehicles_;
  double speed_limit_;
  bool terminate_off_road_;
};

// RacetrackEnvLarge: a larger track of three lanes (speed_limit on each).
class RacetrackEnvLarge : public RacetrackEnv {
 public:
  using RacetrackEnv::RacetrackEnv;

  void MakeRoad() override {
    using racetrack_detail::Circular;
    using racetrack_detail::Deg2Rad;
    using racetrack_detail::Straight;
    constexpr int C = LineType::CONTINUOUS;
    constexpr int S = LineType::STRIPED;
    constexpr int N = LineType::NONE;
    auto net = std::make_shared<RoadNetwork>();
    const double w = 5;
    const double w2 = 2 * w;
    const double sl = speed_limit_;

    // Straight section.
    lane = Straight({42, 0}, {200, 0}, C, S, w, sl);
    net->AddLane("a", "b", lane);
    net->AddLane("a", "b", Straight({42, w}, {200, w}, S, S, w, sl));
    net->AddLane("a", "b", Straight({42, w2}, {200, w2}, N, C, w, sl));

    // 2 - Circular Arc #1
    const Vec2 center1{200, -20};
    const double radii1 = 20;
    net->AddLane("b", "c",
                 Circular(center1, radii1, 90, -1, false, C, N, w, sl));
    net->AddLane("b", "c",
                 Circular(center1, radii1 + w, 90, -1, false, S, S, w, sl));
    net->AddLane("b", "c",
                 Circular(center1, radii1 + w2, 90, -1, false, N, C, w, sl));

    // 3 - Vertical Straight
    const double delta_extension = -1.0;
    net->AddLane(
        "c", "d",
        Straight({220, -20}, {220, -60 + delta_extension}, C, N, w, sl));
    net->AddLane("c", "d",
                 Straight({220 + w, -20}, {220 + w, -60 + delta_extension}, S,
                          S, w, sl));
    net->AddLane("c", "d",
                 Straight({220 + w2, -20}, {220 + w2, -60 + delta_extension}, N,
                          C, w, sl));

    // 4 - Circular Arc #2
    const Vec2 center4{205, -60};
    const double radii4 = 15;
    net->AddLane("d", "e",
                 Circular(center4, radii4, 0, -181, false, C, N, w, sl));
    net->AddLane("d", "e",
                 Circular(center4, radii4 + w, 0, -181, false, S, S, w, sl));
    net->AddLane("d", "e",
                 Circular(center4, radii4 + w2, 0, -181, false, N, C, w, sl));

    // 5 - Circular Arc #3
    const Vec2 center5{170, -60};
    const double radii5 = 15;
    net->AddLane("e", "f",
                 Circular(center5, radii5 + 5, 0, 136, true, C, N, w, sl));
    net->AddLane("e", "f",
                 Circular(center5, radii5, 0, 137, true, S, S, w, sl));
    net->AddLane("e", "f",
                 Circular(center5, radii5 - w, 0, 137, true, N, C, w, sl));

    // 6 - Slant, extended by [-30, -30]
    const Vec2 extend{-30, -30};
    const Vec2 start6{155.7, -45.7};
    const Vec2 end6 = Vec2{135.7, -65.7} + extend;
    net->AddLane("f", "g", Straight(start6, end6, C, N, w, sl));
    const Vec2 start6_2{159.3934, -49.2};
    const Vec2 end6_2 = Vec2{139.3934, -69.2} + extend;
    net->AddLane("f", "g", Straight(start6_2, end6_2, S, S, w, sl));
    const Vec2 start6_3{start6[0] + 2 * (start6_2[0] - start6[0]),
                        start6[1] + 2 * (start6_2[1] - start6[1])};
    const Vec2 end6_3{end6[0] + 2 * (end6_2[0] - end6[0]),
                      end6[1] + 2 * (end6_2[1] - end6[1])};
    net->AddLane("f", "g", Straight(start6_3, end6_3, N, C, w, sl));

    // 7 - Circular Arc #4, reflected with the slant
    const Vec2 center7 = Vec2{118.1, -48.1} + extend;
    const double radii7 = 25;
    const double theta7 = 317;
    const double theta7_end = 205;
    net->AddLane(
        "g", "h",
        Circular(center7, radii7, theta7, theta7_end - 3, false, C, N, w, sl));
    net->AddLane(
        "g", "h",
        Circular(center7, radii7 + 5, theta7, theta7_end, false, S, S, w, sl));
    net->AddLane(
        "g", "h",
        Circular(center7, radii7 + w2, theta7, theta7_end, false, N, C, w, sl));

    // 8 - Next slant, from the last arc's end to section 9's start.
    const double end_phase7 = Deg2Rad(theta7_end);
    const double cos7 = Np().Cos(end_phase7);
    const double sin7 = Np().Sin(end_phase7);
    const Vec2 start8{center7[0] + radii7 * cos7, center7[1] + radii7 * sin7};
    const Vec2 start8_2{center7[0] + (radii7 + w) * cos7,
                        center7[1] + (radii7 + w) * sin7};
    const Vec2 start8_3{center7[0] + (radii7 + w2) * cos7,
                        center7[1] + (radii7 + w2) * sin7};
    const double radii9 = 15;
    const double rad = Deg2Rad(30);
    const double cos9 = Np().Cos(rad);
    const double sin9 = Np().Sin(rad);
    const Vec2 end8{42 - radii9 * cos9, -radii9 - radii9 * sin9};
    const Vec2 end8_2{42 - (radii9 + w) * cos9, -radii9 - (radii9 + w) * sin9};
    const Vec2 end8_3{42 - (radii9 + w2) * cos9,
                      -radii9 - (radii9 + w2) * sin9};
    net->AddLane("h", "i", Straight(start8, end8, C, N, w, sl));
    net->AddLane("h", "i", Straight(start8_2, end8_2, S, S, w, sl));
    net->AddLane("h", "i", Straight(start8_3, end8_3, N, C, w, sl));

    // 9 - Circular arc, back to the start
    const Vec2 center9{42, -radii9};
    net->AddLane("i", "a",
                 Circular(center9, radii9, 210, 88, false, C, N, w, sl));
    net->AddLane("i", "a",
                 Circular(center9, radii9 + w, 210, 90, false, S, S, w, sl));
    net->AddLane("i", "a",
                 Circular(center9, radii9 + w2, 212, 88, false, N, C, w, sl));

    road = MakeRoadOf(std::move(net));
  }
};

// RacetrackEnvOval: an oval of no_lanes lanes with straights of `length`,
// optionally blocked by obstacles (block_lane, force_decision).
class RacetrackEnvOval : public RacetrackEnv {
 public:
  static Config DefaultConfig() {
    Config c = RacetrackEnv::DefaultConfig();
    c.Set("length", int64_t{100});  // 0: a random number from [100, 200)
    c.Set("no_lanes", int64_t{3});
    c.Set("block_lane", false);
    c.Set("force_decision", false);
    return c;
  }

  explicit RacetrackEnvOval(const Config& config)
      : RacetrackEnv(config),
        length_(config.GetInt("length", -(int64_t{1} << 40), int64_t{1} << 40)),
        no_lanes_(config.GetInt("no_lanes", 0, 1000)),
        block_lane_(config.GetBool("block_lane")),
        force_decision_(config.GetBool("force_decision")) {
    if (no_lanes_ == 0) {
      throw std::invalid_argument(
          "racetrack-oval: no_lanes=0 (a random number of lanes) fails at "
          "every reset in highway-env 1.12.1 (its _make_vehicles calls "
          "np_random.integers(0)); give a number of lanes >= 1");
    }
  }

  void MakeRoad() override {
    using racetrack_detail::Circular;
    using racetrack_detail::Straight;
    constexpr int C = LineType::CONTINUOUS;
    constexpr int S = LineType::STRIPED;
    constexpr int N = LineType::NONE;
    auto net = std::make_shared<RoadNetwork>();
    // highway-env's rng = np.random.default_rng() (unseeded): the env's
    // np_random here (see the top of this file).
    NumpyRandom& rng = np_random;
    const double sl = 10;
    const double w = 5;

    const double length =
        static_cast<double>(length_ == 0 ? rng.Integers(100, 200) : length_);
    const int64_t no_lanes = no_lanes_;
    const double last = static_cast<double>((no_lanes - 1) * 5);

    // Lane 1: inner, middle and outer lanes.
    lane = Straight({0, 0}, {length + 1, 0}, C, S, w, sl);
    net->AddLane("a", "b", lane);
    for (int64_t i = 1; i < no_lanes - 1; ++i) {
      const double d = static_cast<double>(i * 5);
      net->AddLane("a", "b", Straight({0, d}, {length + 1, d}, S, N, w, sl));
    }
    net->AddLane("a", "b",
                 Straight({0, last}, {length + 1, last}, S, C, w, sl));

    // Turn 1
    const Vec2 center1{length, -20};
    const double radii1 = 20;
    net->AddLane("b", "c",
                 Circular(center1, radii1, 90, 0, false, C, N, w, sl));
    for (int64_t i = 1; i < no_lanes - 1; ++i) {
      const double d = static_cast<double>(i * 5);
      net->AddLane("b", "c",
                   Circular(center1, radii1 + d, 90, 0, false, S, N, w, sl));
    }
    net->AddLane("b", "c",
                 Circular(center1, radii1 + last, 90, 0, false, S, C, w, sl));

    // Vertical Straight 1
    net->AddLane("c", "d",
                 Straight({length + 20, -20}, {length + 20, -50}, C, N, w, sl));
    for (int64_t i = 1; i < no_lanes - 1; ++i) {
      const double d = static_cast<double>(i * 5);
      net->AddLane("c", "d",
                   Straight({length + 20 + d, -20}, {length + 20 + d, -50}, S,
                            N, w, sl));
    }
    net->AddLane("c", "d",
                 Straight({length + 20 + last, -20}, {length + 20 + last, -50},
                          S, C, w, sl));

    // Turn 2
    const Vec2 center2{length + 5, -50};
    const double radii2 = 15;
    net->AddLane("d", "e",
                 Circular(center2, radii2, 0, -90, false, C, N, w, sl));
    for (int64_t i = 1; i < no_lanes - 1; ++i) {
      const double d = static_cast<double>(i * 5);
      net->AddLane("d", "e",
                   Circular(center2, radii2 + d, 0, -90, false, S, N, w, sl));
    }
    net->AddLane("d", "e",
                 Circular(center2, radii2 + last, 0, -90, false, S, C, w, sl));

    // Horizontal Straight 2
    net->AddLane("e", "f", Straight({length + 5, -65}, {-5, -65}, C, N, w, sl));
    for (int64_t i = 1; i < no_lanes - 1; ++i) {
      const double y = -static_cast<double>(65 + i * 5);
      net->AddLane("e", "f", Straight({length + 5, y}, {-5, y}, S, N, w, sl));
    }
    {
      const double y = -static_cast<double>(65 + (no_lanes - 1) * 5);
      net->AddLane("e", "f", Straight({length + 5, y}, {-5, y}, S, C, w, sl));
    }

    // Turn 3
    const Vec2 center4{-5, -50};
    const double radii4 = 15;
    net->AddLane("f", "g",
                 Circular(center4, radii4, -90, -180, false, C, N, w, sl));
    for (int64_t i = 1; i < no_lanes - 1; ++i) {
      const double d = static_cast<double>(i * 5);
      net->AddLane(
          "f", "g",
          Circular(center4, radii4 + d, -90, -180, false, S, N, w, sl));
    }
    net->AddLane(
        "f", "g",
        Circular(center4, radii4 + last, -90, -180, false, S, C, w, sl));

    // Vertical Straight 2
    net->AddLane("g", "h", Straight({-20, -50}, {-20, -20}, C, N, w, sl));
    for (int64_t i = 1; i < no_lanes - 1; ++i) {
      const double x = static_cast<double>(-20 - i * 5);
      net->AddLane("g", "h", Straight({x, -50}, {x, -20}, S, N, w, sl));
    }
    {
      const double x = static_cast<double>(-20 - (no_lanes - 1) * 5);
      net->AddLane("g", "h", Straight({x, -50}, {x, -20}, S, C, w, sl));
    }

    // Turn 4 (its middle lanes have a continuous right line, as there)
    const Vec2 center6{0, -20};
    const double radii6 = 20;
    net->AddLane("h", "a",
                 Circular(center6, radii6, 180, 90, false, C, N, w, sl));
    for (int64_t i = 1; i < no_lanes - 1; ++i) {
      const double d = static_cast<double>(i * 5);
      net->AddLane("h", "a",
                   Circular(center6, radii6 + d, 180, 90, false, S, C, w, sl));
    }
    net->AddLane("h", "a",
                 Circular(center6, radii6 + last, 180, 90, false, S, C, w, sl));

    road = MakeRoadOf(std::move(net));

    // Scenario to force a "binary" decision
    if (block_lane_) {
      for (double i : {40.0, 43.0, 46.0, 49.0}) {
        road->objects.push_back(
            std::make_shared<Obstacle>(road.get(), Vec2{length - i, 3.75}));
        road->objects.push_back(
            std::make_shared<Obstacle>(road.get(), Vec2{length - i, 6.25}));
      }
    }
    if (force_decision_) {
      for (double i : {-1.25, 1.25, 8.85, 11.25}) {
        road->objects.push_back(
            std::make_shared<Obstacle>(road.get(), Vec2{length - 90.0, i}));
      }
    }
  }

  // _make_vehicles(): the ego lane is integers(no_lanes) of the config.
  void MakeVehicles() override { MakeVehiclesOn(no_lanes_); }

 protected:
  int64_t length_, no_lanes_;
  bool block_lane_, force_decision_;
};

}  // namespace envpool_lite::highway
