// The pygame-ce 2.5.8 drawing routines that gymnasium's Box2D envs
// (LunarLander, BipedalWalker, CarRacing) render with, reimplemented in plain
// C++ so that the C++ frames equal gymnasium's rgb_array frames pixel for
// pixel.
//
// The surface is what `pygame.Surface((w, h))` gives without a display: 32-bit
// XRGB8888 (masks 0xff0000, 0xff00, 0xff, no alpha), initially black. Only
// its RGB bytes are kept, in the layout gymnasium returns:
// np.transpose(pygame.surfarray.pixels3d(surf), (1, 0, 2)), i.e. (h, w, 3).
// The X byte never influences an RGB value in these routines.
//
// Each routine follows the pygame-ce (src_c/draw.c, gfxdraw.c, transform.c)
// or SDL_gfx (src_c/SDL_gfx/SDL_gfxPrimitives.c) function named in its
// comment, operation by operation: the same integer and float32 arithmetic,
// the same conversions of Python floats (see "Coordinates" below), the same
// clipping. A few loops skip rows that lie outside the surface (upstream
// visits them and draws nothing there); that changes no pixel.
//
// Coordinates. gymnasium passes Python floats (or b2Vec2 / Vector2 items,
// which read as Python floats); Point holds them as float64, exactly. The
// routines convert them the way pygame does:
//  * draw.polygon / line / lines / circle (pg_TwoIntsFromObj, pg_IntFromObj):
//    C's (int)double, truncation toward zero (x86-64 cvttsd2si: NaN or out
//    of range gives INT_MIN);
//  * draw.aaline / aalines (pg_TwoFloatsFromObj): (float)double, rounding to
//    the nearest float32;
//  * gfxdraw.aapolygon / filled_polygon (Sint16FromObj): int(x) (truncation)
//    then (Sint16), i.e. wrapped to 16 bits;
//  * draw.rect (a Rect from floats): truncation.
// Where C code overflows a signed int (only with absurd coordinates), the
// x86-64 wrap-around is reproduced.
//
// The caller must pass the coordinates gymnasium computes, bit for bit (e.g.
// `trans * v * SCALE` is a float32 b2Vec2 product in pybox2d, while
// `coord[0] * SCALE` is a float64 product of a float32 value).
//
// Calls (pygame's, in gymnasium's argument order): Fill, DrawRect,
// DrawPolygon, DrawLine, DrawLines, DrawAaline, DrawAalines, DrawCircle,
// GfxAapolygon, GfxFilledPolygon, FlipVertical, Smoothscale (SSE2 backend,
// the one pygame uses on x86-64), Blit. Not here: pygame.font text
// (CarRacing's score).
//
// Speed, without changing a value: FlipVertical moves no pixel (it reverses
// the order Surface reads rows in); Smoothscale's shrink works out pygame's
// per-pixel weights once per size and runs its uint16 arithmetic on 16 (SSE2)
// or 32 (AVX2, when the CPU has it) rows at once; GfxPolygonCovers tells
// when a polygon paints the whole surface, so that a Fill can draw it.
//
// Exactness is checked against pygame-ce itself on random inputs by
// tests/test_pygame_draw.py (through envpool_lite._core._testing).
// Requires IEEE float32/float64 arithmetic without FMA contraction (the
// project compiles with -ffp-contract=off).
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define ENVPOOL_LITE_AVX2_DISPATCH 1
#endif

namespace envpool_lite::pygame_draw {

struct Color {
  uint8_t r, g, b;
};

struct Point {
  double x, y;
};

// An (h, w, 3) RGB image: np.transpose(pixels3d(surf), (1, 0, 2)).
// Row y of the picture lies at memory row y, or at memory row h - 1 - y
// after an odd number of FlipVertical calls (a flip swaps no pixels: it
// reverses the row order that Row / Pixel read). CopyTo writes the picture
// in row-major order either way.
class Surface {
 public:
  Surface() = default;
  Surface(int w, int h)
      : w_(w), h_(h), data_(static_cast<std::size_t>(w) * h * 3 + kPad, 0) {}
  int width() const { return w_; }
  int height() const { return h_; }
  bool flipped() const { return flipped_; }

  bool Contains(int x, int y) const {
    return x >= 0 && y >= 0 && x < w_ && y < h_;
  }
  uint8_t* Row(int y) {
    const int m = flipped_ ? h_ - 1 - y : y;
    return data_.data() + static_cast<std::size_t>(m) * w_ * 3;
  }
  const uint8_t* Row(int y) const {
    const int m = flipped_ ? h_ - 1 - y : y;
    return data_.data() + static_cast<std::size_t>(m) * w_ * 3;
  }
  uint8_t* Pixel(int x, int y) {
    return Row(y) + static_cast<std::size_t>(x) * 3;
  }
  const uint8_t* Pixel(int x, int y) const {
    return Row(y) + static_cast<std::size_t>(x) * 3;
  }
  // Sets a pixel if it lies on the surface (pygame's set_at on the clip rect).
  void Set(int x, int y, Color c) {
    if (!Contains(x, y)) return;
    uint8_t* p = Pixel(x, y);
    p[0] = c.r;
    p[1] = c.g;
    p[2] = c.b;
  }
  // Every byte of the picture, in whatever row order (for whole fills).
  uint8_t* bytes() { return data_.data(); }
  // The picture, row-major, into an (h, w, 3) buffer.
  void CopyTo(uint8_t* out) const {
    const std::size_t row = static_cast<std::size_t>(w_) * 3;
    if (!flipped_) {
      std::memcpy(out, data_.data(), row * h_);
      return;
    }
    for (int y = 0; y < h_; ++y) std::memcpy(out + y * row, Row(y), row);
  }
  // The picture from an (h, w, 3) row-major buffer.
  void CopyFrom(const uint8_t* in) {
    flipped_ = false;
    std::memcpy(data_.data(), in, static_cast<std::size_t>(w_) * h_ * 3);
  }
  void ReverseRows() { flipped_ = !flipped_; }

  // Readable bytes past the last pixel, so that the 48-byte loads of
  // Smoothscale that start on a pixel of the last row stay in the buffer.
  static constexpr std::size_t kPad = 64;

 private:
  int w_ = 0, h_ = 0;
  bool flipped_ = false;
  std::vector<uint8_t> data_;
};

namespace detail {

// ---- C conversions and int arithmetic as x86-64 executes them ----

// (int)d for a double (cvttsd2si): truncation; NaN / out of range: INT_MIN.
inline int32_t TruncD(double d) {
  if (!(d > -2147483649.0 && d < 2147483648.0)) return INT32_MIN;
  return static_cast<int32_t>(d);
}
// (int)f for a float (cvttss2si).
inline int32_t TruncF(float f) {
  if (!(f >= -2147483648.0f && f < 2147483648.0f)) return INT32_MIN;
  return static_cast<int32_t>(f);
}
// (Uint8)f and (Sint16)f for a float: cvttss2si, then the low bits.
inline uint8_t FloatToU8(float f) { return static_cast<uint8_t>(TruncF(f)); }
inline int16_t FloatToS16(float f) { return static_cast<int16_t>(TruncF(f)); }

// Signed 32-bit arithmetic with wrap-around (what the C code does on
// overflow).
inline int32_t Add(int32_t a, int32_t b) {
  return static_cast<int32_t>(static_cast<uint32_t>(a) +
                              static_cast<uint32_t>(b));
}
inline int32_t Sub(int32_t a, int32_t b) {
  return static_cast<int32_t>(static_cast<uint32_t>(a) -
                              static_cast<uint32_t>(b));
}
inline int32_t Mul(int32_t a, int32_t b) {
  return static_cast<int32_t>(static_cast<uint32_t>(a) *
                              static_cast<uint32_t>(b));
}

// pg_TwoIntsFromObj / pg_IntFromObj on a Python float: (int)double.
inline int32_t PyInt(double v) { return TruncD(v); }
// pg_TwoFloatsFromObj on a Python float: (float)double.
inline float PyFloat(double v) { return static_cast<float>(v); }
// gfxdraw.c Sint16FromObj: PyNumber_Long (truncation) then (Sint16).
inline int16_t PySint16(double v) {
  const double t = std::trunc(v);
  int64_t l = 0;
  if (t >= -9223372036854775808.0 && t < 9223372036854775808.0) {
    l = static_cast<int64_t>(t);  // beyond: pygame raises OverflowError
  }
  return static_cast<int16_t>(static_cast<uint16_t>(l & 0xffff));
}

// A small int buffer that only allocates for polygons of > 64 points.
class IntScratch {
 public:
  explicit IntScratch(std::size_t n) {
    if (n > small_.size()) {
      big_.resize(n);
      ptr_ = big_.data();
    } else {
      ptr_ = small_.data();
    }
  }
  int32_t* data() { return ptr_; }

