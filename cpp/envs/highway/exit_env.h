// Port of highway_env/envs/exit_env.py (highway-env 1.12.1): exit-v0
// (ExitEnv) and exit-v1 (ConnectedLaneExitEnv). A highway with an exit lane
// and an exit ramp: the ego vehicle is rewarded for reaching the exit (and
// for speed); the episode ends at a crash or after `duration` seconds.
// ExitObservation is in observation.h.
#pragma once

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "envs/highway/abstract.h"
#include "envs/highway/highway_env.h"
#include "envs/highway/roundabout_env.h"

namespace envpool_lite::highway {

// class ExitEnv(HighwayEnv)
class ExitEnv : public HighwayEnv {
 public:
  static Config DefaultConfig() {
    Config c = HighwayEnv::DefaultConfig();
    c.Set("observation.type", std::string("ExitObservation"));
    c.Set("observation.vehicles_count", int64_t{15});
    c.Set("observation.features",
          StringList{"presence", "x", "y", "vx", "vy", "cos_h", "sin_h"});
    c.Set("observation.clip", false);
    c.Set("action.type", std::string("DiscreteMetaAction"));
    c.Set("action.target_speeds", NumberList{18, 24, 30});
    c.Set("lanes_count", int64_t{6});
    c.Set("collision_reward", 0.0);
    c.Set("high_speed_reward", 0.1);
    c.Set("right_lane_reward", 0.0);
    c.Set("normalize_reward", true);
    c.Set("goal_reward", 1.0);
    c.Set("vehicles_count", int64_t{20});
    c.Set("vehicles_density", 1.5);
    c.Set("controlled_vehicles", int64_t{1});
    c.Set("duration", 18.0);
    c.Set("simulation_frequency", int64_t{5});
    c.Set("scaling", 5.0);
    return c;
  }
  static std::vector<std::string> RewardNames() {
    return {"collision_reward", "goal_reward", "high_speed_reward",
            "right_lane_reward"};
  }

  explicit ExitEnv(const Config& config)
      : HighwayEnv(config), goal_reward_(config.GetFloat("goal_reward")) {
    if (lanes_count_ < 2) {
      // p = lanes / lanes.sum() is NaN for one lane: numpy's choice raises.
      throw std::invalid_argument("exit: option 'lanes_count' must be >= 2");
    }
  }

  // _reset()
  void ResetScene() override {
    CreateExitRoad();
    CreateExitVehicles();
  }

  // _create_road(road_length=1000, exit_position=400, exit_length=100)
  void CreateExitRoad(double road_length = 1000, double exit_position = 400,
                      double exit_length = 100) {
    const int lanes = static_cast<int>(lanes_count_);
    auto net = RoadNetwork::StraightRoadNetwork(lanes, 0, exit_position, 0, 30,
                                                std::make_pair("0", "1"));
    net =
        RoadNetwork::StraightRoadNetwork(lanes + 1, exit_position, exit_length,
                                         0, 30, std::make_pair("1", "2"), net);
    net = RoadNetwork::StraightRoadNetwork(
        lanes, exit_position + exit_length,
        road_length - exit_position - exit_length, 0, 30,
        std::make_pair("2", "3"), net);
    for (auto& [from, tos] : net->graph) {
      for (auto& [to, lanes_list] : tos) {
        for (size_t id = 0; id < lanes_list.size(); ++id) {
          lanes_list[id]->speed_limit = 26 - 3.4 * static_cast<double>(id);
        }
      }
    }
    // np.array of two ints (the center stays exact).
    const Vec2 exit_pos{
        exit_position + exit_length,
        static_cast<double>(lanes_count_) * CircularLane::DEFAULT_WIDTH};
    const double radius = 150;
    const Vec2 exit_center = exit_pos + Vec2{0, radius};
    net->AddLane("2", "exit",
                 std::make_shared<CircularLane>(
                     exit_center, radius, 3 * kPi / 2, 2 * kPi, true,
                     AbstractLane::DEFAULT_WIDTH, LineTypes{}, true));
    road = roads_detail::MakeRoad(net, *this);
  }

