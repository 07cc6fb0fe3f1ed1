// Port of highway_env/vehicle/behavior.py (highway-env 1.12.1): IDMVehicle
// (IDM longitudinal model + MOBIL lane changes), LinearVehicle,
// AggressiveVehicle, DefensiveVehicle, and a small factory for the
// "other_vehicles_type" class paths of the env configs.
//
// Not ported (they feed parameter regression, never the simulation):
// LinearVehicle.collect_data / add_features (Python appends features to
// self.data on every act; nothing reads them), longitudinal_structure,
// lateral_structure.
#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "envs/highway/controller.h"
#include "envs/highway/kinematics.h"
#include "envs/highway/road.h"
#include "envs/highway/utils.h"

namespace envpool_lite::highway {

// class IDMVehicle(ControlledVehicle)
class IDMVehicle : public ControlledVehicle {
 public:
  static constexpr uint32_t kKind = kIDMVehicle;
  // Longitudinal policy parameters
  double ACC_MAX = 6.0;                // [m/s2]
  double COMFORT_ACC_MAX = 3.0;        // [m/s2]
  double COMFORT_ACC_MIN = -5.0;       // [m/s2]
  double DISTANCE_WANTED = 5.0 + 5.0;  // 5.0 + ControlledVehicle.LENGTH [m]
  double TIME_WANTED = 1.5;            // [s]
  double DELTA = 4.0;                  // []
  std::array<double, 2> DELTA_RANGE = {3.5, 4.5};

  // Lateral policy parameters
  double POLITENESS = 0.0;                       // in [0, 1]
  double LANE_CHANGE_MIN_ACC_GAIN = 0.2;         // [m/s2]
  double LANE_CHANGE_MAX_BRAKING_IMPOSED = 2.0;  // [m/s2]
  double LANE_CHANGE_DELAY = 1.0;                // [s]

  bool enable_lane_change = true;
  double timer = 0;

  // IDMVehicle(road, position, heading=0, speed=0, target_lane_index=None,
  //            target_speed=None, route=None, enable_lane_change=True,
  //            timer=None)
  IDMVehicle(Road* road, const Vec2& position, double heading = 0,
             double speed = 0,
             std::optional<LaneIndex> target_lane_index = std::nullopt,
             std::optional<double> target_speed = std::nullopt,
             Route route = {}, bool enable_lane_change = true,
             std::optional<double> timer = std::nullopt)
      : ControlledVehicle(road, position, heading, speed,
                          std::move(target_lane_index), target_speed,
                          std::move(route)) {
    kinds |= kKind;
    this->enable_lane_change = enable_lane_change;
    // `timer or (np.sum(self.position) * np.pi) % self.LANE_CHANGE_DELAY`
    // (np.float64 %: Python's float modulo)
    this->timer = timer.has_value() && *timer != 0
                      ? *timer
                      : FloorMod((this->position[0] + this->position[1]) * kPi,
                                 LANE_CHANGE_DELAY);
  }

  std::shared_ptr<Vehicle> Clone() const override {
    return std::make_shared<IDMVehicle>(*this);
  }

  // randomize_behavior()
  virtual void RandomizeBehavior() {
    DELTA = road->np_random->Uniform(DELTA_RANGE[0], DELTA_RANGE[1]);
  }

  // create_from(vehicle): cls(road, position, heading=, speed=,
  // target_lane_index=, target_speed=, route=, timer=getattr(vehicle,
  // "timer", None)).
  template <class V>
  static std::shared_ptr<V> CreateFrom(const ControlledVehicle& vehicle) {
    std::optional<double> timer;
    if (const auto* idm = As<IDMVehicle>(&vehicle)) {
      timer = idm->timer;
    }
    return std::make_shared<V>(vehicle.road, vehicle.position, vehicle.heading,
                               vehicle.speed, vehicle.target_lane_index,
                               vehicle.target_speed, vehicle.route, true,
                               timer);
  }
  std::shared_ptr<Vehicle> CreateFromSelf() const override {
    return CreateFrom<IDMVehicle>(*this);
  }

  // act(action=None): the vehicle takes its own decisions (MOBIL lane
  // changes, IDM acceleration); the action is ignored.
  using ControlledVehicle::Act;
  void Act() override { IdmAct(); }
  void Act(const VehicleAction&) override { IdmAct(); }
  void Act(const std::string&) override { IdmAct(); }

  // step(dt): advance the decision timer, then the dynamics.
  void Step(double dt) override {
    timer += dt;
    ControlledVehicle::Step(dt);
  }