 private:
  std::array<int32_t, 64> small_{};
  std::vector<int32_t> big_;
  int32_t* ptr_;
};

// qsort(v, n, sizeof(int), cmp) with upstream's comparator
// `*(int*)a - *(int*)b` (draw.c compare_int, SDL_gfx
// _gfxPrimitivesCompareInt). The subtraction wraps when two values are
// 2^31 or more apart, which makes the comparator inconsistent; the result
// then depends on the sort algorithm, so this is glibc's qsort (a top-down
// merge sort, msort_with_tmp, taking from the left run on cmp <= 0). With
// values closer than 2^31 it is an ordinary ascending sort.
inline void QsortInts(int32_t* v, int n, int32_t* tmp) {
  if (n <= 1) return;
  const int n1 = n / 2;
  const int n2 = n - n1;
  QsortInts(v, n1, tmp);
  QsortInts(v + n1, n2, tmp);
  int i = 0, j = n1, k = 0;
  while (i < n1 && j < n) {
    if (Sub(v[i], v[j]) <= 0) {
      tmp[k++] = v[i++];
    } else {
      tmp[k++] = v[j++];
    }
  }
  while (i < n1) tmp[k++] = v[i++];
  std::copy(tmp, tmp + k, v);  // the rest of the right run is in place
}

inline void StoreRgb(uint8_t* p, Color c) {
  p[0] = c.r;
  p[1] = c.g;
  p[2] = c.b;
}

// n pixels of color c from p: 16 pixels (48 bytes) per step, then one by one.
inline void FillPixels(uint8_t* p, int n, Color c) {
  if (n >= 16) {
    uint8_t pattern[48];
    for (int i = 0; i < 16; ++i) StoreRgb(pattern + 3 * i, c);
    for (; n >= 16; n -= 16, p += 48) std::memcpy(p, pattern, 48);
  }
  for (; n > 0; --n, p += 3) StoreRgb(p, c);
}

// ---- draw.c helpers (clip rect = the whole surface) ----

// drawhorzline: fills x1..x2 of row y (already clipped).
inline void HorzLine(Surface& s, Color c, int x1, int y, int x2) {
  FillPixels(s.Pixel(x1, y), x2 - x1 + 1, c);
}

// drawvertline: fills y1..y2 of column x (already clipped).
inline void VertLine(Surface& s, Color c, int y1, int x, int y2) {
  for (int y = y1; y <= y2; ++y) StoreRgb(s.Pixel(x, y), c);
}

// drawhorzlineclipbounding (also drawhorzlineclip, which draws the same).
inline void HorzLineClip(Surface& s, Color c, int x1, int y, int x2) {
  if (y < 0 || y >= s.height()) return;
  if (x2 < x1) std::swap(x1, x2);
  x1 = std::max(x1, 0);
  x2 = std::min(x2, s.width() - 1);
  if (x2 < 0 || x1 >= s.width()) return;
  HorzLine(s, c, x1, y, x2);
}

// get_antialiased_color + set_at: blends c over the pixel with a float32
// brightness, truncating each channel to Uint8.
inline void AaBlend(Surface& s, int x, int y, Color c, float brightness) {
  if (!s.Contains(x, y)) return;
  uint8_t* p = s.Pixel(x, y);
  const float inv = 1 - brightness;
  const float r =
      brightness * static_cast<float>(c.r) + inv * static_cast<float>(p[0]);
  const float g =
      brightness * static_cast<float>(c.g) + inv * static_cast<float>(p[1]);
  const float b =
      brightness * static_cast<float>(c.b) + inv * static_cast<float>(p[2]);
  p[0] = FloatToU8(r);
  p[1] = FloatToU8(g);
  p[2] = FloatToU8(b);
}

// draw.c draw_line: Bresenham, one pixel wide.
inline void LineThin(Surface& s, Color c, int x1, int y1, int x2, int y2) {
  if (x1 == x2 && y1 == y2) {
    s.Set(x1, y1, c);
    return;
  }
  if (y1 == y2) {
    const int dx = (x1 < x2) ? 1 : -1;
    const int n = std::abs(x1 - x2);
    for (int i = 0; i <= n; ++i) s.Set(x1 + dx * i, y1, c);
    return;
  }
  if (x1 == x2) {
    const int dy = (y1 < y2) ? 1 : -1;
    const int n = std::abs(y1 - y2);
    for (int i = 0; i <= n; ++i) s.Set(x1, y1 + dy * i, c);
    return;
  }
  const int dx = std::abs(x2 - x1), sx = x1 < x2 ? 1 : -1;
  const int dy = std::abs(y2 - y1), sy = y1 < y2 ? 1 : -1;
  int err = (dx > dy ? dx : -dy) / 2;
  while (x1 != x2 || y1 != y2) {
    s.Set(x1, y1, c);
    const int e2 = err;
    if (e2 > -dx) {
      err -= dy;
      x1 += sx;
    }
    if (e2 < dy) {
      err += dx;
      y1 += sy;
    }
  }
  s.Set(x2, y2, c);
}

// draw.c draw_line_width (with clip_line): Bresenham along the major axis,
// a run of `width` pixels across it.
inline void LineWidth(Surface& s, Color c, int x1, int y1, int x2, int y2,
                      int width) {
  if (width < 1) return;
  if (width == 1) {
    LineThin(s, c, x1, y1, x2, y2);
    return;
  }
  const int end_x = s.width() - 1, end_y = s.height() - 1;
  const int extra_width = 1 - (width % 2);
  width /= 2;
  const bool xinc = std::abs(x1 - x2) <= std::abs(y1 - y2);
  {  // clip_line: reject lines whose (widened) bounding box misses.
    int left, right, top, bottom;
    if (xinc) {
      left = std::min(x1, x2) - width;
      right = std::max(x1, x2) + width;
      top = std::min(y1, y2);
      bottom = std::max(y1, y2);
    } else {
      left = std::min(x1, x2);
      right = std::max(x1, x2);
      top = std::min(y1, y2) - width;
      bottom = std::max(y1, y2) + width;
    }
    if (0 > right || 0 > bottom || s.width() <= left || s.height() <= top) {
      return;
    }
  }
  if (x1 == x2 && y1 == y2) {
    const int start = std::max(x1 - width + extra_width, 0);
    const int end = std::min(end_x, x1 + width);
    if (start <= end) HorzLine(s, c, start, y1, end);
    return;
  }
  const int dx = std::abs(x2 - x1), dy = std::abs(y2 - y1);
  const int sx = x2 > x1 ? 1 : -1, sy = y2 > y1 ? 1 : -1;
  int err = (dx > dy ? dx : -dy) / 2;
  if (xinc) {
    while (y1 != y2 + sy) {
      if (0 <= y1 && y1 <= end_y) {
        const int start = std::max(x1 - width + extra_width, 0);
        const int end = std::min(end_x, x1 + width);
        if (start <= end) HorzLine(s, c, start, y1, end);
      }
      const int e2 = err;
      if (e2 > -dx) {
        err -= dy;
        x1 += sx;
      }
      if (e2 < dy) {
        err += dx;
        y1 += sy;
      }
    }
  } else {
    while (x1 != x2 + sx) {
      if (0 <= x1 && x1 <= end_x) {
        const int start = std::max(y1 - width + extra_width, 0);
        const int end = std::min(end_y, y1 + width);
        if (start <= end) VertLine(s, c, start, x1, end);
      }
      const int e2 = err;
      if (e2 > -dx) {
        err -= dy;
        x1 += sx;
      }
      if (e2 < dy) {
        err += dx;
        y1 += sy;
      }
    }
  }
}

// draw.c draw_filltri: the 3-point case of draw.polygon.
inline void FillTri(Surface& s, Color c, const int32_t* xs, const int32_t* ys) {
  int32_t p0x = xs[0], p1x = xs[1], p2x = xs[2];
  int32_t p0y = ys[0], p1y = ys[1], p2y = ys[2];
  if (p1y < p0y) {
    std::swap(p1x, p0x);
    std::swap(p1y, p0y);
  }
  if (p2y < p1y) {
    std::swap(p1x, p2x);
    std::swap(p1y, p2y);
    if (p1y < p0y) {
      std::swap(p1x, p0x);
      std::swap(p1y, p0y);
    }
  }
  if (p0y == p1y && p1y == p2y && p0x == p1x && p1x != p2x) {
    std::swap(p1x, p2x);
    std::swap(p1y, p2y);
  }
  // float d = (float)((px - qx) / ((py - qy) + 1e-17)): int / double.
  const float d1 =
      static_cast<float>(static_cast<double>(Sub(p2x, p0x)) /
                         (static_cast<double>(Sub(p2y, p0y)) + 1e-17));
  const float d2 =
      static_cast<float>(static_cast<double>(Sub(p1x, p0x)) /
                         (static_cast<double>(Sub(p1y, p0y)) + 1e-17));
  const float d3 =
      static_cast<float>(static_cast<double>(Sub(p2x, p1x)) /
                         (static_cast<double>(Sub(p2y, p1y)) + 1e-17));
  // Rows outside the surface draw nothing: visit only the visible ones.
  const int64_t y_lo = std::max<int64_t>(p0y, 0);
  const int64_t y_hi = std::min<int64_t>(p2y, s.height() - 1);
  for (int64_t yy = y_lo; yy <= y_hi; ++yy) {
    const int32_t y = static_cast<int32_t>(yy);
    const int32_t x1 = Add(p0x, TruncF(static_cast<float>(Sub(y, p0y)) * d1));
    int32_t x2;
    if (y < p1y) {
      x2 = Add(p0x, TruncF(static_cast<float>(Sub(y, p0y)) * d2));
    } else {
      x2 = Add(p1x, TruncF(static_cast<float>(Sub(y, p1y)) * d3));
    }
    HorzLineClip(s, c, x1, y, x2);
  }
}

// draw.c draw_fillpoly: scanline fill of draw.polygon (4+ points).
inline void FillPoly(Surface& s, Color c, const int32_t* px, const int32_t* py,
                     int n) {
  int32_t miny = py[0], maxy = py[0];
  for (int i = 1; i < n; ++i) {
    miny = std::min(miny, py[i]);
    maxy = std::max(maxy, py[i]);
  }
  if (miny == maxy) {  // a polygon one pixel high
    int32_t minx = px[0], maxx = px[0];
    for (int i = 1; i < n; ++i) {
      minx = std::min(minx, px[i]);
      maxx = std::max(maxx, px[i]);
    }
    HorzLineClip(s, c, minx, miny, maxx);
    return;
  }
  IntScratch scratch(static_cast<std::size_t>(n));
  IntScratch sort_tmp(static_cast<std::size_t>(n));
  int32_t* xs = scratch.data();
  const int64_t y_lo = std::max<int64_t>(miny, 0);
  const int64_t y_hi = std::min<int64_t>(maxy, s.height() - 1);
  for (int64_t yy = y_lo; yy <= y_hi; ++yy) {
    const int32_t y = static_cast<int32_t>(yy);
    int count = 0;
    for (int i = 0; i < n; ++i) {
      const int prev = i ? i - 1 : n - 1;
      int32_t y1 = py[prev], y2 = py[i], x1, x2;
      if (y1 < y2) {
        x1 = px[prev];
        x2 = px[i];
      } else if (y1 > y2) {
        y2 = py[prev];
        y1 = py[i];
        x2 = px[prev];
        x1 = px[i];
      } else {
        continue;
      }
      if ((y >= y1 && y < y2) || (y == maxy && y2 == maxy)) {
        // intersect = (y - y1) * (x2 - x1) / (float)(y2 - y1);
        float intersect = static_cast<float>(Mul(Sub(y, y1), Sub(x2, x1))) /
                          static_cast<float>(Sub(y2, y1));
        intersect = static_cast<float>(
            count % 2 == 0 ? std::floor(static_cast<double>(intersect))
                           : std::ceil(static_cast<double>(intersect)));
        xs[count++] = Add(TruncF(intersect), x1);
      }
    }
    QsortInts(xs, count, sort_tmp.data());
    for (int i = 0; i + 1 < count; i += 2) {
      HorzLineClip(s, c, xs[i], y, xs[i + 1]);
    }
  }
  // Horizontal edges strictly between miny and maxy.
  for (int i = 0; i < n; ++i) {
    const int prev = i ? i - 1 : n - 1;
    const int32_t y = py[i];
    if (miny < y && py[prev] == y && y < maxy) {
      HorzLineClip(s, c, px[i], y, px[prev]);
    }
  }
}

// draw.c draw_aaline: Xiaolin Wu line in float32, with the endpoint controls
// that draw.aalines uses.
inline void Aaline(Surface& s, Color c, float from_x, float from_y, float to_x,
                   float to_y, bool disable_first_endpoint,
                   bool disable_second_endpoint, bool extra_pixel) {
  float dx = to_x - from_x;
  float dy = to_y - from_y;
  if (std::fabs(static_cast<double>(dx)) < 0.0001 &&
      std::fabs(static_cast<double>(dy)) < 0.0001) {
    const int x = TruncD(std::floor(static_cast<double>(from_x) + 0.5));
    const int y = TruncD(std::floor(static_cast<double>(from_y) + 0.5));
    AaBlend(s, x, y, c, 1);
    return;
  }
  // One pixel wider than the surface on every side.
  float clip_left = 0.0f - 1.0f;
  float clip_right = clip_left + static_cast<float>(s.width()) + 1.0f;
  float clip_top = 0.0f - 1.0f;
  float clip_bottom = clip_top + static_cast<float>(s.height()) + 1.0f;

  const bool steep = std::fabs(dx) < std::fabs(dy);
  if (steep) {
    std::swap(from_x, from_y);
    std::swap(to_x, to_y);
    std::swap(dx, dy);
    std::swap(clip_left, clip_top);
    std::swap(clip_right, clip_bottom);
  }
  if (dx < 0) {
    std::swap(from_x, to_x);
    std::swap(from_y, to_y);
    dx = -dx;
    dy = -dy;
  }
  if (to_x <= clip_left || from_x >= clip_right) return;

  const float gradient = dy / dx;
  if (from_x < clip_left) {
    from_y += gradient * (clip_left - from_x);
    from_x = clip_left;
  }
  if (to_x > clip_right) {
    to_y += gradient * (clip_right - to_x);
    to_x = clip_right;
  }
  if (gradient > 0.0f) {
    if (to_y <= clip_top || from_y >= clip_bottom) return;
    if (from_y < clip_top) {
      from_x += (clip_top - from_y) / gradient;
      from_y = clip_top;
    }
    if (to_y > clip_bottom) {
      to_x += (clip_bottom - to_y) / gradient;
      to_y = clip_bottom;
    }
  } else {
    if (from_y <= clip_top || to_y >= clip_bottom) return;
    if (to_y < clip_top) {
      to_x += (clip_top - to_y) / gradient;
      to_y = clip_top;
    }
    if (from_y > clip_bottom) {
      from_x += (clip_bottom - from_y) / gradient;
      from_y = clip_bottom;
    }
  }
  // Shifted one pixel down so that (int) rounds down; drawn one higher.
  from_y += 1.0f;
  to_y += 1.0f;

  // Plots (major, minor) of the un-swapped line.
  auto plot = [&](int major, int minor, float brightness) {
    if (steep) {
      AaBlend(s, minor, major, c, brightness);
    } else {
      AaBlend(s, major, minor, c, brightness);
    }
  };
  // One endpoint: the pixel pair around y_endpoint, weighted by x_gap.
  auto endpoint = [&](int x_pixel, float y_endpoint, float x_gap) {
    float brightness = y_endpoint - static_cast<float>(TruncF(y_endpoint));
    const int minor = TruncF(y_endpoint);
    if (static_cast<float>(TruncF(y_endpoint)) < y_endpoint) {
      plot(x_pixel, minor, brightness * x_gap);
    }
    brightness = 1 - brightness;
    plot(x_pixel, minor - 1, brightness * x_gap);
  };

  int x_pixel_start = 0;
  float intersect_y = 0;
  if (!disable_first_endpoint || extra_pixel) {
    x_pixel_start = TruncF(from_x);
    const float y_endpoint =
        from_y + gradient * (static_cast<float>(x_pixel_start) - from_x);
    intersect_y = y_endpoint;
    if (to_x > clip_left + 1.0f) {
      // x_gap = 1 + x_pixel_start - from_x: (int + int) then - float.
      const float x_gap = static_cast<float>(1 + x_pixel_start) - from_x;
      endpoint(x_pixel_start, y_endpoint, x_gap);
      intersect_y += gradient;
      x_pixel_start++;
    }
  }
  if (disable_first_endpoint) {
    x_pixel_start = TruncD(std::ceil(static_cast<double>(from_x)));
    intersect_y =
        from_y + gradient * (static_cast<float>(x_pixel_start) - from_x);
  }
  const int x_pixel_end = TruncD(std::ceil(static_cast<double>(to_x)));
  if (!disable_second_endpoint || extra_pixel) {
    if (from_x < clip_right - 1.0f) {
      const float y_endpoint =
          to_y + gradient * (static_cast<float>(x_pixel_end) - to_x);
      // x_gap = 1 - x_pixel_end + to_x: (int - int) then + float.
      const float x_gap = static_cast<float>(1 - x_pixel_end) + to_x;
      endpoint(x_pixel_end, y_endpoint, x_gap);
    }
  }
  for (int x = x_pixel_start; x < x_pixel_end; ++x) {
    const int y = TruncF(intersect_y);
    float brightness = 1 - intersect_y + static_cast<float>(y);
    plot(x, y - 1, brightness);
    if (static_cast<float>(y) < intersect_y) {
      brightness = 1 - brightness;
      plot(x, y, brightness);
    }
    intersect_y += gradient;
  }
}

// ---- draw.c circles ----

// draw_circle_filled (width 0, or width == radius).
inline void CircleFilled(Surface& s, Color c, int x0, int y0, int radius) {
  int f = 1 - radius;
  int ddF_x = 0;
  int ddF_y = -2 * radius;
  int x = 0;
  int y = radius;
  const int xmax = x0 < 0 ? x0 + INT32_MAX + 1 : INT32_MAX - x0;
  while (x < y) {
    if (f >= 0) {
      y--;
      ddF_y += 2;
      f += ddF_y;
    }
    x++;
    ddF_x += 2;
    f += ddF_x + 1;
    if (f >= 0) {
      HorzLineClip(s, c, x0 - x, y0 + y - 1, x0 + std::min(x - 1, xmax));
      HorzLineClip(s, c, x0 - x, y0 - y, x0 + std::min(x - 1, xmax));
    }
    HorzLineClip(s, c, x0 - y, y0 + x - 1, x0 + std::min(y - 1, xmax));
    HorzLineClip(s, c, x0 - y, y0 - x, x0 + std::min(y - 1, xmax));
  }
}

// draw_circle_bresenham_thin (width 1).
inline void CircleThin(Surface& s, Color c, int x0, int y0, int radius) {
  int f = 1 - radius;
  int ddF_x = 0;
  int ddF_y = -2 * radius;
  int x = 0;
  int y = radius;
  while (x < y) {
    if (f >= 0) {
      y--;
      ddF_y += 2;
      f += ddF_y;
    }
    x++;
    ddF_x += 2;
    f += ddF_x + 1;
    s.Set(x0 + x - 1, y0 + y - 1, c);
    s.Set(x0 - x, y0 + y - 1, c);
    s.Set(x0 + x - 1, y0 - y, c);
    s.Set(x0 - x, y0 - y, c);
    s.Set(x0 + y - 1, y0 + x - 1, c);
    s.Set(x0 + y - 1, y0 - x, c);
    s.Set(x0 - y, y0 + x - 1, c);
    s.Set(x0 - y, y0 - x, c);
  }
}

// draw_circle_bresenham (1 < width < radius): midpoint ellipse loops over
// the outer and the inner circle.
inline void CircleRing(Surface& s, Color c, int x0, int y0, int radius,
                       int thickness) {
  using ll = long long;
  ll x = 0;
  ll y = radius;
  const ll radius_squared = Mul(radius, radius);  // int * int in C
  const ll double_radius_squared = 2 * radius_squared;
  double d1 = static_cast<double>(radius_squared) * (1.25 - radius);
  ll dx = 0;
  ll dy = double_radius_squared * y;

  bool line = true;
  const ll radius_inner = radius - thickness + 1;
  ll x_inner = 0;
  ll y_inner = radius_inner;
  const ll radius_inner_squared = radius_inner * radius_inner;
  const ll double_radius_inner_squared = 2 * radius_inner_squared;
  double d1_inner =
      static_cast<double>(radius_inner_squared) * (1.25 - radius_inner);
  double d2_inner = 0;
  ll dx_inner = 0;
  ll dy_inner = double_radius_inner_squared * y_inner;

  auto rows = [&]() {
    const int xi = static_cast<int>(x), yi = static_cast<int>(y);
    const int xin = static_cast<int>(x_inner);
    if (line) {
      HorzLineClip(s, c, x0 - xi, y0 - yi, x0 + xi - 1);
      HorzLineClip(s, c, x0 - xi, y0 + yi - 1, x0 + xi - 1);
    } else {
      HorzLineClip(s, c, x0 - xi, y0 - yi, x0 - xin);
      HorzLineClip(s, c, x0 - xi, y0 + yi - 1, x0 - xin);
      HorzLineClip(s, c, x0 + xin - 1, y0 - yi, x0 + xi - 1);
      HorzLineClip(s, c, x0 + xin - 1, y0 + yi - 1, x0 + xi - 1);
    }
  };
  auto inner_step1 = [&]() {
    while (d1_inner < 0) {
      x_inner += 1;
      dx_inner += double_radius_inner_squared;
      d1_inner += static_cast<double>(dx_inner + radius_inner_squared);
    }
    x_inner++;
    y_inner--;
    dx_inner += double_radius_inner_squared;
    dy_inner -= double_radius_inner_squared;
    d1_inner += static_cast<double>(dx_inner - dy_inner + radius_inner_squared);
  };

  while (dx < dy) {
    while (d1 < 0) {
      x++;
      dx += double_radius_squared;
      d1 += static_cast<double>(dx + radius_squared);
    }
    rows();
    x++;
    y--;
    dx += double_radius_squared;
    dy -= double_radius_squared;
    d1 += static_cast<double>(dx - dy + radius_squared);
    if (line && y < radius_inner) line = false;
    if (!line) inner_step1();
  }
  d1 = static_cast<double>(radius_squared) *
       ((static_cast<double>(x) + 0.5) * (static_cast<double>(x) + 0.5) +
        static_cast<double>((y - 1) * (y - 1)) -
        static_cast<double>(radius_squared));
  while (y >= 0) {
    rows();
    if (d1 > 0) {
      y--;
      dy -= double_radius_squared;
      d1 += static_cast<double>(radius_squared - dy);
    } else {
      y--;
      x++;
      dx += double_radius_squared;
      dy -= double_radius_squared;
      d1 += static_cast<double>(dx - dy + radius_squared);
    }
    if (line && y < radius_inner) line = false;
    if (!line) {
      if (dx_inner < dy_inner) {
        inner_step1();
      } else {
        if (!d2_inner) {
          d2_inner = static_cast<double>(radius_inner_squared) *
                     ((static_cast<double>(x_inner) + 0.5) *
                          (static_cast<double>(x_inner) + 0.5) +
                      static_cast<double>((y_inner - 1) * (y_inner - 1)) -
                      static_cast<double>(radius_inner_squared));
        }
        if (d2_inner > 0) {
          y_inner--;
          dy_inner -= double_radius_inner_squared;
          d2_inner += static_cast<double>(radius_inner_squared - dy_inner);
        } else {
          y_inner--;
          x_inner++;
          dx_inner += double_radius_inner_squared;
          dy_inner -= double_radius_inner_squared;
          d2_inner +=
              static_cast<double>(dx_inner - dy_inner + radius_inner_squared);
        }
      }
    }
  }
}

// ---- SDL_gfx (SDL_gfxPrimitives.c), on Sint16 coordinates ----

// _putPixelAlpha for a 32-bit XRGB surface (DEFAULT_ALPHA_PIXEL_ROUTINE):
// per channel, dst + (((src - dst) in Uint32 >> shift) * alpha >> 8), masked.
// The wrap-around of the Uint32 difference and the mask make that
// dst + floor((src - dst) * alpha / 256) in plain ints (an arithmetic shift;
// checked for every src, dst and alpha).
inline void GfxPutPixelAlpha(Surface& s, int x, int y, Color c,
                             uint32_t alpha) {
  if (!s.Contains(x, y)) return;
  uint8_t* p = s.Pixel(x, y);
  if (alpha == 255) {
    StoreRgb(p, c);
    return;
  }
  const int a = static_cast<int>(alpha);
  p[0] = static_cast<uint8_t>(p[0] + (((c.r - p[0]) * a) >> 8));
  p[1] = static_cast<uint8_t>(p[1] + (((c.g - p[1]) * a) >> 8));
  p[2] = static_cast<uint8_t>(p[2] + (((c.b - p[2]) * a) >> 8));
}

// pixelColorWeightNolock: alpha = (255 * weight) >> 8.
inline void GfxPixelWeight(Surface& s, int16_t x, int16_t y, Color c,
                           uint32_t weight) {
  GfxPutPixelAlpha(s, x, y, c, ((255u * weight) >> 8) & 0xffu);
}

// hlineColor / vlineColor with an opaque color: clipped fill.
inline void GfxHLine(Surface& s, int16_t x1, int16_t x2, int16_t y, Color c) {
  if (x1 > x2) std::swap(x1, x2);
  const int left = 0, right = s.width() - 1;
  if (x2 < left || x1 > right || y < 0 || y > s.height() - 1) return;
  HorzLine(s, c, std::max<int>(x1, left), y, std::min<int>(x2, right));
}
inline void GfxVLine(Surface& s, int16_t x, int16_t y1, int16_t y2, Color c) {
  if (y1 > y2) std::swap(y1, y2);
  const int top = 0, bottom = s.height() - 1;
  if (x < 0 || x > s.width() - 1 || y2 < top || y1 > bottom) return;
  VertLine(s, c, std::max<int>(y1, top), x, std::min<int>(y2, bottom));
}

// _clipLine (Cohen-Sutherland in Sint16 with a float32 slope).
inline bool GfxClipLine(const Surface& s, int16_t& x1, int16_t& y1, int16_t& x2,
                        int16_t& y2) {
  const int16_t left = 0;
  const auto right = static_cast<int16_t>(s.width() - 1);
  const int16_t top = 0;
  const auto bottom = static_cast<int16_t>(s.height() - 1);
  enum { kLeft = 1, kRight = 2, kBottom = 4, kTop = 8 };
  auto encode = [&](int16_t x, int16_t y) {
    int code = 0;
    if (x < left) {
      code |= kLeft;
    } else if (x > right) {
      code |= kRight;
    }
    if (y < top) {
      code |= kTop;
    } else if (y > bottom) {
      code |= kBottom;
    }
    return code;
  };
  // Upstream loops until accepted or rejected; each pass moves one endpoint
  // onto an edge, so a handful of passes always suffice.
  for (int pass = 0; pass < 64; ++pass) {
    int code1 = encode(x1, y1);
    int code2 = encode(x2, y2);
    if (!(code1 | code2)) return true;
    if (code1 & code2) return false;
    if (!code1) {
      std::swap(x1, x2);
      std::swap(y1, y2);
      std::swap(code1, code2);
    }
    float m = 1.0f;
    if (x2 != x1) {
      m = static_cast<float>(y2 - y1) / static_cast<float>(x2 - x1);
    }
    if (code1 & kLeft) {
      y1 = static_cast<int16_t>(y1 +
                                FloatToS16(static_cast<float>(left - x1) * m));
      x1 = left;
    } else if (code1 & kRight) {
      y1 = static_cast<int16_t>(y1 +
                                FloatToS16(static_cast<float>(right - x1) * m));
      x1 = right;
    } else if (code1 & kBottom) {
      if (x2 != x1) {
        x1 = static_cast<int16_t>(
            x1 + FloatToS16(static_cast<float>(bottom - y1) / m));
      }
      y1 = bottom;
    } else if (code1 & kTop) {
      if (x2 != x1) {
        x1 = static_cast<int16_t>(x1 +
                                  FloatToS16(static_cast<float>(top - y1) / m));
      }
      y1 = top;
    }
  }
  return false;
}

// _aalineColor(..., draw_endpoint = 0) with an opaque color: Wu's line with
// 32-bit fixed-point error accumulation (as gfxdraw.aapolygon draws edges).
inline void GfxAalineNoEndpoint(Surface& s, int16_t x1, int16_t y1, int16_t x2,
                                int16_t y2, Color c) {
  if (!GfxClipLine(s, x1, y1, x2, y2)) return;
  int32_t xx0 = x1, yy0 = y1, xx1 = x2, yy1 = y2;
  if (yy0 > yy1) {
    std::swap(yy0, yy1);
    std::swap(xx0, xx1);
  }
  int dx = xx1 - xx0;
  int dy = yy1 - yy0;
  if (dx == 0) {
    if (dy > 0) {
      GfxVLine(s, x1, static_cast<int16_t>(yy0), static_cast<int16_t>(yy0 + dy),
               c);
    } else {
      GfxPutPixelAlpha(s, x1, y1, c, 255);
    }
    return;
  }
  if (dy == 0) {
    GfxHLine(s, static_cast<int16_t>(xx0), static_cast<int16_t>(xx0 + dx), y1,
             c);
    return;
  }
  int xdir = 1;
  if (dx < 0) {
    xdir = -1;
    dx = -dx;
  }
  uint32_t erracc = 0;
  GfxPutPixelAlpha(s, x1, y1, c, 255);  // the initial pixel, unweighted
  if (dy > dx) {                        // y-major
    const uint32_t erradj = static_cast<uint32_t>((dx << 16) / dy) << 16;
    int x0pxdir = xx0 + xdir;
    while (--dy) {
      const uint32_t erracctmp = erracc;
      erracc += erradj;
      if (erracc <= erracctmp) {
        xx0 = x0pxdir;
        x0pxdir += xdir;
      }
      yy0++;
      const uint32_t wgt = (erracc >> 24) & 255;
      GfxPixelWeight(s, static_cast<int16_t>(xx0), static_cast<int16_t>(yy0), c,
                     255 - wgt);
      GfxPixelWeight(s, static_cast<int16_t>(x0pxdir),
                     static_cast<int16_t>(yy0), c, wgt);
    }
  } else {  // x-major (and diagonal)
    const uint32_t erradj = static_cast<uint32_t>((dy << 16) / dx) << 16;
    int y0p1 = yy0 + 1;
    while (--dx) {
      const uint32_t erracctmp = erracc;
      erracc += erradj;
      if (erracc <= erracctmp) {
        yy0 = y0p1;
        y0p1++;
      }
      xx0 += xdir;
      const uint32_t wgt = (erracc >> 24) & 255;
      GfxPixelWeight(s, static_cast<int16_t>(xx0), static_cast<int16_t>(yy0), c,
                     255 - wgt);
      GfxPixelWeight(s, static_cast<int16_t>(xx0), static_cast<int16_t>(y0p1),
                     c, wgt);
    }
  }
}

// ---- transform.c smoothscale, SSE2 backend (simd_transform_sse2.c) ----
// pygame picks the SSE2 filters on every x86-64 CPU
// (transform.get_smoothscale_backend() == "SSE2"). Channels are independent
// 16-bit lanes; _mm_mulhi_epu16(a, b) = (a * b) >> 16, _mm_packus_epi16
// saturates the signed 16-bit lane to 0..255. Buffers are 3 bytes per pixel
// here (the X byte never reaches an RGB byte).

inline uint16_t MulHi(uint16_t a, uint16_t b) {
  return static_cast<uint16_t>((static_cast<uint32_t>(a) * b) >> 16);
}
inline uint8_t PackUs(uint16_t v) {
  const auto sv = static_cast<int16_t>(v);
  return static_cast<uint8_t>(sv < 0 ? 0 : (sv > 255 ? 255 : sv));
}

// filter_shrink_X_SSE2: area averaging along rows. pygame walks each row
// pixel by pixel with a 14-bit counter; which pixels close an output pixel
// (and with which weights) is the same for every row, so ShrinkXPlan works
// it out once per (src_w, dst_w) and the row loop only adds.
struct ShrinkXPlan {
  int src_w = -1, dst_w = -1;
  uint16_t xrecip = 0;
  int outputs = 0;  // output pixels pygame writes (at most dst_w)
  int max_count = 0;
  // Output j: the average of pixels first[j] .. edge[j] - 1 in full, plus
  // MulHi(4 * pixel edge[j], mc[j]) and the previous edge's remainder,
  // MulHi(4 * pixel edge[j - 1], mf[j - 1]).
  std::vector<int> first, edge;
  std::vector<uint16_t> mc, mf;
  // Per source pixel: kFull (added whole), kEdge (closes an output pixel),
  // kUnused (after the last output pixel).
  enum : uint8_t { kFull, kEdge, kUnused };
  std::vector<uint8_t> kind;

