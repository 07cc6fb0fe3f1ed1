// Port of highway-env 1.12.1's offscreen rendering: road/graphics.py
// (WorldSurface, LaneGraphics, RoadGraphics, RoadObjectGraphics),
// vehicle/graphics.py (VehicleGraphics) and envs/common/graphics.py
// (EnvViewer, ObservationGraphics), pixel for pixel with pygame-ce 2.5.8.
//
// What env.render() (render_mode="rgb_array") and GrayscaleObservation draw:
//  * the sim surface: pygame.Surface((w, h)) without a display, XRGB8888,
//    here a pygame_draw::Surface (RGB bytes, the (h, w, 3) layout
//    EnvViewer.get_image returns);
//  * lanes: pygame.draw.line (pygame_draw::DrawLine);
//  * vehicles and road objects: a pygame.SRCALPHA surface (ARGB8888, here
//    RgbaSurface) with pygame.draw.rect fills and outlines, the tires blitted
//    onto it rotated, then pygame.transform.rotate'd (nearest neighbour, 16.16
//    fixed point) and alpha-blitted onto the sim surface with pygame's own
//    blitter (alphablit.c, the AVX2 / SSE2 "argb" blitters, which compute
//    ((d << 8) + (s - d) * a + s) >> 8 per channel).
// The pygame-ce functions are the reference layer's (refkit/pygame/:
// draw.h's opaque surface and lines, alpha.h's SRCALPHA surfaces, rotate and
// blits; math.h's Vector2.rotate), reimplemented from their C sources.
//
// Checked pixel for pixel against pygame-ce 2.5.8 / highway-env 1.12.1:
// Rotate, BlitRotate (onto SRCALPHA and opaque surfaces, any alpha) and
// DrawRect on random inputs, and whole EnvViewer frames of every task
// (env.render() and GrayscaleObservation's viewer, LidarObservation's grid,
// show_trajectories history, several scalings / screen sizes).
// Two pygame settings change the reference, not this code: with
// SDL_VIDEODRIVER=dummy, EnvViewer.display draws nothing (enabled = False:
// black frames); with PYGAME_BLEND_ALPHA_SDL2 set, pygame blits through
// SDL's blitter instead of its own (not reproduced here).
//
// Not ported: text labels (VehicleGraphics.display(label=True), pygame.font),
// the agent display, display windows and events, EnvViewer's trajectory
// prediction (set_agent_action_sequence), LaneGraphics.draw_ground (no task
// draws it).
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <typeinfo>
#include <utility>
#include <vector>

#include "envs/highway/behavior.h"
#include "envs/highway/controller.h"
#include "envs/highway/dynamics.h"
#include "envs/highway/kinematics.h"
#include "envs/highway/lane.h"
#include "envs/highway/objects.h"
#include "envs/highway/road.h"
#include "envs/highway/utils.h"
#include "refkit/pygame/alpha.h"
#include "refkit/pygame/draw.h"
#include "refkit/pygame/math.h"

// NEEDS from kinematics.h (optional): `vehicle.color`, the attribute that
// ParkingEnv sets on its controlled vehicles (`vehicle.color =
// VehicleGraphics.EGO_COLOR`, copied by Vehicle.create_from), e.g.
//   std::optional<std::array<int, 3>> color;  // None: not set
// VehicleGraphics::GetColor uses it when Vehicle has a member `color` that
// converts to bool and dereferences to 3 indexable ints; without it, parking's
// ego is drawn in MDP/IDM/default colors instead of green.

