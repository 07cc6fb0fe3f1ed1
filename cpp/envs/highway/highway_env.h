// Port of highway_env/envs/highway_env.py (highway-env 1.12.1): highway-v0
// (HighwayEnv) and highway-fast-v0 (HighwayEnvFast). The ego vehicle drives
// on a straight road of several lanes among traffic, rewarded for speed and
// for keeping right, and the episode ends at a crash (or off the road, with
// offroad_terminal) or after `duration` seconds.
#pragma once

#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "envs/highway/abstract.h"

namespace envpool_lite::highway {

class HighwayEnv : public AbstractEnv {
 public:
  static Config DefaultConfig() {
    Config c = AbstractDefaults();
    c.Set("lanes_count", int64_t{4});
    c.Set("vehicles_count", int64_t{50});
    c.Set("controlled_vehicles", int64_t{1});
    c.Set("initial_lane_id", int64_t{-1});  // -1: None (a random lane)
    c.Set("duration", 40.0);
    c.Set("ego_spacing", 2.0);
    c.Set("vehicles_density", 1.0);
    c.Set("collision_reward", -1.0);
    c.Set("right_lane_reward", 0.1);
    c.Set("high_speed_reward", 0.4);
    c.Set("lane_change_reward", 0.0);
    c.Set("reward_speed_range", NumberList{20, 30});
    c.Set("normalize_reward", true);
    c.Set("offroad_terminal", false);
    return c;
  }
  static std::vector<std::string> RewardNames() {
    return {"collision_reward", "right_lane_reward", "high_speed_reward",
            "on_road_reward"};
  }

  explicit HighwayEnv(const Config& config)
      : AbstractEnv(config),
        lanes_count_(config.GetInt("lanes_count", 1, 1000)),
        vehicles_count_(config.GetInt("vehicles_count", 0, 100000)),
        controlled_vehicles_count_(
            config.GetInt("controlled_vehicles", 1, 1000)),
        initial_lane_id_(config.GetInt("initial_lane_id", -1, 999)),
        duration_(config.GetFloat("duration")),
        ego_spacing_(config.GetFloat("ego_spacing")),
        vehicles_density_(config.GetFloat("vehicles_density")),
        collision_reward_(config.GetFloat("collision_reward")),
        right_lane_reward_(config.GetFloat("right_lane_reward")),
        high_speed_reward_(config.GetFloat("high_speed_reward")),
        lane_change_reward_(config.GetFloat("lane_change_reward")),
        reward_speed_range_(ReadRange(config, "reward_speed_range")),
        normalize_reward_(config.GetBool("normalize_reward")),
        offroad_terminal_(config.GetBool("offroad_terminal")) {
    if (initial_lane_id_ >= lanes_count_) {
      throw std::invalid_argument(
          "option 'initial_lane_id' must be below lanes_count (" +
          std::to_string(lanes_count_) + "), or None");
    }
    if (!(vehicles_density_ > 0)) {
      throw std::invalid_argument("option 'vehicles_density' must be > 0");
    }
  }

  void ResetScene() override {
    CreateRoad();
    CreateVehicles();
  }

  // _create_road().
  void CreateRoad() {
    road = std::make_shared<Road>(
        RoadNetwork::StraightRoadNetwork(static_cast<int>(lanes_count_), 0.0,
                                         10000.0, 0.0, 30.0),
        std::vector<std::shared_ptr<RoadObject>>{},
        std::vector<std::shared_ptr<RoadObject>>{}, &np_random,
        config.GetBool("show_trajectories"),
        config.GetBool("neighbour_vehicles_connected_lanes"));
  }

  // _create_vehicles().
  virtual void CreateVehicles() {
    const std::vector<int64_t> other_per_controlled =
        NearSplit(vehicles_count_, controlled_vehicles_count_);
    controlled_vehicles.clear();
    for (int64_t others : other_per_controlled) {
      std::optional<int64_t> lane_id;
      if (initial_lane_id_ >= 0) lane_id = initial_lane_id_;
      auto created = Vehicle::CreateRandom<Vehicle>(
          *road, 25.0, std::nullopt, std::nullopt, lane_id, ego_spacing_);
      std::shared_ptr<Vehicle> vehicle = action_type->Make(
          *road, created->position, created->heading, created->speed);
      controlled_vehicles.push_back(vehicle);
      road->vehicles.push_back(vehicle);
      for (int64_t i = 0; i < others; ++i) {
        std::shared_ptr<IDMVehicle> other = CreateRandomOtherVehicle(
            other_vehicles_type, *road, std::nullopt, std::nullopt,
            std::nullopt, std::nullopt, 1 / vehicles_density_);
        other->RandomizeBehavior();
        road->vehicles.push_back(other);
      }
    }
  }

