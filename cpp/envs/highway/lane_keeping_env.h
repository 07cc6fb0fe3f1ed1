// Port of highway_env/envs/lane_keeping_env.py (highway-env 1.12.1):
// lane-keeping-v0 (LaneKeepingEnv). A BicycleVehicle (dynamics.h) steered
// with a lateral-only dynamical ContinuousAction must follow a straight lane
// then a sine lane; it observes noisy state and derivative attributes and
// the lane's reference state (AttributesObservation), and is rewarded by
// 1 - (lateral offset / lane width)^2. It never terminates: highway-env
// registers it with a TimeLimit of 200 steps.
//
// LaneKeepingEnv overrides highway-env's reset path only through
// define_spaces()'s observation (AttributesObservation reads the env's
// properties, whose noise is drawn from np_random) and its own step().
// HighwayPoolEnv<LaneKeepingEnv> calls task.Reset() and task.Step(action)
// on the task's own type, so the Reset() and Step() below (which hide
// AbstractEnv's non-virtual ones) are the ones it runs.
//
// Not ported: store_data()'s trajectory (kept by highway-env for its
// rendering, never reset) and the LPV interval predictor (self.lpv is
// always None).
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "envs/highway/abstract.h"
#include "envs/highway/dynamics.h"

namespace envpool_lite::highway {

class LaneKeepingEnv : public AbstractEnv {
 public:
  static Config DefaultConfig() {
    Config c = AbstractDefaults();
    c.Set("observation.type", std::string("AttributesObservation"));
    c.Set("observation.attributes",
          StringList{"state", "derivative", "reference_state"});
    c.Set("action.type", std::string("ContinuousAction"));
    c.Set("action.steering_range", NumberList{-kPi / 3, kPi / 3});
    c.Set("action.longitudinal", false);
    c.Set("action.lateral", true);
    c.Set("action.dynamical", true);
    c.Set("simulation_frequency", int64_t{10});
    c.Set("policy_frequency", int64_t{10});
    c.Set("state_noise", 0.05);
    c.Set("derivative_noise", 0.05);
    c.Set("screen_width", int64_t{600});
    c.Set("screen_height", int64_t{250});
    c.Set("scaling", 7.0);
    c.Set("centering_position", NumberList{0.4, 0.5});
    return c;
  }
  // _rewards() is AbstractEnv's (NotImplementedError): no reward terms.
  static std::vector<std::string> RewardNames() { return {}; }

  explicit LaneKeepingEnv(const Config& config)
      : AbstractEnv(config),
        state_noise_(config.GetFloat("state_noise")),
        derivative_noise_(config.GetFloat("derivative_noise")) {}

  // AbstractEnv.reset() after the seeding, with this env's define_spaces().
  // highway-env's __init__ resets the env, then sets self.lane = None and
  // self.lanes = []: so does the first Reset() (HighwayPoolEnv's
  // constructor makes it, as gymnasium.make() does), and the next reset's
  // first define_spaces() observes a reference state of zeros.
  void Reset() {
    DefineSpaces();
    BeginEpisode();
    time = 0;
    steps = 0;
    done = false;
    ResetScene();
    road->neighbour_vehicles_connected_lanes =
        config.GetBool("neighbour_vehicles_connected_lanes");
    DefineSpaces();
    obs = observation_type->Observe();
    if (!initialized_) {
      lane = nullptr;
      lanes.clear();
      initialized_ = true;
    }
  }

  // define_spaces(), with AttributesObservation's getattr(env, attribute)
  // wired to this env's properties. AbstractEnv::DefineSpaces()'s space()
  // call meets an unwired AttributesObservation, which throws before it
  // observes anything (no draw); the space() below is then the one observe
  // of highway-env's define_spaces(), with its draws.
  void DefineSpaces() {
    AbstractEnv::DefineSpaces();
    if (auto* attributes =
            dynamic_cast<AttributesObservation*>(observation_type.get())) {
      attributes->get_attribute = [this](const std::string& name) {
        return Attribute(name);
      };
      try {
        attributes->Space();
      } catch (const std::exception&) {
      }
    }
  }

  // step(action): the lane switch, the action, the observation (before the
  // simulation), then the simulation without an action.
  StepOut Step(const void* action) {
    if (!lanes.empty() && !lane->OnLane(vehicle()->position)) {
      lane = lanes.front();
      lanes.erase(lanes.begin());
    }
    action_type->Act(action);
    obs = observation_type->Observe();
    Simulate(nullptr);
    StepOut out;
    out.reward = Reward(action);
    out.terminated = IsTerminated();
    out.truncated = IsTruncated();
    return out;
  }

  // _reward(action): 1 - (lat / lane.width) ** 2.
  double Reward(const void* action) override {
    const Vec2 local = lane->LocalCoordinates(vehicle()->position);
    return 1 - Pow2(local[1] / lane->width);
  }

