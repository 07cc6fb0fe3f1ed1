// Port of highway_env/envs/intersection_env.py (highway-env 1.12.1):
// intersection-v0 (IntersectionEnv), intersection-v1
// (ContinuousIntersectionEnv), intersection-v2 (ConnectedLaneIntersectionEnv:
// IntersectionEnv with neighbour_vehicles_connected_lanes) and the
// multi-agent ones (MultiAgentIntersectionEnv, with or without gymnasium's
// MultiAgentWrapper; multi_agent.h makes them pool envs). The ego vehicles
// cross a four-way intersection (a RegulatedRoad: vehicles yield at
// conflicts) among IDM vehicles that follow routes, arrive at random
// (spawn_probability, drawn from np_random after every step) and leave once
// they reach their exit. An episode ends at a crash, when every ego vehicle
// has arrived, or after `duration` seconds.
//
// highway-env sets DISTANCE_WANTED, COMFORT_ACC_MAX and COMFORT_ACC_MIN on
// the other vehicles' *class* at every reset (so that, in one Python
// process, the change outlives the env and reaches every later env using
// that class); here they are set on each vehicle this task spawns.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "envs/highway/abstract.h"
#include "envs/highway/regulation.h"

namespace envpool_lite::highway {

// Sets the keys of IntersectionEnv's observation dict (Kinematics) under
// `prefix` ("observation." or "observation.observation_config.").
inline void SetIntersectionKinematics(Config* c, const std::string& prefix,
                                      int64_t vehicles_count,
                                      StringList features) {
  c->Set(prefix + "type", std::string("Kinematics"));
  c->Set(prefix + "vehicles_count", vehicles_count);
  c->Set(prefix + "features", std::move(features));
  c->Set(prefix + "features_range", NamedNumbers{{"x", {-100, 100}},
                                                 {"y", {-100, 100}},
                                                 {"vx", {-20, 20}},
                                                 {"vy", {-20, 20}}});
  c->Set(prefix + "absolute", true);
  c->Set(prefix + "observe_intentions", false);
}

// Sets the keys of IntersectionEnv's action dict (DiscreteMetaAction) under
// `prefix` ("action." or "action.action_config.").
inline void SetIntersectionMetaAction(Config* c, const std::string& prefix) {
  c->Set(prefix + "type", std::string("DiscreteMetaAction"));
  c->Set(prefix + "longitudinal", true);
  c->Set(prefix + "lateral", false);
  c->Set(prefix + "target_speeds", NumberList{0, 4.5, 9});
}

class IntersectionEnv : public AbstractEnv {
 public:
  static Config DefaultConfig() {
    Config c = AbstractDefaults();
    SetIntersectionKinematics(
        &c, "observation.", 15,
        StringList{"presence", "x", "y", "vx", "vy", "cos_h", "sin_h"});
    SetIntersectionMetaAction(&c, "action.");
    c.Set("duration", 13.0);
    c.Set("destination", std::string("o1"));  // "": None (a random exit)
    c.Set("controlled_vehicles", int64_t{1});
    c.Set("initial_vehicle_count", int64_t{10});
    c.Set("spawn_probability", 0.6);
    c.Set("screen_width", int64_t{600});
    c.Set("screen_height", int64_t{600});
    c.Set("centering_position", NumberList{0.5, 0.6});
    c.Set("scaling", 5.5 * 1.3);
    c.Set("collision_reward", -5.0);
    c.Set("high_speed_reward", 1.0);
    c.Set("arrived_reward", 1.0);
    c.Set("reward_speed_range", NumberList{7.0, 9.0});
    c.Set("normalize_reward", false);
    c.Set("offroad_terminal", false);
    return c;
  }
  static std::vector<std::string> RewardNames() {
    return {"collision_reward", "high_speed_reward", "arrived_reward",
            "on_road_reward"};
  }

  explicit IntersectionEnv(const Config& config)
      : AbstractEnv(config),
        duration_(config.GetFloat("duration")),
        destination_(config.GetString("destination")),
        controlled_vehicles_count_(
            config.GetInt("controlled_vehicles", 0, 1000)),
        initial_vehicle_count_(
            config.GetInt("initial_vehicle_count", 0, 100000)),
        spawn_probability_(config.GetFloat("spawn_probability")),
        collision_reward_(config.GetFloat("collision_reward")),
        high_speed_reward_(config.GetFloat("high_speed_reward")),
        arrived_reward_(config.GetFloat("arrived_reward")),
        reward_speed_range_(ReadRange(config, "reward_speed_range")),
        normalize_reward_(config.GetBool("normalize_reward")),
        offroad_terminal_(config.GetBool("offroad_terminal")) {
    if (controlled_vehicles_count_ < 1) {
      // highway-env fails later (self.vehicle is None); the pool needs one.
      throw std::invalid_argument(
          "option 'controlled_vehicles' must be at least 1");
    }
  }

