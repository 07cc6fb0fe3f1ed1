// Port of highway_env/road/road.py (highway-env 1.12.1): RoadNetwork and
// Road. Also defines the RoadObject members that need Road (objects.h).
//
// Road calls vehicles only through RoadObject's virtuals (Act, Step,
// HandleCollisions, LaneDistanceTo, ...), so this header needs no vehicle
// header. to_config / from_config are not ported.
#pragma once

#include <algorithm>
#include <cmath>
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
#include "envs/highway/utils.h"

namespace envpool_lite::highway {

// A Python dict keyed by str that keeps insertion order (the road network's
// graph: np_random.choice(list(graph.keys())) observes the order). Lookups
// are linear: graphs have a few dozen nodes at most.
template <typename V>
class OrderedDict {
 public:
  using Item = std::pair<std::string, V>;

  // `key in d`
  bool Contains(const std::string& key) const { return Find(key) != nullptr; }
  // d.get(key): nullptr when missing.
  const V* Find(const std::string& key) const {
    for (const Item& item : items_) {
      if (item.first == key) return &item.second;
    }
    return nullptr;
  }
  V* Find(const std::string& key) {
    for (Item& item : items_) {
      if (item.first == key) return &item.second;
    }
    return nullptr;
  }
  // d[key] for reading: throws std::out_of_range (Python's KeyError).
  const V& at(const std::string& key) const {
    const V* v = Find(key);
    if (v == nullptr) throw std::out_of_range("KeyError: '" + key + "'");
    return *v;
  }
  V& at(const std::string& key) {
    V* v = Find(key);
    if (v == nullptr) throw std::out_of_range("KeyError: '" + key + "'");
    return *v;
  }
  // d.setdefault(key, V()): appends the key at the end if missing.
  V& operator[](const std::string& key) {
    if (V* v = Find(key)) return *v;
    items_.emplace_back(key, V());
    return items_.back().second;
  }
  // list(d.keys()), in insertion order.
  std::vector<std::string> Keys() const {
    std::vector<std::string> keys;
    keys.reserve(items_.size());
    for (const Item& item : items_) keys.push_back(item.first);
    return keys;
  }
  size_t size() const { return items_.size(); }
  bool empty() const { return items_.empty(); }
  // Iteration over (key, value) pairs in insertion order (d.items()).
  auto begin() { return items_.begin(); }
  auto end() { return items_.end(); }
  auto begin() const { return items_.begin(); }
  auto end() const { return items_.end(); }

 private:
  std::vector<Item> items_;
};

using LaneList = std::vector<std::shared_ptr<AbstractLane>>;
// graph: dict[str, dict[str, list[AbstractLane]]]
using RoadGraph = OrderedDict<OrderedDict<LaneList>>;

namespace detail {
// Python list indexing lanes[id]: negative ids count from the end; out of
// range is an IndexError (std::out_of_range).
inline int64_t PyIndex(int64_t id, size_t size) {
  const int64_t n = static_cast<int64_t>(size);
  const int64_t i = id < 0 ? id + n : id;
  if (i < 0 || i >= n) throw std::out_of_range("IndexError: lane id");
  return i;
}
}  // namespace detail

// class RoadNetwork
class RoadNetwork {
 public:
  RoadGraph graph;

  // add_lane(_from, _to, lane): a lane is an edge of the graph.
  void AddLane(const std::string& from, const std::string& to,
               std::shared_ptr<AbstractLane> lane) {
    graph[from][to].push_back(std::move(lane));
  }

  // get_lane(index): the lane (from, to, id); a None id is 0 when the road
  // has one lane (else Python fails: std::invalid_argument here).
  // (A reference into the graph: lanes are only ever added.)
  const std::shared_ptr<AbstractLane>& GetLane(const LaneIndex& index) const {
    const LaneList& lanes = graph.at(index.from).at(index.to);
    int64_t id = index.id;
    if (!index.HasId()) {
      if (lanes.size() != 1) {
        throw std::invalid_argument(
            "get_lane: lane id None on a multi-lane road");
      }
      id = 0;
    }
    return lanes[detail::PyIndex(id, lanes.size())];
  }