  void Build(int sw, int dw) {
    src_w = sw;
    dst_w = dw;
    const int xspace = 0x04000 * sw / dw;
    xrecip = static_cast<uint16_t>(0x40000000 / xspace);
    first.clear();
    edge.clear();
    mc.clear();
    mf.clear();
    max_count = 0;
    int xcounter = xspace;
    int start = 0;
    for (int x = 0; x < sw; ++x) {
      if (xcounter > 0x04000) {
        xcounter -= 0x04000;
      } else {
        const int xfrac = 0x04000 - xcounter;
        if (static_cast<int>(edge.size()) < dw) {
          first.push_back(start);
          edge.push_back(x);
          mc.push_back(static_cast<uint16_t>(xcounter));
          mf.push_back(static_cast<uint16_t>(xfrac));
          max_count = std::max(max_count, x - start);
        }
        start = x + 1;
        xcounter = xspace - xfrac;
      }
    }
    outputs = static_cast<int>(edge.size());
    kind.assign(sw, kUnused);
    for (int j = 0; j < outputs; ++j) {
      for (int x = first[j]; x < edge[j]; ++x) kind[x] = kFull;
      kind[edge[j]] = kEdge;
    }
  }
};

#if defined(__SSE2__)
// Byte masks that keep channel c of the first n pixels of a 32-byte load.
struct ChannelMasks {
  alignas(16) uint8_t m[11][3][32];
  ChannelMasks() {
    for (int n = 0; n <= 10; ++n)
      for (int c = 0; c < 3; ++c)
        for (int i = 0; i < 32; ++i)
          m[n][c][i] = (i < 3 * n && i % 3 == c) ? 0xff : 0;
  }
};

// The per-channel sums of n <= 10 consecutive RGB pixels at p (32 bytes
// readable), as three uint16 lanes of a uint64.
inline uint64_t SumPixels(const uint8_t* p, int n) {
  static const ChannelMasks masks;
  const auto* m = masks.m[n];
  const __m128i v0 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
  const __m128i v1 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16));
  const __m128i zero = _mm_setzero_si128();
  auto channel = [&](int c) {
    const __m128i lo = _mm_and_si128(
        v0, _mm_load_si128(reinterpret_cast<const __m128i*>(m[c])));
    const __m128i hi = _mm_and_si128(
        v1, _mm_load_si128(reinterpret_cast<const __m128i*>(m[c] + 16)));
    return _mm_add_epi64(_mm_sad_epu8(lo, zero), _mm_sad_epu8(hi, zero));
  };
  __m128i t = _mm_add_epi64(channel(0), _mm_slli_epi64(channel(1), 16));
  t = _mm_add_epi64(t, _mm_slli_epi64(channel(2), 32));
  t = _mm_add_epi64(t, _mm_srli_si128(t, 8));
  return static_cast<uint64_t>(_mm_cvtsi128_si64(t));
}
#endif