  // acceleration(ego_vehicle, front_vehicle=None, rear_vehicle=None): the
  // Intelligent Driver Model's acceleration command for ego_vehicle, which
  // need not be this vehicle (nor an IDMVehicle).
  virtual double Acceleration(const RoadObject* ego_vehicle,
                              const RoadObject* front_vehicle = nullptr,
                              const RoadObject* rear_vehicle = nullptr) const {
    if (ego_vehicle == nullptr || As<Vehicle>(ego_vehicle) == nullptr) {
      return 0;
    }
    // getattr(ego_vehicle, "target_speed", 0)
    double ego_target_speed = 0;
    if (const auto* cv = As<ControlledVehicle>(ego_vehicle)) {
      ego_target_speed = cv->target_speed;
    }
    if (ego_vehicle->lane != nullptr) {
      ego_target_speed =
          Clip(ego_target_speed, 0, ego_vehicle->lane->speed_limit);
    }
    double acceleration =
        COMFORT_ACC_MAX *
        (1 - Np().Power(PyMax(ego_vehicle->speed, 0) /
                            std::abs(NotZero(ego_target_speed)),
                        DELTA));

    if (front_vehicle != nullptr) {
      const double d = ego_vehicle->LaneDistanceTo(front_vehicle);
      // np.power(x, 2) of scalars: numpy's power loop squares (x * x) when
      // the exponent is a scalar 2.0 (its stride-0 fast path), unlike
      // Np().Power, which runs the vector loop (SVML pow).
      const double ratio = DesiredGap(ego_vehicle, front_vehicle) / NotZero(d);
      acceleration -= COMFORT_ACC_MAX * (ratio * ratio);
    }
    return acceleration;
  }

  // desired_gap(ego_vehicle, front_vehicle=None, projected=True): the
  // desired distance to the leading vehicle [m].
  double DesiredGap(const RoadObject* ego_vehicle,
                    const RoadObject* front_vehicle,
                    bool projected = true) const {
    const double d0 = DISTANCE_WANTED;
    const double tau = TIME_WANTED;
    const double ab = -COMFORT_ACC_MAX * COMFORT_ACC_MIN;
    const double dv =
        projected ? Dot(ego_vehicle->Velocity() - front_vehicle->Velocity(),
                        ego_vehicle->Direction())
                  : ego_vehicle->speed - front_vehicle->speed;
    const double d_star = d0 + ego_vehicle->speed * tau +
                          ego_vehicle->speed * dv / (2 * std::sqrt(ab));
    return d_star;
  }

  // change_lane_policy(): decide when to change lane (frequency, closeness
  // of the target lane, MOBIL).
  void ChangeLanePolicy() {
    // If a lane change is already ongoing
    if (lane_index != target_lane_index) {
      // If we are on correct route but bad lane: abort it if someone else is
      // already changing into the same lane
      if (lane_index.SameRoad(target_lane_index)) {
        for (size_t i = 0; i < road->vehicles.size(); ++i) {
          const std::shared_ptr<RoadObject> v = road->vehicles[i];
          if (v.get() == this || v->lane_index == target_lane_index) continue;
          const auto* cv = As<ControlledVehicle>(v.get());
          if (cv == nullptr || cv->target_lane_index != target_lane_index) {
            continue;
          }
          const double d = LaneDistanceTo(v.get());
          const double d_star = DesiredGap(this, v.get());
          if (0 < d && d < d_star) {
            target_lane_index = lane_index;
            break;
          }
        }
      }
      return;
    }

    // else, at a given frequency,
    if (!DoEvery(LANE_CHANGE_DELAY, timer)) return;
    timer = 0;

    // decide to make a lane change
    for (const LaneIndex& candidate : road->network->SideLanes(lane_index)) {
      // Is the candidate lane close enough?
      if (!road->network->GetLane(candidate)->IsReachableFrom(position)) {
        continue;
      }
      // Only change lane when the vehicle is moving
      if (std::abs(speed) < 1) continue;
      // Does the MOBIL model recommend a lane change?
      if (Mobil(candidate)) target_lane_index = candidate;
    }
  }