  // get_closest_lane_index(position, heading=None): np.argmin over all lanes
  // (in graph order) of lane.distance_with_heading(position, heading).
  LaneIndex GetClosestLaneIndex(
      const Vec2& position,
      std::optional<double> heading = std::nullopt) const {
    // np.argmin: the first minimum, or the first NaN (no index list is
    // built: the winner is kept as we go).
    const std::string* best_from = nullptr;
    const std::string* best_to = nullptr;
    int64_t best_id = 0;
    double best = 0;
    // A lane whose LateralBound reaches the best distance so far cannot win
    // (nor tie first): skipped, where every distance is finite (a NaN
    // distance would win).
    const bool finite = std::isfinite(position[0]) &&
                        std::isfinite(position[1]) &&
                        (!heading.has_value() || std::isfinite(*heading));
    for (const auto& [from, to_dict] : graph) {
      for (const auto& [to, lanes] : to_dict) {
        for (size_t id = 0; id < lanes.size(); ++id) {
          if (finite && best_from != nullptr &&
              lanes[id]->LateralBound(position) >= best) {
            continue;
          }
          const double d = lanes[id]->DistanceWithHeading(position, heading);
          if (best_from == nullptr || std::isnan(d) || d < best) {
            best_from = &from;
            best_to = &to;
            best_id = static_cast<int64_t>(id);
            best = d;
            if (std::isnan(d)) return {*best_from, *best_to, best_id};
          }
        }
      }
    }
    if (best_from == nullptr) {
      throw std::invalid_argument("argmin of an empty sequence");
    }
    return {*best_from, *best_to, best_id};
  }

  // next_lane(current_index, route=None, position=None, np_random=...): the
  // lane to follow after the current one. `route` is modified (its first
  // step is dropped once finished), as Python's list. np_random is unused
  // (as in Python).
  LaneIndex NextLane(const LaneIndex& current_index, Route* route,
                     const Vec2& position,
                     NumpyRandom* np_random = nullptr) const {
    const std::string& from = current_index.from;
    const std::string& to = current_index.to;
    const int64_t id = current_index.id;
    std::optional<std::string> next_to;
    std::optional<int64_t> next_id;
    // Pick next road according to planned route
    if (route != nullptr && !route->empty()) {
      if ((*route)[0].SameRoad(current_index)) {
        // We just finished the first step of the route, drop it.
        route->erase(route->begin());
      }
      if (!route->empty() && (*route)[0].from == to) {
        // Next road in route is starting at the end of current road.
        next_to = (*route)[0].to;
        if ((*route)[0].HasId()) next_id = (*route)[0].id;
      }
      // else: Python logs a warning.
    }

    // Compute current projected (desired) position
    const std::shared_ptr<AbstractLane> lane = GetLane(current_index);
    const Vec2 c = lane->LocalCoordinates(position);
    const Vec2 projected_position = lane->Position(c[0], 0);
    // If next route is not known (`if not next_to`)
    if (!next_to.has_value() || next_to->empty()) {
      // Pick the one with the closest lane to projected target position;
      // Python returns current_index on the KeyError of graph[_to].
      const OrderedDict<LaneList>* to_dict = graph.Find(to);
      if (to_dict == nullptr) return current_index;
      bool found = false;
      std::string best_to;
      int64_t best_id = 0;
      double best_distance = 0;
      for (const auto& [candidate_to, lanes] : *to_dict) {
        auto [cand_id, cand_distance] = NextLaneGivenNextRoad(
            from, to, id, candidate_to, std::nullopt, projected_position);
        // min(..., key=distance): the first minimum.
        if (!found || cand_distance < best_distance) {
          found = true;
          best_to = candidate_to;
          best_id = cand_id;
          best_distance = cand_distance;
        }
      }
      if (!found) throw std::invalid_argument("min() arg is an empty sequence");
      return {to, best_to, best_id};
    }
    // If it is known, follow it and get the closest lane
    const int64_t chosen_id = NextLaneGivenNextRoad(from, to, id, *next_to,
                                                    next_id, projected_position)
                                  .first;
    return {to, *next_to, chosen_id};
  }

  // next_lane_given_next_road(_from, _to, _id, next_to, next_id, position):
  // (next_id, distance). Same lane count: keep the lane id (unless given);
  // else the closest lane (first minimum) of the next road.
  std::pair<int64_t, double> NextLaneGivenNextRoad(
      const std::string& from, const std::string& to, int64_t id,
      const std::string& next_to, std::optional<int64_t> next_id,
      const Vec2& position) const {
    const LaneList& next_lanes = graph.at(to).at(next_to);
    if (graph.at(from).at(to).size() == next_lanes.size()) {
      if (!next_id.has_value()) next_id = id;
    } else {
      int64_t best = 0;
      double best_distance = 0;
      for (size_t l = 0; l < next_lanes.size(); ++l) {
        const double d =
            GetLane({to, next_to, static_cast<int64_t>(l)})->Distance(position);
        if (l == 0 || d < best_distance) {
          best = static_cast<int64_t>(l);
          best_distance = d;
        }
      }
      next_id = best;
    }
    return {*next_id, GetLane({to, next_to, *next_id})->Distance(position)};
  }

