// pygame-ce 2.5.8's 32-bit SRCALPHA surfaces, in plain C++, pixel for pixel:
// pygame.Surface(size, pygame.SRCALPHA) (ARGB8888), pygame.draw.rect on it
// (draw.c rect / draw_rect / drawhorzlineclip), pygame.transform.rotate
// (transform.c surf_rotate / rotate / rotate90: nearest neighbour, 16.16
// fixed point) and the alpha blits onto an SRCALPHA or an opaque surface
// (alphablit.c pygame_Blit, the AVX2 / SSE2 "argb" blitters, which compute
// ((d << 8) + (s - d) * a + s) >> 8 per channel). The opaque surface is
// draw.h's Surface; the same integer and float arithmetic and conversions
// of Python numbers as there.
//
// Checked pixel for pixel against pygame-ce 2.5.8 through highway-env's
// frames (tests/test_highway*.py: every task's env.render() and
// GrayscaleObservation), which draw vehicles with these.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <utility>
#include <vector>

#include "refkit/pygame/draw.h"

namespace envpool_lite::pygame_draw {

// pg_IntFromObj on a Python int: `*val = PyLong_AsLong(obj)` stored in a C
// int, i.e. the low 32 bits.
inline int32_t PgIntOfPyInt(int64_t v) {
  return static_cast<int32_t>(static_cast<uint32_t>(static_cast<uint64_t>(v)));
}

namespace detail {

// A 32-bit left shift with the wrap-around of the C code.
inline int32_t Shl(int32_t a, int s) {
  return static_cast<int32_t>(static_cast<uint32_t>(a) << s);
}

}  // namespace detail

// A pygame color tuple: (r, g, b) maps to alpha 255, (r, g, b, a) keeps a.
struct RgbaColor {
  int r = 0, g = 0, b = 0, a = 255;
  // SDL_MapRGBA for ARGB8888.
  uint32_t Map() const {
    return (static_cast<uint32_t>(a & 0xff) << 24) |
           (static_cast<uint32_t>(r & 0xff) << 16) |
           (static_cast<uint32_t>(g & 0xff) << 8) |
           static_cast<uint32_t>(b & 0xff);
  }
};

// pygame.Surface(size, pygame.SRCALPHA): 32-bit ARGB8888 (masks 0xff0000,
// 0xff00, 0xff, 0xff000000), blend mode BLEND, initially all zero
// (transparent black). Pixels are A << 24 | R << 16 | G << 8 | B.
class RgbaSurface {
 public:
  RgbaSurface() = default;
  RgbaSurface(int w, int h)
      : w_(std::max(w, 0)),
        h_(std::max(h, 0)),
        px_(static_cast<std::size_t>(w_) * h_, 0u) {}
  int width() const { return w_; }
  int height() const { return h_; }
  uint32_t& At(int x, int y) {
    return px_[static_cast<std::size_t>(y) * w_ + x];
  }
  uint32_t At(int x, int y) const {
    return px_[static_cast<std::size_t>(y) * w_ + x];
  }
  uint32_t* Row(int y) { return px_.data() + static_cast<std::size_t>(y) * w_; }
  const uint32_t* Row(int y) const {
    return px_.data() + static_cast<std::size_t>(y) * w_;
  }

