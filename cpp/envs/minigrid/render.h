// MiniGrid's pictures, pixel for pixel as minigrid 3.2.0 draws them: the
// tiles of Grid.render_tile (minigrid/core/grid.py), drawn with the helpers
// of minigrid/utils/rendering.py (fill_coords, point_in_rect,
// point_in_circle, point_in_line, point_in_triangle, rotate_fn,
// highlight_img, downsample) and each object's render()
// (minigrid/core/world_object.py).
//
// A tile is drawn at 3 times its size (subdivs=3): fill_coords tests the
// centre of every pixel against a shape and paints the ones inside; then the
// tile is highlighted (if its cell is) and averaged down to tile_size
// pixels. numpy's arithmetic is followed operation by operation, so that
// every pixel on a shape's edge falls on the same side:
//   - coordinates are float64, except the points minigrid stores as float32
//     arrays (point_in_line, point_in_triangle), whose differences, norms and
//     dot products with each other stay float32;
//   - np.dot of two float64 pairs is OpenBLAS's ddot, which numpy calls: on
//     x86-64 with FMA (the kernel numpy's wheels use there) the second
//     product is fused, fma(a1, b1, a0 * b0); np.dot of two float32 pairs is
//     float32 a0 * b0 + a1 * b1 (both checked against numpy). Unfused float64
//     products give the same tiles for every tile size 1 to 128 (checked), so
//     another BLAS kernel draws the same pictures;
//   - downsample is two means of 3: ((m0 + m1) + m2) / 3 of the row means
//     m = (p0 + p1 + p2) / 3, then a truncating cast to uint8, as numpy's
//     assignment of a float64 tile into the uint8 picture;
//   - highlight_img is uint8(v + 0.3 * (255 - v)).
// The build compiles with -ffp-contract=off: no multiply-add is fused here
// unless written as std::fma.
//
// TileRenderer keeps every tile it has drawn, as minigrid's tile_cache does
// (one cache per renderer: per env and tile size).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "envs/minigrid/world.h"

namespace envpool_lite {
namespace minigrid {

constexpr int kRenderTileSize = 32;  // TILE_PIXELS: MiniGridEnv's tile_size
constexpr int kObsTileSize = 8;      // the RGB observation wrappers' tile_size
constexpr int kMaxTileSize = 256;    // the option's limit here
constexpr double kPi = 3.141592653589793;  // math.pi

struct Rgb {
  uint8_t r, g, b;
};

// COLORS
inline Rgb ColorRgb(Color c) {
  static const Rgb kColors[6] = {{255, 0, 0},   {0, 255, 0},
                                 {0, 0, 255},   {112, 39, 195},
                                 {255, 255, 0}, {100, 100, 100}};
  return kColors[c];
}

// np.array(COLORS[c]) * factor assigned to uint8 pixels: the float64
// product, truncated (Floor's COLORS / 2, a locked door's 0.45 * c).
inline Rgb ScaledRgb(Color c, double factor, bool divide) {
  const Rgb rgb = ColorRgb(c);
  auto scale = [&](uint8_t v) {
    const double d = static_cast<double>(v);
    return static_cast<uint8_t>(divide ? d / factor : factor * d);
  };
  return {scale(rgb.r), scale(rgb.g), scale(rgb.b)};
}

// point_in_rect
struct InRect {
  double xmin, xmax, ymin, ymax;
  bool operator()(double x, double y) const {
    return x >= xmin && x <= xmax && y >= ymin && y <= ymax;
  }
};

// point_in_circle
struct InCircle {
  double cx, cy, r;
  bool operator()(double x, double y) const {
    return (x - cx) * (x - cx) + (y - cy) * (y - cy) <= r * r;
  }
};

// np.dot of two float64 pairs (OpenBLAS ddot: the second product fused).
inline double Dot2(double a0, double a1, double b0, double b1) {
  return std::fma(a1, b1, a0 * b0);
}

// point_in_line(x0, y0, x1, y1, r): within r of the segment. p0, p1 and the
// direction are float32 arrays; the point q and what follows from it are
// float64.
class InLine {
 public:
  InLine(double x0, double y0, double x1, double y1, double r)
      : p0x_(static_cast<float>(x0)),
        p0y_(static_cast<float>(y0)),
        r_(r),
        xmin_(std::min(x0, x1) - r),
        xmax_(std::max(x0, x1) + r),
        ymin_(std::min(y0, y1) - r),
        ymax_(std::max(y0, y1) + r) {
    float dx = static_cast<float>(x1) - p0x_;
    float dy = static_cast<float>(y1) - p0y_;
    dist_ = std::sqrt(dx * dx + dy * dy);  // np.linalg.norm, float32
    dir_x_ = dx / dist_;
    dir_y_ = dy / dist_;
  }
  bool operator()(double x, double y) const {
    if (x < xmin_ || x > xmax_ || y < ymin_ || y > ymax_) return false;
    const double pqx = x - static_cast<double>(p0x_);
    const double pqy = y - static_cast<double>(p0y_);
    double a = Dot2(pqx, pqy, dir_x_, dir_y_);
    a = std::min(std::max(a, 0.0), static_cast<double>(dist_));  // np.clip
    const double px = static_cast<double>(p0x_) + a * dir_x_;
    const double py = static_cast<double>(p0y_) + a * dir_y_;
    const double ex = x - px, ey = y - py;
    return std::sqrt(Dot2(ex, ey, ex, ey)) <= r_;
  }

