// Port of highway_env/envs/merge_env.py (highway-env 1.12.1): merge-v0
// (MergeEnv), merge-v1 (ConnectedLaneMergeEnv: MergeEnv with
// neighbour_vehicles_connected_lanes), merge-generic-v0 (MergeGenericEnv)
// and merge-generic-v1 (ConnectedLaneMergeGenericEnv). The ego vehicle drives
// on a highway past an access ramp with a merging vehicle, rewarded for
// speed, for keeping right and (altruistically) for letting the merging
// vehicles keep their speed; the episode ends at a crash or past the ramp.
#pragma once

#include <cmath>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "envs/highway/abstract.h"

namespace envpool_lite::highway {

namespace roads_detail {

// `action in [0, 2]` of the raw pool action (nullptr at a reset, where
// highway-env's action is a random sample: the pool's is no action).
// A discrete action is an int32; a continuous one is `size` float32 values,
// and Python's `array in [0, 2]` is only defined for one value (it raises
// for more: we answer false); a multi-agent tuple is never in the list.
inline bool ActionInZeroTwo(const ActionType* action_type, const void* action) {
  if (action == nullptr || action_type == nullptr) return false;
  if (dynamic_cast<const DiscreteMetaAction*>(action_type) != nullptr ||
      dynamic_cast<const DiscreteAction*>(action_type) != nullptr) {
    const int32_t a = *static_cast<const int32_t*>(action);
    return a == 0 || a == 2;
  }
  if (const auto* c = dynamic_cast<const ContinuousAction*>(action_type)) {
    if (c->size != 1) return false;
    const double a = *static_cast<const float*>(action);
    return a == 0 || a == 2;
  }
  return false;
}

inline Interval ReadRange(const Config& config, const std::string& name) {
  const NumberList& r = config.GetNumberList(name);
  if (r.size() != 2) {
    throw std::invalid_argument("option '" + name + "' must be [low, high]");
  }
  return {r[0], r[1]};
}

}  // namespace roads_detail

// class MergeEnv(AbstractEnv)
class MergeEnv : public AbstractEnv {
 public:
  static Config DefaultConfig() {
    Config c = AbstractDefaults();
    c.Set("collision_reward", -1.0);
    c.Set("right_lane_reward", 0.1);
    c.Set("high_speed_reward", 0.2);
    c.Set("reward_speed_range", NumberList{20, 30});
    c.Set("merging_speed_reward", -0.5);
    c.Set("lane_change_reward", -0.05);
    return c;
  }
  static std::vector<std::string> RewardNames() {
    return {"collision_reward", "right_lane_reward", "high_speed_reward",
            "lane_change_reward", "merging_speed_reward"};
  }

  explicit MergeEnv(const Config& config)
      : AbstractEnv(config),
        collision_reward_(config.GetFloat("collision_reward")),
        right_lane_reward_(config.GetFloat("right_lane_reward")),
        high_speed_reward_(config.GetFloat("high_speed_reward")),
        reward_speed_range_(
            roads_detail::ReadRange(config, "reward_speed_range")),
        merging_speed_reward_(config.GetFloat("merging_speed_reward")),
        lane_change_reward_(config.GetFloat("lane_change_reward")) {}

  // _reset()
  void ResetScene() override {
    MakeRoad();
    MakeVehicles();
  }

  // _reward(action): the weighted sum of the terms (in _rewards' order),
  // mapped from [collision + merging_speed, high_speed + right_lane] to
  // [0, 1].
  double Reward(const void* action) override {
    const auto rewards = Rewards(action);
    double reward = 0;
    for (const auto& [name, value] : rewards) reward += Weight(name) * value;
    return Lmap(reward,
                {collision_reward_ + merging_speed_reward_,
                 high_speed_reward_ + right_lane_reward_},
                {0, 1});
  }

