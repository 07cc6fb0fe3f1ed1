// Port of highway_env/road/lane.py (highway-env 1.12.1): AbstractLane,
// LineType, StraightLane, SineLane, CircularLane. PolyLaneFixedWidth and
// PolyLane (and spline.py) are not ported: no task uses them. to_config /
// from_config are not ported.
#pragma once

#include <cmath>
#include <limits>
#include <optional>
#include <vector>

#include "envs/highway/utils.h"

namespace envpool_lite::highway {

// class LineType: a lane side line type.
struct LineType {
  static constexpr int NONE = 0;
  static constexpr int STRIPED = 1;
  static constexpr int CONTINUOUS = 2;
  static constexpr int CONTINUOUS_LINE = 3;
};

// The two line types of a lane (left, right): Python's list[LineType].
using LineTypes = std::vector<int>;

// class AbstractLane: a lane on the road, described by its central curve.
class AbstractLane {
 public:
  // Class constants, never changed per instance in highway-env, so static
  // (usable as StraightLane::DEFAULT_WIDTH and as lane->DEFAULT_WIDTH).
  // Python's values are the ints 4 and 5.
  static constexpr double DEFAULT_WIDTH = 4;
  static constexpr double VEHICLE_LENGTH = 5;

  // AbstractLane.length (class default 0).
  double length = 0;
  LineTypes line_types;
  // Attributes every concrete Python lane sets in its __init__ (highway-env
  // reads them through AbstractLane references: lane.speed_limit, ...).
  double width = DEFAULT_WIDTH;
  bool forbidden = false;
  double speed_limit = 20;
  int priority = 0;

  virtual ~AbstractLane() = default;

  // position(longitudinal, lateral): local lane coordinates -> world.
  virtual Vec2 Position(double longitudinal, double lateral) const = 0;
  // local_coordinates(position): world -> (longitudinal, lateral).
  virtual Vec2 LocalCoordinates(const Vec2& position) const = 0;
  // heading_at(longitudinal)
  virtual double HeadingAt(double longitudinal) const = 0;
  // width_at(longitudinal)
  virtual double WidthAt(double longitudinal) const = 0;

  // on_lane(position, longitudinal=None, lateral=None, margin=0)
  virtual bool OnLane(const Vec2& position,
                      std::optional<double> longitudinal = std::nullopt,
                      std::optional<double> lateral = std::nullopt,
                      double margin = 0) const {
    double lon, lat;
    if (!longitudinal.has_value() || !lateral.has_value()) {
      const Vec2 c = LocalCoordinates(position);
      lon = c[0];
      lat = c[1];
    } else {
      lon = *longitudinal;
      lat = *lateral;
    }
    return std::abs(lat) <= WidthAt(lon) / 2 + margin &&
           -VEHICLE_LENGTH <= lon && lon < length + VEHICLE_LENGTH;
  }

  // is_reachable_from(position)
  virtual bool IsReachableFrom(const Vec2& position) const {
    if (forbidden) return false;
    const Vec2 c = LocalCoordinates(position);
    const double lon = c[0], lat = c[1];
    return std::abs(lat) <= 2 * WidthAt(lon) && 0 <= lon &&
           lon < length + VEHICLE_LENGTH;
  }

  // after_end(position, longitudinal=None, lateral=None). Python tests
  // `if not longitudinal`, so a given longitudinal of 0.0 is recomputed too.
  virtual bool AfterEnd(const Vec2& position,
                        std::optional<double> longitudinal = std::nullopt,
                        std::optional<double> lateral = std::nullopt) const {
    double lon = longitudinal.value_or(0.0);
    if (!longitudinal.has_value() || lon == 0.0) {
      lon = LocalCoordinates(position)[0];
    }
    return lon > length - VEHICLE_LENGTH / 2;
  }

