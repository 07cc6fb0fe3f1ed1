// Port of highway_env/vehicle/controller.py (highway-env 1.12.1):
// ControlledVehicle (a speed controller and a lane-following steering
// controller under high-level actions) and MDPVehicle (a discrete set of
// target speeds).
//
// `route` is a Route (a vector): Python's None and [] behave alike in every
// use (`if self.route`, `self.route or [...]`), so an empty Route is None.
// RoadNetwork::NextLane drops the finished first step of the route in place,
// as Python's route.pop(0). (Python's create_from shares the route list
// between the two vehicles; here the new vehicle gets a copy.)
#pragma once

#include <cmath>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "envs/highway/kinematics.h"
#include "envs/highway/road.h"
#include "envs/highway/utils.h"

namespace envpool_lite::highway {

// class ControlledVehicle(Vehicle)
class ControlledVehicle : public Vehicle {
 public:
  static constexpr uint32_t kKind = kControlledVehicle;
  // Characteristic times [s] and gains (class attributes, per instance).
  double TAU_ACC = 0.6;
  double TAU_HEADING = 0.2;
  double TAU_LATERAL = 0.6;
  double TAU_PURSUIT = 0.5 * TAU_HEADING;
  double KP_A = 1 / TAU_ACC;
  double KP_HEADING = 1 / TAU_HEADING;
  double KP_LATERAL = 1 / TAU_LATERAL;  // [1/s]
  double MAX_STEERING_ANGLE = kPi / 3;  // [rad]
  double DELTA_SPEED = 5;               // [m/s]

  LaneIndex target_lane_index;
  double target_speed = 0;
  Route route;

  // ControlledVehicle(road, position, heading=0, speed=0,
  //                   target_lane_index=None, target_speed=None, route=None)
  ControlledVehicle(Road* road, const Vec2& position, double heading = 0,
                    double speed = 0,
                    std::optional<LaneIndex> target_lane_index = std::nullopt,
                    std::optional<double> target_speed = std::nullopt,
                    Route route = {})
      : Vehicle(road, position, heading, speed) {
    kinds |= kKind;
    // `target_lane_index or self.lane_index`
    this->target_lane_index =
        target_lane_index.has_value() && !target_lane_index->IsNone()
            ? *target_lane_index
            : lane_index;
    // `target_speed or self.speed` (0 is falsy, NaN is truthy)
    this->target_speed = target_speed.has_value() && *target_speed != 0
                             ? *target_speed
                             : this->speed;
    this->route = std::move(route);
  }

  std::shared_ptr<Vehicle> Clone() const override {
    return std::make_shared<ControlledVehicle>(*this);
  }

  // create_from(vehicle): cls(road, position, heading=, speed=,
  // target_lane_index=, target_speed=, route=).
  template <class V>
  static std::shared_ptr<V> CreateFrom(const ControlledVehicle& vehicle) {
    return std::make_shared<V>(vehicle.road, vehicle.position, vehicle.heading,
                               vehicle.speed, vehicle.target_lane_index,
                               vehicle.target_speed, vehicle.route);
  }
  std::shared_ptr<Vehicle> CreateFromSelf() const override {
    return CreateFrom<ControlledVehicle>(*this);
  }

  // plan_route_to(destination): the shortest path to a node of the network.
  ControlledVehicle& PlanRouteTo(const std::string& destination) {
    // shortest_path raises no KeyError here: it returns [] when the start
    // is not in the graph.
    const std::vector<std::string> path =
        road->network->ShortestPath(lane_index.to, destination);
    if (!path.empty()) {
      route = {lane_index};
      for (size_t i = 0; i + 1 < path.size(); ++i) {
        route.push_back(LaneIndex{path[i], path[i + 1], LaneIndex::kNone});
      }
    } else {
      route = {lane_index};
    }
    return *this;
  }

