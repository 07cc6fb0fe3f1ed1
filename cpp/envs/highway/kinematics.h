// Port of highway_env/vehicle/kinematics.py (highway-env 1.12.1): Vehicle,
// a moving vehicle on a road and its kinematics (a modified bicycle model).
//
// Python classmethods that build `cls(...)` (create_random, create_from,
// make_on_lane) are static templates whose template argument is the class
// to build, named at every call: Vehicle::CreateRandom<IDMVehicle>(road) is
// IDMVehicle.create_random(road).
//
// Actions: Python's act(action) takes None, a dict {"steering",
// "acceleration"} or a meta-action string. Here:
//   Act()                          act(None) (RoadObject's virtual, which
//                                  Road.act calls)
//   Act(const VehicleAction&)      act(dict)
//   Act(const std::string&)        act(str); "" behaves as None (Python's
//                                  `if action:` / `action == "FASTER"` treat
//                                  "" and None alike in every class)
#pragma once

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "envs/highway/lane.h"
#include "envs/highway/objects.h"
#include "envs/highway/road.h"
#include "envs/highway/utils.h"

namespace envpool_lite::highway {

// Vehicle.action: the dict {"steering": ..., "acceleration": ...}.
struct VehicleAction {
  double steering = 0;
  double acceleration = 0;
};

// class Vehicle(RoadObject)
class Vehicle : public RoadObject {
 public:
  static constexpr uint32_t kKind = kVehicle;
  // Class attributes (per instance, see CONVENTIONS.md). LENGTH = 5.0 and
  // WIDTH = 2.0 are RoadObject's members, set by the constructor.
  std::array<double, 2> DEFAULT_INITIAL_SPEEDS = {23, 25};  // [m/s]
  double MAX_SPEED = 40.0;                                  // [m/s]
  double MIN_SPEED = -40.0;                                 // [m/s]
  int64_t HISTORY_SIZE = 30;

  std::string prediction_type;
  VehicleAction action;
  // The vehicle state history (for trajectory display), newest first; only
  // filled when road->record_history.
  std::deque<std::shared_ptr<Vehicle>> history;
  // Attributes that envs add to vehicles in Python: `vehicle.goal`
  // (parking's Landmark, read by KinematicsGoalObservation) and
  // `vehicle.color` (graphics only; create_from copies it).
  std::shared_ptr<RoadObject> goal;
  std::optional<std::array<int, 3>> color;

  // Vehicle(road, position, heading=0, speed=0,
  //         predition_type="constant_steering")
  Vehicle(Road* road, const Vec2& position, double heading = 0,
          double speed = 0, std::string predition_type = "constant_steering")
      : RoadObject(road, position, heading, speed, /*LENGTH=*/5.0,
                   /*WIDTH=*/2.0),
        prediction_type(std::move(predition_type)) {
    kinds |= kKind;
    action = VehicleAction{};
    crashed = false;
    impact = std::nullopt;
  }
  Vehicle(const Vehicle&) = default;
  Vehicle& operator=(const Vehicle&) = default;
  ~Vehicle() override = default;

  // copy.deepcopy(self) of the dynamic class (the road is shared, not
  // copied: the copies only read it).
  virtual std::shared_ptr<Vehicle> Clone() const {
    return std::make_shared<Vehicle>(*this);
  }

  // create_random(road, speed=None, lane_from=None, lane_to=None,
  // lane_id=None, spacing=1), building a V (Python's `cls`).
  template <class V>
  static std::shared_ptr<V> CreateRandom(
      Road& road, std::optional<double> speed = std::nullopt,
      std::optional<std::string> lane_from = std::nullopt,
      std::optional<std::string> lane_to = std::nullopt,
      std::optional<int64_t> lane_id = std::nullopt, double spacing = 1);

  // create_from(vehicle): a V at the same dynamical state.
  template <class V>
  static std::shared_ptr<V> CreateFrom(const Vehicle& vehicle) {
    std::shared_ptr<V> v = std::make_shared<V>(vehicle.road, vehicle.position,
                                               vehicle.heading, vehicle.speed);
    if (vehicle.color.has_value()) v->color = vehicle.color;
    return v;
  }

  // make_on_lane(road, lane_index, longitudinal, speed=None) (RoadObject's
  // classmethod), building a V.
  template <class V>
  static std::shared_ptr<V> MakeOnLane(
      Road& road, const LaneIndex& lane_index, double longitudinal,
      std::optional<double> speed = std::nullopt) {
    return RoadObject::MakeOnLane<V>(&road, lane_index, longitudinal, speed);
  }
  template <class V>
  static std::shared_ptr<V> MakeOnLane(
      Road* road, const LaneIndex& lane_index, double longitudinal,
      std::optional<double> speed = std::nullopt) {
    return RoadObject::MakeOnLane<V>(road, lane_index, longitudinal, speed);
  }