  // mobil(lane_index): Minimizing Overall Braking Induced by a Lane change.
  bool Mobil(const LaneIndex& lane_index) {
    // Is the maneuver unsafe for the new following vehicle?
    const auto [new_preceding, new_following] =
        road->NeighbourVehicles(this, lane_index);
    const double new_following_a = Acceleration(new_following, new_preceding);
    const double new_following_pred_a = Acceleration(new_following, this);
    if (new_following_pred_a < -LANE_CHANGE_MAX_BRAKING_IMPOSED) return false;

    // Do I have a planned route for a specific lane which is safe for me to
    // access?
    const auto [old_preceding, old_following] = road->NeighbourVehicles(this);
    const double self_pred_a = Acceleration(this, new_preceding);
    if (!route.empty() && route[0].HasId()) {
      // Wrong direction
      if (Sign(lane_index.id - target_lane_index.id) !=
          Sign(route[0].id - target_lane_index.id)) {
        return false;
      }
      // Unsafe braking required
      if (self_pred_a < -LANE_CHANGE_MAX_BRAKING_IMPOSED) return false;
    } else {
      // Is there an acceleration advantage for me and/or my followers to
      // change lane?
      const double self_a = Acceleration(this, old_preceding);
      const double old_following_a = Acceleration(old_following, this);
      const double old_following_pred_a =
          Acceleration(old_following, old_preceding);
      const double jerk = self_pred_a - self_a +
                          POLITENESS * (new_following_pred_a - new_following_a +
                                        old_following_pred_a - old_following_a);
      if (jerk < LANE_CHANGE_MIN_ACC_GAIN) return false;
    }

    // All clear, let's go!
    return true;
  }

 protected:
  // IDMVehicle.act(action): MOBIL lane changes, IDM acceleration, then
  // Vehicle.act (ControlledVehicle.act is skipped).
  void IdmAct() {
    if (crashed) return;
    VehicleAction a;
    // Lateral: MOBIL
    FollowRoad();
    if (enable_lane_change) ChangeLanePolicy();
    a.steering = SteeringControl(target_lane_index);
    a.steering = Clip(a.steering, -MAX_STEERING_ANGLE, MAX_STEERING_ANGLE);

    // Longitudinal: IDM
    {
      const auto [front_vehicle, rear_vehicle] =
          road->NeighbourVehicles(this, lane_index);
      a.acceleration = Acceleration(this, front_vehicle, rear_vehicle);
    }
    // When changing lane, check both current and target lanes
    if (lane_index != target_lane_index) {
      const auto [front_vehicle, rear_vehicle] =
          road->NeighbourVehicles(this, target_lane_index);
      const double target_idm_acceleration =
          Acceleration(this, front_vehicle, rear_vehicle);
      a.acceleration = PyMin(a.acceleration, target_idm_acceleration);
    }
    a.acceleration = Clip(a.acceleration, -ACC_MAX, ACC_MAX);
    // Skip ControlledVehicle.act(), or the command will be overridden.
    Vehicle::Act(a);
  }

  // np.sign of an int
  static int Sign(int64_t x) { return (x > 0) - (x < 0); }
};

// class LinearVehicle(IDMVehicle): longitudinal and lateral controllers
// linear in their parameters.
class LinearVehicle : public IDMVehicle {
 public:
  static constexpr uint32_t kKind = kLinearVehicle;
  std::array<double, 3> ACCELERATION_PARAMETERS = {0.3, 0.3, 2.0};
  // [ControlledVehicle.KP_HEADING,
  //  ControlledVehicle.KP_HEADING * ControlledVehicle.KP_LATERAL]
  std::array<double, 2> STEERING_PARAMETERS = {KP_HEADING,
                                               KP_HEADING * KP_LATERAL};
  // [0.5 * ACCELERATION_PARAMETERS, 1.5 * ACCELERATION_PARAMETERS] of
  // LinearVehicle's class (subclasses keep these ranges).
  std::array<std::array<double, 3>, 2> ACCELERATION_RANGE = {
      std::array<double, 3>{0.5 * 0.3, 0.5 * 0.3, 0.5 * 2.0},
      std::array<double, 3>{1.5 * 0.3, 1.5 * 0.3, 1.5 * 2.0}};
  // [STEERING_PARAMETERS - [0.07, 1.5], STEERING_PARAMETERS + [0.07, 1.5]]
  std::array<std::array<double, 2>, 2> STEERING_RANGE = {
      std::array<double, 2>{STEERING_PARAMETERS[0] - 0.07,
                            STEERING_PARAMETERS[1] - 1.5},
      std::array<double, 2>{STEERING_PARAMETERS[0] + 0.07,
                            STEERING_PARAMETERS[1] + 1.5}};

