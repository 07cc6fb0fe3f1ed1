// The bodies of observation.h's classes (highway_env/envs/common/
// observation.py, and compute_ttc_grid from envs/common/finite_mdp.py).
// They read AbstractEnv's members (abstract_env.h).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "envs/highway/abstract_env.h"
#include "envs/highway/controller.h"
#include "envs/highway/kinematics.h"
#include "envs/highway/lane.h"
#include "envs/highway/objects.h"
#include "envs/highway/observation.h"
#include "envs/highway/road.h"
#include "envs/highway/utils.h"

namespace envpool_lite::highway {

namespace observation_detail {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();
// Vehicle.MAX_SPEED and AbstractLane.DEFAULT_WIDTH, read on the classes
// (not on an instance) by normalize_obs.
constexpr double kVehicleMaxSpeed = 40.0;
constexpr double kLaneDefaultWidth = 4;

// A Python slice [start:stop] of a sequence of n items, as [begin, end).
inline std::pair<int64_t, int64_t> PySlice(int64_t start, int64_t stop,
                                           int64_t n) {
  auto norm = [n](int64_t i) {
    if (i < 0) i += n;
    return std::clamp<int64_t>(i, 0, n);
  };
  int64_t b = norm(start), e = norm(stop);
  return {b, std::max(b, e)};
}

// Python's `k % n` for ints (the sign of n).
inline int64_t PyMod(int64_t k, int64_t n) {
  int64_t r = k % n;
  return (r != 0 && ((r < 0) != (n < 0))) ? r + n : r;
}

// features_range[feature], or nullptr.
inline const std::vector<double>* FindRange(const NamedNumbers& ranges,
                                            const std::string& feature) {
  for (const auto& [name, range] : ranges) {
    if (name == feature) return &range;
  }
  return nullptr;
}

// utils.lmap(v, [x0, x1], [-1, 1]) of float64 values:
// -1 + ((v - x0) * 2) / (x1 - x0).
inline double LmapToUnit(double v, double x0, double x1) {
  return -1.0 + ((v - x0) * 2.0) / (x1 - x0);
}

inline ArraySpec Box(std::string name, DType dtype, std::vector<int64_t> shape,
                     double low, double high) {
  ArraySpec spec;
  spec.name = std::move(name);
  spec.dtype = dtype;
  spec.shape = std::move(shape);
  spec.low = {low};
  spec.high = {high};
  return spec;
}

inline int64_t NumElements(const std::vector<int64_t>& shape) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

// np.zeros(shape) (float64) as an ObsArray named "obs".
inline ObsArray Zeros(std::vector<int64_t> shape,
                      DType dtype = DType::kFloat64) {
  ObsArray a;
  a.name = "obs";
  a.dtype = dtype;
  a.data.assign(NumElements(shape), 0.0);
  a.shape = std::move(shape);
  return a;
}

// A to_dict() record as from_records sees it: Vehicle.to_dict's keys, or
// RoadObject.to_dict's (no heading / long_off / lat_off / ang_off, which
// ObjectDict leaves NaN): a column missing from every record is a KeyError.
inline std::vector<std::pair<std::string, double>> Record(
    const RoadObject& object, const ObjectDict& d) {
  const bool vehicle = As<Vehicle>(&object) != nullptr;
  std::vector<std::pair<std::string, double>> record;
  for (const char* key : ObjectDict::kFeatures) {
    const std::string k = key;
    if (!vehicle && (k == "heading" || k == "long_off" || k == "lat_off" ||
                     k == "ang_off")) {
      continue;
    }
    record.emplace_back(k, d.Get(k));
  }
  return record;
}

// vehicle.goal (parking's Landmark, set by the env).
// NEEDS from kinematics.h: `std::shared_ptr<RoadObject> goal;` on Vehicle
// (Python sets `vehicle.goal` on the ego vehicle); used once it exists.
template <typename V>
std::shared_ptr<RoadObject> GoalOf(V* vehicle) {
  if constexpr (requires { vehicle->goal; }) {
    if (vehicle->goal == nullptr) {
      throw std::logic_error("AttributeError: the vehicle has no goal");
    }
    return vehicle->goal;
  } else {
    throw std::logic_error("KinematicsGoal: Vehicle::goal is missing");
  }
}

}  // namespace observation_detail

// ---------------------------------------------------------------- base ----

inline Vehicle* ObservationType::observer_vehicle() const {
  return observer_vehicle_ ? observer_vehicle_.get() : env->vehicle();
}

inline Frame Frame::Select(const std::vector<std::string>& features) const {
  Frame out;
  out.columns = features;
  std::vector<int> index;
  for (const auto& f : features) {
    int c = Col(f);
    if (c < 0) throw std::out_of_range("KeyError: feature '" + f + "'");
    index.push_back(c);
  }
  for (const auto& row : rows) {
    std::vector<double> r;
    r.reserve(index.size());
    for (int c : index) r.push_back(row[c]);
    out.rows.push_back(std::move(r));
  }
  return out;
}

// ------------------------------------------------------ compute_ttc_grid ----

// The TTC grid, axes SPEED x LANES x TIME, row-major.
struct TtcGrid {
  std::array<int64_t, 3> shape{};
  std::vector<double> data;
  double& At(int64_t v, int64_t l, int64_t t) {
    return data[(v * shape[1] + l) * shape[2] + t];
  }
};

// finite_mdp.compute_ttc_grid(env, time_quantization, horizon, vehicle).
inline TtcGrid ComputeTtcGrid(AbstractEnv& env, double time_quantization,
                              double horizon, Vehicle* vehicle = nullptr) {
  if (vehicle == nullptr) vehicle = env.vehicle();
  auto* mdp = As<MDPVehicle>(vehicle);
  if (mdp == nullptr) {
    throw std::invalid_argument(
        "TimeToCollision observation: the observer must be an MDPVehicle");
  }
  auto& network = *env.road->network;
  auto road_lanes = network.AllSideLanes(env.vehicle()->lane_index);
  TtcGrid grid;
  grid.shape = {static_cast<int64_t>(mdp->target_speeds.size()),
                static_cast<int64_t>(road_lanes.size()),
                static_cast<int64_t>(horizon / time_quantization)};
  grid.data.assign(grid.shape[0] * grid.shape[1] * grid.shape[2], 0.0);
  for (int64_t speed_index = 0; speed_index < grid.shape[0]; ++speed_index) {
    double ego_speed = mdp->IndexToSpeed(speed_index);
    for (const auto& other : env.road->vehicles) {
      if (other.get() == vehicle || ego_speed == other->speed) continue;
      double margin = other->LENGTH / 2 + vehicle->LENGTH / 2;
      const double collision_points[3][2] = {
          {0, 1}, {-margin, 0.5}, {margin, 0.5}};
      for (const auto& [m, cost] : collision_points) {
        double distance = vehicle->LaneDistanceTo(other.get()) + m;
        double other_projected_speed =
            other->speed * Dot(other->Direction(), vehicle->Direction());
        double time_to_collision =
            distance / NotZero(ego_speed - other_projected_speed);
        if (time_to_collision < 0) continue;
        if (network.IsConnectedRoad(vehicle->lane_index, other->lane_index,
                                    mdp->route, false, 3)) {
          std::vector<int64_t> lanes;
          if (network.AllSideLanes(other->lane_index).size() ==
              network.AllSideLanes(vehicle->lane_index).size()) {
            int64_t lane = other->lane_index.id;
            // numpy indexing: negative wraps, too large raises.
            if (lane < 0) lane += grid.shape[1];
            if (lane < 0 || lane >= grid.shape[1]) {
              throw std::out_of_range(
                  "compute_ttc_grid: lane index out of the grid");
            }
            lanes.push_back(lane);
          } else {
            for (int64_t l = 0; l < grid.shape[1]; ++l) lanes.push_back(l);
          }
          // int(ttc / tq) and int(np.ceil(ttc / tq)), ttc >= 0.
          double q = time_to_collision / time_quantization;
          for (double time : {std::trunc(q), std::ceil(q)}) {
            if (0 <= time && time < static_cast<double>(grid.shape[2])) {
              auto t = static_cast<int64_t>(time);
              for (int64_t l : lanes) {
                double& cell = grid.At(speed_index, l, t);
                cell = std::max(cell, cost);  // np.maximum (no NaN here)
              }
            }
          }
        }
      }
    }
  }
  return grid;
}

// ------------------------------------------- TimeToCollisionObservation ----

inline std::vector<ArraySpec> TimeToCollisionObservation::Space() {
  Observation obs = Observe();
  return {observation_detail::Box("obs", DType::kFloat32, obs[0].shape, 0, 1)};
}

inline Observation TimeToCollisionObservation::Observe() {
  using observation_detail::PySlice;
  if (!env->road) {
    return {observation_detail::Zeros(
        {3, 3, static_cast<int64_t>(horizon * env->policy_frequency)})};
  }
  Vehicle* observer = observer_vehicle();
  TtcGrid grid =
      ComputeTtcGrid(*env, 1 / env->policy_frequency, horizon, observer);
  const int64_t V = grid.shape[0], L = grid.shape[1], T = grid.shape[2];
  // padded_grid = concatenate([ones, grid, ones], axis=1), sliced to the 3
  // lanes around the observer's.
  const int64_t obs_lanes = 3;
  int64_t l0 = L + observer->lane_index.id - obs_lanes / 2;
  int64_t lf = L + observer->lane_index.id + obs_lanes / 2;
  auto [lb, le] = PySlice(l0, lf + 1, 3 * L);
  // np.repeat of the speed rows: the first and last ones (V + 1) times
  // (repeats[[0, -1]] += V adds V once when V == 1), the others once.
  std::vector<int64_t> rows;
  for (int64_t v = 0; v < V; ++v) {
    int64_t repeats = (v == 0 || v == V - 1) ? 1 + V : 1;
    for (int64_t k = 0; k < repeats; ++k) rows.push_back(v);
  }
  auto* mdp = As<MDPVehicle>(observer);
  const int64_t obs_speeds = 3;
  int64_t v0 = V + mdp->speed_index - obs_speeds / 2;
  int64_t vf = V + mdp->speed_index + obs_speeds / 2;
  auto [vb, ve] = PySlice(v0, vf + 1, static_cast<int64_t>(rows.size()));
  ObsArray out;
  out.name = "obs";
  out.dtype = DType::kFloat32;
  out.shape = {ve - vb, le - lb, T};
  out.data.reserve(observation_detail::NumElements(out.shape));
  for (int64_t r = vb; r < ve; ++r) {
    for (int64_t p = lb; p < le; ++p) {
      for (int64_t t = 0; t < T; ++t) {
        double value = (p < L || p >= 2 * L) ? 1.0 : grid.At(rows[r], p - L, t);
        out.data.push_back(static_cast<float>(value));
      }
    }
  }
  return {std::move(out)};
}

// ------------------------------------------------- KinematicObservation ----

inline std::vector<ArraySpec> KinematicObservation::Space() {
  return {observation_detail::Box(
      "obs", DType::kFloat32,
      {vehicles_count, static_cast<int64_t>(features.size())},
      -observation_detail::kInf, observation_detail::kInf)};
}

inline void KinematicObservation::NormalizeObs(Frame* df) {
  using namespace observation_detail;
  if (features_range.empty()) {
    auto side_lanes =
        env->road->network->AllSideLanes(observer_vehicle()->lane_index);
    double n = static_cast<double>(side_lanes.size());
    features_range = {
        {"x", {-5.0 * kVehicleMaxSpeed, 5.0 * kVehicleMaxSpeed}},
        {"y", {-kLaneDefaultWidth * n, kLaneDefaultWidth * n}},
        {"vx", {-2 * kVehicleMaxSpeed, 2 * kVehicleMaxSpeed}},
        {"vy", {-2 * kVehicleMaxSpeed, 2 * kVehicleMaxSpeed}},
    };
  }
  for (const auto& [feature, f_range] : features_range) {
    int c = df->Col(feature);
    if (c < 0) continue;
    for (auto& row : df->rows) {
      row[c] = LmapToUnit(row[c], f_range[0], f_range[1]);
      if (clip) row[c] = Clip(row[c], -1, 1);
    }
  }
}

inline Observation KinematicObservation::Observe() {
  using observation_detail::PySlice;
  if (!env->road) {
    return {observation_detail::Zeros(
        {vehicles_count, static_cast<int64_t>(features.size())})};
  }
  Vehicle* observer = observer_vehicle();
  // Add ego-vehicle
  Frame df;
  df.AddRecord(observation_detail::Record(*observer, observer->ToDict()));
  // Add nearby traffic
  auto close_vehicles = env->road->CloseObjectsTo(
      observer, AbstractEnv::PERCEPTION_DISTANCE,
      static_cast<int>(vehicles_count - 1), see_behind, order == "sorted",
      !include_obstacles);
  if (!close_vehicles.empty()) {
    Vehicle* origin = !absolute ? observer : nullptr;
    auto n = static_cast<int64_t>(close_vehicles.size());
    auto [b, e] = PySlice(-vehicles_count + 1, n, n);
    for (int64_t i = b; i < e; ++i) {
      df.AddRecord(observation_detail::Record(
          *close_vehicles[i],
          close_vehicles[i]->ToDict(origin, observe_intentions)));
    }
  }
  return Finish(df.Select(features));
}

inline Observation KinematicObservation::Finish(Frame df) {
  // Normalize and clip
  if (normalize) NormalizeObs(&df);
  // Fill missing rows
  while (static_cast<int64_t>(df.rows.size()) < vehicles_count) {
    df.rows.emplace_back(features.size(), 0.0);
  }
  // Reorder: obs[1:] shuffled by env.np_random (Generator.shuffle of the
  // rows draws as for a list of that length).
  std::vector<std::size_t> order_of_rows(df.rows.size());
  for (std::size_t i = 0; i < order_of_rows.size(); ++i) order_of_rows[i] = i;
  if (order == "shuffled" && df.rows.size() > 1) {
    std::vector<std::size_t> tail(order_of_rows.begin() + 1,
                                  order_of_rows.end());
    env->np_random.Shuffle(&tail);
    std::copy(tail.begin(), tail.end(), order_of_rows.begin() + 1);
  }
  // astype(float32). (Python returns every row: more than vehicles_count
  // only when vehicles_count == 1, where count=0 does not truncate; the
  // space has vehicles_count rows, which are kept.)
  ObsArray out;
  out.name = "obs";
  out.dtype = DType::kFloat32;
  out.shape = {vehicles_count, static_cast<int64_t>(features.size())};
  out.data.reserve(vehicles_count * features.size());
  for (int64_t r = 0; r < vehicles_count; ++r) {
    for (double v : df.rows[order_of_rows[r]]) {
      out.data.push_back(static_cast<float>(v));
    }
  }
  return {std::move(out)};
}

// --------------------------------------------- OccupancyGridObservation ----

inline OccupancyGridObservation::OccupancyGridObservation(
    AbstractEnv& env, const ObservationConfig& c)
    : ObservationType(env),
      features(c.features.empty() ? FEATURES : c.features),
      grid_size(GRID_SIZE),
      grid_step(GRID_STEP),
      features_range(c.features_range),
      absolute(c.absolute),
      align_to_vehicle_axes(c.align_to_vehicle_axes),
      clip(c.clip),
      as_image(c.as_image) {
  if (!c.grid_size.empty()) {
    if (c.grid_size.size() != 4) {
      throw std::invalid_argument("observation grid_size: 2x2 numbers");
    }
    grid_size = {
        {{c.grid_size[0], c.grid_size[1]}, {c.grid_size[2], c.grid_size[3]}}};
  }
  if (!c.grid_step.empty()) {
    if (c.grid_step.size() != 2) {
      throw std::invalid_argument("observation grid_step: 2 numbers");
    }
    grid_step = {c.grid_step[0], c.grid_step[1]};
  }
  grid_shape[0] = static_cast<int64_t>(features.size());
  for (int k = 0; k < 2; ++k) {
    grid_shape[k + 1] = static_cast<int64_t>(
        std::floor((grid_size[k][1] - grid_size[k][0]) / grid_step[k]));
  }
  grid.assign(grid_shape[0] * grid_shape[1] * grid_shape[2], 0.0);
}

inline std::vector<ArraySpec> OccupancyGridObservation::Space() {
  std::vector<int64_t> shape(grid_shape.begin(), grid_shape.end());
  if (as_image) {
    return {observation_detail::Box("obs", DType::kUint8, shape, 0, 255)};
  }
  return {observation_detail::Box("obs", DType::kFloat32, shape,
                                  -observation_detail::kInf,
                                  observation_detail::kInf)};
}

inline void OccupancyGridObservation::Normalize(Frame* df) {
  using namespace observation_detail;
  if (features_range.empty()) {
    features_range = {
        {"vx", {-2 * kVehicleMaxSpeed, 2 * kVehicleMaxSpeed}},
        {"vy", {-2 * kVehicleMaxSpeed, 2 * kVehicleMaxSpeed}},
    };
  }
  for (const auto& [feature, f_range] : features_range) {
    int c = df->Col(feature);
    if (c < 0) continue;
    for (auto& row : df->rows) {
      row[c] = LmapToUnit(row[c], f_range[0], f_range[1]);
    }
  }
}

inline Observation OccupancyGridObservation::Observe() {
  using namespace observation_detail;
  if (!env->road) {
    return {Zeros(std::vector<int64_t>(grid_shape.begin(), grid_shape.end()))};
  }
  if (absolute) {
    throw std::logic_error(
        "NotImplementedError: OccupancyGrid with absolute coordinates");
  }
  // Initialize empty data
  std::fill(grid.begin(), grid.end(), kNaN);
  // Get nearby traffic data
  Vehicle* observer = observer_vehicle();
  Frame df;
  for (const auto& v : env->road->vehicles) {
    df.AddRecord(observation_detail::Record(*v, v->ToDict(observer)));
  }
  // Normalize
  Normalize(&df);
  // Fill-in features
  for (int64_t layer = 0; layer < static_cast<int64_t>(features.size());
       ++layer) {
    const std::string& feature = features[layer];
    int c = df.Col(feature);
    if (c >= 0) {  // A vehicle feature
      int cx = df.Col("x"), cy = df.Col("y");
      if (cx < 0 || cy < 0) throw std::out_of_range("KeyError: 'x' / 'y'");
      const std::vector<double>* range_x = FindRange(features_range, "x");
      const std::vector<double>* range_y = FindRange(features_range, "y");
      for (auto it = df.rows.rbegin(); it != df.rows.rend(); ++it) {
        double x = (*it)[cx], y = (*it)[cy];
        // Recover unnormalized coordinates for cell index:
        // lmap(x, [-1, 1], [lo, hi]) = lo + ((x - (-1)) * (hi - lo)) / 2
        if (range_x != nullptr) {
          x = (*range_x)[0] +
              ((x - (-1.0)) * ((*range_x)[1] - (*range_x)[0])) / 2.0;
        }
        if (range_y != nullptr) {
          y = (*range_y)[0] +
              ((y - (-1.0)) * ((*range_y)[1] - (*range_y)[0])) / 2.0;
        }
        auto cell = PosToIndex({x, y}, /*relative=*/!absolute);
        if (0 <= cell[0] && cell[0] < grid_shape[1] && 0 <= cell[1] &&
            cell[1] < grid_shape[2]) {
          Grid(layer, cell[0], cell[1]) = (*it)[c];
        }
      }
    } else if (feature == "on_road") {
      FillRoadLayerByLanes(layer);
    }
  }
  ObsArray out;
  out.name = "obs";
  out.shape.assign(grid_shape.begin(), grid_shape.end());
  out.dtype = as_image ? DType::kUint8 : DType::kFloat32;
  out.data.reserve(grid.size());
  for (double v : grid) {
    if (clip) v = Clip(v, -1, 1);
    if (as_image) {
      // ((clip(obs) + 1) / 2 * 255).astype(uint8): truncation; NaN casts
      // to 0 on x86 (numpy warns).
      v = ((Clip(v, -1, 1) + 1) / 2 * 255);
      v = std::isnan(v) ? 0.0 : static_cast<double>(static_cast<uint8_t>(v));
      out.data.push_back(v);
    } else {
      // np.nan_to_num, then astype(float32).
      if (std::isnan(v)) {
        v = 0.0;
      } else if (std::isinf(v)) {
        v = v > 0 ? std::numeric_limits<double>::max()
                  : -std::numeric_limits<double>::max();
      }
      out.data.push_back(static_cast<float>(v));
    }
  }
  return {std::move(out)};
}

inline std::array<int64_t, 2> OccupancyGridObservation::PosToIndex(
    Vec2 position, bool relative) {
  Vehicle* observer = observer_vehicle();
  if (!relative) {
    position[0] -= observer->position[0];
    position[1] -= observer->position[1];
  }
  if (align_to_vehicle_axes) {
    double c = Np().Cos(observer->heading), s = Np().Sin(observer->heading);
    const double m[4] = {c, s, -s, c};
    Vec2 rotated;
    Blas().MatVec(m, 2, 2, position.data(), rotated.data());  // m @ position
    position = rotated;
  }
  return {
      static_cast<int64_t>(
          std::floor((position[0] - grid_size[0][0]) / grid_step[0])),
      static_cast<int64_t>(
          std::floor((position[1] - grid_size[1][0]) / grid_step[1])),
  };
}

inline Vec2 OccupancyGridObservation::IndexToPos(std::array<int64_t, 2> index) {
  Vehicle* observer = observer_vehicle();
  Vec2 position = {
      (static_cast<double>(index[0]) + 0.5) * grid_step[0] + grid_size[0][0],
      (static_cast<double>(index[1]) + 0.5) * grid_step[1] + grid_size[1][0],
  };
  if (align_to_vehicle_axes) {
    double c = Np().Cos(-observer->heading), s = Np().Sin(-observer->heading);
    const double m[4] = {c, s, -s, c};
    Vec2 rotated;
    Blas().MatVec(m, 2, 2, position.data(), rotated.data());
    position = rotated;
  }
  position[0] += observer->position[0];
  position[1] += observer->position[1];
  return position;
}

inline void OccupancyGridObservation::FillRoadLayerByLanes(
    int64_t layer_index, double lane_perception_distance) {
  double lane_waypoints_spacing = std::min(grid_step[0], grid_step[1]);
  Vehicle* observer = observer_vehicle();
  for (const auto& [from, tos] : env->road->network->graph) {
    for (const auto& [to, lanes] : tos) {
      for (const auto& lane : lanes) {
        double origin = std::get<0>(lane->LocalCoordinates(observer->position));
        auto waypoints =
            Arange(origin - lane_perception_distance,
                   origin + lane_perception_distance, lane_waypoints_spacing);
        for (double waypoint : waypoints) {
          waypoint = Clip(waypoint, 0, lane->length);
          auto cell = PosToIndex(lane->Position(waypoint, 0));
          if (0 <= cell[0] && cell[0] < grid_shape[1] && 0 <= cell[1] &&
              cell[1] < grid_shape[2]) {
            Grid(layer_index, cell[0], cell[1]) = 1;
          }
        }
      }
    }
  }
}

inline void OccupancyGridObservation::FillRoadLayerByCell(int64_t layer_index) {
  for (int64_t i = 0; i < grid_shape[1]; ++i) {
    for (int64_t j = 0; j < grid_shape[2]; ++j) {
      for (const auto& [from, tos] : env->road->network->graph) {
        for (const auto& [to, lanes] : tos) {
          for (const auto& lane : lanes) {
            if (lane->OnLane(IndexToPos({i, j}))) {
              Grid(layer_index, i, j) = 1;
            }
          }
        }
      }
    }
  }
}

// -------------------------------------------- KinematicsGoalObservation ----

inline std::vector<ArraySpec> KinematicsGoalObservation::Space() {
  Observation obs = Observe();
  std::vector<ArraySpec> specs;
  for (const ObsArray& a : obs) {  // already in sorted key order
    specs.push_back(observation_detail::Box(a.name, DType::kFloat64, a.shape,
                                            -observation_detail::kInf,
                                            observation_detail::kInf));
  }
  return specs;
}

inline Observation KinematicsGoalObservation::Observe() {
  const auto n = static_cast<int64_t>(features.size());
  auto make = [n](const char* name, std::vector<double> data) {
    ObsArray a;
    a.name = name;
    a.dtype = DType::kFloat64;
    a.shape = {n};
    a.data = std::move(data);
    return a;
  };
  Vehicle* observer = observer_vehicle();
  if (observer == nullptr) {
    std::vector<double> zeros(n, 0.0);
    return {make("achieved_goal", zeros), make("desired_goal", zeros),
            make("observation", zeros)};
  }
  Frame obs_df;
  obs_df.AddRecord(observation_detail::Record(*observer, observer->ToDict()));
  std::vector<double> obs = obs_df.Select(features).rows[0];
  Frame goal_df;
  std::shared_ptr<RoadObject> goal_object =
      observation_detail::GoalOf(observer);
  goal_df.AddRecord(
      observation_detail::Record(*goal_object, goal_object->ToDict()));
  std::vector<double> goal = goal_df.Select(features).rows[0];
  // x / self.scales (numpy broadcasting of a single scale).
  auto scaled = [this](std::vector<double> x) {
    if (scales.size() != 1 && scales.size() != x.size()) {
      throw std::invalid_argument("KinematicsGoal: scales do not broadcast");
    }
    for (std::size_t i = 0; i < x.size(); ++i) {
      x[i] = x[i] / scales[scales.size() == 1 ? 0 : i];
    }
    return x;
  };
  // Python's OrderedDict order is observation, achieved_goal,
  // desired_goal; the arrays are returned in the space's (sorted) order.
  std::vector<double> observation = scaled(obs);
  return {make("achieved_goal", observation),
          make("desired_goal", scaled(goal)), make("observation", observation)};
}

// ------------------------------------------------ AttributesObservation ----

inline std::vector<ArraySpec> AttributesObservation::Space() {
  Observation obs = Observe();
  std::vector<ArraySpec> specs;
  for (const ObsArray& a : obs) {
    specs.push_back(observation_detail::Box(a.name, DType::kFloat64, a.shape,
                                            -observation_detail::kInf,
                                            observation_detail::kInf));
  }
  return specs;
}

inline Observation AttributesObservation::Observe() {
  if (!get_attribute) {
    throw std::logic_error("AttributesObservation: get_attribute not wired");
  }
  Observation out;
  // getattr(self.env, attribute), in the attributes' order (they may draw
  // from np_random) ...
  for (const std::string& attribute : attributes) {
    Value value = get_attribute(attribute);
    ObsArray a;
    a.name = attribute;
    a.dtype = DType::kFloat64;
    a.shape = std::move(value.shape);
    a.data = std::move(value.data);
    out.push_back(std::move(a));
  }
  // ... returned in the space's order (gymnasium sorts a Dict's keys).
  std::stable_sort(
      out.begin(), out.end(),
      [](const ObsArray& a, const ObsArray& b) { return a.name < b.name; });
  return out;
}

// ------------------------------------------------------ ExitObservation ----

inline Observation ExitObservation::Observe() {
  using observation_detail::PySlice;
  if (!env->road) {
    return {observation_detail::Zeros(
        {vehicles_count, static_cast<int64_t>(features.size())})};
  }
  Vehicle* observer = observer_vehicle();
  // Add ego-vehicle
  auto ego_dict = observer->ToDict();
  auto exit_lane = env->road->network->GetLane(LaneIndex{"1", "2", -1});
  double exit_x = std::get<0>(exit_lane->LocalCoordinates(observer->position));
  ego_dict.x = exit_x;
  Frame df;
  df.AddRecord(observation_detail::Record(*observer, ego_dict));
  df = df.Select(features);
  // Add nearby traffic
  auto close_vehicles = env->road->CloseVehiclesTo(
      observer, AbstractEnv::PERCEPTION_DISTANCE,
      static_cast<int>(vehicles_count - 1), see_behind);
  if (!close_vehicles.empty()) {
    Vehicle* origin = !absolute ? observer : nullptr;
    Frame vdf;
    auto n = static_cast<int64_t>(close_vehicles.size());
    auto [b, e] = PySlice(-vehicles_count + 1, n, n);
    for (int64_t i = b; i < e; ++i) {
      vdf.AddRecord(observation_detail::Record(
          *close_vehicles[i],
          close_vehicles[i]->ToDict(origin, observe_intentions)));
    }
    for (auto& row : vdf.Select(features).rows) df.rows.push_back(row);
  }
  return Finish(std::move(df));
}

// ----------------------------------------------------- LidarObservation ----

inline LidarObservation::LidarObservation(AbstractEnv& env,
                                          const ObservationConfig& c)
    : ObservationType(env),
      cells(c.cells),
      maximum_range(c.maximum_range),
      normalize(c.normalize),
      angle(2 * kPi / static_cast<double>(c.cells)),
      grid(c.cells * 2, std::numeric_limits<float>::infinity()) {}

inline std::vector<ArraySpec> LidarObservation::Space() {
  // Box(low=-high, high=high, dtype=float32) rounds the bounds to float32.
  double high =
      normalize ? 1.0 : static_cast<double>(static_cast<float>(maximum_range));
  return {
      observation_detail::Box("obs", DType::kFloat32, {cells, 2}, -high, high)};
}

inline Observation LidarObservation::Observe() {
  if (!env->road) {
    throw std::logic_error("LidarObservation: the env has no road");
  }
  Vehicle* observer = observer_vehicle();
  std::vector<float> obs = Trace(observer->position, observer->Velocity());
  if (normalize) {
    // float32 array /= Python float: a float32 division.
    const auto range = static_cast<float>(maximum_range);
    for (float& v : obs) v = v / range;
  }
  ObsArray out;
  out.name = "obs";
  out.dtype = DType::kFloat32;
  out.shape = {cells, 2};
  out.data.assign(obs.begin(), obs.end());
  return {std::move(out)};
}

inline const std::vector<float>& LidarObservation::Trace(
    const Vec2& origin, const Vec2& origin_velocity) {
  this->origin = origin;
  // np.ones(float32) * maximum_range: float32.
  grid.assign(cells * 2, 1.0f * static_cast<float>(maximum_range));
  Vehicle* observer = observer_vehicle();
  std::vector<RoadObject*> obstacles;
  for (const auto& v : env->road->vehicles) obstacles.push_back(v.get());
  for (const auto& o : env->road->objects) obstacles.push_back(o.get());
  for (RoadObject* obstacle : obstacles) {
    if (obstacle == observer || !obstacle->solid) continue;
    Vec2 rel = {obstacle->position[0] - origin[0],
                obstacle->position[1] - origin[1]};
    double center_distance = Norm(rel);
    if (center_distance > maximum_range) continue;
    double center_angle = PositionToAngle(obstacle->position, origin);
    int64_t center_index = AngleToIndex(center_angle);
    double distance = center_distance - obstacle->WIDTH / 2;
    Vec2 obstacle_velocity = obstacle->Velocity();
    Vec2 rel_velocity = {obstacle_velocity[0] - origin_velocity[0],
                         obstacle_velocity[1] - origin_velocity[1]};
    if (distance <= static_cast<double>(grid[center_index * 2 + DISTANCE])) {
      Vec2 direction = IndexToDirection(center_index);
      double velocity = Dot(rel_velocity, direction);
      grid[center_index * 2 + DISTANCE] = static_cast<float>(distance);
      grid[center_index * 2 + SPEED] = static_cast<float>(velocity);
    }
    // Angular sector covered by the obstacle
    std::vector<Vec2> corner_list =
        RectCorners(obstacle->position, obstacle->LENGTH, obstacle->WIDTH,
                    obstacle->heading);
    const std::array<Vec2, 4> corners = {corner_list[0], corner_list[1],
                                         corner_list[2], corner_list[3]};
    std::vector<double> angles;
    for (const auto& corner : corners) {
      angles.push_back(PositionToAngle(corner, origin));
    }
    // Python's min / max: the first extreme item.
    double min_angle = angles[0], max_angle = angles[0];
    for (std::size_t k = 1; k < angles.size(); ++k) {
      if (angles[k] < min_angle) min_angle = angles[k];
      if (angles[k] > max_angle) max_angle = angles[k];
    }
    if (min_angle < -kPi / 2 && kPi / 2 < max_angle) {
      // Object's corners are wrapping around +pi
      double new_min = max_angle, new_max = min_angle + 2 * kPi;
      min_angle = new_min;
      max_angle = new_max;
    }
    int64_t start = AngleToIndex(min_angle), end = AngleToIndex(max_angle);
    std::vector<int64_t> indexes;
    if (start < end) {
      for (int64_t k = start; k < end + 1; ++k) indexes.push_back(k);
    } else {  // Object's corners are wrapping around 0
      for (int64_t k = start; k < cells; ++k) indexes.push_back(k);
      for (int64_t k = 0; k < end + 1; ++k) indexes.push_back(k);
    }
    // Actual distance computation for these sections
    for (int64_t index : indexes) {
      Vec2 direction = IndexToDirection(index);
      Vec2 far = {origin[0] + maximum_range * direction[0],
                  origin[1] + maximum_range * direction[1]};
      double ray_distance = DistanceToRect({origin, far}, corners);
      if (ray_distance <= static_cast<double>(grid[index * 2 + DISTANCE])) {
        double velocity = Dot(rel_velocity, direction);
        grid[index * 2 + DISTANCE] = static_cast<float>(ray_distance);
        grid[index * 2 + SPEED] = static_cast<float>(velocity);
      }
    }
  }
  return grid;
}

inline double LidarObservation::PositionToAngle(const Vec2& position,
                                                const Vec2& origin) const {
  return Np().Arctan2(position[1] - origin[1], position[0] - origin[0]) +
         angle / 2;
}

inline int64_t LidarObservation::PositionToIndex(const Vec2& position,
                                                 const Vec2& origin) const {
  return AngleToIndex(PositionToAngle(position, origin));
}

inline int64_t LidarObservation::AngleToIndex(double angle) const {
  return observation_detail::PyMod(
      static_cast<int64_t>(std::floor(angle / this->angle)), cells);
}

inline Vec2 LidarObservation::IndexToDirection(int64_t index) const {
  double a = static_cast<double>(index) * angle;
  return {Np().Cos(a), Np().Sin(a)};
}

// ------------------------------------------------- GrayscaleObservation ----

inline GrayscaleObservation::GrayscaleObservation(AbstractEnv& env,
                                                  const ObservationConfig& c)
    : ObservationType(env), weights(c.weights) {
  if (c.observation_shape.size() != 2) {
    throw std::invalid_argument("observation_shape: 2 numbers");
  }
  observation_shape = {static_cast<int64_t>(c.observation_shape[0]),
                       static_cast<int64_t>(c.observation_shape[1])};
  shape = {c.stack_size, observation_shape[0], observation_shape[1]};
  obs.assign(shape[0] * shape[1] * shape[2], 0);
  if (c.scaling != 0.0) scaling = c.scaling;
  if (!c.centering_position.empty()) centering_position = c.centering_position;
}

inline std::vector<ArraySpec> GrayscaleObservation::Space() {
  return {observation_detail::Box("obs", DType::kUint8,
                                  {shape[0], shape[1], shape[2]}, 0, 255)};
}

inline Observation GrayscaleObservation::Observe() {
  std::vector<uint8_t> new_obs = RenderToGrayscale();
  // np.roll(obs, -1, axis=0); obs[-1] = new_obs
  const int64_t frame = shape[1] * shape[2];
  std::copy(obs.begin() + frame, obs.end(), obs.begin());
  std::copy(new_obs.begin(), new_obs.end(), obs.end() - frame);
  ObsArray out;
  out.name = "obs";
  out.dtype = DType::kUint8;
  out.shape = {shape[0], shape[1], shape[2]};
  out.data.assign(obs.begin(), obs.end());
  return {std::move(out)};
}

inline std::vector<uint8_t> GrayscaleObservation::RenderToGrayscale() {
  if (!render_rgb) {
    // TODO(lead): wire render_rgb to graphics.h's EnvViewer.
    throw std::logic_error("GrayscaleObservation: render_rgb not wired");
  }
  std::vector<uint8_t> raw_rgb = render_rgb(*this, observer_vehicle());
  const int64_t width = observation_shape[0], height = observation_shape[1];
  if (static_cast<int64_t>(raw_rgb.size()) != height * width * 3 ||
      weights.size() != 3) {
    throw std::invalid_argument("GrayscaleObservation: bad image or weights");
  }
  // np.moveaxis(raw_rgb, 0, 1) (W x H x C), then
  // np.dot(rgb[..., :3], weights).clip(0, 255).astype(uint8): one ddot of
  // 3 per pixel.
  std::vector<uint8_t> out(width * height);
  for (int64_t w = 0; w < width; ++w) {
    for (int64_t h = 0; h < height; ++h) {
      const uint8_t* px = &raw_rgb[(h * width + w) * 3];
      const double rgb[3] = {static_cast<double>(px[0]),
                             static_cast<double>(px[1]),
                             static_cast<double>(px[2])};
      double v = Blas().Dot(rgb, weights.data(), 3);
      v = Clip(v, 0, 255);
      out[w * height + h] = static_cast<uint8_t>(v);
    }
  }
  return out;
}

// ------------------------------------------------ MultiAgentObservation ----

inline MultiAgentObservation::MultiAgentObservation(AbstractEnv& env,
                                                    const ObservationConfig& c)
    : ObservationType(env), observation_config(*c.observation_config) {
  for (const auto& vehicle : this->env->controlled_vehicles) {
    auto obs_type = ObservationFactory(*this->env, observation_config);
    obs_type->set_observer_vehicle(vehicle);
    agents_observation_types.push_back(std::move(obs_type));
  }
}

inline std::vector<ArraySpec> MultiAgentObservation::Space() {
  std::vector<ArraySpec> specs;
  for (std::size_t i = 0; i < agents_observation_types.size(); ++i) {
    for (ArraySpec spec : agents_observation_types[i]->Space()) {
      spec.name = std::to_string(i) + "." + spec.name;
      specs.push_back(std::move(spec));
    }
  }
  return specs;
}

inline Observation MultiAgentObservation::Observe() {
  Observation out;
  for (std::size_t i = 0; i < agents_observation_types.size(); ++i) {
    for (ObsArray a : agents_observation_types[i]->Observe()) {
      a.name = std::to_string(i) + "." + a.name;
      out.push_back(std::move(a));
    }
  }
  return out;
}

// ------------------------------------------------- observation_factory ----

inline std::unique_ptr<ObservationType> ObservationFactory(
    AbstractEnv& env, const ObservationConfig& config) {
  const std::string& type = config.type;
  if (type == "TimeToCollision") {
    return std::make_unique<TimeToCollisionObservation>(env, config.horizon);
  } else if (type == "Kinematics") {
    return std::make_unique<KinematicObservation>(env, config);
  } else if (type == "OccupancyGrid") {
    return std::make_unique<OccupancyGridObservation>(env, config);
  } else if (type == "KinematicsGoal") {
    return std::make_unique<KinematicsGoalObservation>(env, config);
  } else if (type == "GrayscaleObservation") {
    return std::make_unique<GrayscaleObservation>(env, config);
  } else if (type == "AttributesObservation") {
    return std::make_unique<AttributesObservation>(env, config);
  } else if (type == "MultiAgentObservation") {
    return std::make_unique<MultiAgentObservation>(env, config);
  } else if (type == "LidarObservation") {
    return std::make_unique<LidarObservation>(env, config);
  } else if (type == "ExitObservation") {
    return std::make_unique<ExitObservation>(env, config);
  }
  throw std::invalid_argument("Unknown observation type");
}

}  // namespace envpool_lite::highway