  // shortest_path(start, goal): the first BFS path, or [].
  std::vector<std::string> ShortestPath(const std::string& start,
                                        const std::string& goal) const {
    // Same as next(self.bfs_paths(start, goal), []), stopping at the first.
    std::vector<std::pair<std::string, std::vector<std::string>>> queue = {
        {start, {start}}};
    size_t head = 0;
    while (head < queue.size()) {
      const auto [node, path] = queue[head++];
      const OrderedDict<LaneList>* to_dict = graph.Find(node);
      if (to_dict == nullptr) return {};
      std::vector<std::string> nexts;
      for (const auto& [key, lanes] : *to_dict) {
        if (std::find(path.begin(), path.end(), key) == path.end()) {
          nexts.push_back(key);
        }
      }
      std::sort(nexts.begin(), nexts.end());
      for (const std::string& next : nexts) {
        std::vector<std::string> next_path = path;
        next_path.push_back(next);
        if (next == goal) return next_path;
        if (graph.Contains(next)) queue.emplace_back(next, next_path);
      }
    }
    return {};
  }

  // all_side_lanes(lane_index): all lanes of the same road.
  std::vector<LaneIndex> AllSideLanes(const LaneIndex& lane_index) const {
    std::vector<LaneIndex> out;
    const size_t n = graph.at(lane_index.from).at(lane_index.to).size();
    for (size_t i = 0; i < n; ++i) {
      out.push_back({lane_index.from, lane_index.to, static_cast<int64_t>(i)});
    }
    return out;
  }

  // side_lanes(lane_index): the lanes to the left and right (id - 1, id + 1).
  std::vector<LaneIndex> SideLanes(const LaneIndex& lane_index) const {
    std::vector<LaneIndex> lanes;
    const int64_t n = static_cast<int64_t>(
        graph.at(lane_index.from).at(lane_index.to).size());
    if (lane_index.id > 0) {
      lanes.push_back({lane_index.from, lane_index.to, lane_index.id - 1});
    }
    if (lane_index.id < n - 1) {
      lanes.push_back({lane_index.from, lane_index.to, lane_index.id + 1});
    }
    return lanes;
  }

  // is_same_road(lane_index_1, lane_index_2, same_lane=False)
  static bool IsSameRoad(const LaneIndex& lane_index_1,
                         const LaneIndex& lane_index_2,
                         bool same_lane = false) {
    return lane_index_1.SameRoad(lane_index_2) &&
           (!same_lane || lane_index_1.id == lane_index_2.id);
  }

  // is_leading_to_road(lane_index_1, lane_index_2, same_lane=False)
  static bool IsLeadingToRoad(const LaneIndex& lane_index_1,
                              const LaneIndex& lane_index_2,
                              bool same_lane = false) {
    return lane_index_1.to == lane_index_2.from &&
           (!same_lane || lane_index_1.id == lane_index_2.id);
  }

  // is_connected_road(lane_index_1, lane_index_2, route=None,
  // same_lane=False, depth=0): is lane 2 leading to a road within lane 1's
  // route?
  bool IsConnectedRoad(const LaneIndex& lane_index_1,
                       const LaneIndex& lane_index_2, const Route& route = {},
                       bool same_lane = false, int depth = 0) const {
    if (IsSameRoad(lane_index_2, lane_index_1, same_lane) ||
        IsLeadingToRoad(lane_index_2, lane_index_1, same_lane)) {
      return true;
    }
    if (depth > 0) {
      const Route rest =
          route.empty() ? Route{} : Route(route.begin() + 1, route.end());
      if (!route.empty() && route[0].SameRoad(lane_index_1)) {
        // Route is starting at current road, skip it
        return IsConnectedRoad(lane_index_1, lane_index_2, rest, same_lane,
                               depth);
      }
      if (!route.empty() && route[0].from == lane_index_1.to) {
        // Route is continuing from current road, follow it
        return IsConnectedRoad(route[0], lane_index_2, rest, same_lane,
                               depth - 1);
      }
      // Recursively search all roads at intersection
      const OrderedDict<LaneList>* to_dict = graph.Find(lane_index_1.to);
      if (to_dict == nullptr) return false;
      for (const auto& [l1_to, lanes] : *to_dict) {
        if (IsConnectedRoad({lane_index_1.to, l1_to, lane_index_1.id},
                            lane_index_2, route, same_lane, depth - 1)) {
          return true;
        }
      }
    }
    return false;
  }

