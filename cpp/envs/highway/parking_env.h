// Port of highway_env/envs/parking_env.py (highway-env 1.12.1): parking-v0
// (ParkingEnv), parking-ActionRepeat-v0 (ParkingEnvActionRepeat: 1 Hz
// policy, 20 s) and parking-parked-v0 (ParkingEnvParkedVehicles: 10 parked
// vehicles). A goal-conditioned continuous-control task: the ego vehicle
// starts at the centre of a parking lot (walls around it) with a random
// heading and must reach a free spot (a Landmark goal) with the spot's
// heading. The observation is KinematicsGoal's dict (achieved_goal,
// desired_goal, observation); the reward is compute_reward's weighted
// p-norm, minus collision_reward per crashed controlled vehicle; the
// episode ends at a crash or a success, and is truncated after `duration`
// seconds.
//
// compute_reward is also offered in Python by the pool (families/highway.py's
// methods()), in numpy, as highway-env computes it.
#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "envs/highway/abstract.h"

namespace envpool_lite::highway {

class ParkingEnv : public AbstractEnv {
 public:
  static Config DefaultConfig() {
    Config c = AbstractDefaults();
    c.Set("observation.type", std::string("KinematicsGoal"));
    c.Set("observation.features",
          StringList{"x", "y", "vx", "vy", "cos_h", "sin_h"});
    c.Set("observation.scales", NumberList{100, 100, 5, 5, 1, 1});
    c.Set("observation.normalize", false);
    c.Set("action.type", std::string("ContinuousAction"));
    c.Set("reward_weights", NumberList{1, 0.3, 0, 0, 0.02, 0.02});
    c.Set("success_goal_reward", 0.12);
    c.Set("collision_reward", -5.0);
    c.Set("steering_range", kPi / 4);  // np.deg2rad(45); unused by the env
    c.Set("simulation_frequency", int64_t{15});
    c.Set("policy_frequency", int64_t{5});
    c.Set("duration", 100.0);
    c.Set("screen_width", int64_t{600});
    c.Set("screen_height", int64_t{300});
    c.Set("centering_position", NumberList{0.5, 0.5});
    c.Set("scaling", 7.0);
    c.Set("controlled_vehicles", int64_t{1});
    c.Set("vehicles_count", int64_t{0});
    c.Set("add_walls", true);
    return c;
  }
  // _rewards() is AbstractEnv's (NotImplementedError): no reward terms.
  static std::vector<std::string> RewardNames() { return {}; }

  explicit ParkingEnv(const Config& config)
      : AbstractEnv(config),
        reward_weights_(config.GetNumberList("reward_weights")),
        success_goal_reward_(config.GetFloat("success_goal_reward")),
        collision_reward_(config.GetFloat("collision_reward")),
        duration_(config.GetFloat("duration")),
        controlled_vehicles_count_(
            config.GetInt("controlled_vehicles", 1, 1000)),
        vehicles_count_(config.GetInt("vehicles_count", 0, 100000)),
        add_walls_(config.GetBool("add_walls")) {
    // PARKING_OBS: the observation the reward, the termination and the
    // info's is_success read, whatever the env's own observation type.
    // define_spaces() makes it anew at each call; it only reads the scene,
    // so one is enough.
    ObservationConfig parking;
    parking.type = "KinematicsGoal";
    parking.features = {"x", "y", "vx", "vy", "cos_h", "sin_h"};
    parking.scales = {100, 100, 5, 5, 1, 1};
    parking.normalize = false;
    observation_type_parking =
        std::make_unique<KinematicsGoalObservation>(*this, parking);
    if (reward_weights_.size() != parking.features.size()) {
      throw std::invalid_argument(
          "option 'reward_weights' must have 6 weights (one per feature of "
          "x, y, vx, vy, cos_h, sin_h)");
    }
  }

  void ResetScene() override {
    CreateRoad();
    CreateVehicles();
  }

