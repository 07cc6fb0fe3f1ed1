// The bodies of action.h's classes (highway_env/envs/common/action.py).
// They read AbstractEnv's members (abstract_env.h).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "envs/highway/abstract_env.h"
#include "envs/highway/action.h"
#include "envs/highway/controller.h"
#include "envs/highway/dynamics.h"
#include "envs/highway/kinematics.h"
#include "envs/highway/road.h"
#include "envs/highway/utils.h"

namespace envpool_lite::highway {

namespace action_detail {

// utils.lmap(v, [-1, 1], y) of a float32 v, as numpy computes it on an
// np.float32: every Python scalar is cast to float32 (NEP 50), so
// y0 + ((v - (-1)) * (y1 - y0)) / (1 - (-1)) is float32 arithmetic, with
// (y1 - y0) computed first in Python (float64) and then cast.
inline float Lmap32(float v, const std::array<double, 2>& y) {
  float t = v - static_cast<float>(-1);
  t = t * static_cast<float>(y[1] - y[0]);
  t = t / static_cast<float>(1 - (-1));
  return static_cast<float>(y[0]) + t;
}

// np.clip(a, -1, 1) of a float32: minimum(maximum(a, -1), 1), NaN stays.
inline float Clip32(float v) { return std::min(std::max(v, -1.0f), 1.0f); }

// np.linspace(-1.0f, 1.0f, num) (float32): y = arange(num) * step + start,
// step = (stop - start) / (num - 1), the last one set to stop.
inline std::vector<float> Linspace32(float start, float stop, int64_t num) {
  std::vector<float> y(num);
  const int64_t div = num - 1;
  const float delta = stop - start;
  if (div > 0) {
    const float step = delta / static_cast<float>(div);
    if (step == 0) {
      for (int64_t i = 0; i < num; ++i) {
        y[i] = static_cast<float>(i) / static_cast<float>(div) * delta + start;
      }
    } else {
      for (int64_t i = 0; i < num; ++i) {
        y[i] = static_cast<float>(i) * step + start;
      }
    }
    y[num - 1] = stop;
  } else {
    for (int64_t i = 0; i < num; ++i) {
      y[i] = static_cast<float>(i) * delta + start;
    }
  }
  return y;
}

inline std::array<double, 2> Range(const NumberList& values,
                                   const std::array<double, 2>& fallback,
                                   const char* name) {
  // `values if values else DEFAULT`
  if (values.empty()) return fallback;
  if (values.size() != 2) {
    throw std::invalid_argument(std::string("action ") + name +
                                ": 2 numbers (low, high)");
  }
  return {values[0], values[1]};
}

// `vehicle_class.create_random(...)` / `.make_on_lane(...)`:
// Vehicle.create_random / RoadObject.make_on_lane build cls(road, position,
// heading, speed) once they have drawn the position; constructors draw
// nothing, so this builds a Vehicle there and remakes it with `make`.
template <typename MakeFn>
std::shared_ptr<Vehicle> Remake(const std::shared_ptr<Vehicle>& v,
                                const MakeFn& make) {
  return make(v->position, v->heading, v->speed);
}

}  // namespace action_detail

// ------------------------------------------------------------ ActionType ----

inline Vehicle* ActionType::controlled_vehicle() const {
  return controlled_vehicle_ ? controlled_vehicle_.get() : env->vehicle();
}

// ------------------------------------------------------ ContinuousAction ----

inline ContinuousAction::ContinuousAction(AbstractEnv& env,
                                          const ActionConfig& c)
    : ActionType(env),
      acceleration_range(action_detail::Range(
          c.acceleration_range, ACCELERATION_RANGE, "acceleration_range")),
      steering_range(action_detail::Range(c.steering_range, STEERING_RANGE,
                                          "steering_range")),
      lateral(c.lateral),
      longitudinal(c.longitudinal),
      dynamical(c.dynamical),
      clip(c.clip) {
  if (!c.speed_range.empty()) {
    speed_range = action_detail::Range(c.speed_range, {0, 0}, "speed_range");
  }
  if (!lateral && !longitudinal) {
    throw std::invalid_argument(
        "Either longitudinal and/or lateral control must be enabled");
  }
  size = lateral && longitudinal ? 2 : 1;
  last_action.assign(size, 0.0f);
}

inline std::vector<ArraySpec> ContinuousAction::Space() const {
  return {MakeBox<float>("action", {size}, {-1.0}, {1.0})};
}

inline VehicleAction ContinuousAction::GetAction(const float* action) {
  using action_detail::Clip32;
  using action_detail::Lmap32;
  std::vector<float> a(action, action + size);
  if (clip) {
    for (float& v : a) v = Clip32(v);
  }
  if (speed_range.has_value()) {
    Vehicle* vehicle = controlled_vehicle();
    vehicle->MIN_SPEED = (*speed_range)[0];
    vehicle->MAX_SPEED = (*speed_range)[1];
  }
  VehicleAction out;
  if (longitudinal && lateral) {
    out.acceleration = Lmap32(a[0], acceleration_range);
    out.steering = Lmap32(a[1], steering_range);
  } else if (longitudinal) {
    out.acceleration = Lmap32(a[0], acceleration_range);
    out.steering = 0;
  } else if (lateral) {
    out.acceleration = 0;
    out.steering = Lmap32(a[0], steering_range);
  }
  return out;
}

inline void ContinuousAction::ActValues(const float* action) {
  controlled_vehicle()->Act(GetAction(action));
  last_action.assign(action, action + size);
}

inline std::shared_ptr<Vehicle> ContinuousAction::Make(Road& road,
                                                       Vec2 position,
                                                       double heading,
                                                       double speed) const {
  if (!dynamical) {
    return std::make_shared<Vehicle>(&road, position, heading, speed);
  }
  return std::make_shared<BicycleVehicle>(&road, position, heading, speed);
}

inline std::shared_ptr<Vehicle> ContinuousAction::CreateRandom(
    Road& road, std::optional<double> speed,
    std::optional<std::string> lane_from, std::optional<std::string> lane_to,
    std::optional<int64_t> lane_id, double spacing) const {
  return action_detail::Remake(
      Vehicle::CreateRandom<Vehicle>(road, speed, std::move(lane_from),
                                     std::move(lane_to), lane_id, spacing),
      [&](Vec2 p, double h, double s) { return Make(road, p, h, s); });
}

inline std::shared_ptr<Vehicle> ContinuousAction::MakeOnLane(
    Road& road, const LaneIndex& lane_index, double longitudinal,
    std::optional<double> speed) const {
  return action_detail::Remake(
      Vehicle::MakeOnLane<Vehicle>(road, lane_index, longitudinal, speed),
      [&](Vec2 p, double h, double s) { return Make(road, p, h, s); });
}

// -------------------------------------------------------- DiscreteAction ----

inline DiscreteAction::DiscreteAction(AbstractEnv& env, const ActionConfig& c)
    : ContinuousAction(env,
                       [&c] {
                         ActionConfig cont = c;
                         cont.speed_range.clear();  // not passed on
                         return cont;
                       }()),
      actions_per_axis(c.actions_per_axis) {}

inline std::vector<ArraySpec> DiscreteAction::Space() const {
  int64_t n = 1;
  for (int64_t k = 0; k < size; ++k) n *= actions_per_axis;
  return {MakeDiscrete("action", n)};
}

inline void DiscreteAction::ActIndex(int64_t action) {
  // axes = np.linspace(low, high, actions_per_axis).T (float32), then
  // all_actions = list(itertools.product(*axes)): the first axis varies
  // slowest.
  std::vector<float> axis =
      action_detail::Linspace32(-1.0f, 1.0f, actions_per_axis);
  int64_t n = 1;
  for (int64_t k = 0; k < size; ++k) n *= actions_per_axis;
  if (action < 0) action += n;  // Python list indexing
  if (action < 0 || action >= n) {
    throw std::out_of_range("IndexError: DiscreteAction index");
  }
  std::vector<float> values(size);
  for (int64_t k = size - 1; k >= 0; --k) {
    values[k] = axis[action % actions_per_axis];
    action /= actions_per_axis;
  }
  ContinuousAction::ActValues(values.data());
}

// ---------------------------------------------------- DiscreteMetaAction ----

inline DiscreteMetaAction::DiscreteMetaAction(AbstractEnv& env,
                                              const ActionConfig& c)
    : ActionType(env), longitudinal(c.longitudinal), lateral(c.lateral) {
  if (!c.target_speeds.empty()) {
    target_speeds = c.target_speeds;
  } else {
    target_speeds = {20.0, 25.0, 30.0};  // MDPVehicle.DEFAULT_TARGET_SPEEDS
  }
  if (longitudinal && lateral) {
    actions = ACTIONS_ALL;
  } else if (longitudinal) {
    actions = ACTIONS_LONGI;
  } else if (lateral) {
    actions = ACTIONS_LAT;
  } else {
    throw std::invalid_argument(
        "At least longitudinal or lateral actions must be included");
  }
}

inline std::vector<ArraySpec> DiscreteMetaAction::Space() const {
  return {MakeDiscrete("action", static_cast<int64_t>(actions.size()))};
}

inline int64_t DiscreteMetaAction::ActionIndex(const std::string& label) const {
  for (std::size_t i = 0; i < actions.size(); ++i) {
    if (actions[i] == label) return static_cast<int64_t>(i);
  }
  throw std::out_of_range("KeyError: '" + label + "'");
}

inline void DiscreteMetaAction::ActIndex(int64_t action) {
  // self.actions[int(action)]: a dict lookup (KeyError outside 0..n-1).
  if (action < 0 || action >= static_cast<int64_t>(actions.size())) {
    throw std::out_of_range("KeyError: DiscreteMetaAction index");
  }
  controlled_vehicle()->Act(actions[action]);
}

inline std::vector<int64_t> DiscreteMetaAction::GetAvailableActions() {
  std::vector<int64_t> out = {ActionIndex("IDLE")};
  Vehicle* vehicle = controlled_vehicle();
  auto* mdp = As<MDPVehicle>(vehicle);
  const RoadNetwork& network = *vehicle->road->network;
  for (const LaneIndex& l_index : network.SideLanes(vehicle->lane_index)) {
    if (l_index.id < vehicle->lane_index.id &&
        network.GetLane(l_index)->IsReachableFrom(vehicle->position) &&
        lateral) {
      out.push_back(ActionIndex("LANE_LEFT"));
    }
    if (l_index.id > vehicle->lane_index.id &&
        network.GetLane(l_index)->IsReachableFrom(vehicle->position) &&
        lateral) {
      out.push_back(ActionIndex("LANE_RIGHT"));
    }
  }
  if (mdp->speed_index < static_cast<int64_t>(mdp->target_speeds.size()) - 1 &&
      longitudinal) {
    out.push_back(ActionIndex("FASTER"));
  }
  if (mdp->speed_index > 0 && longitudinal) {
    out.push_back(ActionIndex("SLOWER"));
  }
  return out;
}

inline std::shared_ptr<Vehicle> DiscreteMetaAction::Make(Road& road,
                                                         Vec2 position,
                                                         double heading,
                                                         double speed) const {
  // functools.partial(MDPVehicle, target_speeds=self.target_speeds)
  return std::make_shared<MDPVehicle>(&road, position, heading, speed,
                                      std::nullopt, std::nullopt,
                                      target_speeds);
}

// (In Python, vehicle_class is a functools.partial, which has no
// create_random / make_on_lane: these raise AttributeError there. Here they
// do what Vehicle.create_random / make_on_lane do with cls = the partial.)
inline std::shared_ptr<Vehicle> DiscreteMetaAction::CreateRandom(
    Road& road, std::optional<double> speed,
    std::optional<std::string> lane_from, std::optional<std::string> lane_to,
    std::optional<int64_t> lane_id, double spacing) const {
  return action_detail::Remake(
      Vehicle::CreateRandom<Vehicle>(road, speed, std::move(lane_from),
                                     std::move(lane_to), lane_id, spacing),
      [&](Vec2 p, double h, double s) { return Make(road, p, h, s); });
}

inline std::shared_ptr<Vehicle> DiscreteMetaAction::MakeOnLane(
    Road& road, const LaneIndex& lane_index, double longitudinal,
    std::optional<double> speed) const {
  return action_detail::Remake(
      Vehicle::MakeOnLane<Vehicle>(road, lane_index, longitudinal, speed),
      [&](Vec2 p, double h, double s) { return Make(road, p, h, s); });
}

// ------------------------------------------------------ MultiAgentAction ----

inline MultiAgentAction::MultiAgentAction(AbstractEnv& env,
                                          const ActionConfig& c)
    : ActionType(env), action_config(*c.action_config) {
  for (const auto& vehicle : this->env->controlled_vehicles) {
    auto action_type = ActionFactory(*this->env, action_config);
    action_type->set_controlled_vehicle(vehicle);
    agents_action_types.push_back(std::move(action_type));
  }
}

inline std::vector<ArraySpec> MultiAgentAction::Space() const {
  std::vector<ArraySpec> specs;
  for (std::size_t i = 0; i < agents_action_types.size(); ++i) {
    for (ArraySpec spec : agents_action_types[i]->Space()) {
      spec.name = std::to_string(i) + "." + spec.name;
      specs.push_back(std::move(spec));
    }
  }
  return specs;
}

inline void MultiAgentAction::Act(const void* action) {
  const auto* bytes = static_cast<const unsigned char*>(action);
  for (auto& action_type : agents_action_types) {
    action_type->Act(bytes);
    bytes += action_type->ActionBytes();
  }
}

inline std::size_t MultiAgentAction::ActionBytes() const {
  std::size_t n = 0;
  for (const auto& action_type : agents_action_types) {
    n += action_type->ActionBytes();
  }
  return n;
}

inline std::vector<std::vector<int64_t>>
MultiAgentAction::GetAvailableActionTuples() {
  std::vector<std::vector<int64_t>> product = {{}};
  for (auto& action_type : agents_action_types) {
    std::vector<int64_t> available = action_type->GetAvailableActions();
    std::vector<std::vector<int64_t>> next;
    for (const auto& prefix : product) {
      for (int64_t a : available) {
        next.push_back(prefix);
        next.back().push_back(a);
      }
    }
    product = std::move(next);
  }
  return product;
}

inline std::shared_ptr<Vehicle> MultiAgentAction::Make(Road& road,
                                                       Vec2 position,
                                                       double heading,
                                                       double speed) const {
  return ActionFactory(*env, action_config)
      ->Make(road, position, heading, speed);
}

inline std::shared_ptr<Vehicle> MultiAgentAction::CreateRandom(
    Road& road, std::optional<double> speed,
    std::optional<std::string> lane_from, std::optional<std::string> lane_to,
    std::optional<int64_t> lane_id, double spacing) const {
  return ActionFactory(*env, action_config)
      ->CreateRandom(road, speed, std::move(lane_from), std::move(lane_to),
                     lane_id, spacing);
}

inline std::shared_ptr<Vehicle> MultiAgentAction::MakeOnLane(
    Road& road, const LaneIndex& lane_index, double longitudinal,
    std::optional<double> speed) const {
  return ActionFactory(*env, action_config)
      ->MakeOnLane(road, lane_index, longitudinal, speed);
}

// --------------------------------------------------------- action_factory ----

inline std::unique_ptr<ActionType> ActionFactory(AbstractEnv& env,
                                                 const ActionConfig& config) {
  if (config.type == "ContinuousAction") {
    return std::make_unique<ContinuousAction>(env, config);
  }
  if (config.type == "DiscreteAction") {
    return std::make_unique<DiscreteAction>(env, config);
  } else if (config.type == "DiscreteMetaAction") {
    return std::make_unique<DiscreteMetaAction>(env, config);
  } else if (config.type == "MultiAgentAction") {
    return std::make_unique<MultiAgentAction>(env, config);
  }
  throw std::invalid_argument("Unknown action type");
}

}  // namespace envpool_lite::highway