  // _reset()
  void ResetScene() override {
    MakeRoad();
    MakeVehicles(initial_vehicle_count_);
  }

  // step(action): AbstractEnv.step (whose info is computed here, before the
  // scene changes), then _clear_vehicles and _spawn_vehicle.
  StepOut Step(const void* action) {
    const StepOut out = AbstractEnv::Step(action);
    ComputeInfo(action);
    ClearVehicles();
    SpawnVehicle(0, 1.0, 1.0, spawn_probability_);
    return out;
  }

  // The info's rewards, agents_rewards and agents_terminated (_info).
  void ComputeInfo(const void* action) {
    info_rewards = Rewards(action);
    agents_rewards.clear();
    agents_terminated.clear();
    for (const auto& v : controlled_vehicles) {
      agents_rewards.push_back(AgentReward(action, *v));
      agents_terminated.push_back(AgentIsTerminal(*v));
    }
  }

  // _make_road(): a 4-way intersection.
  void MakeRoad() {
    const double lane_width = AbstractLane::DEFAULT_WIDTH;           // 4
    const double right_turn_radius = lane_width + 5;                 // 9
    const double left_turn_radius = right_turn_radius + lane_width;  // 13
    const double outer_distance = right_turn_radius + lane_width / 2;
    const double access_length = 50 + 50;

    auto net = std::make_shared<RoadNetwork>();
    const int n = LineType::NONE, c = LineType::CONTINUOUS,
              s = LineType::STRIPED;
    // np.radians(x): x * (pi / 180)
    auto radians = [](double degrees) { return degrees * (kPi / 180.0); };
    for (int corner = 0; corner < 4; ++corner) {
      const double angle = radians(90.0 * corner);
      const bool is_horizontal = corner % 2 != 0;
      const int priority = is_horizontal ? 3 : 1;
      const Mat2 rotation = RotationMatrix(angle);
      const std::string k = std::to_string(corner);
      const std::string prev = std::to_string((corner + 3) % 4);
      const std::string next = std::to_string((corner + 1) % 4);
      const std::string opposite = std::to_string((corner + 2) % 4);
      // Incoming
      Vec2 start =
          MatVec(rotation, {lane_width / 2, access_length + outer_distance});
      Vec2 end = MatVec(rotation, {lane_width / 2, outer_distance});
      net->AddLane(
          "o" + k, "ir" + k,
          std::make_shared<StraightLane>(
              start, end, lane_width, LineTypes{s, c}, false, 10.0, priority));
      // Right turn
      const Vec2 r_center = MatVec(rotation, {outer_distance, outer_distance});
      net->AddLane("ir" + k, "il" + prev,
                   std::make_shared<CircularLane>(
                       r_center, right_turn_radius, angle + radians(180),
                       angle + radians(270), true, lane_width, LineTypes{n, c},
                       false, 10.0, priority));
      // Left turn
      const Vec2 l_center =
          MatVec(rotation, {-left_turn_radius + lane_width / 2,
                            left_turn_radius - lane_width / 2});
      net->AddLane("ir" + k, "il" + next,
                   std::make_shared<CircularLane>(
                       l_center, left_turn_radius, angle + radians(0),
                       angle + radians(-90), false, lane_width, LineTypes{n, n},
                       false, 10.0, priority - 1));
      // Straight
      start = MatVec(rotation, {lane_width / 2, outer_distance});
      end = MatVec(rotation, {lane_width / 2, -outer_distance});
      net->AddLane(
          "ir" + k, "il" + opposite,
          std::make_shared<StraightLane>(
              start, end, lane_width, LineTypes{s, n}, false, 10.0, priority));
      // Exit: `rotation @ np.flip(...)`, a vector of negative stride, which
      // numpy multiplies without BLAS (a sum from 0, no FMA).
      start = FlippedMatVec(rotation,
                            {lane_width / 2, access_length + outer_distance});
      end = FlippedMatVec(rotation, {lane_width / 2, outer_distance});
      net->AddLane(
          "il" + prev, "o" + prev,
          std::make_shared<StraightLane>(
              end, start, lane_width, LineTypes{n, c}, false, 10.0, priority));
    }
    road = std::make_shared<RegulatedRoad>(
        net, std::vector<std::shared_ptr<RoadObject>>{},
        std::vector<std::shared_ptr<RoadObject>>{}, &np_random,
        config.GetBool("show_trajectories"),
        config.GetBool("neighbour_vehicles_connected_lanes"));
  }

