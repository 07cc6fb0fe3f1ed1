// Port of highway_env/vehicle/objects.py (highway-env 1.12.1): RoadObject,
// Obstacle, Landmark.
//
// RoadObject declares, as virtuals, everything Road (road.h) and the
// observations call on vehicles, so that road.h needs no vehicle header:
// Vehicle (kinematics.h) overrides them.
//
// The methods that need the Road's definition (the constructor, which asks
// the road network for the closest lane, and MakeOnLane) are defined in
// road.h, which includes this header: a file that makes road objects
// includes road.h.
#pragma once

#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "envs/highway/lane.h"
#include "envs/highway/utils.h"

namespace envpool_lite::highway {

class Road;

// The dict RoadObject.to_dict / Vehicle.to_dict return, as a struct of the
// features observation.py reads by name:
//   "presence", "x", "y", "vx", "vy", "heading", "cos_h", "sin_h", "cos_d",
//   "sin_d", "long_off", "lat_off", "ang_off".
// RoadObject.to_dict has no "heading", "long_off", "lat_off", "ang_off": they
// are NaN here, which is what pandas puts in a DataFrame.from_records column
// for a record that lacks the key (Vehicle.to_dict sets all of them).
struct ObjectDict {
  static constexpr double kMissing = std::numeric_limits<double>::quiet_NaN();

  double presence = 1;
  double x = 0;
  double y = 0;
  double vx = 0;
  double vy = 0;
  double heading = kMissing;
  double cos_h = 0;
  double sin_h = 0;
  double cos_d = 0;
  double sin_d = 0;
  double long_off = kMissing;
  double lat_off = kMissing;
  double ang_off = kMissing;

  // d[name]; throws std::invalid_argument for a name not listed above.
  double& operator[](const std::string& name) { return *Field(name); }
  double Get(const std::string& name) const {
    return *const_cast<ObjectDict*>(this)->Field(name);
  }

  static constexpr const char* kFeatures[] = {
      "presence", "x",     "y",     "vx",       "vy",      "heading", "cos_h",
      "sin_h",    "cos_d", "sin_d", "long_off", "lat_off", "ang_off"};

 private:
  double* Field(const std::string& name) {
    if (name == "presence") return &presence;
    if (name == "x") return &x;
    if (name == "y") return &y;
    if (name == "vx") return &vx;
    if (name == "vy") return &vy;
    if (name == "heading") return &heading;
    if (name == "cos_h") return &cos_h;
    if (name == "sin_h") return &sin_h;
    if (name == "cos_d") return &cos_d;
    if (name == "sin_d") return &sin_d;
    if (name == "long_off") return &long_off;
    if (name == "lat_off") return &lat_off;
    if (name == "ang_off") return &ang_off;
    throw std::invalid_argument("to_dict has no feature '" + name + "'");
  }
};

// class RoadObject: common interface for objects on the road (rectangles).
class RoadObject {
 public:
  // The classes this object is an instance of, a bit each: what Python's
  // isinstance() asks, answered by As<T>() below without dynamic_cast
  // (whose type_info name comparisons were half of a highway-v0 step).
  // Each class's constructor adds its kKind.
  enum Kind : uint32_t {
    kObstacle = 1u << 0,
    kLandmark = 1u << 1,
    kVehicle = 1u << 2,
    kControlledVehicle = 1u << 3,
    kMDPVehicle = 1u << 4,
    kIDMVehicle = 1u << 5,
    kLinearVehicle = 1u << 6,
    kAggressiveVehicle = 1u << 7,
    kDefensiveVehicle = 1u << 8,
    kBicycleVehicle = 1u << 9,
  };
  uint32_t kinds = 0;

  // Class attributes (per instance, see CONVENTIONS.md).
  double LENGTH = 2;  // Object length [m]
  double WIDTH = 2;   // Object width [m]

  Road* road = nullptr;
  Vec2 position{0.0, 0.0};
  double heading = 0;
  double speed = 0;
  // None (LaneIndex::IsNone) and nullptr without a road.
  LaneIndex lane_index;
  std::shared_ptr<AbstractLane> lane;
  // Enable collision with other collidables.
  bool collidable = true;
  // Collisions have physical effects.
  bool solid = true;
  // If false, this object does not check its own collisions, but it can
  // still collide with objects that do.
  bool check_collisions = true;
  // np.sqrt(LENGTH**2 + WIDTH**2), computed once in __init__.
  double diagonal = 0;
  bool crashed = false;
  bool hit = false;
  // np.zeros(2) for a RoadObject; Vehicle.__init__ sets it to None.
  std::optional<Vec2> impact;