namespace envpool_lite::highway {

namespace graphics_detail {

// Python's int(x) of a finite float64 (truncation), saturated to int64
// (Python ints are unbounded; nothing drawn depends on values that large).
inline int64_t PyIntOfFloat(double v) {
  if (std::isnan(v)) return 0;  // Python raises ValueError
  if (v >= 9223372036854775807.0) return INT64_MAX;
  if (v <= -9223372036854775808.0) return INT64_MIN;
  return static_cast<int64_t>(v);
}

// Python's float floor division a // b (floatobject.c _float_div_mod).
inline double PyFloorDiv(double vx, double wx) {
  double mod = std::fmod(vx, wx);
  double div = (vx - mod) / wx;
  if (mod != 0.0) {
    if ((wx < 0) != (mod < 0)) {
      mod += wx;
      div -= 1.0;
    }
  }
  double floordiv;
  if (div != 0.0) {
    floordiv = std::floor(div);
    if (div - floordiv > 0.5) floordiv += 1.0;
  } else {
    floordiv = std::copysign(0.0, vx / wx);
  }
  return floordiv;
}

// np.rad2deg(x): x * (180.0 / NPY_PI) (npy_math's RAD2DEG constant).
inline double Rad2Deg(double x) { return x * (180.0 / M_PI); }

}  // namespace graphics_detail

// pygame's SRCALPHA surfaces (refkit/pygame/alpha.h).
using pygame_draw::BlitAlpha;
using pygame_draw::DrawRect;
using pygame_draw::RgbaColor;
using pygame_draw::RgbaSurface;
using pygame_draw::Rotate;

// ---------------------------------------------------------------------------
// road/graphics.py: WorldSurface
// ---------------------------------------------------------------------------

// A pixel position: the two Python ints pos2pix returns.
using PixPos = std::array<int64_t, 2>;

// class WorldSurface(pygame.Surface): the sim surface with a local
// coordinate system (origin [m], scaling [px/m]).
class WorldSurface : public pygame_draw::Surface {
 public:
  static constexpr pygame_draw::Color BLACK{0, 0, 0};
  static constexpr pygame_draw::Color GREY{100, 100, 100};
  static constexpr pygame_draw::Color GREEN{50, 200, 0};
  static constexpr pygame_draw::Color YELLOW{200, 200, 0};
  static constexpr pygame_draw::Color WHITE{255, 255, 255};
  static constexpr double INITIAL_SCALING = 5.5;
  static constexpr double SCALING_FACTOR = 1.3;
  static constexpr double MOVING_FACTOR = 0.1;

  Vec2 origin{0.0, 0.0};
  double scaling = INITIAL_SCALING;
  Vec2 centering_position{0.5, 0.5};  // INITIAL_CENTERING

  WorldSurface() = default;
  WorldSurface(int width, int height) : pygame_draw::Surface(width, height) {}

  int get_width() const { return width(); }
  int get_height() const { return height(); }

  // pix(length): int(length * scaling).
  int64_t Pix(double length) const {
    return graphics_detail::PyIntOfFloat(length * scaling);
  }
  // pos2pix(x, y)
  PixPos Pos2Pix(double x, double y) const {
    return {Pix(x - origin[0]), Pix(y - origin[1])};
  }
  // vec2pix(vec)
  PixPos Vec2Pix(const Vec2& vec) const { return Pos2Pix(vec[0], vec[1]); }
  // is_visible(vec, margin=50)
  bool IsVisible(const Vec2& vec, int64_t margin = 50) const {
    const PixPos p = Vec2Pix(vec);
    return -margin < p[0] && p[0] < get_width() + margin && -margin < p[1] &&
           p[1] < get_height() + margin;
  }
  // move_display_window_to(position):
  // origin = position - [cp[0] * w / scaling, cp[1] * h / scaling].
  void MoveDisplayWindowTo(const Vec2& position) {
    origin = {
        position[0] - centering_position[0] * get_width() / scaling,
        position[1] - centering_position[1] * get_height() / scaling,
    };
  }
};

// pygame.draw.line / lines of pos2pix results (Python ints).
inline pygame_draw::Point PixPoint(const PixPos& p) {
  return {static_cast<double>(pygame_draw::PgIntOfPyInt(p[0])),
          static_cast<double>(pygame_draw::PgIntOfPyInt(p[1]))};
}

// ---------------------------------------------------------------------------
// road/graphics.py: LaneGraphics
// ---------------------------------------------------------------------------

// class LaneGraphics: a visualization of a lane.
class LaneGraphics {
 public:
  static constexpr double STRIPE_SPACING = 4.33;  // [m]
  static constexpr double STRIPE_LENGTH = 3;      // [m] (Python int 3)
  static constexpr double STRIPE_WIDTH = 0.3;     // [m]