  // _make_vehicles(n_vehicles)
  void MakeVehicles(int64_t n_vehicles = 10) {
    // Random vehicles
    const int64_t simulation_steps = 3;
    for (int64_t t = 0; t < n_vehicles - 1; ++t) {
      // np.linspace(0, 80, n_vehicles)[t]: t * (80 / (n - 1)) + 0
      const double step = 80.0 / static_cast<double>(n_vehicles - 1);
      SpawnVehicle(static_cast<double>(t) * step + 0.0);
    }
    const int64_t frequency = config.GetInt("simulation_frequency");
    for (int64_t i = 0; i < simulation_steps; ++i) {
      for (int64_t j = 0; j < frequency; ++j) {
        road->Act();
        road->Step(1 / static_cast<double>(frequency));
      }
    }

    // Challenger vehicle
    SpawnVehicle(60, 0.1, 0.0, 1.0, true);

    // Controlled vehicles
    controlled_vehicles.clear();
    for (int64_t ego_id = 0; ego_id < controlled_vehicles_count_; ++ego_id) {
      const std::string k = std::to_string(ego_id % 4);
      const std::shared_ptr<AbstractLane>& ego_lane =
          road->network->GetLane({"o" + k, "ir" + k, 0});
      const std::string destination =
          !destination_.empty()
              ? destination_
              : "o" + std::to_string(np_random.Integers(1, 4));
      const double normal = 1.0 + 1.0 * StandardNormal(np_random);
      std::shared_ptr<Vehicle> ego_vehicle =
          action_type->Make(*road, ego_lane->Position(60.0 + 5.0 * normal, 0.0),
                            ego_lane->HeadingAt(60.0), ego_lane->speed_limit);
      // try: plan_route_to, speed_index, target_speed; except
      // AttributeError (a Vehicle or BicycleVehicle has none of them).
      if (auto* controlled = As<ControlledVehicle>(ego_vehicle.get())) {
        controlled->PlanRouteTo(destination);
        if (auto* mdp = As<MDPVehicle>(controlled)) {
          mdp->speed_index = mdp->SpeedToIndex(ego_lane->speed_limit);
          mdp->target_speed = mdp->IndexToSpeed(mdp->speed_index);
        }
      }

      road->vehicles.push_back(ego_vehicle);
      controlled_vehicles.push_back(ego_vehicle);
      // Prevent early collisions
      const std::vector<std::shared_ptr<RoadObject>> copy = road->vehicles;
      for (const auto& v : copy) {
        if (!IsControlled(v.get()) &&
            Norm(v->position - ego_vehicle->position) < 20) {
          road->vehicles.erase(
              std::find(road->vehicles.begin(), road->vehicles.end(), v));
        }
      }
    }
  }

  // _spawn_vehicle(longitudinal=0, position_deviation=1.0,
  // speed_deviation=1.0, spawn_probability=0.6, go_straight=False)
  std::shared_ptr<IDMVehicle> SpawnVehicle(double longitudinal = 0,
                                           double position_deviation = 1.0,
                                           double speed_deviation = 1.0,
                                           double spawn_probability = 0.6,
                                           bool go_straight = false) {
    if (np_random.Uniform(0.0, 1.0) > spawn_probability) return nullptr;

    std::array<int64_t, 2> route = ChooseTwoOfFour();
    route[1] = go_straight ? (route[0] + 2) % 4 : route[1];
    // normal(): 0.0 + 1.0 * standard_normal
    const double position_normal = 0.0 + 1.0 * StandardNormal(np_random);
    const double lon =
        longitudinal + 5.0 + position_normal * position_deviation;
    const double speed_normal = 0.0 + 1.0 * StandardNormal(np_random);
    const double speed = 8.0 + speed_normal * speed_deviation;
    const std::string from = std::to_string(route[0]);
    std::shared_ptr<IDMVehicle> vehicle = MakeOtherVehicleOnLane(
        other_vehicles_type, *road, {"o" + from, "ir" + from, 0}, lon, speed);
    // The class attributes _make_vehicles sets.
    vehicle->DISTANCE_WANTED = 7;  // Low jam distance
    vehicle->COMFORT_ACC_MAX = 6;
    vehicle->COMFORT_ACC_MIN = -3;
    for (const auto& v : road->vehicles) {
      if (Norm(v->position - vehicle->position) < 15) return nullptr;
    }
    vehicle->PlanRouteTo("o" + std::to_string(route[1]));
    vehicle->RandomizeBehavior();
    road->vehicles.push_back(vehicle);
    return vehicle;
  }