  // act(action=None): a high-level action updates the target speed / lane,
  // then the longitudinal and lateral controllers run.
  using Vehicle::Act;
  void Act() override { ControlledVehicle::Act(std::string()); }
  // act(dict): a dict is no meta-action: as act(None).
  void Act(const VehicleAction&) override {
    ControlledVehicle::Act(std::string());
  }
  void Act(const std::string& action) override {
    FollowRoad();
    if (action == "FASTER") {
      target_speed += DELTA_SPEED;
    } else if (action == "SLOWER") {
      target_speed -= DELTA_SPEED;
    } else if (action == "LANE_RIGHT" || action == "LANE_LEFT") {
      const int64_t n =
          static_cast<int64_t>(road->network->graph.at(target_lane_index.from)
                                   .at(target_lane_index.to)
                                   .size());
      const int64_t step = action == "LANE_RIGHT" ? 1 : -1;
      // np.clip(_id + 1, 0, n - 1) of ints
      int64_t id = target_lane_index.id + step;
      id = id < 0 ? 0 : id;
      id = id > n - 1 ? n - 1 : id;
      const LaneIndex index{target_lane_index.from, target_lane_index.to, id};
      if (road->network->GetLane(index)->IsReachableFrom(position)) {
        target_lane_index = index;
      }
    }
    VehicleAction a;
    a.steering = SteeringControl(target_lane_index);
    a.acceleration = SpeedControl(target_speed);
    a.steering = Clip(a.steering, -MAX_STEERING_ANGLE, MAX_STEERING_ANGLE);
    Vehicle::Act(a);
  }

  // follow_road(): at the end of a lane, switch to the next one.
  virtual void FollowRoad() {
    if (road->network->GetLane(target_lane_index)->AfterEnd(position)) {
      target_lane_index = road->network->NextLane(target_lane_index, &route,
                                                  position, road->np_random);
    }
  }

  // steering_control(target_lane_index): a steering wheel angle [rad] that
  // follows the center of the lane.
  virtual double SteeringControl(const LaneIndex& target_lane_index) {
    const std::shared_ptr<AbstractLane>& target_lane =
        road->network->GetLane(target_lane_index);
    const Vec2 lane_coords = target_lane->LocalCoordinates(position);
    const double lane_next_coords = lane_coords[0] + speed * TAU_PURSUIT;
    const double lane_future_heading = target_lane->HeadingAt(lane_next_coords);

    // Lateral position control
    const double lateral_speed_command = -KP_LATERAL * lane_coords[1];
    // Lateral speed to heading
    const double heading_command =
        Np().Arcsin(Clip(lateral_speed_command / NotZero(speed), -1, 1));
    const double heading_ref =
        lane_future_heading + Clip(heading_command, -kPi / 4, kPi / 4);
    // Heading control
    const double heading_rate_command =
        KP_HEADING * WrapToPi(heading_ref - heading);
    // Heading rate to steering angle
    const double slip_angle = Np().Arcsin(
        Clip(LENGTH / 2 / NotZero(speed) * heading_rate_command, -1, 1));
    double steering_angle = Np().Arctan(2 * Np().Tan(slip_angle));
    steering_angle =
        Clip(steering_angle, -MAX_STEERING_ANGLE, MAX_STEERING_ANGLE);
    return steering_angle;
  }

  // speed_control(target_speed): a proportional acceleration command.
  virtual double SpeedControl(double target_speed) {
    return KP_A * (target_speed - speed);
  }

  // predict_trajectory_constant_speed(times): positions and headings along
  // the planned route at constant speed.
  std::pair<std::vector<Vec2>, std::vector<double>>
  PredictTrajectoryConstantSpeed(
      const std::vector<double>& times) const override {
    const Vec2 coordinates = lane->LocalCoordinates(position);
    const Route r = !route.empty() ? route : Route{lane_index};
    std::vector<Vec2> positions;
    std::vector<double> headings;
    for (double t : times) {
      auto [p, h] = road->network->PositionHeadingAlongRoute(
          r, coordinates[0] + speed * t, 0, lane_index);
      positions.push_back(p);
      headings.push_back(h);
    }
    return {positions, headings};
  }

 protected:
  const Route* RouteAttribute() const override { return &route; }
};

// class MDPVehicle(ControlledVehicle): a discrete range of target speeds.
class MDPVehicle : public ControlledVehicle {
 public:
  static constexpr uint32_t kKind = kMDPVehicle;
  // np.linspace(20, 30, 3)
  std::vector<double> DEFAULT_TARGET_SPEEDS = {20.0, 25.0, 30.0};

  std::vector<double> target_speeds;
  int64_t speed_index = 0;

  // MDPVehicle(road, position, heading=0, speed=0, target_lane_index=None,
  //            target_speed=None, target_speeds=None, route=None)
  MDPVehicle(Road* road, const Vec2& position, double heading = 0,
             double speed = 0,
             std::optional<LaneIndex> target_lane_index = std::nullopt,
             std::optional<double> target_speed = std::nullopt,
             std::optional<std::vector<double>> target_speeds = std::nullopt,
             Route route = {})
      : ControlledVehicle(road, position, heading, speed,
                          std::move(target_lane_index), target_speed,
                          std::move(route)) {
    kinds |= kKind;
    this->target_speeds =
        target_speeds.has_value() ? *target_speeds : DEFAULT_TARGET_SPEEDS;
    speed_index = SpeedToIndex(this->target_speed);
    this->target_speed = IndexToSpeed(speed_index);
  }