  // stripes_count = int(2 * (h + w) / (STRIPE_SPACING * scaling)).
  static int64_t StripesCount(const WorldSurface& surface) {
    return graphics_detail::PyIntOfFloat(
        static_cast<double>(2 * (surface.get_height() + surface.get_width())) /
        (STRIPE_SPACING * surface.scaling));
  }

  // display(lane, surface)
  static void Display(const AbstractLane& lane, WorldSurface& surface) {
    const int64_t stripes_count = StripesCount(surface);
    const double s_origin = lane.LocalCoordinates(surface.origin)[0];
    // (int(s_origin) // STRIPE_SPACING - stripes_count // 2) * STRIPE_SPACING
    const double s0 =
        (graphics_detail::PyFloorDiv(std::trunc(s_origin), STRIPE_SPACING) -
         static_cast<double>(PyIntFloorDiv2(stripes_count))) *
        STRIPE_SPACING;
    for (int side = 0; side < 2; ++side) {
      const int type = lane.line_types.at(side);
      if (type == LineType::STRIPED) {
        StripedLine(lane, surface, stripes_count, s0, side);
      } else if (type == LineType::CONTINUOUS) {
        ContinuousCurve(lane, surface, stripes_count, s0, side);
      } else if (type == LineType::CONTINUOUS_LINE) {
        ContinuousLine(lane, surface, stripes_count, s0, side);
      }
    }
  }

  // striped_line(lane, surface, stripes_count, longitudinal, side)
  static void StripedLine(const AbstractLane& lane, WorldSurface& surface,
                          int64_t stripes_count, double longitudinal,
                          int side) {
    std::vector<double> starts, ends, lats;
    for (int64_t k = 0; k < stripes_count; ++k) {
      const double start =
          longitudinal + static_cast<double>(k) * STRIPE_SPACING;
      starts.push_back(start);
      ends.push_back(start + STRIPE_LENGTH);
    }
    for (double s : starts) lats.push_back((side - 0.5) * lane.WidthAt(s));
    DrawStripes(lane, surface, starts, ends, lats);
  }

  // continuous_curve(lane, surface, stripes_count, longitudinal, side)
  static void ContinuousCurve(const AbstractLane& lane, WorldSurface& surface,
                              int64_t stripes_count, double longitudinal,
                              int side) {
    std::vector<double> starts, ends, lats;
    for (int64_t k = 0; k < stripes_count; ++k) {
      const double start =
          longitudinal + static_cast<double>(k) * STRIPE_SPACING;
      starts.push_back(start);
      ends.push_back(start + STRIPE_SPACING);
    }
    for (double s : starts) lats.push_back((side - 0.5) * lane.WidthAt(s));
    DrawStripes(lane, surface, starts, ends, lats);
  }

  // continuous_line(lane, surface, stripes_count, longitudinal, side)
  static void ContinuousLine(const AbstractLane& lane, WorldSurface& surface,
                             int64_t stripes_count, double longitudinal,
                             int side) {
    const std::vector<double> starts = {longitudinal + 0 * STRIPE_SPACING};
    const std::vector<double> ends = {
        longitudinal + static_cast<double>(stripes_count) * STRIPE_SPACING +
        STRIPE_LENGTH};
    const std::vector<double> lats = {(side - 0.5) * lane.WidthAt(starts[0])};
    DrawStripes(lane, surface, starts, ends, lats);
  }

  // draw_stripes(lane, surface, starts, ends, lats)
  static void DrawStripes(const AbstractLane& lane, WorldSurface& surface,
                          const std::vector<double>& starts_in,
                          const std::vector<double>& ends_in,
                          const std::vector<double>& lats) {
    const int width =
        static_cast<int>(std::max<int64_t>(surface.Pix(STRIPE_WIDTH), 1));
    for (std::size_t k = 0; k < starts_in.size(); ++k) {
      const double start = Clip(starts_in[k], 0, lane.length);
      const double end = Clip(ends_in[k], 0, lane.length);
      if (std::abs(start - end) > 0.5 * STRIPE_LENGTH) {
        pygame_draw::DrawLine(
            surface, WorldSurface::WHITE,
            PixPoint(surface.Vec2Pix(lane.Position(start, lats[k]))),
            PixPoint(surface.Vec2Pix(lane.Position(end, lats[k]))), width);
      }
    }
  }