  // `self.create_from(self)`: create_from of the instance's own class (the
  // history records these).
  virtual std::shared_ptr<Vehicle> CreateFromSelf() const {
    return CreateFrom<Vehicle>(*this);
  }

  // act(action=None): store an action to be repeated.
  void Act() override {}
  virtual void Act(const VehicleAction& action) { this->action = action; }
  // act(str): Python would store the string and fail in step().
  virtual void Act(const std::string& action) {
    if (!action.empty()) {
      throw std::invalid_argument("Vehicle.act: meta-action '" + action +
                                  "' needs a ControlledVehicle");
    }
  }

  // step(dt): integrate the kinematic bicycle model.
  void Step(double dt) override {
    ClipActions();
    const double delta_f = action.steering;
    const double beta = Np().Arctan(1.0 / 2 * Np().Tan(delta_f));
    const Vec2 v =
        speed * Vec2{Np().Cos(heading + beta), Np().Sin(heading + beta)};
    position += v * dt;
    if (impact.has_value()) {
      position += *impact;
      crashed = true;
      impact = std::nullopt;
    }
    heading += speed * Np().Sin(beta) / (LENGTH / 2) * dt;
    speed += action.acceleration * dt;
    OnStateUpdate();
  }

  // clip_actions()
  virtual void ClipActions() {
    if (crashed) {
      action.steering = 0;
      action.acceleration = -1.0 * speed;
    }
    if (speed > MAX_SPEED) {
      action.acceleration =
          PyMin(action.acceleration, 1.0 * (MAX_SPEED - speed));
    } else if (speed < MIN_SPEED) {
      action.acceleration =
          PyMax(action.acceleration, 1.0 * (MIN_SPEED - speed));
    }
  }

  // on_state_update()
  virtual void OnStateUpdate() {
    if (road != nullptr) {
      lane_index = road->network->GetClosestLaneIndex(position, heading);
      lane = road->network->GetLane(lane_index);
      if (road->record_history) {
        history.push_front(CreateFromSelf());
        while (static_cast<int64_t>(history.size()) > HISTORY_SIZE) {
          history.pop_back();
        }
      }
    }
  }

  // predict_trajectory_constant_speed(times): (positions, headings).
  virtual std::pair<std::vector<Vec2>, std::vector<double>>
  PredictTrajectoryConstantSpeed(const std::vector<double>& times) const {
    VehicleAction a;
    if (prediction_type == "zero_steering") {
      a = VehicleAction{0.0, 0.0};
    } else if (prediction_type == "constant_steering") {
      a = VehicleAction{action.steering, 0.0};
    } else {
      throw std::invalid_argument("Unknown predition type");
    }
    std::vector<Vec2> positions;
    std::vector<double> headings;
    std::shared_ptr<Vehicle> v = Clone();
    v->Act(a);
    double previous = 0.0;  // np.diff(np.concatenate(([0.0], times)))
    for (double time : times) {
      const double t = time - previous;
      previous = time;
      v->Step(t);
      positions.push_back(v->position);
      headings.push_back(v->heading);
    }
    return {positions, headings};
  }

  // property velocity: speed * direction.
  Vec2 Velocity() const override { return speed * Direction(); }

  // property destination: the end of the route's last lane, or the position.
  virtual Vec2 Destination() const {
    const Route* route = RouteAttribute();
    if (route != nullptr && !route->empty()) {
      LaneIndex last_lane_index = route->back();
      if (!last_lane_index.HasId()) last_lane_index.id = 0;
      const std::shared_ptr<AbstractLane>& last_lane =
          road->network->GetLane(last_lane_index);
      return last_lane->Position(last_lane->length, 0);
    }
    return position;
  }

  // property destination_direction
  virtual Vec2 DestinationDirection() const {
    const Vec2 destination = Destination();
    if (destination[0] != position[0] || destination[1] != position[1]) {
      return (destination - position) / Norm(destination - position);
    }
    return Vec2{0.0, 0.0};
  }

  // property lane_offset: [long, lat, ang] on the current lane.
  virtual std::array<double, 3> LaneOffset() const {
    if (lane != nullptr) {
      const Vec2 c = lane->LocalCoordinates(position);
      const double ang = lane->LocalAngle(heading, c[0]);
      return {c[0], c[1], ang};
    }
    return {0.0, 0.0, 0.0};
  }