 private:
  float p0x_, p0y_;
  double r_, xmin_, xmax_, ymin_, ymax_;
  float dist_, dir_x_ = 0, dir_y_ = 0;
};

// point_in_triangle(a, b, c) (float32 corners: barycentric coordinates u, v
// from float32 dot products of the edges and float64 ones with the point),
// seen through rotate_fn(cx=0.5, cy=0.5, theta=0.5 * pi * dir): the agent.
class InAgentTriangle {
 public:
  explicit InAgentTriangle(int dir) {
    // np.array(point, dtype=np.float32): Python's float64, rounded
    auto f32 = [](double v) { return static_cast<float>(v); };
    const float ax = f32(0.12), ay = f32(0.19), bx = f32(0.87), by = f32(0.50),
                cx = f32(0.12), cy = f32(0.81);
    ax_ = ax, ay_ = ay;
    v0x_ = cx - ax, v0y_ = cy - ay;
    v1x_ = bx - ax, v1y_ = by - ay;
    dot00_ = v0x_ * v0x_ + v0y_ * v0y_;
    dot01_ = v0x_ * v1x_ + v0y_ * v1y_;
    dot11_ = v1x_ * v1x_ + v1y_ * v1y_;
    inv_denom_ = 1.0f / (dot00_ * dot11_ - dot01_ * dot01_);
    const double theta = 0.5 * kPi * dir;
    cos_ = std::cos(-theta);
    sin_ = std::sin(-theta);
  }
  bool operator()(double x, double y) const {
    // rotate_fn
    x = x - 0.5;
    y = y - 0.5;
    const double x2 = 0.5 + x * cos_ - y * sin_;
    const double y2 = 0.5 + y * cos_ + x * sin_;
    // point_in_triangle
    const double v2x = x2 - static_cast<double>(ax_);
    const double v2y = y2 - static_cast<double>(ay_);
    const double dot02 = Dot2(v0x_, v0y_, v2x, v2y);
    const double dot12 = Dot2(v1x_, v1y_, v2x, v2y);
    const double inv = inv_denom_;
    const double u = (static_cast<double>(dot11_) * dot02 -
                      static_cast<double>(dot01_) * dot12) *
                     inv;
    const double v = (static_cast<double>(dot00_) * dot12 -
                      static_cast<double>(dot01_) * dot02) *
                     inv;
    return u >= 0 && v >= 0 && (u + v) < 1;
  }

 private:
  float ax_, ay_, v0x_, v0y_, v1x_, v1y_, dot00_, dot01_, dot11_, inv_denom_;
  double cos_, sin_;
};

// One tile drawn at subdivs times its size, (n, n, 3) uint8.
class Canvas {
 public:
  explicit Canvas(int n)
      : n_(n), px_(static_cast<std::size_t>(n) * n * 3, uint8_t{0}) {}