 private:
  // Python's n // 2 of an int.
  static int64_t PyIntFloorDiv2(int64_t n) {
    return n >= 0 ? n / 2 : -((-n + 1) / 2);
  }
};

// ---------------------------------------------------------------------------
// vehicle/graphics.py and road/graphics.py: rotated blits
// ---------------------------------------------------------------------------

// blit_rotate(surf, image, pos, angle) (VehicleGraphics.blit_rotate and
// RoadObjectGraphics.blit_rotate, identical; origin_pos=None,
// show_rect=False): the image rotated about its centre, blitted so that its
// centre lands on pos. `pos` holds Python ints, `angle` is the float64
// degrees.
template <typename Dst>
inline void BlitRotate(Dst& surf, const RgbaSurface& image, const PixPos& pos,
                       double angle) {
  using pygame_math::Vector2;
  const int w = image.width(), h = image.height();
  // pygame.math.Vector2.rotate(angle): DEG2RAD then _vector2_rotate_helper.
  const pygame_math::Rotation rot(angle * (M_PI / 180.));
  const Vector2 box[4] = {{0.0, 0.0},
                          {static_cast<double>(w), 0.0},
                          {static_cast<double>(w), static_cast<double>(-h)},
                          {0.0, static_cast<double>(-h)}};
  Vector2 box_rotate[4];
  for (int i = 0; i < 4; ++i) box_rotate[i] = rot.Apply(box[i]);
  // Python's min / max with a key: the first extremal element.
  double min_box0 = box_rotate[0].x, max_box1 = box_rotate[0].y;
  for (int i = 1; i < 4; ++i) {
    if (box_rotate[i].x < min_box0) min_box0 = box_rotate[i].x;
    if (box_rotate[i].y > max_box1) max_box1 = box_rotate[i].y;
  }
  const double origin_pos0 = w / 2.0, origin_pos1 = h / 2.0;
  const Vector2 pivot{origin_pos0, -origin_pos1};
  const Vector2 pivot_rotate = rot.Apply(pivot);
  const Vector2 pivot_move{pivot_rotate.x - pivot.x, pivot_rotate.y - pivot.y};
  const double origin0 =
      static_cast<double>(pos[0]) - origin_pos0 + min_box0 - pivot_move.x;
  const double origin1 =
      static_cast<double>(pos[1]) - origin_pos1 - max_box1 + pivot_move.y;
  const RgbaSurface rotated_image = Rotate(image, angle);
  // surf.blit(rotated_image, origin): pg_TwoIntsFromObj truncates floats.
  BlitAlpha(surf, rotated_image, pygame_draw::detail::TruncD(origin0),
            pygame_draw::detail::TruncD(origin1));
}

// ---------------------------------------------------------------------------
// road/graphics.py: RoadObjectGraphics
// ---------------------------------------------------------------------------

// class RoadObjectGraphics: a visualization of objects on the road.
class RoadObjectGraphics {
 public:
  static constexpr RgbaColor YELLOW{200, 200, 0};
  static constexpr RgbaColor BLUE{100, 200, 255};
  static constexpr RgbaColor RED{255, 100, 100};
  static constexpr RgbaColor GREEN{50, 200, 0};
  static constexpr RgbaColor BLACK{60, 60, 60};
  static constexpr RgbaColor DEFAULT_COLOR = YELLOW;

  // display(object_, surface, transparent=False, offscreen=False)
  static void Display(const RoadObject& object_, WorldSurface& surface,
                      bool transparent = false, bool offscreen = false) {
    const RoadObject& o = object_;
    RgbaSurface s(static_cast<int>(surface.Pix(o.LENGTH)),
                  static_cast<int>(surface.Pix(o.LENGTH)));
    const int64_t rect[4] = {0, surface.Pix(o.LENGTH / 2 - o.WIDTH / 2),
                             surface.Pix(o.LENGTH), surface.Pix(o.WIDTH)};
    DrawRect(s, GetColor(o, transparent), rect[0], rect[1], rect[2], rect[3],
             0);
    DrawRect(s, BLACK, rect[0], rect[1], rect[2], rect[3], 1);
    // (convert_alpha when not offscreen: the same pixels)
    const double h = std::abs(o.heading) > 2 * M_PI / 180 ? o.heading : 0;
    const PixPos position = surface.Pos2Pix(o.position[0], o.position[1]);
    BlitRotate(surface, s, position, graphics_detail::Rad2Deg(-h));
  }