  // to_dict(origin_vehicle=None, observe_intentions=True)
  ObjectDict ToDict(const RoadObject* origin_vehicle = nullptr,
                    bool observe_intentions = true) const override {
    ObjectDict d;
    d.presence = 1;
    d.x = position[0];
    d.y = position[1];
    d.vx = Velocity()[0];
    d.vy = Velocity()[1];
    d.heading = heading;
    d.cos_h = Direction()[0];
    d.sin_h = Direction()[1];
    const Vec2 destination_direction = DestinationDirection();
    d.cos_d = destination_direction[0];
    d.sin_d = destination_direction[1];
    const std::array<double, 3> lane_offset = LaneOffset();
    d.long_off = lane_offset[0];
    d.lat_off = lane_offset[1];
    d.ang_off = lane_offset[2];
    if (!observe_intentions) d.cos_d = d.sin_d = 0;
    if (origin_vehicle != nullptr) {
      const ObjectDict origin_dict = origin_vehicle->ToDict();
      d.x -= origin_dict.x;
      d.y -= origin_dict.y;
      d.vx -= origin_dict.vx;
      d.vy -= origin_dict.vy;
    }
    return d;
  }

  // predict_trajectory(actions, action_duration, trajectory_timestep, dt):
  // the states every trajectory_timestep under a sequence of actions.
  std::vector<std::shared_ptr<Vehicle>> PredictTrajectory(
      const std::vector<VehicleAction>& actions, double action_duration,
      double trajectory_timestep, double dt) const {
    std::vector<std::shared_ptr<Vehicle>> states;
    std::shared_ptr<Vehicle> v = Clone();
    int64_t t = 0;
    const int64_t repeat = static_cast<int64_t>(action_duration / dt);
    const int64_t every = static_cast<int64_t>(trajectory_timestep / dt);
    for (const VehicleAction& a : actions) {
      v->Act(a);  // Low-level control action
      for (int64_t i = 0; i < repeat; ++i) {
        t += 1;
        v->Step(dt);
        if (PyModInt(t, every) == 0) states.push_back(v->Clone());
      }
    }
    return states;
  }

 protected:
  // getattr(self, "route", None): ControlledVehicle's route.
  virtual const Route* RouteAttribute() const { return nullptr; }

  // Python's `a % b` of ints (ZeroDivisionError for b == 0).
  static int64_t PyModInt(int64_t a, int64_t b) {
    if (b == 0) throw std::domain_error("integer modulo by zero");
    const int64_t r = a % b;
    return (r != 0 && ((r < 0) != (b < 0))) ? r + b : r;
  }
};

template <class V>
std::shared_ptr<V> Vehicle::CreateRandom(Road& road,
                                         std::optional<double> speed,
                                         std::optional<std::string> lane_from,
                                         std::optional<std::string> lane_to,
                                         std::optional<int64_t> lane_id,
                                         double spacing) {
  NumpyRandom& np_random = *road.np_random;
  const RoadGraph& graph = road.network->graph;
  // `lane_from or np_random.choice(list(graph.keys()))` ("" is falsy).
  std::string from;
  if (lane_from.has_value() && !lane_from->empty()) {
    from = *lane_from;
  } else {
    const std::vector<std::string> keys = graph.Keys();
    from = keys[np_random.Choice(static_cast<int64_t>(keys.size()))];
  }
  std::string to;
  if (lane_to.has_value() && !lane_to->empty()) {
    to = *lane_to;
  } else {
    const std::vector<std::string> keys = graph.at(from).Keys();
    to = keys[np_random.Choice(static_cast<int64_t>(keys.size()))];
  }
  const int64_t n_lanes = static_cast<int64_t>(graph.at(from).at(to).size());
  const int64_t id = lane_id.has_value() ? *lane_id : np_random.Choice(n_lanes);
  const std::shared_ptr<AbstractLane>& lane =
      road.network->GetLane(LaneIndex{from, to, id});
  double v_speed;
  if (!speed.has_value()) {
    // lane.speed_limit is never None for the ported lanes.
    v_speed =
        np_random.Uniform(0.7 * lane->speed_limit, 0.8 * lane->speed_limit);
  } else {
    v_speed = *speed;
  }
  const double default_spacing = 12 + 1.0 * v_speed;
  const double offset = spacing * default_spacing *
                        Np().Exp(-5.0 / 40 * static_cast<double>(n_lanes));
  double x0;
  if (!road.vehicles.empty()) {
    // np.max over the vehicles' longitudinal coordinates (NaN propagates).
    x0 = lane->LocalCoordinates(road.vehicles[0]->position)[0];
    for (size_t i = 1; i < road.vehicles.size(); ++i) {
      const double x = lane->LocalCoordinates(road.vehicles[i]->position)[0];
      if (std::isnan(x0)) break;
      if (std::isnan(x) || x > x0) x0 = x;
    }
  } else {
    x0 = 3 * offset;
  }
  x0 += offset * np_random.Uniform(0.9, 1.1);
  return std::make_shared<V>(&road, lane->Position(x0, 0), lane->HeadingAt(x0),
                             v_speed);
}

}  // namespace envpool_lite::highway