 private:
  int w_ = 0, h_ = 0;
  std::vector<uint32_t> px_;
};

namespace detail {

// draw.c drawhorzlineclip on a 32-bit surface (clip rect = the surface).
inline void HorzLineClip(RgbaSurface& s, uint32_t color, int x1, int y1,
                         int x2) {
  if (y1 < 0 || y1 >= s.height()) return;
  if (x2 < x1) std::swap(x1, x2);
  x1 = std::max(x1, 0);
  x2 = std::min(x2, s.width() - 1);
  if (x2 < 0 || x1 >= s.width()) return;
  for (int x = x1; x <= x2; ++x) s.At(x, y1) = color;
}

// SDL_IntersectRect(a, surface rect): false when either rect is empty or
// they do not overlap.
struct IntRect {
  int x, y, w, h;
};
inline bool IntersectWithSurface(const IntRect& a, int sw, int sh,
                                 IntRect* out) {
  if (a.w <= 0 || a.h <= 0 || sw <= 0 || sh <= 0) return false;
  const int64_t xmin = std::max<int64_t>(a.x, 0);
  const int64_t xmax = std::min<int64_t>(static_cast<int64_t>(a.x) + a.w, sw);
  const int64_t ymin = std::max<int64_t>(a.y, 0);
  const int64_t ymax = std::min<int64_t>(static_cast<int64_t>(a.y) + a.h, sh);
  const int64_t w = xmax - xmin, h = ymax - ymin;
  if (w <= 0 || h <= 0) return false;
  *out = IntRect{static_cast<int>(xmin), static_cast<int>(ymin),
                 static_cast<int>(w), static_cast<int>(h)};
  return true;
}

}  // namespace detail

// pygame.draw.rect(surf, color, (x, y, w, h), width) on a 32-bit surface,
// without border radius (draw.c rect -> draw_rect or SDL_FillRect). The
// rect's fields are Python ints (pg_IntFromObj: low 32 bits).
inline void DrawRect(RgbaSurface& s, const RgbaColor& color, int64_t x,
                     int64_t y, int64_t w, int64_t h, int width = 0) {
  if (width < 0) return;
  const detail::IntRect rect{PgIntOfPyInt(x), PgIntOfPyInt(y), PgIntOfPyInt(w),
                             PgIntOfPyInt(h)};
  detail::IntRect clipped{};
  if (!detail::IntersectWithSurface(rect, s.width(), s.height(), &clipped)) {
    return;
  }
  const uint32_t c = color.Map();
  if (width > 0 && (width * 2) < clipped.w && (width * 2) < clipped.h) {
    // draw_rect(x1, y1, x2, y2, width)
    const int x1 = rect.x, y1 = rect.y;
    const int x2 = rect.x + rect.w - 1, y2 = rect.y + rect.h - 1;
    for (int i = 0; i < width; ++i) {
      detail::HorzLineClip(s, c, x1, y1 + i, x2);
      detail::HorzLineClip(s, c, x1, y2 - i, x2);
    }
    for (int i = 0; i < (y2 - y1) - 2 * width + 1; ++i) {
      detail::HorzLineClip(s, c, x1, y1 + width + i, x1 + width - 1);
      detail::HorzLineClip(s, c, x2 - width + 1, y1 + width + i, x2);
    }
  } else {
    for (int yy = clipped.y; yy < clipped.y + clipped.h; ++yy) {
      for (int xx = clipped.x; xx < clipped.x + clipped.w; ++xx) {
        s.At(xx, yy) = c;
      }
    }
  }
}

// pygame.transform.rotate(surf, angle) of a 32-bit surface (transform.c
// surf_rotate). `angle` arrives as a C float ("f" argument format): pass
// the Python float, it is rounded here.
inline RgbaSurface Rotate(const RgbaSurface& src, double angle_arg) {
  using detail::Add;
  using detail::Mul;
  using detail::Shl;
  using detail::Sub;
  const float angle = static_cast<float>(angle_arg);
  if (src.width() < 1 || src.height() < 1) return src;
  if (!(std::fmod(static_cast<double>(angle), 90.0) != 0.0) &&
      !std::isnan(angle)) {
    // rotate90(src, (int)angle)
    const int iangle = detail::TruncF(angle);
    int numturns = (iangle / 90) % 4;
    if (numturns < 0) numturns = 4 + numturns;
    const int w = src.width(), h = src.height();
    const bool swap = numturns % 2;
    RgbaSurface dst(swap ? h : w, swap ? w : h);
    for (int y = 0; y < dst.height(); ++y) {
      for (int x = 0; x < dst.width(); ++x) {
        uint32_t p = 0;
        switch (numturns) {
          case 0:
            p = src.At(x, y);
            break;
          case 1:
            p = src.At(w - 1 - y, x);
            break;
          case 2:
            p = src.At(w - 1 - x, h - 1 - y);
            break;
          default:
            p = src.At(y, h - 1 - x);
            break;
        }
        dst.At(x, y) = p;
      }
    }
    return dst;
  }
  const double radangle = static_cast<double>(angle) * .01745329251994329;
  const double sangle = std::sin(radangle);
  const double cangle = std::cos(radangle);
  const double x = src.width(), y = src.height();
  const double cx = cangle * x, cy = cangle * y;
  const double sx = sangle * x, sy = sangle * y;
  auto mx = [](double a, double b) { return a > b ? a : b; };
  const int nxmax = detail::TruncD(
      mx(mx(mx(std::fabs(cx + sy), std::fabs(cx - sy)), std::fabs(-cx + sy)),
         std::fabs(-cx - sy)));
  const int nymax = detail::TruncD(
      mx(mx(mx(std::fabs(sx + cy), std::fabs(sx - cy)), std::fabs(-sx + cy)),
         std::fabs(-sx - cy)));
  RgbaSurface dst(nxmax, nymax);
  // The background: the top-left pixel without its alpha.
  const uint32_t bgcolor = src.At(0, 0) & ~0xff000000u;
  // transform.c rotate()
  const int dw = dst.width(), dh = dst.height();
  const int sw = src.width(), sh = src.height();
  const int cyy = dh / 2;
  const int xd = Shl(sw - dw, 15);
  const int yd = Shl(sh - dh, 15);
  const int isin = detail::TruncD(sangle * 65536);
  const int icos = detail::TruncD(cangle * 65536);
  const int ax =
      Sub(Shl(dw, 15),
          detail::TruncD(cangle * static_cast<double>(
                                      (static_cast<long long>(dw) - 1) << 15)));
  const int ay =
      Sub(Shl(dh, 15),
          detail::TruncD(sangle * static_cast<double>(
                                      (static_cast<long long>(dw) - 1) << 15)));
  const int xmaxval = Shl(sw, 16) - 1;
  const int ymaxval = Shl(sh, 16) - 1;
  for (int yy = 0; yy < dh; ++yy) {
    int dx = Add(Add(ax, Mul(isin, cyy - yy)), xd);
    int dy = Add(Sub(ay, Mul(icos, cyy - yy)), yd);
    uint32_t* out = dst.Row(yy);
    for (int xx = 0; xx < dw; ++xx) {
      if (dx < 0 || dy < 0 || dx > xmaxval || dy > ymaxval) {
        out[xx] = bgcolor;
      } else {
        out[xx] = src.At(dx >> 16, dy >> 16);
      }
      dx = Add(dx, icos);
      dy = Add(dy, isin);
    }
  }
  return dst;
}

namespace detail {

// pygame_Blit's clipping (alphablit.c) of a whole source surface at
// (x, y) against a w x h destination: the source and destination origins
// and the size of the blitted area (nothing when w or h <= 0).
struct BlitArea {
  int srcx, srcy, dstx, dsty, w, h;
};
inline BlitArea ClipBlit(int src_w, int src_h, int dst_w, int dst_h, int x,
                         int y) {
  BlitArea a{0, 0, x, y, src_w, src_h};
  int dx = Sub(0, a.dstx);
  if (dx > 0) {
    a.w = Sub(a.w, dx);
    a.dstx = Add(a.dstx, dx);
    a.srcx = Add(a.srcx, dx);
  }
  dx = Sub(Add(a.dstx, a.w), dst_w);
  if (dx > 0) a.w = Sub(a.w, dx);
  int dy = Sub(0, a.dsty);
  if (dy > 0) {
    a.h = Sub(a.h, dy);
    a.dsty = Add(a.dsty, dy);
    a.srcy = Add(a.srcy, dy);
  }
  dy = Sub(Add(a.dsty, a.h), dst_h);
  if (dy > 0) a.h = Sub(a.h, dy);
  return a;
}

// One channel of the blitters: ((d << 8) + (s - d) * a + s) >> 8 (exact:
// the sum lies in [0, 65535], so the 16-bit SIMD lanes never wrap).
inline uint32_t BlendChannel(uint32_t s, uint32_t d, uint32_t a) {
  const int v =
      (static_cast<int>(d) << 8) +
      (static_cast<int>(s) - static_cast<int>(d)) * static_cast<int>(a) +
      static_cast<int>(s);
  return static_cast<uint32_t>(v >> 8) & 0xffu;
}

}  // namespace detail

// dst.blit(src, (x, y)) of a SRCALPHA surface onto a SRCALPHA surface:
// pygame_Blit -> alphablit_alpha_avx2_argb_no_surf_alpha (same result as
// the SSE2 and scalar ALPHA_BLEND): where the destination alpha is 0 the
// source pixel is copied, else RGB = ((d << 8) + (s - d) * sA + s) >> 8 and
// A = sA + dA - sA * dA / 255. (x, y) are the C ints of the position.
inline void BlitAlpha(RgbaSurface& dst, const RgbaSurface& src, int x, int y) {
  using detail::BlendChannel;
  const detail::BlitArea a = detail::ClipBlit(src.width(), src.height(),
                                              dst.width(), dst.height(), x, y);
  if (a.w <= 0 || a.h <= 0) return;
  for (int j = 0; j < a.h; ++j) {
    const uint32_t* sp = src.Row(a.srcy + j) + a.srcx;
    uint32_t* dp = dst.Row(a.dsty + j) + a.dstx;
    for (int i = 0; i < a.w; ++i) {
      const uint32_t s = sp[i], d = dp[i];
      const uint32_t sa = s >> 24, da = d >> 24;
      const uint32_t na = sa + da - (sa * da) / 255;
      const uint32_t ea = da == 0 ? 255 : sa;
      const uint32_t r = BlendChannel((s >> 16) & 0xff, (d >> 16) & 0xff, ea);
      const uint32_t g = BlendChannel((s >> 8) & 0xff, (d >> 8) & 0xff, ea);
      const uint32_t b = BlendChannel(s & 0xff, d & 0xff, ea);
      dp[i] = ((na & 0xff) << 24) | (r << 16) | (g << 8) | b;
    }
  }
}

// dst.blit(src, (x, y)) of a SRCALPHA surface onto an opaque XRGB surface
// (the sim surface): pygame_Blit ->
// alphablit_alpha_avx2_argb_no_surf_alpha_opaque_dst:
// RGB = ((d << 8) + (s - d) * sA + s) >> 8.
inline void BlitAlpha(Surface& dst, const RgbaSurface& src, int x, int y) {
  using detail::BlendChannel;
  const detail::BlitArea a = detail::ClipBlit(src.width(), src.height(),
                                              dst.width(), dst.height(), x, y);
  if (a.w <= 0 || a.h <= 0) return;
  for (int j = 0; j < a.h; ++j) {
    const uint32_t* sp = src.Row(a.srcy + j) + a.srcx;
    uint8_t* dp = dst.Pixel(a.dstx, a.dsty + j);
    for (int i = 0; i < a.w; ++i, dp += 3) {
      const uint32_t s = sp[i];
      const uint32_t sa = s >> 24;
      if (sa == 0) continue;  // ((d << 8) + s) >> 8 == d
      if (sa == 255) {        // ((s << 8) + d) >> 8 == s
        dp[0] = static_cast<uint8_t>((s >> 16) & 0xff);
        dp[1] = static_cast<uint8_t>((s >> 8) & 0xff);
        dp[2] = static_cast<uint8_t>(s & 0xff);
        continue;
      }
      dp[0] = static_cast<uint8_t>(BlendChannel((s >> 16) & 0xff, dp[0], sa));
      dp[1] = static_cast<uint8_t>(BlendChannel((s >> 8) & 0xff, dp[1], sa));
      dp[2] = static_cast<uint8_t>(BlendChannel(s & 0xff, dp[2], sa));
    }
  }
}

}  // namespace envpool_lite::pygame_draw