  // distance(position): abs(r) + max(s - length, 0) + max(0 - s, 0)
  // (Python's max: the first argument unless 0 is greater).
  virtual double Distance(const Vec2& position) const {
    const Vec2 c = LocalCoordinates(position);
    const double s = c[0], r = c[1];
    return std::abs(r) + PyMax(s - length, 0) + PyMax(0 - s, 0);
  }

  // A value that distance() and distance_with_heading() never fall below
  // (their first term, |lateral|, computed the same way), where it is cheaper
  // than local_coordinates(); -inf where there is none. The closest-lane
  // search skips a lane whose bound already reaches the best distance.
  virtual double LateralBound(const Vec2& position) const {
    return -std::numeric_limits<double>::infinity();
  }

  // distance_with_heading(position, heading, heading_weight=1.0)
  virtual double DistanceWithHeading(const Vec2& position,
                                     std::optional<double> heading,
                                     double heading_weight = 1.0) const {
    if (!heading.has_value()) return Distance(position);
    const Vec2 c = LocalCoordinates(position);
    const double s = c[0], r = c[1];
    const double angle = std::abs(LocalAngle(*heading, s));
    return std::abs(r) + PyMax(s - length, 0) + PyMax(0 - s, 0) +
           heading_weight * angle;
  }

  // local_angle(heading, long_offset): wrap_to_pi(heading - heading_at(s)).
  virtual double LocalAngle(double heading, double long_offset) const {
    return WrapToPi(heading - HeadingAt(long_offset));
  }
};

// class StraightLane(AbstractLane)
class StraightLane : public AbstractLane {
 public:
  Vec2 start;
  Vec2 end;
  double heading;
  Vec2 direction;
  Vec2 direction_lateral;

  // StraightLane(start, end, width=4, line_types=None, forbidden=False,
  // speed_limit=20, priority=0). Empty line_types means None (Python's
  // `line_types or [STRIPED, STRIPED]`).
  StraightLane(const Vec2& start, const Vec2& end, double width = DEFAULT_WIDTH,
               LineTypes line_types = {}, bool forbidden = false,
               double speed_limit = 20, int priority = 0)
      : start(start), end(end) {
    this->width = width;
    // np.arctan2 of two float64 differences: numpy's loop.
    heading = Np().Arctan2(this->end[1] - this->start[1],
                           this->end[0] - this->start[0]);
    // np.linalg.norm: sqrt of BLAS ddot.
    length = Norm(this->end - this->start);
    this->line_types = line_types.empty()
                           ? LineTypes{LineType::STRIPED, LineType::STRIPED}
                           : line_types;
    direction = (this->end - this->start) / length;
    direction_lateral = {-direction[1], direction[0]};
    this->forbidden = forbidden;
    this->priority = priority;
    this->speed_limit = speed_limit;
  }

  // position: start + longitudinal * direction + lateral * direction_lateral
  Vec2 Position(double longitudinal, double lateral) const override {
    return start + longitudinal * direction + lateral * direction_lateral;
  }

  double HeadingAt(double longitudinal) const override { return heading; }

  double WidthAt(double longitudinal) const override { return width; }

  // local_coordinates: two BLAS ddot products of (position - start).
  Vec2 LocalCoordinates(const Vec2& position) const override {
    const Vec2 delta = position - start;
    const double longitudinal = Dot(delta, direction);
    const double lateral = Dot(delta, direction_lateral);
    return {longitudinal, lateral};
  }
};

// class SineLane(StraightLane)
class SineLane : public StraightLane {
 public:
  double amplitude;
  double pulsation;
  double phase;

  // SineLane(start, end, amplitude, pulsation, phase, width=4,
  // line_types=None, forbidden=False, speed_limit=20, priority=0)
  SineLane(const Vec2& start, const Vec2& end, double amplitude,
           double pulsation, double phase, double width = DEFAULT_WIDTH,
           LineTypes line_types = {}, bool forbidden = false,
           double speed_limit = 20, int priority = 0)
      : StraightLane(start, end, width, line_types, forbidden, speed_limit,
                     priority),
        amplitude(amplitude),
        pulsation(pulsation),
        phase(phase) {}