  // lanes_dict(): {(from, to, i): lane}, in graph order.
  std::vector<std::pair<LaneIndex, std::shared_ptr<AbstractLane>>> LanesDict()
      const {
    std::vector<std::pair<LaneIndex, std::shared_ptr<AbstractLane>>> out;
    for (const auto& [from, tos] : graph) {
      for (const auto& [to, ids] : tos) {
        for (size_t i = 0; i < ids.size(); ++i) {
          out.push_back({{from, to, static_cast<int64_t>(i)}, ids[i]});
        }
      }
    }
    return out;
  }

  // straight_road_network(lanes=4, start=0, length=10000, angle=0,
  // speed_limit=30, nodes_str=None, net=None). The rotation
  // [[cos, sin], [-sin, cos]] (numpy's cos / sin) is applied with
  // `rotation @ origin` (BLAS dgemv).
  static std::shared_ptr<RoadNetwork> StraightRoadNetwork(
      int lanes = 4, double start = 0.0, double length = 10000.0,
      double angle = 0.0, double speed_limit = 30.0,
      std::optional<std::pair<std::string, std::string>> nodes_str =
          std::nullopt,
      std::shared_ptr<RoadNetwork> net = nullptr) {
    if (net == nullptr) net = std::make_shared<RoadNetwork>();
    const std::pair<std::string, std::string> nodes =
        nodes_str.value_or(std::make_pair(std::string("0"), std::string("1")));
    for (int lane = 0; lane < lanes; ++lane) {
      Vec2 origin{start, lane * StraightLane::DEFAULT_WIDTH};
      Vec2 end{start + length, lane * StraightLane::DEFAULT_WIDTH};
      const double c = Np().Cos(angle);
      const double s = Np().Sin(angle);
      const Mat2 rotation{Vec2{c, s}, Vec2{-s, c}};
      origin = MatVec(rotation, origin);
      end = MatVec(rotation, end);
      const LineTypes line_types = {
          lane == 0 ? LineType::CONTINUOUS_LINE : LineType::STRIPED,
          lane == lanes - 1 ? LineType::CONTINUOUS_LINE : LineType::NONE};
      net->AddLane(nodes.first, nodes.second,
                   std::make_shared<StraightLane>(
                       origin, end, StraightLane::DEFAULT_WIDTH, line_types,
                       false, speed_limit));
    }
    return net;
  }

  // position_heading_along_route(route, longitudinal, lateral,
  // current_lane_index): position and heading at local coordinates along a
  // route of several lanes. A route step with a None id takes the current
  // lane's id if the current road has that many lanes, else 0.
  std::pair<Vec2, double> PositionHeadingAlongRoute(
      Route route, double longitudinal, double lateral,
      const LaneIndex& current_lane_index) const {
    auto get_route_head_with_id = [&](const Route& route_) {
      LaneIndex lane_index_ = route_[0];
      if (!lane_index_.HasId()) {
        const int64_t n = static_cast<int64_t>(
            graph.at(current_lane_index.from).at(current_lane_index.to).size());
        const int64_t id_ =
            current_lane_index.id < n ? current_lane_index.id : 0;
        lane_index_ = {lane_index_.from, lane_index_.to, id_};
      }
      return lane_index_;
    };
    LaneIndex lane_index = get_route_head_with_id(route);
    while (route.size() > 1 && longitudinal > GetLane(lane_index)->length) {
      longitudinal -= GetLane(lane_index)->length;
      route.erase(route.begin());
      lane_index = get_route_head_with_id(route);
    }
    const std::shared_ptr<AbstractLane> lane = GetLane(lane_index);
    return {lane->Position(longitudinal, lateral),
            lane->HeadingAt(longitudinal)};
  }