  bool collecting_data = true;

  // LinearVehicle(road, position, heading=0, speed=0,
  //               target_lane_index=None, target_speed=None, route=None,
  //               enable_lane_change=True, timer=None, data=None)
  LinearVehicle(Road* road, const Vec2& position, double heading = 0,
                double speed = 0,
                std::optional<LaneIndex> target_lane_index = std::nullopt,
                std::optional<double> target_speed = std::nullopt,
                Route route = {}, bool enable_lane_change = true,
                std::optional<double> timer = std::nullopt)
      : IDMVehicle(road, position, heading, speed, std::move(target_lane_index),
                   target_speed, std::move(route), enable_lane_change, timer) {
    kinds |= kKind;
    TIME_WANTED = 2.5;
    collecting_data = true;
  }

  std::shared_ptr<Vehicle> Clone() const override {
    return std::make_shared<LinearVehicle>(*this);
  }

  std::shared_ptr<Vehicle> CreateFromSelf() const override {
    return CreateFrom<LinearVehicle>(*this);
  }

  // act(action=None): Python first records regression data
  // (collect_data), which changes nothing else; then IDMVehicle.act.

  // randomize_behavior(): uniform(size=3) for the acceleration parameters,
  // uniform(size=2) for the steering parameters, then IDMVehicle's DELTA.
  void RandomizeBehavior() override {
    NumpyRandom& rng = *road->np_random;
    std::array<double, 3> ua;
    for (double& u : ua) u = rng.Uniform(0.0, 1.0);
    for (size_t i = 0; i < 3; ++i) {
      ACCELERATION_PARAMETERS[i] =
          ACCELERATION_RANGE[0][i] +
          ua[i] * (ACCELERATION_RANGE[1][i] - ACCELERATION_RANGE[0][i]);
    }
    std::array<double, 2> ub;
    for (double& u : ub) u = rng.Uniform(0.0, 1.0);
    for (size_t i = 0; i < 2; ++i) {
      STEERING_PARAMETERS[i] =
          STEERING_RANGE[0][i] +
          ub[i] * (STEERING_RANGE[1][i] - STEERING_RANGE[0][i]);
    }
    IDMVehicle::RandomizeBehavior();
  }

  // acceleration(ego_vehicle, front_vehicle=None, rear_vehicle=None):
  // np.dot(ACCELERATION_PARAMETERS, acceleration_features(...)) (BLAS).
  double Acceleration(const RoadObject* ego_vehicle,
                      const RoadObject* front_vehicle = nullptr,
                      const RoadObject* rear_vehicle = nullptr) const override {
    const std::array<double, 3> features =
        AccelerationFeatures(ego_vehicle, front_vehicle, rear_vehicle);
    return Dot(ACCELERATION_PARAMETERS.data(), features.data(), 3);
  }

  // acceleration_features(ego_vehicle, front_vehicle=None,
  // rear_vehicle=None): [vt, dv, dp].
  std::array<double, 3> AccelerationFeatures(
      const RoadObject* ego_vehicle, const RoadObject* front_vehicle = nullptr,
      const RoadObject* rear_vehicle = nullptr) const {
    double vt = 0, dv = 0, dp = 0;
    if (ego_vehicle != nullptr) {
      // getattr(ego_vehicle, "target_speed", ego_vehicle.speed)
      double ego_target_speed = ego_vehicle->speed;
      if (const auto* cv = As<ControlledVehicle>(ego_vehicle)) {
        ego_target_speed = cv->target_speed;
      }
      vt = ego_target_speed - ego_vehicle->speed;
      // np.maximum(ego_vehicle.speed, 0) (NaN propagates)
      const double s = ego_vehicle->speed;
      const double positive_speed = (s >= 0 || std::isnan(s)) ? s : 0.0;
      const double d_safe = DISTANCE_WANTED + positive_speed * TIME_WANTED;
      if (front_vehicle != nullptr) {
        const double d = ego_vehicle->LaneDistanceTo(front_vehicle);
        dv = PyMin(front_vehicle->speed - ego_vehicle->speed, 0);
        dp = PyMin(d - d_safe, 0);
      }
    }
    return {vt, dv, dp};
  }

  // steering_control(target_lane_index): np.dot(STEERING_PARAMETERS,
  // steering_features(target_lane_index)) (BLAS).
  double SteeringControl(const LaneIndex& target_lane_index) override {
    const std::array<double, 2> features = SteeringFeatures(target_lane_index);
    return Dot(STEERING_PARAMETERS.data(), features.data(), 2);
  }