  // fill_coords: every pixel whose centre ((x + 0.5) / n, (y + 0.5) / n)
  // is inside `shape` takes `color`.
  template <typename Shape>
  void Fill(const Shape& shape, Rgb color) {
    for (int y = 0; y < n_; ++y) {
      const double yf = (y + 0.5) / n_;
      for (int x = 0; x < n_; ++x) {
        const double xf = (x + 0.5) / n_;
        if (shape(xf, yf)) {
          uint8_t* p = &px_[(static_cast<std::size_t>(y) * n_ + x) * 3];
          p[0] = color.r, p[1] = color.g, p[2] = color.b;
        }
      }
    }
  }

  // highlight_img(img): blend with white, alpha 0.3.
  void Highlight() {
    for (uint8_t& v : px_) {
      const double d = static_cast<double>(v);
      v = static_cast<uint8_t>(d + 0.3 * (255.0 - d));
    }
  }

  // downsample(img, factor): the mean of each factor x factor block, mean
  // over columns first, truncated to uint8.
  std::vector<uint8_t> Downsample(int factor) const {
    const int m = n_ / factor;
    std::vector<uint8_t> out(static_cast<std::size_t>(m) * m * 3);
    for (int ty = 0; ty < m; ++ty) {
      for (int tx = 0; tx < m; ++tx) {
        for (int c = 0; c < 3; ++c) {
          double sum = 0.0;
          for (int a = 0; a < factor; ++a) {
            double row = 0.0;
            for (int b = 0; b < factor; ++b) {
              row += px_[(static_cast<std::size_t>(ty * factor + a) * n_ +
                          tx * factor + b) *
                             3 +
                         c];
            }
            const double mean = row / factor;
            sum = a == 0 ? mean : sum + mean;
          }
          out[(static_cast<std::size_t>(ty) * m + tx) * 3 + c] =
              static_cast<uint8_t>(sum / factor);
        }
      }
    }
    return out;
  }

 private:
  int n_;
  std::vector<uint8_t> px_;
};

// WorldObj.render(img) of each kind of object.
inline void DrawObj(const Obj& o, Canvas& img) {
  const Rgb black = {0, 0, 0};
  const Rgb c = ColorRgb(o.color);
  switch (o.type) {
    case kGoal:
    case kWall:
      img.Fill(InRect{0, 1, 0, 1}, c);
      break;
    case kFloor:  // a pale colour: COLORS[color] / 2
      img.Fill(InRect{0.031, 1, 0.031, 1}, ScaledRgb(o.color, 2.0, true));
      break;
    case kLava: {
      img.Fill(InRect{0, 1, 0, 1}, Rgb{255, 128, 0});
      for (int i = 0; i < 3; ++i) {  // little waves
        const double ylo = 0.3 + 0.2 * i;
        const double yhi = 0.4 + 0.2 * i;
        img.Fill(InLine(0.1, ylo, 0.3, yhi, 0.03), black);
        img.Fill(InLine(0.3, yhi, 0.5, ylo, 0.03), black);
        img.Fill(InLine(0.5, ylo, 0.7, yhi, 0.03), black);
        img.Fill(InLine(0.7, yhi, 0.9, ylo, 0.03), black);
      }
      break;
    }
    case kDoor:
      if (o.is_open) {
        img.Fill(InRect{0.88, 1.00, 0.00, 1.00}, c);
        img.Fill(InRect{0.92, 0.96, 0.04, 0.96}, black);
      } else if (o.is_locked) {
        img.Fill(InRect{0.00, 1.00, 0.00, 1.00}, c);
        img.Fill(InRect{0.06, 0.94, 0.06, 0.94},
                 ScaledRgb(o.color, 0.45, false));
        img.Fill(InRect{0.52, 0.75, 0.50, 0.56}, c);  // key slot
      } else {
        img.Fill(InRect{0.00, 1.00, 0.00, 1.00}, c);
        img.Fill(InRect{0.04, 0.96, 0.04, 0.96}, black);
        img.Fill(InRect{0.08, 0.92, 0.08, 0.92}, c);
        img.Fill(InRect{0.12, 0.88, 0.12, 0.88}, black);
        img.Fill(InCircle{0.75, 0.50, 0.08}, c);  // handle
      }
      break;
    case kKey:
      img.Fill(InRect{0.50, 0.63, 0.31, 0.88}, c);  // vertical quad
      img.Fill(InRect{0.38, 0.50, 0.59, 0.66}, c);  // teeth
      img.Fill(InRect{0.38, 0.50, 0.81, 0.88}, c);
      img.Fill(InCircle{0.56, 0.28, 0.190}, c);  // ring
      img.Fill(InCircle{0.56, 0.28, 0.064}, black);
      break;
    case kBall:
      img.Fill(InCircle{0.5, 0.5, 0.31}, c);
      break;
    case kBox:
      img.Fill(InRect{0.12, 0.88, 0.12, 0.88}, c);  // outline
      img.Fill(InRect{0.18, 0.82, 0.18, 0.82}, black);
      img.Fill(InRect{0.16, 0.84, 0.47, 0.53}, c);  // horizontal slit
      break;
    default:
      break;
  }
}

class TileRenderer {
 public:
  explicit TileRenderer(int tile_size)
      : tile_size_(tile_size), cache_(kNumKeys) {}