  std::shared_ptr<Vehicle> Clone() const override {
    return std::make_shared<MDPVehicle>(*this);
  }

  // ControlledVehicle.create_from with cls=MDPVehicle (keyword arguments:
  // target_speeds stays the default).
  template <class V>
  static std::shared_ptr<V> CreateFrom(const ControlledVehicle& vehicle) {
    return std::make_shared<V>(vehicle.road, vehicle.position, vehicle.heading,
                               vehicle.speed, vehicle.target_lane_index,
                               vehicle.target_speed, std::nullopt,
                               vehicle.route);
  }
  std::shared_ptr<Vehicle> CreateFromSelf() const override {
    return CreateFrom<MDPVehicle>(*this);
  }

  // act(action=None): a speed change picks the next allowed speed; other
  // actions go to ControlledVehicle.act.
  using ControlledVehicle::Act;
  void Act() override { MDPVehicle::Act(std::string()); }
  void Act(const VehicleAction&) override { MDPVehicle::Act(std::string()); }
  void Act(const std::string& action) override {
    if (action == "FASTER") {
      speed_index = SpeedToIndex(speed) + 1;
    } else if (action == "SLOWER") {
      speed_index = SpeedToIndex(speed) - 1;
    } else {
      ControlledVehicle::Act(action);
      return;
    }
    // int(np.clip(self.speed_index, 0, self.target_speeds.size - 1))
    const int64_t last = static_cast<int64_t>(target_speeds.size()) - 1;
    speed_index = speed_index < 0 ? 0 : speed_index;
    speed_index = speed_index > last ? last : speed_index;
    target_speed = IndexToSpeed(speed_index);
    ControlledVehicle::Act(std::string());
  }

  // index_to_speed(index) (a Python index: negative counts from the end).
  double IndexToSpeed(int64_t index) const {
    const int64_t n = static_cast<int64_t>(target_speeds.size());
    return target_speeds.at(static_cast<size_t>(index < 0 ? index + n : index));
  }

  // speed_to_index(speed): the index of the closest allowed speed
  // (assuming uniformly spaced target speeds).
  int64_t SpeedToIndex(double speed) const {
    return SpeedToIndexOf(target_speeds, speed);
  }

  // speed_to_index_default(speed) (classmethod, on DEFAULT_TARGET_SPEEDS).
  static int64_t SpeedToIndexDefault(double speed) {
    return SpeedToIndexOf({20.0, 25.0, 30.0}, speed);
  }

  // get_speed_index(vehicle) (classmethod): vehicle.speed_index if it has
  // one, else speed_to_index_default(vehicle.speed).
  static int64_t GetSpeedIndex(const Vehicle& vehicle) {
    if (const auto* mdp = As<MDPVehicle>(&vehicle)) {
      return mdp->speed_index;
    }
    return SpeedToIndexDefault(vehicle.speed);
  }

  // predict_trajectory(actions, action_duration, trajectory_timestep, dt):
  // the states every trajectory_timestep under a sequence of high-level
  // actions.
  std::vector<std::shared_ptr<Vehicle>> PredictTrajectory(
      const std::vector<std::string>& actions, double action_duration,
      double trajectory_timestep, double dt) const {
    std::vector<std::shared_ptr<Vehicle>> states;
    std::shared_ptr<Vehicle> v = Clone();
    int64_t t = 0;
    const int64_t repeat = static_cast<int64_t>(action_duration / dt);
    const int64_t every = static_cast<int64_t>(trajectory_timestep / dt);
    for (const std::string& a : actions) {
      v->Act(a);  // High-level decision
      for (int64_t i = 0; i < repeat; ++i) {
        t += 1;
        v->Act();  // Low-level control action
        v->Step(dt);
        if (PyModInt(t, every) == 0) states.push_back(v->Clone());
      }
    }
    return states;
  }

 private:
  // x = (speed - ts[0]) / (ts[-1] - ts[0]);
  // np.int64(np.clip(np.round(x * (size - 1)), 0, size - 1))
  static int64_t SpeedToIndexOf(const std::vector<double>& ts, double speed) {
    const double x = (speed - ts.front()) / (ts.back() - ts.front());
    const double last = static_cast<double>(ts.size() - 1);
    const double r = std::nearbyint(x * last);  // half to even
    return static_cast<int64_t>(Clip(r, 0, last));
  }
};

}  // namespace envpool_lite::highway