  // _create_road(spots=14): two rows of parking spots.
  void CreateRoad(int64_t spots = 14) {
    auto net = std::make_shared<RoadNetwork>();
    const double width = 4.0;
    const LineTypes lt = {LineType::CONTINUOUS, LineType::CONTINUOUS};
    const double x_offset = 0;
    const double y_offset = 10;
    const double length = 8;
    for (int64_t k = 0; k < spots; ++k) {
      // (k + 1 - spots // 2) * (width + x_offset) - width / 2
      const double x =
          static_cast<double>(k + 1 - FloorDiv(spots, 2)) * (width + x_offset) -
          width / 2;
      net->AddLane(
          "a", "b",
          std::make_shared<StraightLane>(
              Vec2{x, y_offset}, Vec2{x, y_offset + length}, width, lt));
      net->AddLane(
          "b", "c",
          std::make_shared<StraightLane>(
              Vec2{x, -y_offset}, Vec2{x, -y_offset - length}, width, lt));
    }
    road = std::make_shared<Road>(
        net, std::vector<std::shared_ptr<RoadObject>>{},
        std::vector<std::shared_ptr<RoadObject>>{}, &np_random,
        config.GetBool("show_trajectories"),
        config.GetBool("neighbour_vehicles_connected_lanes"));
  }

  // _create_vehicles(): the controlled vehicles, their goals, the parked
  // vehicles and the walls.
  void CreateVehicles() {
    std::vector<LaneIndex> empty_spots;
    for (const auto& [index, lane] : road->network->LanesDict()) {
      empty_spots.push_back(index);
    }

    // Controlled vehicles
    controlled_vehicles.clear();
    for (int64_t i = 0; i < controlled_vehicles_count_; ++i) {
      const double x0 =
          static_cast<double>(i - FloorDiv(controlled_vehicles_count_, 2)) *
          10.0;
      // 2.0 * np.pi * np_random.uniform()
      const double heading = 2.0 * kPi * np_random.Uniform(0.0, 1.0);
      std::shared_ptr<Vehicle> vehicle =
          action_type->Make(*road, Vec2{x0, 0.0}, heading, 0.0);
      vehicle->color = std::array<int, 3>{50, 200, 0};  // EGO_COLOR (GREEN)
      road->vehicles.push_back(vehicle);
      controlled_vehicles.push_back(vehicle);
      Remove(&empty_spots, vehicle->lane_index);
    }

    // Goal
    for (const auto& vehicle : controlled_vehicles) {
      const LaneIndex lane_index = Choice(empty_spots);
      const std::shared_ptr<AbstractLane>& lane =
          road->network->GetLane(lane_index);
      const auto* straight = dynamic_cast<const StraightLane*>(lane.get());
      vehicle->goal = std::make_shared<Landmark>(
          road.get(), lane->Position(lane->length / 2, 0), straight->heading);
      road->objects.push_back(vehicle->goal);
      Remove(&empty_spots, lane_index);
    }

    // Other vehicles
    for (int64_t k = 0; k < vehicles_count_; ++k) {
      if (empty_spots.empty()) continue;
      const LaneIndex lane_index = Choice(empty_spots);
      std::shared_ptr<Vehicle> v =
          Vehicle::MakeOnLane<Vehicle>(*road, lane_index, 4.0, 0.0);
      road->vehicles.push_back(v);
      Remove(&empty_spots, lane_index);
    }

    // Walls
    if (add_walls_) {
      const double width = 70, height = 42;
      for (double y : {-height / 2, height / 2}) {
        auto obstacle = std::make_shared<Obstacle>(road.get(), Vec2{0, y});
        obstacle->LENGTH = width;
        obstacle->WIDTH = 1;
        obstacle->InitDiagonal();
        road->objects.push_back(obstacle);
      }
      for (double x : {-width / 2, width / 2}) {
        auto obstacle =
            std::make_shared<Obstacle>(road.get(), Vec2{x, 0}, kPi / 2);
        obstacle->LENGTH = height;
        obstacle->WIDTH = 1;
        obstacle->InitDiagonal();
        road->objects.push_back(obstacle);
      }
    }
  }

  // compute_reward(achieved_goal, desired_goal, info, p=0.5):
  // -np.power(np.dot(np.abs(achieved_goal - desired_goal), reward_weights), p)
  // (np.dot of two vectors: BLAS ddot; np.power: see ScalarPower).
  double ComputeReward(const std::vector<double>& achieved_goal,
                       const std::vector<double>& desired_goal,
                       double p = 0.5) const {
    std::vector<double> diff(achieved_goal.size());
    for (std::size_t i = 0; i < diff.size(); ++i) {
      diff[i] = std::abs(achieved_goal[i] - desired_goal[i]);
    }
    const double dot =
        Dot(diff.data(), reward_weights_.data(), static_cast<int>(diff.size()));
    return -ScalarPower(dot, p);
  }