  // position: the straight position, the lateral offset by
  // amplitude * np.sin(pulsation * longitudinal + phase).
  Vec2 Position(double longitudinal, double lateral) const override {
    return StraightLane::Position(
        longitudinal,
        lateral + amplitude * Np().Sin(pulsation * longitudinal + phase));
  }

  // heading_at: heading + np.arctan(amplitude * pulsation * np.cos(...)).
  double HeadingAt(double longitudinal) const override {
    return StraightLane::HeadingAt(longitudinal) +
           Np().Arctan(amplitude * pulsation *
                       Np().Cos(pulsation * longitudinal + phase));
  }

  Vec2 LocalCoordinates(const Vec2& position) const override {
    const Vec2 c = StraightLane::LocalCoordinates(position);
    const double longitudinal = c[0], lateral = c[1];
    return {longitudinal,
            lateral - amplitude * Np().Sin(pulsation * longitudinal + phase)};
  }
};

// class CircularLane(AbstractLane): a lane going in a circle arc.
class CircularLane : public AbstractLane {
 public:
  Vec2 center;
  double radius;
  double start_phase;
  double end_phase;
  bool clockwise;
  // Python's int: 1 if clockwise else -1.
  int direction;

  // CircularLane(center, radius, start_phase, end_phase, clockwise=True,
  // width=4, line_types=None, forbidden=False, speed_limit=20, priority=0)
  CircularLane(const Vec2& center, double radius, double start_phase,
               double end_phase, bool clockwise = true,
               double width = DEFAULT_WIDTH, LineTypes line_types = {},
               bool forbidden = false, double speed_limit = 20,
               int priority = 0)
      : center(center),
        radius(radius),
        start_phase(start_phase),
        end_phase(end_phase),
        clockwise(clockwise),
        direction(clockwise ? 1 : -1) {
    this->width = width;
    this->line_types = line_types.empty()
                           ? LineTypes{LineType::STRIPED, LineType::STRIPED}
                           : line_types;
    this->forbidden = forbidden;
    length = radius * (end_phase - start_phase) * direction;
    this->priority = priority;
    this->speed_limit = speed_limit;
  }

  // position: phi = direction * longitudinal / radius + start_phase;
  // center + (radius - lateral * direction) * [np.cos(phi), np.sin(phi)].
  Vec2 Position(double longitudinal, double lateral) const override {
    const double phi = direction * longitudinal / radius + start_phase;
    return center +
           (radius - lateral * direction) * Vec2{Np().Cos(phi), Np().Sin(phi)};
  }

  // heading_at: phi + np.pi / 2 * direction.
  double HeadingAt(double longitudinal) const override {
    const double phi = direction * longitudinal / radius + start_phase;
    const double psi = phi + kPi / 2 * direction;
    return psi;
  }

  double WidthAt(double longitudinal) const override { return width; }

  // local_coordinates: phi = np.arctan2(delta[1], delta[0]) (numpy's loop),
  // unwrapped around start_phase; r = np.linalg.norm(delta) (BLAS).
  Vec2 LocalCoordinates(const Vec2& position) const override {
    const Vec2 delta = position - center;
    double phi = Np().Arctan2(delta[1], delta[0]);
    phi = start_phase + WrapToPi(phi - start_phase);
    const double r = Norm(delta);
    const double longitudinal = direction * (phi - start_phase) * radius;
    const double lateral = direction * (radius - r);
    return {longitudinal, lateral};
  }

  // |lateral| of local_coordinates, without its arctan2.
  double LateralBound(const Vec2& position) const override {
    const Vec2 delta = position - center;
    return std::abs(direction * (radius - Norm(delta)));
  }
};

}  // namespace envpool_lite::highway