  int tile_size() const { return tile_size_; }

  // Grid.render's paste of render_tile(obj, agent_dir, highlight) into the
  // picture `image` (width_px pixels a row) at cell (i, j); obj nullptr: an
  // empty cell, agent_dir -1: no agent there.
  void Draw(const Obj* obj, int agent_dir, bool highlight, int i, int j,
            uint8_t* image, std::size_t width_px) {
    const std::vector<uint8_t>& tile = Tile(obj, agent_dir, highlight);
    const std::size_t row_bytes = static_cast<std::size_t>(tile_size_) * 3;
    for (int y = 0; y < tile_size_; ++y) {
      const std::size_t py = static_cast<std::size_t>(j) * tile_size_ + y;
      std::memcpy(
          image +
              (py * width_px + static_cast<std::size_t>(i) * tile_size_) * 3,
          tile.data() + y * row_bytes, row_bytes);
    }
  }

 private:
  // (type, color, state) of the object, or none; the agent's direction or
  // none; highlighted or not: render_tile's cache key.
  static constexpr int kNumObjKeys = 1 + 11 * 6 * 3;
  static constexpr int kNumKeys = kNumObjKeys * 5 * 2;

  const std::vector<uint8_t>& Tile(const Obj* obj, int agent_dir,
                                   bool highlight) {
    const int obj_key =
        obj == nullptr ? 0
                       : 1 + (obj->type * 6 + obj->color) * 3 + obj->State();
    std::vector<uint8_t>& tile =
        cache_[(obj_key * 5 + agent_dir + 1) * 2 + (highlight ? 1 : 0)];
    if (tile.empty()) tile = RenderTile(obj, agent_dir, highlight);
    return tile;
  }

  // Grid.render_tile (subdivs=3).
  std::vector<uint8_t> RenderTile(const Obj* obj, int agent_dir,
                                  bool highlight) const {
    constexpr int kSubdivs = 3;
    Canvas img(tile_size_ * kSubdivs);
    // the grid lines (top and left edges)
    img.Fill(InRect{0, 0.031, 0, 1}, Rgb{100, 100, 100});
    img.Fill(InRect{0, 1, 0, 0.031}, Rgb{100, 100, 100});
    if (obj != nullptr) DrawObj(*obj, img);
    if (agent_dir >= 0) img.Fill(InAgentTriangle(agent_dir), Rgb{255, 0, 0});
    if (highlight) img.Highlight();
    return img.Downsample(kSubdivs);
  }

  int tile_size_;
  std::vector<std::vector<uint8_t>> cache_;
};

}  // namespace minigrid
}  // namespace envpool_lite