  // get_color(object_, transparent=False)
  static RgbaColor GetColor(const RoadObject& object_,
                            bool transparent = false) {
    RgbaColor color = DEFAULT_COLOR;
    if (dynamic_cast<const Obstacle*>(&object_) != nullptr) {
      color = object_.crashed ? RED : YELLOW;
    } else if (dynamic_cast<const Landmark*>(&object_) != nullptr) {
      color = object_.hit ? GREEN : BLUE;
    }
    if (transparent) color.a = 30;
    return color;
  }
};

// ---------------------------------------------------------------------------
// vehicle/graphics.py: VehicleGraphics
// ---------------------------------------------------------------------------

class VehicleGraphics {
 public:
  static constexpr RgbaColor RED{255, 100, 100};
  static constexpr RgbaColor GREEN{50, 200, 0};
  static constexpr RgbaColor BLUE{100, 200, 255};
  static constexpr RgbaColor YELLOW{200, 200, 0};
  static constexpr RgbaColor BLACK{60, 60, 60};
  static constexpr RgbaColor PURPLE{200, 0, 150};
  static constexpr RgbaColor DEFAULT_COLOR = YELLOW;
  static constexpr RgbaColor EGO_COLOR = GREEN;

  // display(vehicle, surface, transparent=False, offscreen=False,
  // label=False, draw_roof=False). `label` (pygame.font text) is not drawn.
  static void Display(const Vehicle& vehicle, WorldSurface& surface,
                      bool transparent = false, bool offscreen = false,
                      bool label = false, bool draw_roof = false) {
    if (!surface.IsVisible(vehicle.position)) return;
    const Vehicle& v = vehicle;
    const double tire_length = 1, tire_width = 0.3;
    const double headlight_length = 0.72, headlight_width = 0.6;
    const double roof_length = 2.0, roof_width = 1.5;

    // Vehicle rectangle
    const double length = v.LENGTH + 2 * tire_length;
    RgbaSurface vehicle_surface(static_cast<int>(surface.Pix(length)),
                                static_cast<int>(surface.Pix(length)));
    const int64_t rect[4] = {surface.Pix(tire_length),
                             surface.Pix(length / 2 - v.WIDTH / 2),
                             surface.Pix(v.LENGTH), surface.Pix(v.WIDTH)};
    const int64_t rect_headlight_left[4] = {
        surface.Pix(tire_length + v.LENGTH - headlight_length),
        surface.Pix(length / 2 - (1.4 * v.WIDTH) / 3),
        surface.Pix(headlight_length), surface.Pix(headlight_width)};
    const int64_t rect_headlight_right[4] = {
        surface.Pix(tire_length + v.LENGTH - headlight_length),
        surface.Pix(length / 2 + (0.6 * v.WIDTH) / 5),
        surface.Pix(headlight_length), surface.Pix(headlight_width)};
    const RgbaColor color = GetColor(v, transparent);
    DrawRect(vehicle_surface, color, rect[0], rect[1], rect[2], rect[3], 0);
    DrawRect(vehicle_surface, Lighten(color), rect_headlight_left[0],
             rect_headlight_left[1], rect_headlight_left[2],
             rect_headlight_left[3], 0);
    DrawRect(vehicle_surface, Lighten(color), rect_headlight_right[0],
             rect_headlight_right[1], rect_headlight_right[2],
             rect_headlight_right[3], 0);
    if (draw_roof) {
      const int64_t rect_roof[4] = {
          surface.Pix(v.LENGTH / 2 - tire_length / 2),
          surface.Pix(0.999 * length / 2 - 0.38625 * v.WIDTH),
          surface.Pix(roof_length), surface.Pix(roof_width)};
      DrawRect(vehicle_surface, Darken(color), rect_roof[0], rect_roof[1],
               rect_roof[2], rect_roof[3], 0);
    }
    DrawRect(vehicle_surface, BLACK, rect[0], rect[1], rect[2], rect[3], 1);

    // Tires: `type(vehicle) in [Vehicle, BicycleVehicle]` (exact types).
    if (typeid(vehicle) == typeid(Vehicle) ||
        typeid(vehicle) == typeid(BicycleVehicle)) {
      const PixPos tire_positions[4] = {
          {surface.Pix(tire_length), surface.Pix(length / 2 - v.WIDTH / 2)},
          {surface.Pix(tire_length), surface.Pix(length / 2 + v.WIDTH / 2)},
          {surface.Pix(length - tire_length),
           surface.Pix(length / 2 - v.WIDTH / 2)},
          {surface.Pix(length - tire_length),
           surface.Pix(length / 2 + v.WIDTH / 2)},
      };
      // tire_angles = [0, 0, steering, steering]; np.rad2deg(-0) is 0.0.
      const double tire_angles[4] = {0.0, 0.0, v.action.steering,
                                     v.action.steering};
      for (int i = 0; i < 4; ++i) {
        RgbaSurface tire_surface(static_cast<int>(surface.Pix(tire_length)),
                                 static_cast<int>(surface.Pix(tire_length)));
        DrawRect(tire_surface, BLACK, 0,
                 surface.Pix(tire_length / 2 - tire_width / 2),
                 surface.Pix(tire_length), surface.Pix(tire_width), 0);
        const double angle =
            i < 2 ? 0.0 : graphics_detail::Rad2Deg(-tire_angles[i]);
        BlitRotate(vehicle_surface, tire_surface, tire_positions[i], angle);
      }
    }

    // Centered rotation
    const double h = std::abs(v.heading) > 2 * M_PI / 180 ? v.heading : 0;
    const PixPos position = surface.Pos2Pix(v.position[0], v.position[1]);
    // (convert_alpha when not offscreen: the same pixels)
    BlitRotate(surface, vehicle_surface, position,
               graphics_detail::Rad2Deg(-h));
  }