#if defined(__SSE2__)
// 16 rows of 16 bytes in, 16 vectors out: out[k] holds byte k of every row
// (row i in lane i).
inline void Transpose16(const __m128i in[16], __m128i out[16]) {
  __m128i a[16], b[16];
  // Pairs of rows: lane 2m + s of a[i] / a[i + 8] = byte m (0-7 / 8-15) of
  // row 2i + s.
  for (int i = 0; i < 8; ++i) {
    a[i] = _mm_unpacklo_epi8(in[2 * i], in[2 * i + 1]);
    a[i + 8] = _mm_unpackhi_epi8(in[2 * i], in[2 * i + 1]);
  }
  // Quads of rows (16-bit units are row pairs).
  for (int h = 0; h < 2; ++h)
    for (int i = 0; i < 4; ++i) {
      b[8 * h + i] = _mm_unpacklo_epi16(a[8 * h + 2 * i], a[8 * h + 2 * i + 1]);
      b[8 * h + 4 + i] =
          _mm_unpackhi_epi16(a[8 * h + 2 * i], a[8 * h + 2 * i + 1]);
    }
  // Octets of rows.
  for (int h = 0; h < 4; ++h)
    for (int i = 0; i < 2; ++i) {
      a[4 * h + i] = _mm_unpacklo_epi32(b[4 * h + 2 * i], b[4 * h + 2 * i + 1]);
      a[4 * h + 2 + i] =
          _mm_unpackhi_epi32(b[4 * h + 2 * i], b[4 * h + 2 * i + 1]);
    }
  // All 16 rows.
  for (int h = 0; h < 8; ++h) {
    out[2 * h] = _mm_unpacklo_epi64(a[2 * h], a[2 * h + 1]);
    out[2 * h + 1] = _mm_unpackhi_epi64(a[2 * h], a[2 * h + 1]);
  }
}

