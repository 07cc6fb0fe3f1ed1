// Port of highway_env/envs/u_turn_env.py (highway-env 1.12.1): u-turn-v0
// (UTurnEnv) and u-turn-v1 (ConnectedLaneUTurnEnv). The ego vehicle drives a
// two-lane road with a counter-clockwise U-turn, overtaking slow vehicles;
// rewarded for speed and the left lane; the episode ends at a crash or after
// `duration` seconds.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "envs/highway/abstract.h"
#include "envs/highway/merge_env.h"
#include "envs/highway/roundabout_env.h"

namespace envpool_lite::highway {

// class UTurnEnv(AbstractEnv)
class UTurnEnv : public AbstractEnv {
 public:
  static Config DefaultConfig() {
    Config c = AbstractDefaults();
    c.Set("observation.type", std::string("TimeToCollision"));
    c.Set("observation.horizon", 16.0);
    c.Set("action.type", std::string("DiscreteMetaAction"));
    c.Set("action.target_speeds", NumberList{8, 16, 24});
    c.Set("screen_width", int64_t{789});
    c.Set("screen_height", int64_t{289});
    c.Set("duration", 10.0);
    c.Set("collision_reward", -1.0);
    c.Set("left_lane_reward", 0.1);
    c.Set("high_speed_reward", 0.4);
    c.Set("reward_speed_range", NumberList{8, 24});
    c.Set("normalize_reward", true);
    c.Set("offroad_terminal", false);
    return c;
  }
  static std::vector<std::string> RewardNames() {
    return {"collision_reward", "left_lane_reward", "high_speed_reward",
            "on_road_reward"};
  }

  explicit UTurnEnv(const Config& config)
      : AbstractEnv(config),
        duration_(config.GetFloat("duration")),
        collision_reward_(config.GetFloat("collision_reward")),
        left_lane_reward_(config.GetFloat("left_lane_reward")),
        high_speed_reward_(config.GetFloat("high_speed_reward")),
        reward_speed_range_(
            roads_detail::ReadRange(config, "reward_speed_range")),
        normalize_reward_(config.GetBool("normalize_reward")) {
    config.GetBool("offroad_terminal");
  }

  // _reset()
  void ResetScene() override {
    MakeRoad();
    MakeVehicles();
  }

  // _reward(action)
  double Reward(const void* action) override {
    const auto rewards = Rewards(action);
    double reward = 0;
    for (const auto& [name, value] : rewards) reward += Weight(name) * value;
    if (normalize_reward_) {
      reward = Lmap(reward,
                    {collision_reward_, high_speed_reward_ + left_lane_reward_},
                    {0, 1});
    }
    reward *= rewards[3].second;  // on_road_reward
    return reward;
  }

  // _rewards(action)
  std::vector<std::pair<std::string, double>> Rewards(
      const void* action) override {
    Vehicle* v = vehicle();
    const std::vector<LaneIndex> neighbours =
        road->network->AllSideLanes(v->lane_index);
    const int64_t lane = v->lane_index.id;
    const double scaled_speed = Lmap(v->speed, reward_speed_range_, {0, 1});
    const int64_t denominator =
        std::max<int64_t>(static_cast<int64_t>(neighbours.size()) - 1, 1);
    return {
        {"collision_reward", v->crashed ? 1.0 : 0.0},
        {"left_lane_reward",
         static_cast<double>(lane) / static_cast<double>(denominator)},
        {"high_speed_reward", Clip(scaled_speed, 0, 1)},
        {"on_road_reward", v->OnRoad() ? 1.0 : 0.0},
    };
  }

  bool IsTerminated() override { return vehicle()->crashed; }

  bool IsTruncated() override { return time >= duration_; }