  // random_lane_index(np_random): choice of the from node, the to node (in
  // insertion order), then integers(len(lanes)).
  LaneIndex RandomLaneIndex(NumpyRandom& np_random) const {
    const std::vector<std::string> froms = graph.Keys();
    const std::string from =
        froms[np_random.Choice(static_cast<int64_t>(froms.size()))];
    const std::vector<std::string> tos = graph.at(from).Keys();
    const std::string to =
        tos[np_random.Choice(static_cast<int64_t>(tos.size()))];
    const int64_t id = np_random.Integers(
        0, static_cast<int64_t>(graph.at(from).at(to).size()));
    return {from, to, id};
  }
};

// class Road: a road network and the vehicles and objects on it.
class Road {
 public:
  std::shared_ptr<RoadNetwork> network;
  std::vector<std::shared_ptr<RoadObject>> vehicles;
  std::vector<std::shared_ptr<RoadObject>> objects;
  // The env's generator (Python: np_random, or a fresh RandomState).
  NumpyRandom* np_random = nullptr;
  bool record_history = false;
  bool neighbour_vehicles_connected_lanes = false;

  // Road(network=None, vehicles=None, road_objects=None, np_random=None,
  // record_history=False, neighbour_vehicles_connected_lanes=False)
  explicit Road(std::shared_ptr<RoadNetwork> network = nullptr,
                std::vector<std::shared_ptr<RoadObject>> vehicles = {},
                std::vector<std::shared_ptr<RoadObject>> road_objects = {},
                NumpyRandom* np_random = nullptr, bool record_history = false,
                bool neighbour_vehicles_connected_lanes = false)
      : network(std::move(network)),
        vehicles(std::move(vehicles)),
        objects(std::move(road_objects)),
        np_random(np_random),
        record_history(record_history),
        neighbour_vehicles_connected_lanes(neighbour_vehicles_connected_lanes) {
  }
  virtual ~Road() = default;

  // close_objects_to(vehicle, distance, count=None, see_behind=True,
  // sort=True, vehicles_only=False): vehicles (and objects, which must be
  // ahead) closer than distance (np.linalg.norm), stably sorted by
  // abs(lane_distance_to), the first `count` (0 / None: all).
  std::vector<std::shared_ptr<RoadObject>> CloseObjectsTo(
      const RoadObject* vehicle, double distance,
      std::optional<int> count = std::nullopt, bool see_behind = true,
      bool sort = true, bool vehicles_only = false) const {
    std::vector<std::shared_ptr<RoadObject>> objects_;
    for (const auto& v : vehicles) {
      if (Norm(v->position - vehicle->position) < distance &&
          v.get() != vehicle &&
          (see_behind ||
           -2 * vehicle->LENGTH < vehicle->LaneDistanceTo(v.get()))) {
        objects_.push_back(v);
      }
    }
    if (!vehicles_only) {
      for (const auto& o : objects) {
        if (Norm(o->position - vehicle->position) < distance &&
            -2 * vehicle->LENGTH < vehicle->LaneDistanceTo(o.get())) {
          objects_.push_back(o);
        }
      }
    }
    if (sort) {
      // sorted(key=...) computes each key once and is stable.
      std::vector<std::pair<double, size_t>> keys(objects_.size());
      for (size_t i = 0; i < objects_.size(); ++i) {
        keys[i] = {std::abs(vehicle->LaneDistanceTo(objects_[i].get())), i};
      }
      std::stable_sort(
          keys.begin(), keys.end(),
          [](const auto& a, const auto& b) { return a.first < b.first; });
      std::vector<std::shared_ptr<RoadObject>> sorted;
      sorted.reserve(objects_.size());
      for (const auto& key : keys) sorted.push_back(objects_[key.second]);
      objects_ = std::move(sorted);
    }
    if (count.has_value() && *count != 0) {
      // objects_[:count] (a negative count drops from the end, as Python).
      int64_t n = *count;
      const int64_t size = static_cast<int64_t>(objects_.size());
      if (n < 0) n = std::max<int64_t>(0, size + n);
      if (n < size) objects_.resize(n);
    }
    return objects_;
  }

  // close_vehicles_to(vehicle, distance, count=None, see_behind=True,
  // sort=True)
  std::vector<std::shared_ptr<RoadObject>> CloseVehiclesTo(
      const RoadObject* vehicle, double distance,
      std::optional<int> count = std::nullopt, bool see_behind = true,
      bool sort = true) const {
    return CloseObjectsTo(vehicle, distance, count, see_behind, sort, true);
  }