  // _clear_vehicles()
  void ClearVehicles() {
    auto is_leaving = [](const RoadObject& vehicle) {
      return Contains(vehicle.lane_index.from, "il") &&
             Contains(vehicle.lane_index.to, "o") &&
             vehicle.lane->LocalCoordinates(vehicle.position)[0] >=
                 vehicle.lane->length - 4 * vehicle.LENGTH;
    };
    std::vector<std::shared_ptr<RoadObject>> kept;
    for (const auto& vehicle : road->vehicles) {
      // (`vehicle.route is None` never holds: routes are lists.)
      if (IsControlled(vehicle.get()) || !is_leaving(*vehicle)) {
        kept.push_back(vehicle);
      }
    }
    road->vehicles = std::move(kept);
  }

  // has_arrived(vehicle, exit_distance=25)
  static bool HasArrived(const Vehicle& vehicle, double exit_distance = 25) {
    return Contains(vehicle.lane_index.from, "il") &&
           Contains(vehicle.lane_index.to, "o") &&
           vehicle.lane->LocalCoordinates(vehicle.position)[0] >= exit_distance;
  }

  // _reward(action): the mean of the agents' rewards.
  double Reward(const void* action) override {
    double sum = 0;
    for (const auto& v : controlled_vehicles) sum += AgentReward(action, *v);
    return sum / static_cast<double>(controlled_vehicles.size());
  }

  // _rewards(action): the mean of each term over the agents.
  std::vector<std::pair<std::string, double>> Rewards(
      const void* action) override {
    std::vector<std::vector<std::pair<std::string, double>>> agents;
    for (const auto& v : controlled_vehicles) {
      agents.push_back(AgentRewards(action, *v));
    }
    std::vector<std::pair<std::string, double>> out;
    for (std::size_t k = 0; k < agents[0].size(); ++k) {
      double sum = 0;
      for (const auto& agent : agents) sum += agent[k].second;
      out.emplace_back(agents[0][k].first,
                       sum / static_cast<double>(agents.size()));
    }
    return out;
  }

  // _agent_reward(action, vehicle)
  double AgentReward(const void* action, const Vehicle& vehicle) const {
    const auto rewards = AgentRewards(action, vehicle);
    // sum(config.get(name, 0) * reward): on_road_reward has no weight.
    double reward = 0;
    reward += collision_reward_ * rewards[0].second;
    reward += high_speed_reward_ * rewards[1].second;
    reward += arrived_reward_ * rewards[2].second;
    reward += 0.0 * rewards[3].second;
    reward = rewards[2].second != 0 ? arrived_reward_ : reward;
    reward *= rewards[3].second;
    if (normalize_reward_) {
      reward = Lmap(reward, {collision_reward_, arrived_reward_}, {0, 1});
    }
    return reward;
  }

  // _agent_rewards(action, vehicle)
  std::vector<std::pair<std::string, double>> AgentRewards(
      const void* /*action*/, const Vehicle& vehicle) const {
    const double scaled_speed =
        Lmap(vehicle.speed, reward_speed_range_, {0, 1});
    return {
        {"collision_reward", vehicle.crashed ? 1.0 : 0.0},
        {"high_speed_reward", Clip(scaled_speed, 0, 1)},
        {"arrived_reward", HasArrived(vehicle) ? 1.0 : 0.0},
        {"on_road_reward", vehicle.OnRoad() ? 1.0 : 0.0},
    };
  }

  bool IsTerminated() override {
    bool any_crashed = false, all_arrived = true;
    for (const auto& v : controlled_vehicles) {
      any_crashed = any_crashed || v->crashed;
      all_arrived = all_arrived && HasArrived(*v);
    }
    return any_crashed || all_arrived ||
           (offroad_terminal_ && !vehicle()->OnRoad());
  }

  // _agent_is_terminal(vehicle)
  static bool AgentIsTerminal(const Vehicle& vehicle) {
    return vehicle.crashed || HasArrived(vehicle);
  }