  // steering_features(target_lane_index)
  std::array<double, 2> SteeringFeatures(
      const LaneIndex& target_lane_index) const {
    const std::shared_ptr<AbstractLane>& lane =
        road->network->GetLane(target_lane_index);
    const Vec2 lane_coords = lane->LocalCoordinates(position);
    const double lane_next_coords = lane_coords[0] + speed * TAU_PURSUIT;
    const double lane_future_heading = lane->HeadingAt(lane_next_coords);
    return {WrapToPi(lane_future_heading - heading) * LENGTH / NotZero(speed),
            -lane_coords[1] * LENGTH / Pow2(NotZero(speed))};
  }
};

// class AggressiveVehicle(LinearVehicle)
class AggressiveVehicle : public LinearVehicle {
 public:
  static constexpr uint32_t kKind = kAggressiveVehicle;
  double MERGE_ACC_GAIN = 0.8;
  double MERGE_VEL_RATIO = 0.75;
  double MERGE_TARGET_VEL = 30;

  AggressiveVehicle(Road* road, const Vec2& position, double heading = 0,
                    double speed = 0,
                    std::optional<LaneIndex> target_lane_index = std::nullopt,
                    std::optional<double> target_speed = std::nullopt,
                    Route route = {}, bool enable_lane_change = true,
                    std::optional<double> timer = std::nullopt)
      : LinearVehicle(road, position, heading, speed,
                      std::move(target_lane_index), target_speed,
                      std::move(route), enable_lane_change, timer) {
    kinds |= kKind;
    LANE_CHANGE_MIN_ACC_GAIN = 1.0;  // [m/s2]
    ACCELERATION_PARAMETERS = {
        MERGE_ACC_GAIN / ((1 - MERGE_VEL_RATIO) * MERGE_TARGET_VEL),
        MERGE_ACC_GAIN / (MERGE_VEL_RATIO * MERGE_TARGET_VEL), 0.5};
  }

  std::shared_ptr<Vehicle> Clone() const override {
    return std::make_shared<AggressiveVehicle>(*this);
  }
  std::shared_ptr<Vehicle> CreateFromSelf() const override {
    return CreateFrom<AggressiveVehicle>(*this);
  }
};

// class DefensiveVehicle(LinearVehicle)
class DefensiveVehicle : public LinearVehicle {
 public:
  static constexpr uint32_t kKind = kDefensiveVehicle;
  double MERGE_ACC_GAIN = 1.2;
  double MERGE_VEL_RATIO = 0.75;
  double MERGE_TARGET_VEL = 30;

  DefensiveVehicle(Road* road, const Vec2& position, double heading = 0,
                   double speed = 0,
                   std::optional<LaneIndex> target_lane_index = std::nullopt,
                   std::optional<double> target_speed = std::nullopt,
                   Route route = {}, bool enable_lane_change = true,
                   std::optional<double> timer = std::nullopt)
      : LinearVehicle(road, position, heading, speed,
                      std::move(target_lane_index), target_speed,
                      std::move(route), enable_lane_change, timer) {
    kinds |= kKind;
    LANE_CHANGE_MIN_ACC_GAIN = 1.0;  // [m/s2]
    ACCELERATION_PARAMETERS = {
        MERGE_ACC_GAIN / ((1 - MERGE_VEL_RATIO) * MERGE_TARGET_VEL),
        MERGE_ACC_GAIN / (MERGE_VEL_RATIO * MERGE_TARGET_VEL), 2.0};
  }