  // act(): decide the actions of each vehicle (vehicle.act()).
  virtual void Act() {
    // The objects stand still while they act (act() only chooses actions),
    // so each one's place on a lane is computed once per act() (LaneViews).
    acting_ = true;
    lane_views_.clear();
    rankings_.clear();
    for (size_t i = 0; i < vehicles.size(); ++i) {
      const std::shared_ptr<RoadObject> vehicle = vehicles[i];
      vehicle->Act();
    }
    acting_ = false;
    lane_views_.clear();
    rankings_.clear();
  }

  // step(dt): step each vehicle, then check the collisions of each vehicle
  // with the following vehicles and with every object.
  virtual void Step(double dt) {
    for (size_t i = 0; i < vehicles.size(); ++i) {
      const std::shared_ptr<RoadObject> vehicle = vehicles[i];
      vehicle->Step(dt);
    }
    const std::vector<std::vector<size_t>> partners = CollisionPartners(dt);
    for (size_t i = 0; i < vehicles.size(); ++i) {
      const std::shared_ptr<RoadObject> vehicle = vehicles[i];
      // for other in self.vehicles[i + 1:] (nothing adds or removes
      // vehicles meanwhile), less the pairs too far apart to collide
      for (size_t j : partners[i]) {
        vehicle->HandleCollisions(*vehicles[j], dt);
      }
      for (size_t j = 0; j < objects.size(); ++j) {
        const std::shared_ptr<RoadObject> other = objects[j];
        vehicle->HandleCollisions(*other, dt);
      }
    }
  }

  // For each vehicle i, the vehicles j > i it may collide with, ascending.
  // handle_collisions does nothing for a pair whose centres are farther
  // apart than (diagonal_i + diagonal_j) / 2 + speed_i * dt (_is_colliding's
  // spherical pre-check; the norm is never below the x gap), so the pairs
  // whose x gap exceeds the largest such limit (plus 1 m, far more than any
  // rounding) are left out: found by sweeping the vehicles sorted by x
  // instead of trying all n (n - 1) / 2 pairs. With a non-finite position
  // or speed every pair is kept.
  std::vector<std::vector<size_t>> CollisionPartners(double dt) const {
    const size_t n = vehicles.size();
    std::vector<std::vector<size_t>> partners(n);
    double max_diagonal = 0, max_reach = 0;
    bool finite = std::isfinite(dt);
    for (const auto& v : vehicles) {
      finite = finite && std::isfinite(v->position[0]) &&
               std::isfinite(v->position[1]) && std::isfinite(v->speed) &&
               std::isfinite(v->diagonal);
      max_diagonal = std::max(max_diagonal, std::abs(v->diagonal));
      max_reach = std::max(max_reach, std::abs(v->speed * dt));
    }
    if (!finite || n < 16) {
      for (size_t i = 0; i < n; ++i) {
        for (size_t j = i + 1; j < n; ++j) partners[i].push_back(j);
      }
      return partners;
    }
    const double bound = max_diagonal + max_reach + 1.0;
    std::vector<size_t> order(n);
    for (size_t i = 0; i < n; ++i) order[i] = i;
    std::sort(order.begin(), order.end(), [this](size_t a, size_t b) {
      return vehicles[a]->position[0] < vehicles[b]->position[0];
    });
    for (size_t p = 0; p < n; ++p) {
      const double x = vehicles[order[p]]->position[0];
      for (size_t q = p + 1;
           q < n && vehicles[order[q]]->position[0] - x <= bound; ++q) {
        const size_t a = std::min(order[p], order[q]);
        const size_t b = std::max(order[p], order[q]);
        partners[a].push_back(b);
      }
    }
    for (auto& list : partners) std::sort(list.begin(), list.end());
    return partners;
  }