// ShrinkX on rows y0 .. y0 + 15 at once: 16 pixels at a time are loaded
// from the 16 rows and transposed, so that each channel of a source pixel
// is one vector of 16 rows (two of uint16) and pygame's per-pixel
// arithmetic runs on 16 rows per instruction. Output (j, c) of the 16 rows
// goes to cols[(3 * j + c) * 16 ...].
template <typename RowFn>
inline void ShrinkX16(RowFn src_row, int y0, const ShrinkXPlan& plan,
                      uint8_t* cols) {
  const uint8_t* rows[16];
  for (int i = 0; i < 16; ++i) rows[i] = src_row(y0 + i);
  const __m128i zero = _mm_setzero_si128();
  const __m128i xrecip = _mm_set1_epi16(static_cast<int16_t>(plan.xrecip));
  __m128i acc_lo[3] = {zero, zero, zero}, acc_hi[3] = {zero, zero, zero};
  const uint8_t* kind = plan.kind.data();
  const int src_w = plan.src_w;
  int j = 0;
  for (int x0 = 0; x0 < src_w && j < plan.outputs; x0 += 16) {
    __m128i in[16], t[48];
    for (int part = 0; part < 3; ++part) {
      for (int i = 0; i < 16; ++i) {
        in[i] = _mm_loadu_si128(
            reinterpret_cast<const __m128i*>(rows[i] + x0 * 3 + part * 16));
      }
      Transpose16(in, t + part * 16);
    }
    const int n = std::min(16, src_w - x0);
    for (int p = 0; p < n; ++p) {
      const uint8_t k = kind[x0 + p];
      if (k == ShrinkXPlan::kUnused) break;
      for (int c = 0; c < 3; ++c) {
        const __m128i v = t[3 * p + c];
        const __m128i lo = _mm_unpacklo_epi8(v, zero);
        const __m128i hi = _mm_unpackhi_epi8(v, zero);
        if (k == ShrinkXPlan::kFull) {
          acc_lo[c] = _mm_add_epi16(acc_lo[c], lo);
          acc_hi[c] = _mm_add_epi16(acc_hi[c], hi);
          continue;
        }
        const __m128i mc = _mm_set1_epi16(static_cast<int16_t>(plan.mc[j]));
        const __m128i mf = _mm_set1_epi16(static_cast<int16_t>(plan.mf[j]));
        const __m128i lo4 = _mm_slli_epi16(lo, 2), hi4 = _mm_slli_epi16(hi, 2);
        const __m128i d_lo = _mm_add_epi16(_mm_mulhi_epu16(lo4, mc), acc_lo[c]);
        const __m128i d_hi = _mm_add_epi16(_mm_mulhi_epu16(hi4, mc), acc_hi[c]);
        acc_lo[c] = _mm_mulhi_epu16(lo4, mf);
        acc_hi[c] = _mm_mulhi_epu16(hi4, mf);
        const __m128i out = _mm_packus_epi16(_mm_mulhi_epu16(d_lo, xrecip),
                                             _mm_mulhi_epu16(d_hi, xrecip));
        _mm_storeu_si128(reinterpret_cast<__m128i*>(cols + (3 * j + c) * 16),
                         out);
      }
      if (k == ShrinkXPlan::kEdge) ++j;
    }
  }
}
#endif

#if defined(ENVPOOL_LITE_AVX2_DISPATCH)
// Transpose16 on both 128-bit halves at once.
__attribute__((target("avx2"))) inline void Transpose16x2(const __m256i in[16],
                                                          __m256i out[16]) {
  __m256i a[16], b[16];
  for (int i = 0; i < 8; ++i) {
    a[i] = _mm256_unpacklo_epi8(in[2 * i], in[2 * i + 1]);
    a[i + 8] = _mm256_unpackhi_epi8(in[2 * i], in[2 * i + 1]);
  }
  for (int h = 0; h < 2; ++h)
    for (int i = 0; i < 4; ++i) {
      b[8 * h + i] =
          _mm256_unpacklo_epi16(a[8 * h + 2 * i], a[8 * h + 2 * i + 1]);
      b[8 * h + 4 + i] =
          _mm256_unpackhi_epi16(a[8 * h + 2 * i], a[8 * h + 2 * i + 1]);
    }
  for (int h = 0; h < 4; ++h)
    for (int i = 0; i < 2; ++i) {
      a[4 * h + i] =
          _mm256_unpacklo_epi32(b[4 * h + 2 * i], b[4 * h + 2 * i + 1]);
      a[4 * h + 2 + i] =
          _mm256_unpackhi_epi32(b[4 * h + 2 * i], b[4 * h + 2 * i + 1]);
    }
  for (int h = 0; h < 8; ++h) {
    out[2 * h] = _mm256_unpacklo_epi64(a[2 * h], a[2 * h + 1]);
    out[2 * h + 1] = _mm256_unpackhi_epi64(a[2 * h], a[2 * h + 1]);
  }
}

