// Port of highway_env/envs/two_way_env.py (highway-env 1.12.1): two-way-v0
// (TwoWayEnv, registered with a 15-step TimeLimit). The ego vehicle drives
// on a two-way road with oncoming traffic, rewarded for speed and for the
// left (overtaking) lane; the episode ends at a crash.
#pragma once

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "envs/highway/abstract.h"
#include "envs/highway/roundabout_env.h"

namespace envpool_lite::highway {

// class TwoWayEnv(AbstractEnv)
class TwoWayEnv : public AbstractEnv {
 public:
  static Config DefaultConfig() {
    Config c = AbstractDefaults();
    c.Set("observation.type", std::string("TimeToCollision"));
    c.Set("observation.horizon", 5.0);
    c.Set("action.type", std::string("DiscreteMetaAction"));
    c.Set("collision_reward", 0.0);
    c.Set("left_lane_constraint", 1.0);
    c.Set("left_lane_reward", 0.2);
    c.Set("high_speed_reward", 0.8);
    return c;
  }
  static std::vector<std::string> RewardNames() {
    return {"high_speed_reward", "left_lane_reward"};
  }

  explicit TwoWayEnv(const Config& config)
      : AbstractEnv(config),
        left_lane_reward_(config.GetFloat("left_lane_reward")),
        high_speed_reward_(config.GetFloat("high_speed_reward")) {
    config.GetFloat("collision_reward");
    config.GetFloat("left_lane_constraint");
  }

  // _reset()
  void ResetScene() override {
    MakeRoad();
    MakeVehicles();
  }

  // _reward(action): sum(config.get(name, 0) * reward).
  double Reward(const void* action) override {
    double reward = 0;
    for (const auto& [name, value] : Rewards(action)) {
      reward += Weight(name) * value;
    }
    return reward;
  }

  // _rewards(action): the ego vehicle must be an MDPVehicle (Python reads
  // its speed_index and target_speeds: AttributeError otherwise).
  std::vector<std::pair<std::string, double>> Rewards(
      const void* action) override {
    auto* v = As<MDPVehicle>(vehicle());
    if (v == nullptr) {
      throw std::invalid_argument(
          "two-way-v0: the ego vehicle has no speed_index (AttributeError in "
          "highway-env): use a DiscreteMetaAction");
    }
    const std::vector<LaneIndex> neighbours =
        road->network->AllSideLanes(v->lane_index);
    const double n = static_cast<double>(neighbours.size());
    return {
        {"high_speed_reward",
         static_cast<double>(v->speed_index) /
             static_cast<double>(v->target_speeds.size() - 1)},
        {"left_lane_reward",
         (n - 1 - static_cast<double>(v->target_lane_index.id)) / (n - 1)},
    };
  }

  bool IsTerminated() override { return vehicle()->crashed; }

  bool IsTruncated() override { return false; }

  // _make_road(length=800)
  void MakeRoad(double length = 800) {
    auto net = std::make_shared<RoadNetwork>();
    const double W = StraightLane::DEFAULT_WIDTH;
    net->AddLane("a", "b",
                 std::make_shared<StraightLane>(
                     Vec2{0, 0}, Vec2{length, 0}, W,
                     LineTypes{LineType::CONTINUOUS_LINE, LineType::STRIPED}));
    net->AddLane("a", "b",
                 std::make_shared<StraightLane>(
                     Vec2{0, W}, Vec2{length, W}, W,
                     LineTypes{LineType::NONE, LineType::CONTINUOUS_LINE}));
    net->AddLane("b", "a",
                 std::make_shared<StraightLane>(
                     Vec2{length, 0}, Vec2{0, 0}, W,
                     LineTypes{LineType::NONE, LineType::NONE}));
    road = roads_detail::MakeRoad(net, *this);
  }

  // _make_vehicles()
  void MakeVehicles() {
    Road& r = *road;
    std::shared_ptr<Vehicle> ego = action_type->Make(
        r, r.network->GetLane({"a", "b", 1})->Position(30.0, 0.0), 0, 30.0);
    r.vehicles.push_back(ego);
    controlled_vehicles = {ego};

    const auto ab1 = r.network->GetLane({"a", "b", 1});
    for (int i = 0; i < 3; ++i) {
      const double x = 70.0 + 40.0 * static_cast<double>(i);
      const Vec2 position =
          ab1->Position(x + 10.0 * StandardNormal(np_random), 0.00);
      const double heading = ab1->HeadingAt(x);
      const double speed = 24.0 + 2.0 * StandardNormal(np_random);
      r.vehicles.push_back(MakeOtherVehicle(other_vehicles_type, r, position,
                                            heading, speed, std::nullopt,
                                            std::nullopt, {}, false));
    }
    const auto ba0 = r.network->GetLane({"b", "a", 0});
    for (int i = 0; i < 2; ++i) {
      const double x = 200.0 + 100.0 * static_cast<double>(i);
      const Vec2 position =
          ba0->Position(x + 10.0 * StandardNormal(np_random), 0);
      const double heading = ba0->HeadingAt(x);
      const double speed = 20.0 + 5.0 * StandardNormal(np_random);
      auto v = MakeOtherVehicle(other_vehicles_type, r, position, heading,
                                speed, std::nullopt, std::nullopt, {}, false);
      v->target_lane_index = {"b", "a", 0};
      r.vehicles.push_back(v);
    }
  }

 protected:
  double Weight(const std::string& name) const {
    if (name == "left_lane_reward") return left_lane_reward_;
    if (name == "high_speed_reward") return high_speed_reward_;
    return 0;
  }

  double left_lane_reward_, high_speed_reward_;
};

}  // namespace envpool_lite::highway