  // np.power(x, p) of two scalars: numpy's power loop, whose stride-0
  // exponent fast path computes 1 / x, 1, sqrt(x), x and x * x for p = -1,
  // 0, 0.5, 1 and 2 (measured on numpy 2.4: its vector loop, Np().Power,
  // differs from these in the last bit), and the vector loop otherwise.
  static double ScalarPower(double x, double p) {
    if (p == -1.0) return 1.0 / x;
    if (p == 0.0) return 1.0;
    if (p == 0.5) return std::sqrt(x);
    if (p == 1.0) return x;
    if (p == 2.0) return x * x;
    return Np().Power(x, p);
  }

  // _reward(action): the parking observation's compute_reward, plus
  // collision_reward per crashed controlled vehicle.
  double Reward(const void* action) override {
    const Observation obs = observation_type_parking->Observe();
    // sum(...) over the one agent's dict (Python's sum starts at 0).
    double reward = 0;
    reward +=
        ComputeReward(Goal(obs, "achieved_goal"), Goal(obs, "desired_goal"));
    int64_t crashed = 0;
    for (const auto& v : controlled_vehicles) crashed += v->crashed ? 1 : 0;
    reward += collision_reward_ * static_cast<double>(crashed);
    return reward;
  }

  std::vector<std::pair<std::string, double>> Rewards(
      const void* action) override {
    return {};
  }

  // _is_success(achieved_goal, desired_goal).
  bool IsSuccess(const std::vector<double>& achieved_goal,
                 const std::vector<double>& desired_goal) const {
    return ComputeReward(achieved_goal, desired_goal) > -success_goal_reward_;
  }

  // _info's is_success (not a MultiAgentObservation): the parking
  // observation's.
  bool InfoIsSuccess() {
    const Observation obs = observation_type_parking->Observe();
    return IsSuccess(Goal(obs, "achieved_goal"), Goal(obs, "desired_goal"));
  }

  // _info's own key: is_success.
  static std::vector<ArraySpec> ExtraInfoSpecs() {
    return {MakeScalar<bool>("is_success")};
  }
  std::vector<double> ExtraInfo() override {
    return {InfoIsSuccess() ? 1.0 : 0.0};
  }

  // _is_terminated(): a crash, or the goal reached.
  bool IsTerminated() override {
    bool crashed = false;
    for (const auto& v : controlled_vehicles) crashed = crashed || v->crashed;
    const Observation obs = observation_type_parking->Observe();
    const bool success =
        IsSuccess(Goal(obs, "achieved_goal"), Goal(obs, "desired_goal"));
    return crashed || success;
  }

  // _is_truncated(): the time is over.
  bool IsTruncated() override { return time >= duration_; }

  std::unique_ptr<KinematicsGoalObservation> observation_type_parking;

 protected:
  static int64_t FloorDiv(int64_t a, int64_t b) {
    int64_t q = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
    return q;
  }
  // list.remove(x): the first equal element (ValueError if none).
  static void Remove(std::vector<LaneIndex>* list, const LaneIndex& x) {
    for (auto it = list->begin(); it != list->end(); ++it) {
      if (*it == x) {
        list->erase(it);
        return;
      }
    }
    throw std::invalid_argument("list.remove(x): x not in list");
  }
  // empty_spots[np_random.choice(np.arange(len(empty_spots)))]
  LaneIndex Choice(const std::vector<LaneIndex>& list) {
    if (list.empty()) {
      throw std::invalid_argument(
          "parking: no free spot left for a goal (too many controlled "
          "vehicles)");
    }
    return list[static_cast<std::size_t>(
        np_random.Integers(0, static_cast<int64_t>(list.size())))];
  }
  static const std::vector<double>& Goal(const Observation& obs,
                                         const char* name) {
    for (const ObsArray& a : obs) {
      if (a.name == name) return a.data;
    }
    throw std::logic_error("parking: no observation key");
  }

  std::vector<double> reward_weights_;
  double success_goal_reward_, collision_reward_, duration_;
  int64_t controlled_vehicles_count_, vehicles_count_;
  bool add_walls_;
};

}  // namespace envpool_lite::highway