// ShrinkX16 on 32 rows (rows y0 + i and y0 + 16 + i share a 256-bit
// register, one per 128-bit half), then straight back to the 32 rows of dst.
template <typename RowFn>
__attribute__((target("avx2"))) inline void ShrinkX32(RowFn src_row, int y0,
                                                      const ShrinkXPlan& plan,
                                                      uint8_t* cols,
                                                      uint8_t* dst,
                                                      std::size_t pitch) {
  const uint8_t* rows[32];
  for (int i = 0; i < 32; ++i) rows[i] = src_row(y0 + i);
  const __m256i zero = _mm256_setzero_si256();
  const __m256i xrecip = _mm256_set1_epi16(static_cast<int16_t>(plan.xrecip));
  __m256i acc_lo[3] = {zero, zero, zero}, acc_hi[3] = {zero, zero, zero};
  const uint8_t* kind = plan.kind.data();
  const int src_w = plan.src_w;
  int j = 0;
  for (int x0 = 0; x0 < src_w && j < plan.outputs; x0 += 16) {
    __m256i in[16], t[48];
    for (int part = 0; part < 3; ++part) {
      const int offset = x0 * 3 + part * 16;
      for (int i = 0; i < 16; ++i) {
        in[i] = _mm256_inserti128_si256(
            _mm256_castsi128_si256(_mm_loadu_si128(
                reinterpret_cast<const __m128i*>(rows[i] + offset))),
            _mm_loadu_si128(
                reinterpret_cast<const __m128i*>(rows[i + 16] + offset)),
            1);
      }
      Transpose16x2(in, t + part * 16);
    }
    const int n = std::min(16, src_w - x0);
    for (int p = 0; p < n; ++p) {
      const uint8_t k = kind[x0 + p];
      if (k == ShrinkXPlan::kUnused) break;
      for (int c = 0; c < 3; ++c) {
        const __m256i v = t[3 * p + c];
        const __m256i lo = _mm256_unpacklo_epi8(v, zero);
        const __m256i hi = _mm256_unpackhi_epi8(v, zero);
        if (k == ShrinkXPlan::kFull) {
          acc_lo[c] = _mm256_add_epi16(acc_lo[c], lo);
          acc_hi[c] = _mm256_add_epi16(acc_hi[c], hi);
          continue;
        }
        const __m256i mc = _mm256_set1_epi16(static_cast<int16_t>(plan.mc[j]));
        const __m256i mf = _mm256_set1_epi16(static_cast<int16_t>(plan.mf[j]));
        const __m256i lo4 = _mm256_slli_epi16(lo, 2);
        const __m256i hi4 = _mm256_slli_epi16(hi, 2);
        const __m256i d_lo =
            _mm256_add_epi16(_mm256_mulhi_epu16(lo4, mc), acc_lo[c]);
        const __m256i d_hi =
            _mm256_add_epi16(_mm256_mulhi_epu16(hi4, mc), acc_hi[c]);
        acc_lo[c] = _mm256_mulhi_epu16(lo4, mf);
        acc_hi[c] = _mm256_mulhi_epu16(hi4, mf);
        // Per half: rows 0-7 and 8-15 (16-23 and 24-31) in order.
        const __m256i out = _mm256_packus_epi16(
            _mm256_mulhi_epu16(d_lo, xrecip), _mm256_mulhi_epu16(d_hi, xrecip));
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(cols + (3 * j + c) * 32),
                            out);
      }
      if (k == ShrinkXPlan::kEdge) ++j;
    }
  }
  // cols is (bytes, 32 rows): back to 32 rows of `bytes`.
  const int bytes = plan.outputs * 3;
  int jc = 0;
  for (; jc + 16 <= bytes; jc += 16) {
    __m256i in[16], out[16];
    for (int k = 0; k < 16; ++k) {
      in[k] = _mm256_loadu_si256(
          reinterpret_cast<const __m256i*>(cols + (jc + k) * 32));
    }
    Transpose16x2(in, out);
    for (int i = 0; i < 16; ++i) {
      _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + i * pitch + jc),
                       _mm256_castsi256_si128(out[i]));
      _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + (i + 16) * pitch + jc),
                       _mm256_extracti128_si256(out[i], 1));
    }
  }
  for (; jc < bytes; ++jc) {
    for (int i = 0; i < 32; ++i) dst[i * pitch + jc] = cols[jc * 32 + i];
  }
}

inline bool HasAvx2() {
  static const bool has = __builtin_cpu_supports("avx2") != 0;
  return has;
}
#endif

template <typename RowFn>
inline void ShrinkX(RowFn src_row, int src_w, uint8_t* dst, int dst_w,
                    int height) {
  thread_local ShrinkXPlan plan_cache;
  ShrinkXPlan& plan = plan_cache;
  if (plan.src_w != src_w || plan.dst_w != dst_w) plan.Build(src_w, dst_w);
  const int outputs = plan.outputs;
  const uint16_t xrecip = plan.xrecip;
#if defined(__SSE2__)
  const bool simd = plan.max_count <= 10;
#endif
  int y = 0;
#if defined(__SSE2__)
  thread_local std::vector<uint8_t> cols_buffer;
  cols_buffer.resize(static_cast<std::size_t>(outputs) * 3 * 32);
  uint8_t* cols = cols_buffer.data();
  const int bytes = outputs * 3;
#if defined(ENVPOOL_LITE_AVX2_DISPATCH)
  if (HasAvx2()) {
    const std::size_t pitch = static_cast<std::size_t>(dst_w) * 3;
    for (; y + 32 <= height; y += 32) {
      ShrinkX32(src_row, y, plan, cols, dst + y * pitch, pitch);
    }
  }
#endif
  for (; y + 16 <= height; y += 16) {
    ShrinkX16(src_row, y, plan, cols);
    // cols is (bytes, 16 rows): back to 16 rows of `bytes`.
    uint8_t* dp = dst + static_cast<std::size_t>(y) * dst_w * 3;
    const std::size_t pitch = static_cast<std::size_t>(dst_w) * 3;
    int jc = 0;
    for (; jc + 16 <= bytes; jc += 16) {
      __m128i in[16], out[16];
      for (int k = 0; k < 16; ++k) {
        in[k] = _mm_loadu_si128(
            reinterpret_cast<const __m128i*>(cols + (jc + k) * 16));
      }
      Transpose16(in, out);
      for (int i = 0; i < 16; ++i) {
        _mm_storeu_si128(reinterpret_cast<__m128i*>(dp + i * pitch + jc),
                         out[i]);
      }
    }
    for (; jc < bytes; ++jc) {
      for (int i = 0; i < 16; ++i) dp[i * pitch + jc] = cols[jc * 16 + i];
    }
  }
#endif
  for (; y < height; ++y) {
    const uint8_t* sp = src_row(y);
    uint8_t* dp = dst + static_cast<std::size_t>(y) * dst_w * 3;
    uint16_t tail[3] = {0, 0, 0};
    for (int j = 0; j < outputs; ++j, dp += 3) {
      const int first = plan.first[j];
      const int count = plan.edge[j] - first;
      uint16_t acc[3];
#if defined(__SSE2__)
      if (simd) {
        const uint64_t sums = SumPixels(sp + first * 3, count);
        for (int k = 0; k < 3; ++k) {
          acc[k] = static_cast<uint16_t>(tail[k] + (sums >> (16 * k)));
        }
      } else
#endif
      {
        for (int k = 0; k < 3; ++k) acc[k] = tail[k];
        for (const uint8_t* q = sp + first * 3; q < sp + plan.edge[j] * 3;
             q += 3) {
          for (int k = 0; k < 3; ++k)
            acc[k] = static_cast<uint16_t>(acc[k] + q[k]);
        }
      }
      const uint8_t* e = sp + plan.edge[j] * 3;
      const uint16_t mc = plan.mc[j], mf = plan.mf[j];
      for (int k = 0; k < 3; ++k) {
        const auto s4 = static_cast<uint16_t>(e[k] << 2);
        const auto d = static_cast<uint16_t>(MulHi(s4, mc) + acc[k]);
        tail[k] = MulHi(s4, mf);
        dp[k] = PackUs(MulHi(d, xrecip));
      }
    }
  }
}