  // display_history(vehicle, surface, frequency=3, duration=2,
  // simulation=15, offscreen=False):
  // islice(vehicle.history, None, int(simulation * duration),
  //        int(simulation / frequency)), each drawn transparent.
  static void DisplayHistory(const Vehicle& vehicle, WorldSurface& surface,
                             double frequency = 3, double duration = 2,
                             double simulation = 15, bool offscreen = false) {
    const int64_t stop = graphics_detail::PyIntOfFloat(simulation * duration);
    const int64_t step = graphics_detail::PyIntOfFloat(simulation / frequency);
    if (step < 1) return;  // Python raises ValueError
    const int64_t n = static_cast<int64_t>(vehicle.history.size());
    for (int64_t i = 0; i < std::min(stop, n); i += step) {
      const auto& state = vehicle.history[static_cast<std::size_t>(i)];
      if (state) Display(*state, surface, true, offscreen);
    }
  }

  // getattr(vehicle, "color", None), when Vehicle has such a member (see
  // NEEDS above): whether it is set, and then its value in *out.
  template <typename V>
  static bool AttributeColor(const V& vehicle, RgbaColor* out) {
    if constexpr (requires {
                    static_cast<bool>(vehicle.color);
                    (*vehicle.color)[2];
                  }) {
      if (vehicle.color) {
        const auto& c = *vehicle.color;
        *out = RgbaColor{static_cast<int>(c[0]), static_cast<int>(c[1]),
                         static_cast<int>(c[2]), 255};
        return true;
      }
    }
    return false;
  }

  // get_color(vehicle, transparent=False)
  static RgbaColor GetColor(const Vehicle& vehicle, bool transparent = false) {
    RgbaColor color = DEFAULT_COLOR;
    const bool has_color = AttributeColor(vehicle, &color);
    if (has_color) {
    } else if (vehicle.crashed) {
      color = RED;
    } else if (dynamic_cast<const LinearVehicle*>(&vehicle) != nullptr) {
      color = YELLOW;
    } else if (dynamic_cast<const IDMVehicle*>(&vehicle) != nullptr) {
      color = BLUE;
    } else if (dynamic_cast<const MDPVehicle*>(&vehicle) != nullptr) {
      color = EGO_COLOR;
    }
    if (transparent) color.a = 30;
    return color;
  }