 private:
  // Direction()'s last heading and value.
  mutable bool direction_known_ = false;
  mutable double direction_heading_ = 0;
  mutable Vec2 direction_{0.0, 0.0};

 public:
  // RoadObject(road, position, heading=0, speed=0). Defined in road.h.
  //
  // NOTE for subclasses that override LENGTH / WIDTH (Vehicle: 5.0, 2.0):
  // Python's __init__ computes `diagonal` from the subclass's LENGTH and
  // WIDTH. Use the constructor below that takes them (or call
  // InitDiagonal() after assigning LENGTH / WIDTH), else diagonal is
  // computed from 2 x 2.
  RoadObject(Road* road, const Vec2& position, double heading = 0,
             double speed = 0);
  // The same, with the subclass's class attributes LENGTH and WIDTH set
  // before diagonal is computed.
  RoadObject(Road* road, const Vec2& position, double heading, double speed,
             double length, double width);
  virtual ~RoadObject() = default;

  // self.diagonal = np.sqrt(self.LENGTH**2 + self.WIDTH**2) (`**` of Python
  // floats: libm pow).
  void InitDiagonal() { diagonal = std::sqrt(Pow2(LENGTH) + Pow2(WIDTH)); }

  // make_on_lane(road, lane_index, longitudinal, speed=None), a classmethod:
  // `cls(road, lane.position(longitudinal, 0), lane.heading_at(longitudinal),
  // speed)`, speed defaulting to lane.speed_limit. Call it as
  // RoadObject::MakeOnLane<Obstacle>(...). Defined in road.h.
  template <typename T = RoadObject>
  static std::shared_ptr<T> MakeOnLane(
      Road* road, const LaneIndex& lane_index, double longitudinal,
      std::optional<double> speed = std::nullopt);

  // Vehicle.act(action=None), which Road.act calls with no argument.
  // RoadObject has no act in Python (only vehicles are acted on): no-op.
  // A subclass that adds overloads (Act(const Action&), ...) should write
  // `using RoadObject::Act;` or override this one as well.
  virtual void Act() {}

  // Vehicle.step(dt), which Road.step calls. No-op for a RoadObject.
  virtual void Step(double dt) {}

  // handle_collisions(other, dt=0)
  virtual void HandleCollisions(RoadObject& other, double dt = 0);

  // _is_colliding(other, dt): a spherical pre-check, then
  // are_polygons_intersecting(self.polygon(), other.polygon(),
  // self.velocity * dt, other.velocity * dt).
  virtual PolygonCollision IsColliding(const RoadObject& other,
                                       double dt) const {
    // The rounded norm is never below either coordinate's magnitude
    // (sqrt(fl(x * x)) == |x|, and the sum of squares only grows), so a
    // coordinate gap larger than the limit answers without the norm.
    const Vec2 gap = other.position - position;
    const double limit = (diagonal + other.diagonal) / 2 + speed * dt;
    if (std::abs(gap[0]) > limit || std::abs(gap[1]) > limit ||
        Norm(gap) > limit) {
      return PolygonCollision{false, false, Vec2{0.0, 0.0}};
    }
    return ArePolygonsIntersecting(Polygon(), other.Polygon(), Velocity() * dt,
                                   other.Velocity() * dt);
  }