  bool IsTruncated() override { return time >= duration_; }

  // The info of the last step (or reset): _rewards, and the per-agent
  // agents_rewards and agents_terminated.
  std::vector<std::pair<std::string, double>> info_rewards;
  std::vector<double> agents_rewards;
  std::vector<bool> agents_terminated;

 protected:
  static bool Contains(const std::string& s, const char* part) {
    return s.find(part) != std::string::npos;
  }

  bool IsControlled(const RoadObject* v) const {
    for (const auto& c : controlled_vehicles) {
      if (static_cast<const RoadObject*>(c.get()) == v) return true;
    }
    return false;
  }

  // `m @ v[::-1]` (np.flip): numpy's matmul loop without BLAS,
  // ((0 + m[i][0] * w[0]) + m[i][1] * w[1]) with w the flipped vector.
  static Vec2 FlippedMatVec(const Mat2& m, const Vec2& v) {
    const Vec2 w{v[1], v[0]};
    return {0.0 + m[0][0] * w[0] + m[0][1] * w[1],
            0.0 + m[1][0] * w[0] + m[1][1] * w[1]};
  }

  // np_random.choice(range(4), size=2, replace=False): numpy's Floyd
  // sampling (a value in [0, j] for j = 2, 3; j itself if the value was
  // drawn already), then a shuffle of the two (the last swapped with a
  // position in [0, 1]).
  std::array<int64_t, 2> ChooseTwoOfFour() {
    std::array<int64_t, 2> idx{};
    idx[0] = np_random.Integers(0, 3);
    const int64_t val = np_random.Integers(0, 4);
    idx[1] = val == idx[0] ? 3 : val;
    const int64_t j = np_random.Integers(0, 2);
    std::swap(idx[j], idx[1]);
    return idx;
  }

  static Interval ReadRange(const Config& config, const std::string& name) {
    const NumberList& r = config.GetNumberList(name);
    if (r.size() != 2) {
      throw std::invalid_argument("option '" + name + "' must be [low, high]");
    }
    return {r[0], r[1]};
  }

  double duration_;
  std::string destination_;
  int64_t controlled_vehicles_count_, initial_vehicle_count_;
  double spawn_probability_;
  double collision_reward_, high_speed_reward_, arrived_reward_;
  Interval reward_speed_range_;
  bool normalize_reward_, offroad_terminal_;
};

// ContinuousIntersectionEnv: ContinuousAction (dynamical: a BicycleVehicle)
// and 5 vehicles observed with their lane offsets.
class ContinuousIntersectionEnv : public IntersectionEnv {
 public:
  static Config DefaultConfig() {
    Config c = IntersectionEnv::DefaultConfig();
    // update_config replaces the observation and action dicts whole.
    AddObservationKeys(&c, "observation.");
    AddActionKeys(&c, "action.");
    SetIntersectionKinematics(&c, "observation.", 5,
                              StringList{"presence", "x", "y", "vx", "vy",
                                         "long_off", "lat_off", "ang_off"});
    c.Set("action.type", std::string("ContinuousAction"));
    c.Set("action.steering_range", NumberList{-kPi / 3, kPi / 3});
    c.Set("action.longitudinal", true);
    c.Set("action.lateral", true);
    c.Set("action.dynamical", true);
    c.Set("action.target_speeds", NumberList{0, 4.5, 9});  // ignored
    return c;
  }

  using IntersectionEnv::IntersectionEnv;
};

// MultiAgentIntersectionEnv: two controlled vehicles, each with its own
// observation and action (MultiAgentObservation, MultiAgentAction).
class MultiAgentIntersectionEnv : public IntersectionEnv {
 public:
  static Config DefaultConfig() {
    Config c = IntersectionEnv::DefaultConfig();
    // update_config replaces the observation and action dicts whole.
    AddObservationKeys(&c, "observation.");
    AddActionKeys(&c, "action.");
    c.Set("action.type", std::string("MultiAgentAction"));
    SetIntersectionMetaAction(&c, "action.action_config.");
    c.Set("observation.type", std::string("MultiAgentObservation"));
    SetIntersectionKinematics(
        &c, "observation.observation_config.", 15,
        StringList{"presence", "x", "y", "vx", "vy", "cos_h", "sin_h"});
    c.Set("controlled_vehicles", int64_t{2});
    return c;
  }

  using IntersectionEnv::IntersectionEnv;
};

}  // namespace envpool_lite::highway