// filter_shrink_Y_SSE2: area averaging along columns.
inline void ShrinkY(const uint8_t* src, int width, uint8_t* dst, int src_h,
                    int dst_h, std::vector<uint16_t>& acc) {
  const int yspace = 0x04000 * src_h / dst_h;
  const auto yrecip = static_cast<uint16_t>(0x40000000 / yspace);
  const std::size_t row = static_cast<std::size_t>(width) * 3;
  acc.assign(row, 0);
  int ycounter = yspace;
  int out_y = 0;
  for (int y = 0; y < src_h; ++y) {
    const uint8_t* sp = src + y * row;
    if (ycounter > 0x04000) {
      std::size_t i = 0;
#if defined(__SSE2__)
      const __m128i zero = _mm_setzero_si128();
      for (; i + 16 <= row; i += 16) {
        const __m128i v =
            _mm_loadu_si128(reinterpret_cast<const __m128i*>(sp + i));
        auto* a = reinterpret_cast<__m128i*>(acc.data() + i);
        _mm_storeu_si128(
            a, _mm_add_epi16(_mm_loadu_si128(a), _mm_unpacklo_epi8(v, zero)));
        _mm_storeu_si128(a + 1, _mm_add_epi16(_mm_loadu_si128(a + 1),
                                              _mm_unpackhi_epi8(v, zero)));
      }
#endif
      for (; i < row; ++i) {
        acc[i] = static_cast<uint16_t>(acc[i] + sp[i]);
      }
      ycounter -= 0x04000;
    } else {
      const int yfrac = 0x04000 - ycounter;
      const auto mf = static_cast<uint16_t>(yfrac);
      const auto mc = static_cast<uint16_t>(ycounter);
      uint8_t* dp = out_y < dst_h ? dst + out_y * row : nullptr;
      std::size_t i = 0;
#if defined(__SSE2__)
      if (dp) {
        const __m128i zero = _mm_setzero_si128();
        const __m128i vmf = _mm_set1_epi16(static_cast<int16_t>(mf));
        const __m128i vmc = _mm_set1_epi16(static_cast<int16_t>(mc));
        const __m128i vrecip = _mm_set1_epi16(static_cast<int16_t>(yrecip));
        for (; i + 16 <= row; i += 16) {
          const __m128i v =
              _mm_loadu_si128(reinterpret_cast<const __m128i*>(sp + i));
          auto* a = reinterpret_cast<__m128i*>(acc.data() + i);
          __m128i out[2];
          for (int h = 0; h < 2; ++h) {
            const __m128i s4 = _mm_slli_epi16(
                h ? _mm_unpackhi_epi8(v, zero) : _mm_unpacklo_epi8(v, zero), 2);
            const __m128i d =
                _mm_add_epi16(_mm_mulhi_epu16(s4, vmc), _mm_loadu_si128(a + h));
            _mm_storeu_si128(a + h, _mm_mulhi_epu16(s4, vmf));
            out[h] = _mm_mulhi_epu16(d, vrecip);
          }
          _mm_storeu_si128(reinterpret_cast<__m128i*>(dp + i),
                           _mm_packus_epi16(out[0], out[1]));
        }
      }
#endif
      for (; i < row; ++i) {
        const auto s4 = static_cast<uint16_t>(sp[i] << 2);
        const uint16_t next = MulHi(s4, mf);
        const auto d = static_cast<uint16_t>(MulHi(s4, mc) + acc[i]);
        acc[i] = next;
        if (dp) dp[i] = PackUs(MulHi(d, yrecip));
      }
      ++out_y;
      ycounter = yspace - yfrac;
    }
  }
}

// filter_expand_X_SSE2: linear interpolation with 8-bit weights.
template <typename RowFn>
inline void ExpandX(RowFn src_row, int src_w, uint8_t* dst, int dst_w,
                    int height) {
  for (int x = 0; x < dst_w; ++x) {
    const int xm1 = 0x100 * ((x * (src_w - 1)) % dst_w) / dst_w;
    const int xm0 = 0x100 - xm1;
    const int xidx0 = x * (src_w - 1) / dst_w;
    for (int y = 0; y < height; ++y) {
      const uint8_t* sp = src_row(y) + static_cast<std::size_t>(xidx0) * 3;
      uint8_t* dp = dst + (static_cast<std::size_t>(y) * dst_w + x) * 3;
      for (int k = 0; k < 3; ++k) {
        const int next = xm1 ? sp[k + 3] : 0;  // weight 0: not read
        const auto v = static_cast<uint16_t>(sp[k] * xm0 + next * xm1);
        dp[k] = PackUs(static_cast<uint16_t>(v >> 8));
      }
    }
  }
}

// filter_expand_Y_SSE2.
inline void ExpandY(const uint8_t* src, int width, uint8_t* dst, int src_h,
                    int dst_h) {
  const std::size_t row = static_cast<std::size_t>(width) * 3;
  for (int y = 0; y < dst_h; ++y) {
    const int yidx0 = y * (src_h - 1) / dst_h;
    const int ym1 = 0x0100 * ((y * (src_h - 1)) % dst_h) / dst_h;
    const int ym0 = 0x0100 - ym1;
    const uint8_t* r0 = src + yidx0 * row;
    uint8_t* dp = dst + y * row;
    for (std::size_t i = 0; i < row; ++i) {
      const int next = ym1 ? r0[row + i] : 0;  // weight 0: not read
      const auto v = static_cast<uint16_t>(r0[i] * ym0 + next * ym1);
      dp[i] = PackUs(static_cast<uint16_t>(v >> 8));
    }
  }
}

}  // namespace detail

// ===================== the pygame calls =====================

// surf.fill(color), and pygame.draw.rect(surf, color, surf.get_rect()).
inline void Fill(Surface& s, Color c) {
  if (s.width() == 0 || s.height() == 0) return;
  uint8_t* p = s.bytes();
  const std::size_t row = static_cast<std::size_t>(s.width()) * 3;
  detail::FillPixels(p, s.width(), c);
  for (int y = 1; y < s.height(); ++y) std::memcpy(p + y * row, p, row);
}

// pygame.draw.rect(surf, color, (x, y, w, h)) filled (width 0, no border
// radius): the Rect's fields truncate, then SDL_IntersectRect with the
// surface and a fill; an empty rect (w or h <= 0) draws nothing.
inline void DrawRect(Surface& s, Color c, double x, double y, double w,
                     double h) {
  const int64_t rx = detail::PyInt(x), ry = detail::PyInt(y);
  const int64_t rw = detail::PyInt(w), rh = detail::PyInt(h);
  if (rw <= 0 || rh <= 0) return;
  const int64_t x0 = std::max<int64_t>(rx, 0);
  const int64_t x1 = std::min<int64_t>(rx + rw, s.width());
  const int64_t y0 = std::max<int64_t>(ry, 0);
  const int64_t y1 = std::min<int64_t>(ry + rh, s.height());
  if (x1 <= x0 || y1 <= y0) return;
  for (int64_t yy = y0; yy < y1; ++yy) {
    detail::HorzLine(s, c, static_cast<int>(x0), static_cast<int>(yy),
                     static_cast<int>(x1 - 1));
  }
}

// pygame.draw.line(surf, color, a, b, width) (draw.c line ->
// draw_line_width). width < 1 draws nothing.
inline void DrawLine(Surface& s, Color c, Point a, Point b, int width = 1) {
  if (width < 1) return;
  detail::LineWidth(s, c, detail::PyInt(a.x), detail::PyInt(a.y),
                    detail::PyInt(b.x), detail::PyInt(b.y), width);
}

// pygame.draw.lines(surf, color, closed, points, width) (draw.c lines).
// Needs n >= 2 (pygame raises otherwise; here nothing is drawn).
inline void DrawLines(Surface& s, Color c, bool closed, const Point* pts, int n,
                      int width = 1) {
  if (n < 2 || width < 1) return;
  for (int i = 1; i < n; ++i) {
    detail::LineWidth(s, c, detail::PyInt(pts[i - 1].x),
                      detail::PyInt(pts[i - 1].y), detail::PyInt(pts[i].x),
                      detail::PyInt(pts[i].y), width);
  }
  if (closed && n > 2) {
    detail::LineWidth(s, c, detail::PyInt(pts[n - 1].x),
                      detail::PyInt(pts[n - 1].y), detail::PyInt(pts[0].x),
                      detail::PyInt(pts[0].y), width);
  }
}

// pygame.draw.polygon(surf, color, points, width) (draw.c polygon): width 0
// fills (draw_filltri for 3 points, draw_fillpoly otherwise); any other
// width draws draw.lines(closed=True, width). Filled needs n >= 3 (pygame
// raises otherwise; here nothing is drawn).
inline void DrawPolygon(Surface& s, Color c, const Point* pts, int n,
                        int width = 0) {
  if (width != 0) {
    DrawLines(s, c, true, pts, n, width);
    return;
  }
  if (n < 3) return;
  detail::IntScratch xs(static_cast<std::size_t>(n));
  detail::IntScratch ys(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) {
    xs.data()[i] = detail::PyInt(pts[i].x);
    ys.data()[i] = detail::PyInt(pts[i].y);
  }
  if (n == 3) {
    detail::FillTri(s, c, xs.data(), ys.data());
  } else {
    detail::FillPoly(s, c, xs.data(), ys.data(), n);
  }
}

// pygame.draw.aaline(surf, color, a, b) (width 1: draw.c draw_aaline with
// both endpoints).
inline void DrawAaline(Surface& s, Color c, Point a, Point b) {
  detail::Aaline(s, c, detail::PyFloat(a.x), detail::PyFloat(a.y),
                 detail::PyFloat(b.x), detail::PyFloat(b.y), false, false,
                 false);
}

// pygame.draw.aalines(surf, color, closed, points) (draw.c aalines): the
// segments as draw_aaline, with the shared endpoints drawn once unless they
// are integers, and the "extra pixel" where a steep and a flat segment meet.
// Exact for n >= 3. (For n == 2 pygame reads past its point buffer when it
// decides the first segment's extra pixel; here that read is taken as 0.)
inline void DrawAalines(Surface& s, Color c, bool closed, const Point* pts,
                        int n) {
  if (n < 2) return;
  auto fx = [&](int i) { return detail::PyFloat(pts[i].x); };
  auto fy = [&](int i) { return detail::PyFloat(pts[i].y); };
  auto is_int = [](float v) { return std::roundf(v) == v; };
  auto steep = [](float x0, float y0, float x1, float y1) {
    return std::fabs(x1 - x0) < std::fabs(y1 - y0);
  };
  float prev[4] = {fx(0), fy(0), fx(1), fy(1)};
  // First segment. (Upstream compares xlist[2] - pts[2] with
  // ylist[2] - pts[1], i.e. with the first point's y; reproduced.)
  {
    const bool steep_prev = steep(prev[0], prev[1], prev[2], prev[3]);
    const float x2 = n > 2 ? fx(2) : fy(0);  // n == 2: xlist[2] is ylist[0]
    const float y2 = n > 2 ? fy(2) : 0.0f;
    const bool steep_curr = std::fabs(x2 - prev[2]) < std::fabs(y2 - prev[1]);
    const bool extra = steep_prev > steep_curr;
    const bool disable = !(is_int(prev[2]) && is_int(prev[3]));
    detail::Aaline(s, c, prev[0], prev[1], prev[2], prev[3],
                   closed ? disable : false, disable, extra);
  }
  auto segment = [&](int i0, int i1, bool first_on, bool second_on) {
    const float p[4] = {fx(i0), fy(i0), fx(i1), fy(i1)};
    const bool steep_prev = steep(prev[0], prev[1], prev[2], prev[3]);
    const bool steep_curr = steep(p[0], p[1], p[2], p[3]);
    const bool extra = steep_prev != steep_curr;
    const bool disable = !(is_int(p[2]) && is_int(p[3]));
    std::copy(p, p + 4, prev);
    detail::Aaline(s, c, p[0], p[1], p[2], p[3], first_on ? disable : false,
                   second_on ? disable : false, extra);
  };
  for (int i = 2; i < n - 1; ++i) segment(i - 1, i, true, true);
  // Last segment (again the first one when n == 2).
  segment(n - 2, n - 1, true, closed);
  if (closed && n > 2) {
    // Closing segment, compared with the last one.
    const float p[4] = {fx(n - 1), fy(n - 1), fx(0), fy(0)};
    const bool steep_prev = steep(prev[0], prev[1], prev[2], prev[3]);
    const bool steep_curr = steep(p[0], p[1], p[2], p[3]);
    const bool extra = steep_prev != steep_curr;
    const bool disable = !(is_int(p[2]) && is_int(p[3]));
    detail::Aaline(s, c, p[0], p[1], p[2], p[3], disable, disable, extra);
  }
}