  // _reward(action).
  double Reward(const void* action) override {
    const auto rewards = Rewards(action);
    // sum(config.get(name, 0) * reward): on_road_reward has no weight.
    double reward = 0;
    for (const auto& [name, value] : rewards) reward += Weight(name) * value;
    if (normalize_reward_) {
      reward = Lmap(
          reward, {collision_reward_, high_speed_reward_ + right_lane_reward_},
          {0, 1});
    }
    reward *= rewards[3].second;  // on_road_reward
    return reward;
  }

  // _rewards(action).
  std::vector<std::pair<std::string, double>> Rewards(
      const void* action) override {
    Vehicle* v = vehicle();
    const std::vector<LaneIndex> neighbours =
        road->network->AllSideLanes(v->lane_index);
    auto* controlled = As<ControlledVehicle>(v);
    const int64_t lane = controlled != nullptr
                             ? controlled->target_lane_index.id
                             : v->lane_index.id;
    // forward_speed = speed * np.cos(heading)
    const double forward_speed = v->speed * Np().Cos(v->heading);
    const double scaled_speed =
        Lmap(forward_speed, reward_speed_range_, {0, 1});
    const int64_t denominator =
        std::max<int64_t>(static_cast<int64_t>(neighbours.size()) - 1, 1);
    return {
        {"collision_reward", v->crashed ? 1.0 : 0.0},
        {"right_lane_reward",
         static_cast<double>(lane) / static_cast<double>(denominator)},
        {"high_speed_reward", std::min(std::max(scaled_speed, 0.0), 1.0)},
        {"on_road_reward", v->OnRoad() ? 1.0 : 0.0},
    };
  }

  bool IsTerminated() override {
    return vehicle()->crashed || (offroad_terminal_ && !vehicle()->OnRoad());
  }

  bool IsTruncated() override { return time >= duration_; }

 protected:
  static Interval ReadRange(const Config& config, const std::string& name) {
    const NumberList& r = config.GetNumberList(name);
    if (r.size() != 2) {
      throw std::invalid_argument("option '" + name + "' must be [low, high]");
    }
    return {r[0], r[1]};
  }

  // config.get(name, 0) of a reward term's name.
  double Weight(const std::string& name) const {
    if (name == "collision_reward") return collision_reward_;
    if (name == "right_lane_reward") return right_lane_reward_;
    if (name == "high_speed_reward") return high_speed_reward_;
    if (name == "lane_change_reward") return lane_change_reward_;
    return 0;
  }

  int64_t lanes_count_, vehicles_count_, controlled_vehicles_count_,
      initial_lane_id_;
  double duration_, ego_spacing_, vehicles_density_;
  double collision_reward_, right_lane_reward_, high_speed_reward_,
      lane_change_reward_;
  Interval reward_speed_range_;
  bool normalize_reward_, offroad_terminal_;
};

// HighwayEnvFast: fewer vehicles and lanes, 5 Hz, and only the controlled
// vehicles check their collisions.
class HighwayEnvFast : public HighwayEnv {
 public:
  static Config DefaultConfig() {
    Config c = HighwayEnv::DefaultConfig();
    c.Set("simulation_frequency", int64_t{5});
    c.Set("lanes_count", int64_t{3});
    c.Set("vehicles_count", int64_t{20});
    c.Set("duration", 30.0);
    c.Set("ego_spacing", 1.5);
    return c;
  }

  using HighwayEnv::HighwayEnv;

  void CreateVehicles() override {
    HighwayEnv::CreateVehicles();
    for (const auto& v : road->vehicles) {
      bool controlled = false;
      for (const auto& c : controlled_vehicles)
        controlled |= c.get() == v.get();
      if (!controlled) v->check_collisions = false;
    }
  }
};

}  // namespace envpool_lite::highway