  // _rewards(action)
  std::vector<std::pair<std::string, double>> Rewards(
      const void* action) override {
    Vehicle* v = vehicle();
    const double scaled_speed = Lmap(v->speed, reward_speed_range_, {0, 1});
    // sum(...) of the merging lane's controlled vehicles (Python's sum
    // starts from the int 0: 0 + x == x).
    double merging = 0;
    const LaneIndex merging_lane{"b", "c", 2};
    for (const auto& object : road->vehicles) {
      auto* other = As<Vehicle>(object.get());
      if (other == nullptr || other->lane_index != merging_lane) continue;
      auto* controlled = As<ControlledVehicle>(other);
      if (controlled == nullptr) continue;
      merging += (controlled->target_speed - controlled->speed) /
                 controlled->target_speed;
    }
    return {
        {"collision_reward", v->crashed ? 1.0 : 0.0},
        {"right_lane_reward", static_cast<double>(v->lane_index.id) / 1},
        {"high_speed_reward", scaled_speed},
        {"lane_change_reward",
         roads_detail::ActionInZeroTwo(action_type.get(), action) ? 1.0 : 0.0},
        {"merging_speed_reward", merging},
    };
  }

  // _is_terminated(): a crash, or past the access ramp.
  bool IsTerminated() override {
    return vehicle()->crashed || vehicle()->position[0] > 370;
  }

  bool IsTruncated() override { return false; }

  // _make_road(): a straight highway and a merging lane.
  virtual void MakeRoad() {
    auto net = std::make_shared<RoadNetwork>();
    // Highway lanes
    const double ends[4] = {150, 80, 80, 150};  // before, converging, merge,
                                                // after
    const int c = LineType::CONTINUOUS_LINE, s = LineType::STRIPED,
              n = LineType::NONE;
    const double y[2] = {0, StraightLane::DEFAULT_WIDTH};
    const LineTypes line_type[2] = {{c, s}, {n, c}};
    const LineTypes line_type_merge[2] = {{c, s}, {n, s}};
    const double ends_2 = ends[0] + ends[1];  // sum(ends[:2])
    const double ends_3 = ends_2 + ends[2];   // sum(ends[:3])
    const double ends_4 = ends_3 + ends[3];   // sum(ends)
    for (int i = 0; i < 2; ++i) {
      net->AddLane("a", "b",
                   std::make_shared<StraightLane>(
                       Vec2{0, y[i]}, Vec2{ends_2, y[i]},
                       StraightLane::DEFAULT_WIDTH, line_type[i]));
      net->AddLane("b", "c",
                   std::make_shared<StraightLane>(
                       Vec2{ends_2, y[i]}, Vec2{ends_3, y[i]},
                       StraightLane::DEFAULT_WIDTH, line_type_merge[i]));
      net->AddLane("c", "d",
                   std::make_shared<StraightLane>(
                       Vec2{ends_3, y[i]}, Vec2{ends_4, y[i]},
                       StraightLane::DEFAULT_WIDTH, line_type[i]));
    }
    // Merging lane
    const double amplitude = 3.25;
    auto ljk = std::make_shared<StraightLane>(
        Vec2{0, 6.5 + 4 + 4}, Vec2{ends[0], 6.5 + 4 + 4},
        StraightLane::DEFAULT_WIDTH, LineTypes{c, c}, true);
    auto lkb = std::make_shared<SineLane>(
        ljk->Position(ends[0], -amplitude), ljk->Position(ends_2, -amplitude),
        amplitude, 2 * kPi / (2 * ends[1]), kPi / 2,
        StraightLane::DEFAULT_WIDTH, LineTypes{c, c}, true);
    const Vec2 lbc_start = lkb->Position(ends[1], 0);
    auto lbc = std::make_shared<StraightLane>(
        lbc_start, lkb->Position(ends[1], 0) + Vec2{ends[2], 0},
        StraightLane::DEFAULT_WIDTH, LineTypes{n, c}, true);
    net->AddLane("j", "k", ljk);
    net->AddLane("k", "b", lkb);
    net->AddLane("b", "c", lbc);
    road = std::make_shared<Road>(
        net, std::vector<std::shared_ptr<RoadObject>>{},
        std::vector<std::shared_ptr<RoadObject>>{}, &np_random,
        config.GetBool("show_trajectories"),
        config.GetBool("neighbour_vehicles_connected_lanes"));
    road->objects.push_back(
        std::make_shared<Obstacle>(road.get(), lbc->Position(ends[2], 0)));
  }