  // _make_road(length=128): a two-lane road with a counter-clockwise U-turn.
  void MakeRoad(double length = 128) {
    auto net = std::make_shared<RoadNetwork>();
    const double W = StraightLane::DEFAULT_WIDTH;
    // Upper lanes after the U-turn, from x = length to 0.
    net->AddLane("c", "d",
                 std::make_shared<StraightLane>(
                     Vec2{length, W}, Vec2{0, W}, W,
                     LineTypes{LineType::CONTINUOUS_LINE, LineType::STRIPED}));
    net->AddLane("c", "d",
                 std::make_shared<StraightLane>(
                     Vec2{length, 0}, Vec2{0, 0}, W,
                     LineTypes{LineType::NONE, LineType::CONTINUOUS_LINE}));
    // Counter-clockwise circular U-turn lanes.
    const Vec2 center{length, W + 20};
    const double radius = 20;
    const double alpha = 0;
    const double radii[2] = {radius, radius + W};
    const int n = LineType::NONE, c = LineType::CONTINUOUS,
              s = LineType::STRIPED;
    const LineTypes line[2] = {{c, s}, {n, c}};
    for (int lane = 0; lane < 2; ++lane) {
      net->AddLane(
          "b", "c",
          std::make_shared<CircularLane>(
              center, radii[lane], roads_detail::Deg2Rad(90 - alpha),
              roads_detail::Deg2Rad(-90 + alpha), false, W, line[lane]));
    }
    const double offset = 2 * radius;
    // Lower lanes before the U-turn, from x = 0 to length.
    net->AddLane(
        "a", "b",
        std::make_shared<StraightLane>(
            Vec2{0, (2 * W + offset) - W}, Vec2{length, (2 * W + offset) - W},
            W, LineTypes{LineType::CONTINUOUS_LINE, LineType::STRIPED}));
    net->AddLane("a", "b",
                 std::make_shared<StraightLane>(
                     Vec2{0, 2 * W + offset}, Vec2{length, 2 * W + offset}, W,
                     LineTypes{LineType::NONE, LineType::CONTINUOUS_LINE}));
    road = roads_detail::MakeRoad(net, *this);
  }

  // _make_vehicles()
  void MakeVehicles() {
    const double position_deviation = 2.0;
    const double speed_deviation = 2.0;
    Road& r = *road;

    const auto ego_lane = r.network->GetLane({"a", "b", 0});
    std::shared_ptr<Vehicle> ego =
        action_type->Make(r, ego_lane->Position(0, 0), 0, 16.0);
    // ego_vehicle.PURSUIT_TAU = ...: an attribute no code reads.
    roads_detail::TryPlanRouteTo(ego.get(), "d");
    r.vehicles.push_back(ego);
    controlled_vehicles = {ego};

    auto make = [&](const LaneIndex& lane_index, double longitudinal_mean,
                    double speed_mean) {
      const double longitudinal =
          longitudinal_mean + StandardNormal(np_random) * position_deviation;
      const double speed =
          speed_mean + StandardNormal(np_random) * speed_deviation;
      auto vehicle = MakeOtherVehicleOnLane(other_vehicles_type, r, lane_index,
                                            longitudinal, speed);
      vehicle->PlanRouteTo("d");
      return vehicle;
    };
    // Vehicle 1: blocking the ego vehicle (the only one randomized).
    auto vehicle = make({"a", "b", 0}, 25.0, 13.5);
    vehicle->RandomizeBehavior();
    r.vehicles.push_back(vehicle);
    // Vehicle 2: forcing risky overtake
    r.vehicles.push_back(make({"a", "b", 1}, 56.0, 14.5));
    // Vehicle 3: blocking the ego vehicle
    r.vehicles.push_back(make({"b", "c", 1}, 0.5, 4.5));
    // Vehicle 4: forcing risky overtake
    r.vehicles.push_back(make({"b", "c", 0}, 17.5, 5.5));
    // Vehicle 5: blocking the ego vehicle
    r.vehicles.push_back(make({"c", "d", 0}, 1.0, 3.5));
    // Vehicle 6: forcing risky overtake
    r.vehicles.push_back(make({"c", "d", 1}, 30.0, 5.5));
  }

 protected:
  double Weight(const std::string& name) const {
    if (name == "collision_reward") return collision_reward_;
    if (name == "left_lane_reward") return left_lane_reward_;
    if (name == "high_speed_reward") return high_speed_reward_;
    return 0;
  }

  double duration_, collision_reward_, left_lane_reward_, high_speed_reward_;
  Interval reward_speed_range_;
  bool normalize_reward_;
};

}  // namespace envpool_lite::highway
