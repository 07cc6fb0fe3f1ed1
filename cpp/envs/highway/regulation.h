// Port of highway_env/road/regulation.py (highway-env 1.12.1): RegulatedRoad,
// the road of the intersection task, which makes vehicles yield at
// conflicts.
//
// NEEDS from controller.h / kinematics.h (as the Python):
//   class ControlledVehicle : public Vehicle { double target_speed; ... };
//   class MDPVehicle : public ControlledVehicle;
//   virtual std::pair<std::vector<Vec2>, std::vector<double>>
//       Vehicle::PredictTrajectoryConstantSpeed(
//           const std::vector<double>& times);   // (positions, headings)
//
// Python stores the yielding state as attributes it adds to the vehicles
// (is_yielding, yield_timer, color); here RegulatedRoad keeps them in a table
// keyed by the vehicle (a weak_ptr, so a new vehicle at a freed address
// starts with none, as a new Python object would). The colour (None,
// YIELDING_COLOR) has no effect on rendering and is not kept.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <utility>
#include <vector>

#include "envs/highway/controller.h"
#include "envs/highway/objects.h"
#include "envs/highway/road.h"
#include "envs/highway/utils.h"

namespace envpool_lite::highway {

// class RegulatedRoad(Road)
class RegulatedRoad : public Road {
 public:
  int64_t REGULATION_FREQUENCY = 2;
  double YIELD_DURATION = 0.0;

  int64_t steps = 0;

  // RegulatedRoad(network=None, vehicles=None, obstacles=None,
  // np_random=None, record_history=False,
  // neighbour_vehicles_connected_lanes=False)
  explicit RegulatedRoad(
      std::shared_ptr<RoadNetwork> network = nullptr,
      std::vector<std::shared_ptr<RoadObject>> vehicles = {},
      std::vector<std::shared_ptr<RoadObject>> obstacles = {},
      NumpyRandom* np_random = nullptr, bool record_history = false,
      bool neighbour_vehicles_connected_lanes = false)
      : Road(std::move(network), std::move(vehicles), std::move(obstacles),
             np_random, record_history, neighbour_vehicles_connected_lanes) {}

  // step(dt): enforce the road rules every int(1 / dt / REGULATION_FREQUENCY)
  // steps, then Road.step.
  void Step(double dt) override {
    steps += 1;
    const int64_t period = static_cast<int64_t>(
        1 / dt / static_cast<double>(REGULATION_FREQUENCY));
    if (period == 0) {
      throw std::domain_error("RegulatedRoad.step: integer modulo by zero");
    }
    if (FloorModInt(steps, period) == 0) EnforceRoadRules();
    Road::Step(dt);
  }

  // enforce_road_rules(): unfreeze the vehicles that yielded long enough,
  // then find new conflicts and make the vehicle without priority yield.
  void EnforceRoadRules() {
    // Unfreeze previous yielding vehicles
    for (size_t i = 0; i < vehicles.size(); ++i) {
      const std::shared_ptr<RoadObject>& v = vehicles[i];
      YieldState* state = FindYieldState(v);
      if (state == nullptr || !state->is_yielding) continue;
      if (static_cast<double>(state->yield_timer) >=
          YIELD_DURATION * static_cast<double>(REGULATION_FREQUENCY)) {
        // Only ControlledVehicles are ever made to yield.
        auto* cv = As<ControlledVehicle>(v.get());
        cv->target_speed = cv->lane->speed_limit;
        state->is_yielding = false;
      } else {
        state->yield_timer += 1;
      }
    }

    // Find new conflicts and resolve them. A vehicle's predicted trajectory
    // is the same in each of its pairs (a pure function of its position,
    // speed, lane and route, which yielding does not change): predicted
    // once, at its first pair, as Python first predicts it.
    const int64_t n = static_cast<int64_t>(vehicles.size());
    const std::vector<double> times = Arange(0.25, 3.0, 0.25);
    std::vector<std::optional<Trajectory>> predicted(n);
    auto trajectory = [&](int64_t k) -> const Trajectory& {
      if (!predicted[k].has_value()) {
        predicted[k] =
            AsVehicle(vehicles[k])->PredictTrajectoryConstantSpeed(times);
      }
      return *predicted[k];
    };
    for (int64_t i = 0; i < n - 1; ++i) {
      for (int64_t j = i + 1; j < n; ++j) {
        const Trajectory& first = trajectory(i);
        const Trajectory& second = trajectory(j);
        if (TrajectoriesConflict(*AsVehicle(vehicles[i]), first,
                                 *AsVehicle(vehicles[j]), second)) {
          const std::shared_ptr<RoadObject>& yielding_vehicle =
              RespectPriorities(vehicles[i], vehicles[j]);
          auto* cv = As<ControlledVehicle>(yielding_vehicle.get());
          if (yielding_vehicle != nullptr && cv != nullptr &&
              As<MDPVehicle>(yielding_vehicle.get()) == nullptr) {
            cv->target_speed = 0;
            YieldState& state = GetYieldState(yielding_vehicle);
            state.is_yielding = true;
            state.yield_timer = 0;
          }
        }
      }
    }
  }