  // _make_vehicles(): the ego vehicle, three vehicles on the highway and one
  // on the merging lane.
  virtual void MakeVehicles() {
    Road& r = *road;
    std::shared_ptr<Vehicle> ego = action_type->Make(
        r, r.network->GetLane({"a", "b", 1})->Position(30.0, 0.0), 0, 30.0);
    r.vehicles.push_back(ego);
    const std::pair<double, double> others[3] = {
        {90.0, 29.0}, {70.0, 31.0}, {5.0, 31.5}};
    for (auto [position, speed] : others) {
      const auto lane =
          r.network->GetLane({"a", "b", np_random.Integers(0, 2)});
      const Vec2 p =
          lane->Position(position + np_random.Uniform(-5.0, 5.0), 0.0);
      speed += np_random.Uniform(-1.0, 1.0);
      r.vehicles.push_back(
          MakeOtherVehicle(other_vehicles_type, r, p, 0, speed));
    }
    auto merging_v = MakeOtherVehicle(
        other_vehicles_type, r,
        r.network->GetLane({"j", "k", 0})->Position(110.0, 0.0), 0, 20.0);
    merging_v->target_speed = 30.0;
    r.vehicles.push_back(merging_v);
    controlled_vehicles = {ego};
  }

 protected:
  // config.get(name, 0) of a reward term's name.
  double Weight(const std::string& name) const {
    if (name == "collision_reward") return collision_reward_;
    if (name == "right_lane_reward") return right_lane_reward_;
    if (name == "high_speed_reward") return high_speed_reward_;
    if (name == "lane_change_reward") return lane_change_reward_;
    if (name == "merging_speed_reward") return merging_speed_reward_;
    return 0;
  }

  double collision_reward_, right_lane_reward_, high_speed_reward_;
  Interval reward_speed_range_;
  double merging_speed_reward_, lane_change_reward_;
};

// class MergeGenericEnv(MergeEnv): configurable lanes, vehicles and merge
// section lengths.
class MergeGenericEnv : public MergeEnv {
 public:
  static Config DefaultConfig() {
    Config c = MergeEnv::DefaultConfig();
    c.Set("lanes_count", int64_t{2});
    c.Set("vehicles_count", int64_t{3});
    c.Set("before_merge_length", 150.0);
    c.Set("converge_merge_length", 80.0);
    c.Set("parallel_merge_length", 80.0);
    c.Set("after_merge_length", 150.0);
    return c;
  }

  explicit MergeGenericEnv(const Config& config)
      : MergeEnv(config),
        lanes_(config.GetInt("lanes_count", 1, 1000)),
        vehicles_count_(config.GetInt("vehicles_count", 0, 100000)),
        pre_merge_(config.GetFloat("before_merge_length")),
        converge_(config.GetFloat("converge_merge_length")),
        parallel_(config.GetFloat("parallel_merge_length")),
        after_(config.GetFloat("after_merge_length")) {
    if (!(pre_merge_ > 0 && converge_ > 0 && parallel_ > 0)) {
      throw std::invalid_argument(
          "All road segments must have positive length");
    }
    if (!(after_ >= 90)) {
      throw std::invalid_argument(
          "The after merge road segment must have length >= 90");
    }
  }