  std::shared_ptr<Vehicle> Clone() const override {
    return std::make_shared<DefensiveVehicle>(*this);
  }
  std::shared_ptr<Vehicle> CreateFromSelf() const override {
    return CreateFrom<DefensiveVehicle>(*this);
  }
};

// ---------------------------------------------------------------------------
// "other_vehicles_type": the behavior class a config names by class path,
// chosen at run time.
// ---------------------------------------------------------------------------

enum class OtherVehiclesType { kIDM, kLinear, kAggressive, kDefensive };

// utils.class_from_path(path) for the four behavior classes
// ("highway_env.vehicle.behavior.IDMVehicle", ...); throws
// std::invalid_argument for any other path.
inline OtherVehiclesType OtherVehiclesTypeFromPath(const std::string& path) {
  const std::string prefix = "highway_env.vehicle.behavior.";
  if (path == prefix + "IDMVehicle") return OtherVehiclesType::kIDM;
  if (path == prefix + "LinearVehicle") return OtherVehiclesType::kLinear;
  if (path == prefix + "AggressiveVehicle") {
    return OtherVehiclesType::kAggressive;
  }
  if (path == prefix + "DefensiveVehicle") {
    return OtherVehiclesType::kDefensive;
  }
  throw std::invalid_argument("other_vehicles_type: unsupported class '" +
                              path + "'");
}

// other_vehicles_type(road, position, heading=0, speed=0,
//                     target_lane_index=None, target_speed=None, route=None,
//                     enable_lane_change=True, timer=None)
inline std::shared_ptr<IDMVehicle> MakeOtherVehicle(
    OtherVehiclesType type, Road& road, const Vec2& position,
    double heading = 0, double speed = 0,
    std::optional<LaneIndex> target_lane_index = std::nullopt,
    std::optional<double> target_speed = std::nullopt, Route route = {},
    bool enable_lane_change = true,
    std::optional<double> timer = std::nullopt) {
  switch (type) {
    case OtherVehiclesType::kIDM:
      return std::make_shared<IDMVehicle>(
          &road, position, heading, speed, std::move(target_lane_index),
          target_speed, std::move(route), enable_lane_change, timer);
    case OtherVehiclesType::kLinear:
      return std::make_shared<LinearVehicle>(
          &road, position, heading, speed, std::move(target_lane_index),
          target_speed, std::move(route), enable_lane_change, timer);
    case OtherVehiclesType::kAggressive:
      return std::make_shared<AggressiveVehicle>(
          &road, position, heading, speed, std::move(target_lane_index),
          target_speed, std::move(route), enable_lane_change, timer);
    case OtherVehiclesType::kDefensive:
      return std::make_shared<DefensiveVehicle>(
          &road, position, heading, speed, std::move(target_lane_index),
          target_speed, std::move(route), enable_lane_change, timer);
  }
  throw std::invalid_argument("other_vehicles_type");
}

// other_vehicles_type.create_random(road, speed=None, lane_from=None,
//                                   lane_to=None, lane_id=None, spacing=1)
inline std::shared_ptr<IDMVehicle> CreateRandomOtherVehicle(
    OtherVehiclesType type, Road& road,
    std::optional<double> speed = std::nullopt,
    std::optional<std::string> lane_from = std::nullopt,
    std::optional<std::string> lane_to = std::nullopt,
    std::optional<int64_t> lane_id = std::nullopt, double spacing = 1) {
  switch (type) {
    case OtherVehiclesType::kIDM:
      return Vehicle::CreateRandom<IDMVehicle>(road, speed, lane_from, lane_to,
                                               lane_id, spacing);
    case OtherVehiclesType::kLinear:
      return Vehicle::CreateRandom<LinearVehicle>(road, speed, lane_from,
                                                  lane_to, lane_id, spacing);
    case OtherVehiclesType::kAggressive:
      return Vehicle::CreateRandom<AggressiveVehicle>(
          road, speed, lane_from, lane_to, lane_id, spacing);
    case OtherVehiclesType::kDefensive:
      return Vehicle::CreateRandom<DefensiveVehicle>(road, speed, lane_from,
                                                     lane_to, lane_id, spacing);
  }
  throw std::invalid_argument("other_vehicles_type");
}

// other_vehicles_type.make_on_lane(road, lane_index, longitudinal,
//                                  speed=None)
inline std::shared_ptr<IDMVehicle> MakeOtherVehicleOnLane(
    OtherVehiclesType type, Road& road, const LaneIndex& lane_index,
    double longitudinal, std::optional<double> speed = std::nullopt) {
  switch (type) {
    case OtherVehiclesType::kIDM:
      return RoadObject::MakeOnLane<IDMVehicle>(&road, lane_index, longitudinal,
                                                speed);
    case OtherVehiclesType::kLinear:
      return RoadObject::MakeOnLane<LinearVehicle>(&road, lane_index,
                                                   longitudinal, speed);
    case OtherVehiclesType::kAggressive:
      return RoadObject::MakeOnLane<AggressiveVehicle>(&road, lane_index,
                                                       longitudinal, speed);
    case OtherVehiclesType::kDefensive:
      return RoadObject::MakeOnLane<DefensiveVehicle>(&road, lane_index,
                                                      longitudinal, speed);
  }
  throw std::invalid_argument("other_vehicles_type");
}

}  // namespace envpool_lite::highway