  // respect_priorities(v1, v2): the vehicle that must yield (lower lane
  // priority, else the one behind).
  static const std::shared_ptr<RoadObject>& RespectPriorities(
      const std::shared_ptr<RoadObject>& v1,
      const std::shared_ptr<RoadObject>& v2) {
    if (v1->lane->priority > v2->lane->priority) return v2;
    if (v1->lane->priority < v2->lane->priority) return v1;
    // The vehicle behind should yield
    return v1->FrontDistanceTo(*v2) > v2->FrontDistanceTo(*v1) ? v1 : v2;
  }

  // (positions, headings) of predict_trajectory_constant_speed.
  using Trajectory =
      decltype(std::declval<Vehicle&>().PredictTrajectoryConstantSpeed(
          std::declval<std::vector<double>>()));

  // The rest of is_conflict_possible, on the two predicted trajectories.
  static bool TrajectoriesConflict(const Vehicle& v1, const Trajectory& first,
                                   const Vehicle& v2,
                                   const Trajectory& second) {
    const auto& [positions_1, headings_1] = first;
    const auto& [positions_2, headings_2] = second;
    const size_t n = std::min({positions_1.size(), headings_1.size(),
                               positions_2.size(), headings_2.size()});
    for (size_t k = 0; k < n; ++k) {
      const Vec2& position_1 = positions_1[k];
      const Vec2& position_2 = positions_2[k];
      // Fast spherical pre-check
      if (Norm(position_2 - position_1) > v1.LENGTH) continue;
      // Accurate rectangular check
      if (RotatedRectanglesIntersect(
              {position_1, 1.5 * v1.LENGTH, 0.9 * v1.WIDTH, headings_1[k]},
              {position_2, 1.5 * v2.LENGTH, 0.9 * v2.WIDTH, headings_2[k]})) {
        return true;
      }
    }
    return false;
  }

 private:
  struct YieldState {
    std::weak_ptr<RoadObject> vehicle;
    bool is_yielding = false;
    int64_t yield_timer = 0;
  };

  // Python's int % (a non-negative result for a positive divisor).
  static int64_t FloorModInt(int64_t a, int64_t b) {
    const int64_t m = a % b;
    return (m != 0 && ((m < 0) != (b < 0))) ? m + b : m;
  }

  static Vehicle* AsVehicle(const std::shared_ptr<RoadObject>& v) {
    auto* vehicle = As<Vehicle>(v.get());
    if (vehicle == nullptr) {
      throw std::invalid_argument(
          "RegulatedRoad: a road vehicle is no Vehicle");
    }
    return vehicle;
  }

  // getattr(v, "is_yielding", ...): the state of this very vehicle, if any.
  YieldState* FindYieldState(const std::shared_ptr<RoadObject>& v) {
    for (YieldState& state : yield_states_) {
      if (!state.vehicle.expired() && state.vehicle.lock() == v) return &state;
    }
    return nullptr;
  }
  YieldState& GetYieldState(const std::shared_ptr<RoadObject>& v) {
    if (YieldState* state = FindYieldState(v)) return *state;
    // Forget the vehicles that no longer exist.
    std::vector<YieldState> alive;
    for (YieldState& state : yield_states_) {
      if (!state.vehicle.expired()) alive.push_back(state);
    }
    yield_states_ = std::move(alive);
    yield_states_.push_back(YieldState{v, false, 0});
    return yield_states_.back();
  }

  std::vector<YieldState> yield_states_;
};

}  // namespace envpool_lite::highway