  void MakeRoad() override {
    auto net = std::make_shared<RoadNetwork>();
    const int lanes = static_cast<int>(lanes_);
    end_position_ = pre_merge_ + converge_ + parallel_ + after_ - 90;
    net = RoadNetwork::StraightRoadNetwork(lanes, 0, pre_merge_ + converge_, 0,
                                           30, std::make_pair("a", "b"), net);
    net = RoadNetwork::StraightRoadNetwork(lanes, pre_merge_ + converge_,
                                           parallel_, 0, 30,
                                           std::make_pair("b", "c"), net);
    net = RoadNetwork::StraightRoadNetwork(
        lanes, pre_merge_ + converge_ + parallel_, after_, 0, 30,
        std::make_pair("c", "d"), net);

    const double amplitude = 3.25;
    const double y_parallel = lanes_ * StraightLane::DEFAULT_WIDTH;
    const double y_approach = y_parallel + 2 * amplitude;
    const int c = LineType::CONTINUOUS_LINE, s = LineType::STRIPED;
    auto ljk = std::make_shared<StraightLane>(
        Vec2{0, y_approach}, Vec2{pre_merge_, y_approach},
        StraightLane::DEFAULT_WIDTH, LineTypes{c, c}, true, 30);
    auto lkb = std::make_shared<SineLane>(
        Vec2{pre_merge_, y_parallel + amplitude},
        Vec2{pre_merge_ + converge_, y_parallel + amplitude}, amplitude,
        2 * kPi / (2 * converge_), kPi / 2, StraightLane::DEFAULT_WIDTH,
        LineTypes{c, c}, true, 30);
    auto lbc = std::make_shared<StraightLane>(
        Vec2{pre_merge_ + converge_, y_parallel},
        Vec2{pre_merge_ + converge_ + parallel_, y_parallel},
        StraightLane::DEFAULT_WIDTH, LineTypes{s, c}, true, 30);
    net->AddLane("j", "k", ljk);
    net->AddLane("k", "b", lkb);
    net->AddLane("b", "c", lbc);
    road = std::make_shared<Road>(
        net, std::vector<std::shared_ptr<RoadObject>>{},
        std::vector<std::shared_ptr<RoadObject>>{}, &np_random,
        config.GetBool("show_trajectories"),
        config.GetBool("neighbour_vehicles_connected_lanes"));
    road->objects.push_back(
        std::make_shared<Obstacle>(road.get(), lbc->Position(parallel_, 0)));
  }

  void MakeVehicles() override {
    Road& r = *road;
    const int64_t lanes = lanes_;
    std::shared_ptr<AbstractLane> ego_lane =
        r.network->GetLane({"a", "b", lanes - 1});
    const double ego_longitudinal = 30.0;
    std::shared_ptr<Vehicle> ego = action_type->Make(
        r, ego_lane->Position(ego_longitudinal, 0.0), 0, 30.0);
    r.vehicles.push_back(ego);
    controlled_vehicles = {ego};

    const double max_pos = pre_merge_ + converge_ + parallel_;
    std::vector<std::vector<double>> spawned_positions(
        static_cast<size_t>(lanes));
    spawned_positions[static_cast<size_t>(lanes - 1)].push_back(
        ego_longitudinal);
    const double safe_distance = 15.0;
    const int tries = 10;
    for (int64_t k = 0; k < vehicles_count_; ++k) {
      for (int t = 0; t < tries; ++t) {
        const int64_t random_lane_index = np_random.Integers(0, lanes);
        const double longitudinal = np_random.Uniform(0, max_pos);
        bool all_far = true;
        for (double p :
             spawned_positions[static_cast<size_t>(random_lane_index)]) {
          if (!(std::abs(longitudinal - p) > safe_distance)) {
            all_far = false;
            break;
          }
        }
        if (all_far) {
          const auto lane = r.network->GetLane({"a", "b", random_lane_index});
          const Vec2 pos = lane->Position(longitudinal, 0.0);
          const double spd = 30.0 + np_random.Uniform(-2.0, 2.0);
          r.vehicles.push_back(
              MakeOtherVehicle(other_vehicles_type, r, pos, 0, spd));
          spawned_positions[static_cast<size_t>(random_lane_index)].push_back(
              longitudinal);
          break;
        }
      }
    }
    const auto merge_lane = r.network->GetLane({"j", "k", 0});
    auto merging_v = MakeOtherVehicle(
        other_vehicles_type, r,
        merge_lane->Position(ego_longitudinal + 30, 0.0), 0, 20.0);
    merging_v->target_speed = 30.0;
    r.vehicles.push_back(merging_v);
  }

  bool IsTerminated() override {
    return vehicle()->crashed || vehicle()->position[0] > end_position_;
  }

 protected:
  int64_t lanes_, vehicles_count_;
  double pre_merge_, converge_, parallel_, after_;
  double end_position_ = 0;
};

}  // namespace envpool_lite::highway