  // neighbour_vehicles(vehicle, lane_index=None): the preceding and
  // following vehicles (or obstacles; landmarks are skipped) of a vehicle
  // on a lane (its own by default), with the connected next / previous lane
  // segments searched too when neighbour_vehicles_connected_lanes.
  // (Pointers to objects the road owns.)
  std::pair<RoadObject*, RoadObject*> NeighbourVehicles(
      const RoadObject* vehicle,
      std::optional<LaneIndex> lane_index = std::nullopt) const {
    // `lane_index or vehicle.lane_index` (a tuple is always truthy).
    const LaneIndex index = lane_index.has_value() && !lane_index->IsNone()
                                ? *lane_index
                                : vehicle->lane_index;
    if (index.IsNone()) return {nullptr, nullptr};
    const std::shared_ptr<AbstractLane>& lane = network->GetLane(index);
    const double s = lane->LocalCoordinates(vehicle->position)[0];
    std::optional<double> s_front, s_rear;
    // The best so far, as pointers into the lists (copied once, at the end).
    const std::shared_ptr<RoadObject>* v_front = nullptr;
    const std::shared_ptr<RoadObject>* v_rear = nullptr;

    std::vector<std::pair<const AbstractLane*, double>> lanes_offsets = {
        {lane.get(), 0.0}};

    if (neighbour_vehicles_connected_lanes) {
      // Offsets convert each connected lane's longitudinal coordinate into
      // the ego lane coordinate frame.
      const int64_t id = index.id;
      if (const OrderedDict<LaneList>* next = network->graph.Find(index.to)) {
        for (const auto& [next_to, next_lanes] : *next) {
          if (id < static_cast<int64_t>(next_lanes.size())) {
            lanes_offsets.push_back(
                {next_lanes[detail::PyIndex(id, next_lanes.size())].get(),
                 lane->length});
          } else if (!next_lanes.empty()) {
            lanes_offsets.push_back({next_lanes[0].get(), lane->length});
          }
        }
      }
      for (const auto& [prev_from, to_dict] : network->graph) {
        const LaneList* prev_lanes = to_dict.Find(index.from);
        if (prev_lanes == nullptr) continue;
        const AbstractLane* prev_lane = nullptr;
        if (id < static_cast<int64_t>(prev_lanes->size())) {
          prev_lane =
              (*prev_lanes)[detail::PyIndex(id, prev_lanes->size())].get();
        } else if (!prev_lanes->empty()) {
          prev_lane = (*prev_lanes)[0].get();
        } else {
          continue;
        }
        lanes_offsets.push_back({prev_lane, -prev_lane->length});
      }
    }

    // During act(), a search on one lane of a busy road reads the lane's
    // objects ranked by their coordinate (RankedSearch: the same choice as
    // the scan below; on a road of a few objects the scan is quicker).
    if (acting_ && lanes_offsets.size() == 1 &&
        vehicles.size() + objects.size() >= 24) {
      return RankedSearch(Ranking(lane.get()), vehicle, s);
    }

    // for v in self.vehicles + self.objects
    std::vector<const std::vector<LaneView>*> views(lanes_offsets.size(),
                                                    nullptr);
    if (acting_) {
      for (std::size_t j = 0; j < lanes_offsets.size(); ++j) {
        views[j] = &LaneViews(lanes_offsets[j].first);
      }
    }
    std::size_t k = 0;
    for (const auto* list : {&vehicles, &objects}) {
      for (const auto& v : *list) {
        const std::size_t index = k++;
        if (v.get() == vehicle || As<Landmark>(v.get())) {
          continue;
        }
        for (std::size_t j = 0; j < lanes_offsets.size(); ++j) {
          const auto& [search_lane, offset] = lanes_offsets[j];
          const LaneView view = views[j] != nullptr ? (*views[j])[index]
                                                    : ViewOn(search_lane, *v);
          if (!view.on_lane) continue;
          double s_v = view.longitudinal;
          s_v += offset;
          if (s <= s_v && (!s_front.has_value() || s_v <= *s_front)) {
            s_front = s_v;
            v_front = &v;
          }
          if (s_v < s && (!s_rear.has_value() || s_v > *s_rear)) {
            s_rear = s_v;
            v_rear = &v;
          }
          break;  // matched on this lane, no need to check others
        }
      }
    }
    return {v_front != nullptr ? v_front->get() : nullptr,
            v_rear != nullptr ? v_rear->get() : nullptr};
  }