  // darken(color, ratio=0.83): int(c * ratio), alpha kept.
  static RgbaColor Darken(const RgbaColor& color, double ratio = 0.83) {
    return RgbaColor{static_cast<int>(color.r * ratio),
                     static_cast<int>(color.g * ratio),
                     static_cast<int>(color.b * ratio), color.a};
  }

  // lighten(color, ratio=0.68): min(int(c / ratio), 255), alpha kept.
  static RgbaColor Lighten(const RgbaColor& color, double ratio = 0.68) {
    return RgbaColor{std::min(static_cast<int>(color.r / ratio), 255),
                     std::min(static_cast<int>(color.g / ratio), 255),
                     std::min(static_cast<int>(color.b / ratio), 255), color.a};
  }
};

// ---------------------------------------------------------------------------
// road/graphics.py: RoadGraphics
// ---------------------------------------------------------------------------

class RoadGraphics {
 public:
  // display(road, surface): grey fill, then every lane in graph order.
  static void Display(const Road& road, WorldSurface& surface) {
    pygame_draw::Fill(surface, WorldSurface::GREY);
    if (!road.network) return;
    for (const auto& [from, tos] : road.network->graph) {
      for (const auto& [to, lanes] : tos) {
        for (const auto& l : lanes) LaneGraphics::Display(*l, surface);
      }
    }
  }

  // display_traffic(road, surface, simulation_frequency=15,
  // offscreen=False)
  static void DisplayTraffic(const Road& road, WorldSurface& surface,
                             double simulation_frequency = 15,
                             bool offscreen = false) {
    if (road.record_history) {
      for (const auto& v : road.vehicles) {
        if (const auto* vehicle = dynamic_cast<const Vehicle*>(v.get())) {
          VehicleGraphics::DisplayHistory(*vehicle, surface, 3, 2,
                                          simulation_frequency, offscreen);
        }
      }
    }
    for (const auto& v : road.vehicles) {
      if (const auto* vehicle = dynamic_cast<const Vehicle*>(v.get())) {
        VehicleGraphics::Display(*vehicle, surface, false, offscreen);
      }
    }
  }

  // display_road_objects(road, surface, offscreen=False)
  static void DisplayRoadObjects(const Road& road, WorldSurface& surface,
                                 bool offscreen = false) {
    for (const auto& o : road.objects) {
      RoadObjectGraphics::Display(*o, surface, false, offscreen);
    }
  }
};

// ---------------------------------------------------------------------------
// envs/common/graphics.py: ObservationGraphics (LidarObservation's grid)
// ---------------------------------------------------------------------------

// What ObservationGraphics.display_grid reads from a LidarObservation
// (observation.h): angle (2 pi / cells), grid[:, 0] (float32 distances, one
// per cell, i.e. grid[2 * i]), maximum_range, origin.
struct LidarGridView {
  double angle = 0;
  const float* grid = nullptr;  // cells x 2, row-major
  int64_t cells = 0;
  double maximum_range = 0;
  Vec2 origin{0.0, 0.0};
};

class ObservationGraphics {
 public:
  static constexpr pygame_draw::Color COLOR{0, 0, 0};