  // to_dict(origin_vehicle=None, observe_intentions=True); see ObjectDict.
  virtual ObjectDict ToDict(const RoadObject* origin_vehicle = nullptr,
                            bool observe_intentions = true) const {
    ObjectDict d;
    d.presence = 1;
    d.x = position[0];
    d.y = position[1];
    d.vx = 0.0;
    d.vy = 0.0;
    d.cos_h = Np().Cos(heading);
    d.sin_h = Np().Sin(heading);
    d.cos_d = 0.0;
    d.sin_d = 0.0;
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

  // property direction: [np.cos(heading), np.sin(heading)].
  // (Kept for the heading it was computed from: the same values, computed
  // once per heading.)
  virtual Vec2 Direction() const {
    if (!direction_known_ ||
        std::memcmp(&direction_heading_, &heading, sizeof(double)) != 0) {
      direction_ = {Np().Cos(heading), Np().Sin(heading)};
      direction_heading_ = heading;
      direction_known_ = true;
    }
    return direction_;
  }

  // property velocity: speed * direction.
  virtual Vec2 Velocity() const { return speed * Direction(); }

  // polygon(): the four corners (rotation @ points, a BLAS dgemm, plus the
  // position), then the first corner again: 5 points.
  virtual std::vector<Vec2> Polygon() const {
    const std::vector<Vec2> points = {{-LENGTH / 2, -WIDTH / 2},
                                      {-LENGTH / 2, +WIDTH / 2},
                                      {+LENGTH / 2, +WIDTH / 2},
                                      {+LENGTH / 2, -WIDTH / 2}};
    const Mat2 rotation = RotationMatrix(heading);
    std::vector<Vec2> out = MatTimesPoints(rotation, points);
    for (Vec2& p : out) p = p + position;
    out.push_back(out[0]);
    return out;
  }

  // lane_distance_to(other, lane=None): the signed distance to another
  // object along a lane (this object's lane by default); NaN without other.
  virtual double LaneDistanceTo(const RoadObject* other,
                                const AbstractLane* lane = nullptr) const {
    if (other == nullptr) return std::numeric_limits<double>::quiet_NaN();
    if (lane == nullptr) lane = this->lane.get();
    return lane->LocalCoordinates(other->position)[0] -
           lane->LocalCoordinates(position)[0];
  }

  // property on_road: is the object on its current lane?
  virtual bool OnRoad() const { return lane->OnLane(position); }

  // front_distance_to(other): direction.dot(other.position - position).
  virtual double FrontDistanceTo(const RoadObject& other) const {
    return Dot(Direction(), other.position - position);
  }
};

// isinstance(p, T): p as a T*, or nullptr (T any class of the Kind list;
// `p` any RoadObject pointer, const or not).
template <typename T, typename U>
auto As(U* p) -> std::conditional_t<std::is_const_v<U>, const T*, T*> {
  using Out = std::conditional_t<std::is_const_v<U>, const T*, T*>;
  return p != nullptr && (p->kinds & T::kKind) != 0 ? static_cast<Out>(p)
                                                    : nullptr;
}

// class Obstacle(RoadObject): obstacles on the road.
class Obstacle : public RoadObject {
 public:
  static constexpr uint32_t kKind = kObstacle;
  Obstacle(Road* road, const Vec2& position, double heading = 0,
           double speed = 0)
      : RoadObject(road, position, heading, speed) {
    kinds |= kKind;
    solid = true;
  }
};

// class Landmark(RoadObject): areas of the road that must be reached.
class Landmark : public RoadObject {
 public:
  static constexpr uint32_t kKind = kLandmark;
  Landmark(Road* road, const Vec2& position, double heading = 0,
           double speed = 0)
      : RoadObject(road, position, heading, speed) {
    kinds |= kKind;
    solid = false;
  }
};

// handle_collisions(other, dt=0): check for a collision with another object
// (now, and within dt at constant velocity), set impact / crashed / hit.
inline void RoadObject::HandleCollisions(RoadObject& other, double dt) {
  if (&other == this || !(check_collisions || other.check_collisions)) return;
  if (!(collidable && other.collidable)) return;
  const PolygonCollision c = IsColliding(other, dt);
  if (c.will_intersect) {
    if (solid && other.solid) {
      const Vec2 transition = c.translation.value_or(Vec2{0.0, 0.0});
      if (As<Obstacle>(&other) != nullptr) {
        impact = transition;
      } else if (As<Obstacle>(this) != nullptr) {
        other.impact = transition;
      } else {
        impact = transition / 2;
        other.impact = -transition / 2;
      }
    }
  }
  if (c.intersecting) {
    if (solid && other.solid) {
      crashed = true;
      other.crashed = true;
    }
    if (!solid) hit = true;
    if (!other.solid) other.hit = true;
  }
}

}  // namespace envpool_lite::highway