  std::vector<std::pair<std::string, double>> Rewards(
      const void* action) override {
    return {};
  }

  bool IsTerminated() override { return false; }
  bool IsTruncated() override { return false; }

  void ResetScene() override {
    MakeRoad();
    MakeVehicles();
  }

  // _make_road(): a straight lane leading to a sine lane.
  void MakeRoad() {
    auto net = std::make_shared<RoadNetwork>();
    auto sine = std::make_shared<SineLane>(
        Vec2{0, 0}, Vec2{500, 0}, 5, 2 * kPi / 100, 0, 10,
        LineTypes{LineType::STRIPED, LineType::STRIPED});
    net->AddLane("a", "b", sine);
    auto other_lane = std::make_shared<StraightLane>(
        Vec2{50, 50}, Vec2{115, 15}, 10,
        LineTypes{LineType::STRIPED, LineType::STRIPED});
    net->AddLane("c", "d", other_lane);
    lanes = {other_lane, sine};
    lane = lanes.front();
    lanes.erase(lanes.begin());
    // [115 + 20, 15 + 20 * (15 - 50) / (115 - 50)]
    net->AddLane("d", "a",
                 std::make_shared<StraightLane>(
                     Vec2{115, 15},
                     Vec2{115 + 20, 15 + static_cast<double>(20 * (15 - 50)) /
                                             (115 - 50)},
                     10, LineTypes{LineType::NONE, LineType::STRIPED}));
    road = std::make_shared<Road>(
        net, std::vector<std::shared_ptr<RoadObject>>{},
        std::vector<std::shared_ptr<RoadObject>>{}, &np_random,
        config.GetBool("show_trajectories"),
        config.GetBool("neighbour_vehicles_connected_lanes"));
  }

  // _make_vehicles(): the ego vehicle on the straight lane.
  void MakeVehicles() {
    const std::shared_ptr<AbstractLane>& cd =
        road->network->GetLane({"c", "d", 0});
    std::shared_ptr<Vehicle> ego_vehicle =
        action_type->Make(*road, cd->Position(50, -4), cd->HeadingAt(0), 8.3);
    road->vehicles.push_back(ego_vehicle);
    controlled_vehicles = {ego_vehicle};  // self.vehicle = ego_vehicle
  }

  // The state / derivative / reference_state properties (and AttributeError
  // for any other name), as (4, 1) float64 columns.
  AttributesObservation::Value Attribute(const std::string& name) {
    if (name == "state") return State();
    if (name == "derivative") return Derivative();
    if (name == "reference_state") return ReferenceState();
    throw std::invalid_argument("AttributeError: '" + name +
                                "' is not an attribute of LaneKeepingEnv");
  }

  // property state: state[[1, 2, 4, 5]] + uniform(-state_noise,
  // state_noise, size=(4, 1)).
  AttributesObservation::Value State() {
    if (vehicle() == nullptr) return Zeros();
    return Noisy(Bicycle()->State(), state_noise_);
  }

  // property derivative: derivative[[1, 2, 4, 5]] + uniform(...).
  AttributesObservation::Value Derivative() {
    if (vehicle() == nullptr) return Zeros();
    return Noisy(Bicycle()->Derivative(), derivative_noise_);
  }

  // property reference_state: [[y - lat], [psi_l], [0], [0]].
  AttributesObservation::Value ReferenceState() {
    if (vehicle() == nullptr || lane == nullptr) return Zeros();
    const Vec2 local = lane->LocalCoordinates(vehicle()->position);
    const double psi_l = lane->HeadingAt(local[0]);
    const State6 state = Bicycle()->State();
    return {{4, 1}, {state[1] - local[1], psi_l, 0, 0}};
  }

  std::shared_ptr<AbstractLane> lane;
  std::vector<std::shared_ptr<AbstractLane>> lanes;

 private:
  static AttributesObservation::Value Zeros() { return {{4, 1}, {0, 0, 0, 0}}; }

  BicycleVehicle* Bicycle() const {
    auto* bicycle = As<BicycleVehicle>(vehicle());
    if (bicycle == nullptr) {
      throw std::invalid_argument(
          "lane-keeping: the vehicle has no state (its action type must be a "
          "dynamical ContinuousAction)");
    }
    return bicycle;
  }

  // x[[1, 2, 4, 5]] + np_random.uniform(low=-noise, high=noise, size=(4, 1)):
  // the draws in order, low + (high - low) * random().
  AttributesObservation::Value Noisy(const State6& x, double noise) {
    AttributesObservation::Value out{{4, 1}, {}};
    for (int i : {1, 2, 4, 5}) {
      out.data.push_back(x[i] + np_random.Uniform(-noise, noise));
    }
    return out;
  }

  double state_noise_, derivative_noise_;
  bool initialized_ = false;
};

}  // namespace envpool_lite::highway