  // display_grid(lidar_observation, surface)
  static void DisplayGrid(const LidarGridView& lidar, WorldSurface& surface) {
    const int64_t cells = lidar.cells;
    if (cells <= 0 || lidar.grid == nullptr) return;
    // psi = np.repeat(np.arange(-angle / 2, 2 * np.pi - angle / 2,
    //                           2 * np.pi / cells), 2)
    const std::vector<double> base =
        Arange(-lidar.angle / 2, 2 * M_PI - lidar.angle / 2,
               2 * M_PI / static_cast<double>(cells));
    std::vector<double> psi;
    for (double p : base) {
      psi.push_back(p);
      psi.push_back(p);
    }
    if (psi.empty()) return;
    // psi = np.hstack((psi[1:], [psi[0]]))
    std::rotate(psi.begin(), psi.begin() + 1, psi.end());
    // r = np.repeat(np.minimum(grid[:, 0], maximum_range), 2): float32.
    const float max_range = static_cast<float>(lidar.maximum_range);
    std::vector<float> r;
    for (int64_t i = 0; i < cells; ++i) {
      const float g = lidar.grid[2 * i];
      const float m = (g < max_range || std::isnan(g)) ? g : max_range;
      r.push_back(m);
      r.push_back(m);
    }
    std::vector<pygame_draw::Point> points;
    const std::size_t n = std::min(psi.size(), r.size());
    for (std::size_t i = 0; i < n; ++i) {
      const double ri = static_cast<double>(r[i]);
      points.push_back(
          PixPoint(surface.Pos2Pix(lidar.origin[0] + ri * Np().Cos(psi[i]),
                                   lidar.origin[1] + ri * Np().Sin(psi[i]))));
    }
    pygame_draw::DrawLines(surface, COLOR, true, points.data(),
                           static_cast<int>(points.size()), 1);
  }
};

// ---------------------------------------------------------------------------
// envs/common/graphics.py: EnvViewer (offscreen)
// ---------------------------------------------------------------------------

// class EnvViewer, offscreen: draws a road onto its sim surface.
//  * env.render() (rgb_array): EnvViewer(config["screen_width"],
//    config["screen_height"], config["scaling"],
//    config["centering_position"]); observer_vehicle stays null, so the
//    window follows env.vehicle.
//  * GrayscaleObservation: EnvViewer(observation_shape[0],
//    observation_shape[1], scaling or config["scaling"], centering_position
//    or config["centering_position"]), observer_vehicle = the observation's
//    observer vehicle before each Display.
class EnvViewer {
 public:
  WorldSurface sim_surface;
  // observer_vehicle: the window follows it when set.
  const RoadObject* observer_vehicle = nullptr;
  bool offscreen = true;
  // False in Python when SDL_VIDEODRIVER=dummy: Display then draws nothing.
  bool enabled = true;

  EnvViewer(int screen_width, int screen_height, double scaling,
            const Vec2& centering_position)
      : sim_surface(screen_width, screen_height) {
    sim_surface.scaling = scaling;
    sim_surface.centering_position = centering_position;
  }

  // display(): `env_vehicle` is env.vehicle (the first controlled vehicle,
  // or null), `simulation_frequency` env.config["simulation_frequency"] (for
  // the history of road.record_history), `lidar` the grid of the env's
  // observation when it is a LidarObservation (ObservationGraphics.display),
  // else null.
  void Display(const Road& road, const RoadObject* env_vehicle,
               double simulation_frequency = 15,
               const LidarGridView* lidar = nullptr) {
    if (!enabled) return;
    sim_surface.MoveDisplayWindowTo(WindowPosition(env_vehicle));
    RoadGraphics::Display(road, sim_surface);
    RoadGraphics::DisplayRoadObjects(road, sim_surface, offscreen);
    RoadGraphics::DisplayTraffic(road, sim_surface, simulation_frequency,
                                 offscreen);
    if (lidar != nullptr) ObservationGraphics::DisplayGrid(*lidar, sim_surface);
  }

  // get_image(): np.moveaxis(pygame.surfarray.array3d(sim_surface), 0, 1),
  // (screen_height, screen_width, 3) uint8, row-major, into `out`.
  void GetImage(uint8_t* out) const { sim_surface.CopyTo(out); }
  std::vector<uint8_t> GetImage() const {
    std::vector<uint8_t> out(static_cast<std::size_t>(sim_surface.width()) *
                             sim_surface.height() * 3);
    GetImage(out.data());
    return out;
  }

  // window_position(): the observer's position, else env.vehicle's, else
  // [0, 0].
  Vec2 WindowPosition(const RoadObject* env_vehicle) const {
    if (observer_vehicle != nullptr) return observer_vehicle->position;
    if (env_vehicle != nullptr) return env_vehicle->position;
    return {0.0, 0.0};
  }
};

}  // namespace envpool_lite::highway