  // _create_vehicles()
  void CreateExitVehicles() {
    Road& r = *road;
    controlled_vehicles.clear();
    for (int64_t k = 0; k < controlled_vehicles_count_; ++k) {
      auto created = Vehicle::CreateRandom<Vehicle>(
          r, 25.0, std::string("0"), std::string("1"), 0, ego_spacing_);
      std::shared_ptr<Vehicle> vehicle = action_type->Make(
          r, created->position, created->heading, created->speed);
      controlled_vehicles.push_back(vehicle);
      r.vehicles.push_back(vehicle);
    }
    // p = lanes / lanes.sum(); cdf = p.cumsum(); cdf /= cdf[-1]
    const int64_t n = lanes_count_;
    int64_t total = 0;
    for (int64_t i = 0; i < n; ++i) total += i;
    std::vector<double> cdf(static_cast<size_t>(n));
    double acc = 0;
    for (int64_t i = 0; i < n; ++i) {
      acc += static_cast<double>(i) / static_cast<double>(total);
      cdf[static_cast<size_t>(i)] = acc;
    }
    const double last = cdf.back();
    for (double& x : cdf) x /= last;
    for (int64_t k = 0; k < vehicles_count_; ++k) {
      // np_random.choice(lanes, size=1, p=p): one random() draw, then
      // cdf.searchsorted(u, side="right").
      const double u = r.np_random->NextDouble();
      int64_t lane_id = 0;
      while (lane_id < n && cdf[static_cast<size_t>(lane_id)] <= u) ++lane_id;
      const auto lane = r.network->GetLane({"0", "1", lane_id});
      auto vehicle = CreateRandomOtherVehicle(
          other_vehicles_type, r, lane->speed_limit, std::string("0"),
          std::string("1"), lane_id, 1 / vehicles_density_);
      vehicle->PlanRouteTo("3");
      vehicle->enable_lane_change = false;
      r.vehicles.push_back(vehicle);
    }
  }

  // _reward(action)
  double Reward(const void* action) override {
    double reward = 0;
    for (const auto& [name, value] : Rewards(action)) {
      reward += ExitWeight(name) * value;
    }
    if (normalize_reward_) {
      reward = Lmap(reward, {collision_reward_, goal_reward_}, {0, 1});
      reward = Clip(reward, 0, 1);
    }
    return reward;
  }

  // _rewards(action)
  std::vector<std::pair<std::string, double>> Rewards(
      const void* action) override {
    Vehicle* v = vehicle();
    const LaneIndex lane_index = ExitLaneIndex();
    const double scaled_speed = Lmap(v->speed, reward_speed_range_, {0, 1});
    return {
        {"collision_reward", v->crashed ? 1.0 : 0.0},
        {"goal_reward", IsSuccess() ? 1.0 : 0.0},
        {"high_speed_reward", Clip(scaled_speed, 0, 1)},
        {"right_lane_reward", static_cast<double>(lane_index.id)},
    };
  }

  // _info's own key: is_success.
  static std::vector<ArraySpec> ExtraInfoSpecs() {
    return {MakeScalar<bool>("is_success")};
  }
  std::vector<double> ExtraInfo() override { return {IsSuccess() ? 1.0 : 0.0}; }

  // _is_success()
  bool IsSuccess() const {
    const LaneIndex lane_index = ExitLaneIndex();
    return lane_index == LaneIndex{"1", "2", lanes_count_} ||
           lane_index == LaneIndex{"2", "exit", 0};
  }

  bool IsTerminated() override { return vehicle()->crashed; }

  bool IsTruncated() override { return time >= duration_; }

 protected:
  LaneIndex ExitLaneIndex() const {
    Vehicle* v = vehicle();
    if (auto* c = As<ControlledVehicle>(v)) {
      return c->target_lane_index;
    }
    return v->lane_index;
  }

  double ExitWeight(const std::string& name) const {
    if (name == "collision_reward") return collision_reward_;
    if (name == "goal_reward") return goal_reward_;
    if (name == "high_speed_reward") return high_speed_reward_;
    if (name == "right_lane_reward") return right_lane_reward_;
    return 0;
  }

  double goal_reward_;
};

}  // namespace envpool_lite::highway