 private:
  // An object's place on a lane, as the neighbour search reads it:
  // local_coordinates(position) and on_lane(position, s, lat, margin=1).
  struct LaneView {
    double longitudinal;
    bool on_lane;
  };
  static LaneView ViewOn(const AbstractLane* lane, const RoadObject& v) {
    const Vec2 c = lane->LocalCoordinates(v.position);
    return {c[0], lane->OnLane(v.position, c[0], c[1], 1)};
  }
  // During Act(): every object's view on `lane` (vehicles, then objects),
  // computed at the first search of the lane.
  const std::vector<LaneView>& LaneViews(const AbstractLane* lane) const {
    for (const auto& [l, views] : lane_views_) {
      if (l == lane) return views;
    }
    std::vector<LaneView> views;
    views.reserve(vehicles.size() + objects.size());
    for (const auto* list : {&vehicles, &objects}) {
      for (const auto& v : *list) views.push_back(ViewOn(lane, *v));
    }
    lane_views_.emplace_back(lane, std::move(views));
    return lane_views_.back().second;
  }
  // The objects on a lane (on_lane, not landmarks, a coordinate that is a
  // number), sorted by coordinate, then by their order in vehicles +
  // objects.
  struct Ranked {
    double s;
    std::size_t k;
    RoadObject* object;
  };
  const std::vector<Ranked>& Ranking(const AbstractLane* lane) const {
    for (const auto& [l, ranked] : rankings_) {
      if (l == lane) return ranked;
    }
    const std::vector<LaneView>& views = LaneViews(lane);
    std::vector<Ranked> ranked;
    std::size_t k = 0;
    for (const auto* list : {&vehicles, &objects}) {
      for (const auto& v : *list) {
        const LaneView& view = views[k];
        if (view.on_lane && !std::isnan(view.longitudinal) &&
            As<Landmark>(v.get()) == nullptr) {
          ranked.push_back({view.longitudinal, k, v.get()});
        }
        ++k;
      }
    }
    std::sort(ranked.begin(), ranked.end(),
              [](const Ranked& a, const Ranked& b) {
                return a.s < b.s || (!(b.s < a.s) && a.k < b.k);
              });
    rankings_.emplace_back(lane, std::move(ranked));
    return rankings_.back().second;
  }
  // The scan's choice on one ranked lane: in front, the smallest
  // coordinate >= s, the last in list order among equals (the scan keeps
  // replacing on <=); behind, the largest coordinate < s, the first among
  // equals (it replaces on >); never the vehicle itself.
  static std::pair<RoadObject*, RoadObject*> RankedSearch(
      const std::vector<Ranked>& ranked, const RoadObject* vehicle, double s) {
    if (std::isnan(s)) return {nullptr, nullptr};
    const auto lo =
        std::lower_bound(ranked.begin(), ranked.end(), s,
                         [](const Ranked& r, double x) { return r.s < x; });
    RoadObject* front = nullptr;
    for (auto run = lo; run != ranked.end() && front == nullptr;) {
      auto end = run;
      while (end != ranked.end() && !(run->s < end->s)) ++end;
      for (auto r = end; r != run && front == nullptr;) {
        --r;
        if (r->object != vehicle) front = r->object;
      }
      run = end;
    }
    RoadObject* rear = nullptr;
    for (auto run_end = lo; run_end != ranked.begin() && rear == nullptr;) {
      const double value = (run_end - 1)->s;
      auto run = run_end - 1;
      while (run != ranked.begin() && !((run - 1)->s < value)) --run;
      for (auto r = run; r != run_end && rear == nullptr; ++r) {
        if (r->object != vehicle) rear = r->object;
      }
      run_end = run;
    }
    return {front, rear};
  }

  bool acting_ = false;
  mutable std::deque<std::pair<const AbstractLane*, std::vector<Ranked>>>
      rankings_;
  // A deque: the views of one lane stay put while others are added.
  mutable std::deque<std::pair<const AbstractLane*, std::vector<LaneView>>>
      lane_views_;
};

// RoadObject.__init__(road, position, heading=0, speed=0)
inline RoadObject::RoadObject(Road* road, const Vec2& position, double heading,
                              double speed)
    : RoadObject(road, position, heading, speed, 2, 2) {}

inline RoadObject::RoadObject(Road* road, const Vec2& position, double heading,
                              double speed, double length, double width)
    : LENGTH(length),
      WIDTH(width),
      road(road),
      position(position),
      heading(heading),
      speed(speed) {
  if (road != nullptr) {
    lane_index = road->network->GetClosestLaneIndex(this->position, heading);
    lane = road->network->GetLane(lane_index);
  }
  collidable = true;
  solid = true;
  check_collisions = true;
  InitDiagonal();
  crashed = false;
  hit = false;
  impact = Vec2{0.0, 0.0};
}

// RoadObject.make_on_lane(road, lane_index, longitudinal, speed=None)
template <typename T>
std::shared_ptr<T> RoadObject::MakeOnLane(Road* road,
                                          const LaneIndex& lane_index,
                                          double longitudinal,
                                          std::optional<double> speed) {
  const std::shared_ptr<AbstractLane>& lane =
      road->network->GetLane(lane_index);
  const double v = speed.has_value() ? *speed : lane->speed_limit;
  return std::make_shared<T>(road, lane->Position(longitudinal, 0),
                             lane->HeadingAt(longitudinal), v);
}

}  // namespace envpool_lite::highway