// pygame.draw.circle(surf, color, center, radius, width) (draw.c circle, no
// quadrant flags): center and radius truncate to ints; radius < 1 or
// width < 0 draws nothing; width 0 (or >= radius) fills.
inline void DrawCircle(Surface& s, Color c, Point center, double radius,
                       int width = 0) {
  const int32_t px = detail::PyInt(center.x), py = detail::PyInt(center.y);
  const int32_t r = detail::PyInt(radius);
  if (r < 1 || width < 0) return;
  if (width > r) width = r;
  const int64_t x = px, y = py;
  if (x > static_cast<int64_t>(s.width()) + r || x < -static_cast<int64_t>(r) ||
      y > static_cast<int64_t>(s.height()) + r ||
      y < -static_cast<int64_t>(r)) {
    return;
  }
  if (!width || width == r) {
    detail::CircleFilled(s, c, px, py, r);
  } else if (width == 1) {
    detail::CircleThin(s, c, px, py, r);
  } else {
    detail::CircleRing(s, c, px, py, r, width);
  }
}

// pygame.gfxdraw.aapolygon(surf, points, color) with an opaque color
// (SDL_gfx aapolygonColor: _aalineColor(v[i-1], v[i], draw_endpoint=0) for
// every edge, closing edge last). Needs n >= 3.
inline void GfxAapolygon(Surface& s, const Point* pts, int n, Color c) {
  if (n < 3 || s.width() == 0 || s.height() == 0) return;
  auto vx = [&](int i) { return detail::PySint16(pts[i].x); };
  auto vy = [&](int i) { return detail::PySint16(pts[i].y); };
  for (int i = 1; i < n; ++i) {
    detail::GfxAalineNoEndpoint(s, vx(i - 1), vy(i - 1), vx(i), vy(i), c);
  }
  detail::GfxAalineNoEndpoint(s, vx(n - 1), vy(n - 1), vx(0), vy(0), c);
}

// pygame.gfxdraw.filled_polygon(surf, points, color) with an opaque color
// (SDL_gfx filledPolygonColorMT): scanlines with 16.16 fixed-point edge
// intersections, spans rounded inward by one unit, drawn with hlineColor.
// Needs n >= 3.
template <typename SpanFn>
inline void GfxPolygonSpans(int height, const Point* pts, int n, SpanFn span) {
  using detail::Add;
  using detail::Mul;
  using detail::Sub;
  detail::IntScratch vxs(static_cast<std::size_t>(n));
  detail::IntScratch vys(static_cast<std::size_t>(n));
  detail::IntScratch ints_buf(static_cast<std::size_t>(n));
  detail::IntScratch sort_tmp(static_cast<std::size_t>(n));
  int32_t* vx = vxs.data();
  int32_t* vy = vys.data();
  int32_t* ints = ints_buf.data();
  for (int i = 0; i < n; ++i) {
    vx[i] = detail::PySint16(pts[i].x);
    vy[i] = detail::PySint16(pts[i].y);
  }
  int miny = vy[0], maxy = vy[0];
  for (int i = 1; i < n; ++i) {
    if (vy[i] < miny) {
      miny = vy[i];
    } else if (vy[i] > maxy) {
      maxy = vy[i];
    }
  }
  // hlineColor draws nothing on rows outside the surface.
  const int y_lo = std::max(miny, 0);
  const int y_hi = std::min(maxy, height - 1);
  for (int y = y_lo; y <= y_hi; ++y) {
    int count = 0;
    for (int i = 0; i < n; ++i) {
      const int ind1 = i ? i - 1 : n - 1;
      const int ind2 = i;
      int y1 = vy[ind1], y2 = vy[ind2], x1, x2;
      if (y1 < y2) {
        x1 = vx[ind1];
        x2 = vx[ind2];
      } else if (y1 > y2) {
        y2 = vy[ind1];
        y1 = vy[ind2];
        x2 = vx[ind1];
        x1 = vx[ind2];
      } else {
        continue;
      }
      if ((y >= y1 && y < y2) || (y == maxy && y > y1 && y <= y2)) {
        // ((65536 * (y - y1)) / (y2 - y1)) * (x2 - x1) + (65536 * x1)
        const int32_t q = Mul(65536, y - y1) / (y2 - y1);
        ints[count++] = Add(Mul(q, x2 - x1), Mul(65536, x1));
      }
    }
    detail::QsortInts(ints, count, sort_tmp.data());
    for (int i = 0; i + 1 < count; i += 2) {
      int32_t xa = Add(ints[i], 1);
      xa = (xa >> 16) + ((xa & 32768) >> 15);
      int32_t xb = Sub(ints[i + 1], 1);
      xb = (xb >> 16) + ((xb & 32768) >> 15);
      span(static_cast<int16_t>(xa), static_cast<int16_t>(xb),
           static_cast<int16_t>(y));
    }
  }
}

inline void GfxFilledPolygon(Surface& s, const Point* pts, int n, Color c) {
  if (n < 3 || s.width() == 0 || s.height() == 0) return;
  GfxPolygonSpans(s.height(), pts, n, [&](int16_t xa, int16_t xb, int16_t y) {
    detail::GfxHLine(s, xa, xb, y, c);
  });
}

// Whether gfxdraw.aapolygon and then gfxdraw.filled_polygon of pts leave
// every pixel of s in the polygon's color: the filled spans cover every row
// and no outline pixel lands on s (each edge is clipped away whole). Then a
// Fill draws the same picture.
inline bool GfxPolygonCovers(const Surface& s, const Point* pts, int n) {
  if (n < 3 || s.width() == 0 || s.height() == 0) return false;
  for (int i = 0; i < n; ++i) {
    const int k = i ? i - 1 : n - 1;
    int16_t x1 = detail::PySint16(pts[k].x), y1 = detail::PySint16(pts[k].y);
    int16_t x2 = detail::PySint16(pts[i].x), y2 = detail::PySint16(pts[i].y);
    if (detail::GfxClipLine(s, x1, y1, x2, y2)) return false;
  }
  thread_local std::vector<uint8_t> covered;
  covered.assign(s.height(), 0);
  const int right = s.width() - 1;
  GfxPolygonSpans(s.height(), pts, n, [&](int16_t xa, int16_t xb, int16_t y) {
    if (std::min(xa, xb) <= 0 && std::max(xa, xb) >= right) covered[y] = 1;
  });
  return std::all_of(covered.begin(), covered.end(),
                     [](uint8_t v) { return v != 0; });
}

// pygame.transform.flip(surf, False, True): rows in reverse order.
inline void FlipVertical(Surface& s) { s.ReverseRows(); }

// pygame.transform.smoothscale(src, (dst.width(), dst.height())) into dst
// (transform.c scalesmooth with the SSE2 filters): X pass into a
// dst_w x src_h buffer, then Y pass; shrink = area averaging, expand =
// linear interpolation; an unchanged size is a copy.
inline void Smoothscale(const Surface& src, Surface& dst) {
  const int sw = src.width(), sh = src.height();
  const int dw = dst.width(), dh = dst.height();
  if (dw == 0 || dh == 0 || sw == 0 || sh == 0) return;
  thread_local std::vector<uint8_t> temp;
  thread_local std::vector<uint16_t> acc;
  uint8_t* dst_bytes = dst.bytes();
  if (dst.flipped()) dst.ReverseRows();  // every row is rewritten below
  if (sw == dw && sh == dh) {
    src.CopyTo(dst_bytes);
    return;
  }
  auto src_row = [&src](int y) { return src.Row(y); };
  // X pass: into dst directly when the height does not change.
  const uint8_t* yin = nullptr;
  if (sw != dw) {
    uint8_t* xout = dst_bytes;
    if (sh != dh) {
      temp.resize(static_cast<std::size_t>(dw) * sh * 3);
      xout = temp.data();
    }
    if (dw < sw) {
      detail::ShrinkX(src_row, sw, xout, dw, sh);
    } else {
      detail::ExpandX(src_row, sw, xout, dw, sh);
    }
    yin = xout;
  } else if (src.flipped()) {
    temp.resize(static_cast<std::size_t>(sw) * sh * 3);
    src.CopyTo(temp.data());
    yin = temp.data();
  } else {
    yin = src.Row(0);
  }
  if (dh < sh) {
    detail::ShrinkY(yin, dw, dst_bytes, sh, dh, acc);
  } else if (dh > sh) {
    detail::ExpandY(yin, dw, dst_bytes, sh, dh);
  }
}

// dst.blit(src, (x, y)) of an opaque surface: a clipped copy.
inline void Blit(Surface& dst, const Surface& src, int x, int y) {
  const int x0 = std::max(x, 0);
  const int y0 = std::max(y, 0);
  const int x1 = static_cast<int>(
      std::min<int64_t>(static_cast<int64_t>(x) + src.width(), dst.width()));
  const int y1 = static_cast<int>(
      std::min<int64_t>(static_cast<int64_t>(y) + src.height(), dst.height()));
  if (x1 <= x0 || y1 <= y0) return;
  const std::size_t n = static_cast<std::size_t>(x1 - x0) * 3;
  for (int yy = y0; yy < y1; ++yy) {
    std::memcpy(dst.Pixel(x0, yy), src.Pixel(x0 - x, yy - y), n);
  }
}

}  // namespace envpool_lite::pygame_draw
