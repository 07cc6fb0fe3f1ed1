// Image kernels shared by the pixel envs (Atari, ViZDoom): resize (bit-exact
// with cv2.resize's INTER_AREA and INTER_LINEAR on uint8 images, the way
// EnvPool resizes), max-pool of two frames and HWC -> CHW.
//
// Resizer reproduces the arithmetic of OpenCV's algorithms, written from
// their documented behaviour and checked against cv2's outputs
// (tests/test_atari_preprocess.py):
//
//  * INTER_AREA, shrinking by a non-integer factor: every output pixel is the
//    area-weighted mean of the source pixels its cell covers, with float32
//    weights, a horizontal pass (per source row) then a vertical pass, and
//    round-half-to-even at the end. Here the same mean is computed exactly in
//    integers (the weights are multiples of 1/qx and 1/qy, qx = src_w /
//    gcd(src_w, dst_w)), vertical pass first, then rounded; a pixel whose
//    exact mean lies so close to .5 that OpenCV's float rounding errors could
//    decide it is recomputed with OpenCV's float operations, in OpenCV's
//    order. The result is identical, and the common case needs no float
//    horizontal pass over every source row.
//  * INTER_AREA by integer factors (e.g. 210x160 -> 105x80): block sums;
//    2x2 blocks round half up ((s + 2) >> 2), other blocks round
//    float(s) * (1.f / area) half to even.
//  * INTER_LINEAR (and INTER_AREA when enlarging): 11-bit fixed-point weights,
//    half-pixel centres, clamped borders; the horizontal pass is exact
//    integer arithmetic, the vertical one OpenCV's
//    (((h0 >> 4) * b0 >> 16) + ((h1 >> 4) * b1 >> 16) + 2) >> 2.
//    INTER_LINEAR by exactly 2x2 is INTER_AREA, as in OpenCV.
//
// The hot loops use SSE2 (part of every x86-64 CPU) and have plain C++ twins
// that give the same results elsewhere (or with ENVPOOL_LITE_NO_SIMD).
// Exactness of the float fallback needs IEEE float32 arithmetic without FMA
// contraction or fast-math (the project builds with -ffp-contract=off).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

#if defined(__SSE2__) && !defined(ENVPOOL_LITE_NO_SIMD)
#include <emmintrin.h>
#define ENVPOOL_LITE_ATARI_SSE2 1
#endif

namespace envpool_lite::image {

// out[i] = max(a[i], b[i]) for i < n. `out` may be `a` or `b` (in place).
inline void MaxPool(const uint8_t* a, const uint8_t* b, uint8_t* out,
                    std::size_t n) {
  std::size_t i = 0;
#ifdef ENVPOOL_LITE_ATARI_SSE2
  for (; i + 16 <= n; i += 16) {
    const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(a + i));
    const __m128i y = _mm_loadu_si128(reinterpret_cast<const __m128i*>(b + i));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out + i), _mm_max_epu8(x, y));
  }
#endif
  for (; i < n; ++i) out[i] = a[i] > b[i] ? a[i] : b[i];
}

// dst (c x h x w) = src (h x w x c) transposed. src and dst must not overlap.
inline void HwcToChw(const uint8_t* src, uint8_t* dst, int h, int w, int c) {
  const std::size_t plane = static_cast<std::size_t>(h) * w;
  if (c == 1) {
    std::memcpy(dst, src, plane);
    return;
  }
  if (c == 3) {  // RGB
    uint8_t* r = dst;
    uint8_t* g = dst + plane;
    uint8_t* b = dst + 2 * plane;
    std::size_t i = 0;
#ifdef ENVPOOL_LITE_ATARI_SSE2
    // 16 pixels at a time: spread them to 4 bytes each (RGB0), then four
    // rounds of byte unpacking sort the bytes by channel.
    const __m128i low3 = _mm_set1_epi64x(0xffffff);
    auto four_pixels =
        [&](std::size_t p) {  // pixels p..p+3 as RGB0 RGB0 RGB0 RGB0
          const __m128i v = _mm_unpacklo_epi64(
              _mm_loadl_epi64(reinterpret_cast<const __m128i*>(src + 3 * p)),
              _mm_loadl_epi64(
                  reinterpret_cast<const __m128i*>(src + 3 * p + 6)));
          return _mm_or_si128(
              _mm_and_si128(v, low3),
              _mm_slli_epi64(_mm_and_si128(_mm_srli_epi64(v, 24), low3), 32));
        };
    for (; i + 17 <= plane;
         i += 16) {  // the last 8-byte load ends 2 bytes past pixel i + 15
      const __m128i v0 = four_pixels(i), v1 = four_pixels(i + 4);
      const __m128i v2 = four_pixels(i + 8), v3 = four_pixels(i + 12);
      // v0 = R0 G0 B0 0 R1 G1 B1 0 R2 .., v1 = R4 .., v2 = R8 .., v3 = R12 ..
      const __m128i a0 = _mm_unpacklo_epi8(v0, v1),
                    a1 = _mm_unpackhi_epi8(v0, v1);
      const __m128i a2 = _mm_unpacklo_epi8(v2, v3),
                    a3 = _mm_unpackhi_epi8(v2, v3);
      // a0 = R0 R4 G0 G4 B0 B4 0 0 R1 R5 G1 G5 .., a1 = R2 R6 .., a2 = R8 R12
      // ..
      const __m128i b0 = _mm_unpacklo_epi8(a0, a1),
                    b1 = _mm_unpackhi_epi8(a0, a1);
      const __m128i b2 = _mm_unpacklo_epi8(a2, a3),
                    b3 = _mm_unpackhi_epi8(a2, a3);
      // b0 = R0 R2 R4 R6 G0 G2 G4 G6 B0 B2 B4 B6 0 .., b1 = R1 R3 R5 R7 ..
      const __m128i c0 = _mm_unpacklo_epi8(b0, b1),
                    c1 = _mm_unpackhi_epi8(b0, b1);
      const __m128i c2 = _mm_unpacklo_epi8(b2, b3),
                    c3 = _mm_unpackhi_epi8(b2, b3);
      // c0 = R0..R7 G0..G7, c1 = B0..B7 0.., c2 = R8..R15 G8..G15, c3 = B8..B15
      // 0..
      _mm_storeu_si128(reinterpret_cast<__m128i*>(r + i),
                       _mm_unpacklo_epi64(c0, c2));
      _mm_storeu_si128(reinterpret_cast<__m128i*>(g + i),
                       _mm_unpackhi_epi64(c0, c2));
      _mm_storeu_si128(reinterpret_cast<__m128i*>(b + i),
                       _mm_unpacklo_epi64(c1, c3));
    }
#endif
    for (; i < plane; ++i) {
      r[i] = src[3 * i];
      g[i] = src[3 * i + 1];
      b[i] = src[3 * i + 2];
    }
    return;
  }
  for (int k = 0; k < c; ++k) {
    uint8_t* d = dst + k * plane;
    for (std::size_t i = 0; i < plane; ++i) d[i] = src[i * c + k];
  }
}

namespace detail {

// One tap of a one-dimensional resampling: output `dst` takes `weight` of
// input `src`.
struct Tap {
  int dst;
  int src;
  float weight;
};

// The taps of OpenCV's INTER_AREA along one axis when shrinking (scale =
// src_size / dst_size >= 1): output d covers the source interval
// [d * scale, (d + 1) * scale); each source pixel it overlaps contributes in
// proportion to the overlap (float weights, computed in double). Overlaps
// below 1e-3 pixel are dropped, as OpenCV does. Taps come sorted by (dst, src).
inline std::vector<Tap> AreaTaps(int src_size, int dst_size, double scale) {
  std::vector<Tap> taps;
  for (int d = 0; d < dst_size; ++d) {
    const double begin = d * scale;
    const double end = begin + scale;
    const double width = std::min(scale, src_size - begin);
    const int last = std::min(static_cast<int>(std::floor(end)), src_size - 1);
    const int first = std::min(static_cast<int>(std::ceil(begin)), last);
    if (first - begin > 1e-3) {  // the partly covered pixel on the left
      taps.push_back(
          {d, first - 1, static_cast<float>((first - begin) / width)});
    }
    for (int s = first; s < last; ++s) {
      taps.push_back({d, s, static_cast<float>(1.0 / width)});
    }
    if (end - last > 1e-3) {  // the partly covered pixel on the right
      taps.push_back({d, last,
                      static_cast<float>(
                          std::min(std::min(end - last, 1.0), width) / width)});
    }
  }
  return taps;
}

// The two taps of OpenCV's fixed-point linear interpolation along one axis:
// output d reads source pixels `src` and `src + 1` with weights w0, w1
// (summing to about 2048). `area_mode` gives the coefficients INTER_AREA uses
// when enlarging. `clamp_weights` is the horizontal rule (at the borders all
// weight goes to the clamped pixel); vertically OpenCV keeps the weights and
// clamps the row indices (see LinearRows).
struct LinearTap {
  int src;
  int16_t w0, w1;
};
inline std::vector<LinearTap> LinearTaps(int src_size, int dst_size,
                                         bool area_mode, bool clamp_weights) {
  const double inv_scale = static_cast<double>(dst_size) / src_size;
  const double scale = 1.0 / inv_scale;
  std::vector<LinearTap> taps(dst_size);
  for (int d = 0; d < dst_size; ++d) {
    int s;
    float f;
    if (!area_mode) {
      f = static_cast<float>((d + 0.5) * scale - 0.5);
      s = static_cast<int>(std::floor(f));
      f -= static_cast<float>(s);
    } else {
      s = static_cast<int>(std::floor(d * scale));
      f = static_cast<float>((d + 1) - (s + 1) * inv_scale);
      f = f <= 0 ? 0.f : f - std::floor(f);
    }
    if (clamp_weights) {
      if (s < 0) f = 0.f, s = 0;
      if (s >= src_size - 1) f = 0.f, s = src_size - 1;
    }
    // saturate_cast<short>(float): round half to even.
    taps[d].src = s;
    taps[d].w0 = static_cast<int16_t>(std::nearbyint((1.f - f) * 2048.f));
    taps[d].w1 = static_cast<int16_t>(std::nearbyint(f * 2048.f));
  }
  return taps;
}

inline int RoundUp(int n, int m) { return (n + m - 1) / m * m; }

inline uint8_t ClampToU8(int v) {
  return static_cast<uint8_t>(v < 0 ? 0 : (v > 255 ? 255 : v));
}

// ---------------------------------------------------------------------------
// Row kernels. Each SSE2 loop has a scalar twin computing the same values.

// out[i] = sum_t weight[t] * rows[t][i] for i < len. The caller guarantees
// every sum fits in int16. kTaps > 0 fixes the number of taps at compile time.
template <int kTaps>
inline void WeightedRowSumN(const uint8_t* const* rows, const int16_t* weight,
                            int taps, int len, int16_t* out) {
  if (kTaps > 0) taps = kTaps;
  int i = 0;
#ifdef ENVPOOL_LITE_ATARI_SSE2
  constexpr int kMaxTaps = kTaps > 0 ? kTaps : 16;
  if (taps <= kMaxTaps) {
    __m128i w[kMaxTaps];
    for (int t = 0; t < taps; ++t) w[t] = _mm_set1_epi16(weight[t]);
    const __m128i zero = _mm_setzero_si128();
    for (; i + 16 <= len; i += 16) {
      __m128i lo = zero, hi = zero;
      for (int t = 0; t < taps; ++t) {
        const __m128i x =
            _mm_loadu_si128(reinterpret_cast<const __m128i*>(rows[t] + i));
        lo = _mm_add_epi16(lo,
                           _mm_mullo_epi16(_mm_unpacklo_epi8(x, zero), w[t]));
        hi = _mm_add_epi16(hi,
                           _mm_mullo_epi16(_mm_unpackhi_epi8(x, zero), w[t]));
      }
      _mm_storeu_si128(reinterpret_cast<__m128i*>(out + i), lo);
      _mm_storeu_si128(reinterpret_cast<__m128i*>(out + i + 8), hi);
    }
  }
#endif
  for (; i < len; ++i) {
    int sum = 0;
    for (int t = 0; t < taps; ++t) sum += weight[t] * rows[t][i];
    out[i] = static_cast<int16_t>(sum);
  }
}

inline void WeightedRowSum(const uint8_t* const* rows, const int16_t* weight,
                           int taps, int len, int16_t* out) {
  switch (taps) {  // the common tap counts, unrolled
    case 1:
      return WeightedRowSumN<1>(rows, weight, taps, len, out);
    case 2:
      return WeightedRowSumN<2>(rows, weight, taps, len, out);
    case 3:
      return WeightedRowSumN<3>(rows, weight, taps, len, out);
    case 4:
      return WeightedRowSumN<4>(rows, weight, taps, len, out);
    case 5:
      return WeightedRowSumN<5>(rows, weight, taps, len, out);
    case 6:
      return WeightedRowSumN<6>(rows, weight, taps, len, out);
    default:
      return WeightedRowSumN<0>(rows, weight, taps, len, out);
  }
}

// out[i] = row[i] as int16, i < len.
inline void WidenRow(const uint8_t* row, int len, int16_t* out) {
  int i = 0;
#ifdef ENVPOOL_LITE_ATARI_SSE2
  const __m128i zero = _mm_setzero_si128();
  for (; i + 16 <= len; i += 16) {
    const __m128i x =
        _mm_loadu_si128(reinterpret_cast<const __m128i*>(row + i));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out + i),
                     _mm_unpacklo_epi8(x, zero));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out + i + 8),
                     _mm_unpackhi_epi8(x, zero));
  }
#endif
  for (; i < len; ++i) out[i] = row[i];
}

#ifdef ENVPOOL_LITE_ATARI_SSE2
// DotProducts (below) for lanes = 8 * blocks; kBlocks > 0 fixes blocks.
template <int kBlocks>
inline void DotProducts8(const int16_t* in, const int32_t* offset,
                         const int16_t* weight, int lanes, int n,
                         int32_t* out) {
  const int blocks = kBlocks > 0 ? kBlocks : lanes / 8;
  auto dot = [&](int j) {
    const int16_t* v = in + offset[j];
    const int16_t* w = weight + static_cast<std::size_t>(j) * 8 * blocks;
    __m128i a =
        _mm_madd_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(v)),
                       _mm_loadu_si128(reinterpret_cast<const __m128i*>(w)));
    for (int b = 1; b < blocks; ++b) {
      a = _mm_add_epi32(
          a, _mm_madd_epi16(
                 _mm_loadu_si128(reinterpret_cast<const __m128i*>(v + 8 * b)),
                 _mm_loadu_si128(reinterpret_cast<const __m128i*>(w + 8 * b))));
    }
    return a;
  };
  for (int j = 0; j < n; j += 4) {
    const __m128i a0 = dot(j), a1 = dot(j + 1), a2 = dot(j + 2),
                  a3 = dot(j + 3);
    // Transpose-and-add: lane u of the result is the sum of a_u's lanes.
    const __m128i s01 =
        _mm_add_epi32(_mm_unpacklo_epi32(a0, a1), _mm_unpackhi_epi32(a0, a1));
    const __m128i s23 =
        _mm_add_epi32(_mm_unpacklo_epi32(a2, a3), _mm_unpackhi_epi32(a2, a3));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out + j),
                     _mm_add_epi32(_mm_unpacklo_epi64(s01, s23),
                                   _mm_unpackhi_epi64(s01, s23)));
  }
}
#endif

// Small dot products, one per output: out[j] = sum_{l < lanes}
// in[offset[j] + l] * weight[j * lanes + l], for j < n (a multiple of 4;
// `in` is readable up to max(offset) + lanes). lanes is 2 (four outputs per
// SSE2 multiply-add), 4 (two) or a multiple of 8.
inline void DotProducts(const int16_t* in, const int32_t* offset,
                        const int16_t* weight, int lanes, int n, int32_t* out) {
#ifdef ENVPOOL_LITE_ATARI_SSE2
  if (lanes == 2) {
    auto pair = [in](int32_t at) {
      int32_t bits;
      std::memcpy(&bits, in + at, 4);
      return _mm_cvtsi32_si128(bits);
    };
    for (int j = 0; j < n; j += 4) {
      const __m128i v = _mm_unpacklo_epi64(
          _mm_unpacklo_epi32(pair(offset[j]), pair(offset[j + 1])),
          _mm_unpacklo_epi32(pair(offset[j + 2]), pair(offset[j + 3])));
      _mm_storeu_si128(
          reinterpret_cast<__m128i*>(out + j),
          _mm_madd_epi16(v, _mm_loadu_si128(reinterpret_cast<const __m128i*>(
                                weight + 2 * j))));
    }
    return;
  }
  if (lanes == 4) {
    for (int j = 0; j < n; j += 4) {
      const int16_t* w = weight + 4 * j;
      const __m128i ab = _mm_unpacklo_epi64(
          _mm_loadl_epi64(reinterpret_cast<const __m128i*>(in + offset[j])),
          _mm_loadl_epi64(
              reinterpret_cast<const __m128i*>(in + offset[j + 1])));
      const __m128i cd = _mm_unpacklo_epi64(
          _mm_loadl_epi64(reinterpret_cast<const __m128i*>(in + offset[j + 2])),
          _mm_loadl_epi64(
              reinterpret_cast<const __m128i*>(in + offset[j + 3])));
      // [a01 a23 b01 b23] and [c01 c23 d01 d23]: pairwise sums of products.
      const __m128 p = _mm_castsi128_ps(_mm_madd_epi16(
          ab, _mm_loadu_si128(reinterpret_cast<const __m128i*>(w))));
      const __m128 q = _mm_castsi128_ps(_mm_madd_epi16(
          cd, _mm_loadu_si128(reinterpret_cast<const __m128i*>(w + 8))));
      const __m128i even =
          _mm_castps_si128(_mm_shuffle_ps(p, q, _MM_SHUFFLE(2, 0, 2, 0)));
      const __m128i odd =
          _mm_castps_si128(_mm_shuffle_ps(p, q, _MM_SHUFFLE(3, 1, 3, 1)));
      _mm_storeu_si128(reinterpret_cast<__m128i*>(out + j),
                       _mm_add_epi32(even, odd));
    }
    return;
  }
  switch (lanes) {
    case 8:
      return DotProducts8<1>(in, offset, weight, lanes, n, out);
    case 16:
      return DotProducts8<2>(in, offset, weight, lanes, n, out);
    default:
      return DotProducts8<0>(in, offset, weight, lanes, n, out);
  }
#else
  for (int j = 0; j < n; ++j) {
    const int16_t* v = in + offset[j];
    const int16_t* w = weight + static_cast<std::size_t>(j) * lanes;
    int32_t sum = 0;
    for (int l = 0; l < lanes; ++l) sum += static_cast<int32_t>(v[l]) * w[l];
    out[j] = sum;
  }
#endif
}

// For images with 2 to 4 channels, the horizontal pass of whole pixels: for
// each output pixel dx < dst_w and channel c < cn,
//   out[dx * cn + c] = sum_{q < n_pairs} in[e] * w0 + in[e + cn] * w1,
//   e = first[dx] + 2 * q * cn + c, (w0, w1) = weight[(dx * n_pairs + q) * 8 +
//   {0, 1}],
// i.e. pair q weighs two neighbouring pixels, all channels in one SSE2
// multiply-add (each weight pair is stored 4 times, once per lane). `in` is
// read up to first[dx] + 2 * n_pairs * cn + 8; out is written up to
// out[dst_w * cn + 3].
template <int kCn, int kPairs>
inline void PixelPairDotsN(const int16_t* in, const int32_t* first,
                           const int16_t* weight, int n_pairs, int dst_w,
                           int32_t* out) {
  if (kPairs > 0) n_pairs = kPairs;
#ifdef ENVPOOL_LITE_ATARI_SSE2
  auto pair =
      [](const int16_t* at) {  // [at[0], at[cn], at[1], at[cn + 1], ...]
        const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(at));
        return _mm_unpacklo_epi16(x, _mm_srli_si128(x, 2 * kCn));
      };
  for (int dx = 0; dx < dst_w; ++dx) {
    const int16_t* v = in + first[dx];
    const int16_t* w = weight + static_cast<std::size_t>(dx) * n_pairs * 8;
    __m128i acc = _mm_madd_epi16(
        pair(v), _mm_loadu_si128(reinterpret_cast<const __m128i*>(w)));
    for (int q = 1; q < n_pairs; ++q) {
      acc = _mm_add_epi32(
          acc,
          _mm_madd_epi16(
              pair(v + 2 * q * kCn),
              _mm_loadu_si128(reinterpret_cast<const __m128i*>(w + 8 * q))));
    }
    // Lanes kCn..3 belong to the next pixel, which overwrites them.
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out + dx * kCn), acc);
  }
#else
  for (int dx = 0; dx < dst_w; ++dx) {
    for (int c = 0; c < kCn; ++c) {
      int32_t sum = 0;
      for (int q = 0; q < n_pairs; ++q) {
        const int e = first[dx] + 2 * q * kCn + c;
        const int16_t* w =
            weight + (static_cast<std::size_t>(dx) * n_pairs + q) * 8;
        sum += in[e] * w[0] + in[e + kCn] * w[1];
      }
      out[dx * kCn + c] = sum;
    }
  }
#endif
}

template <int kCn>
inline void PixelPairDotsCn(const int16_t* in, const int32_t* first,
                            const int16_t* weight, int n_pairs, int dst_w,
                            int32_t* out) {
  switch (n_pairs) {
    case 1:
      return PixelPairDotsN<kCn, 1>(in, first, weight, n_pairs, dst_w, out);
    case 2:
      return PixelPairDotsN<kCn, 2>(in, first, weight, n_pairs, dst_w, out);
    case 3:
      return PixelPairDotsN<kCn, 3>(in, first, weight, n_pairs, dst_w, out);
    default:
      return PixelPairDotsN<kCn, 0>(in, first, weight, n_pairs, dst_w, out);
  }
}

inline void PixelPairDots(const int16_t* in, const int32_t* first,
                          const int16_t* weight, int n_pairs, int cn, int dst_w,
                          int32_t* out) {
  switch (cn) {
    case 2:
      return PixelPairDotsCn<2>(in, first, weight, n_pairs, dst_w, out);
    case 3:
      return PixelPairDotsCn<3>(in, first, weight, n_pairs, dst_w, out);
    default:
      return PixelPairDotsCn<4>(in, first, weight, n_pairs, dst_w, out);
  }
}

// One output row of OpenCV's 2x2 block mean of a one-channel image:
// out[j] = (r0[2j] + r0[2j + 1] + r1[2j] + r1[2j + 1] + 2) >> 2, j < n.
inline void BlockMean2x2Row(const uint8_t* r0, const uint8_t* r1, int n,
                            uint8_t* out) {
  int j = 0;
#ifdef ENVPOOL_LITE_ATARI_SSE2
  const __m128i zero = _mm_setzero_si128();
  const __m128i ones = _mm_set1_epi16(1);
  const __m128i two = _mm_set1_epi16(2);
  for (; j + 8 <= n; j += 8) {
    const __m128i a =
        _mm_loadu_si128(reinterpret_cast<const __m128i*>(r0 + 2 * j));
    const __m128i b =
        _mm_loadu_si128(reinterpret_cast<const __m128i*>(r1 + 2 * j));
    const __m128i lo =
        _mm_add_epi16(_mm_unpacklo_epi8(a, zero), _mm_unpacklo_epi8(b, zero));
    const __m128i hi =
        _mm_add_epi16(_mm_unpackhi_epi8(a, zero), _mm_unpackhi_epi8(b, zero));
    const __m128i sums =
        _mm_packs_epi32(_mm_madd_epi16(lo, ones), _mm_madd_epi16(hi, ones));
    const __m128i mean = _mm_srai_epi16(_mm_add_epi16(sums, two), 2);
    _mm_storel_epi64(reinterpret_cast<__m128i*>(out + j),
                     _mm_packus_epi16(mean, mean));
  }
#endif
  for (; j < n; ++j) {
    out[j] = static_cast<uint8_t>(
        (r0[2 * j] + r0[2 * j + 1] + r1[2 * j] + r1[2 * j + 1] + 2) >> 2);
  }
}

}  // namespace detail

// Resizes a uint8 image stored HWC (rows contiguous, channels interleaved) to
// dst_h x dst_w, with the same output as cv2.resize(src, (dst_w, dst_h),
// interpolation=cv2.INTER_AREA or cv2.INTER_LINEAR). The constructor builds
// every table; Run() allocates nothing but uses scratch buffers held by the
// Resizer, so one Resizer must not run on two threads at once.
class Resizer {
 public:
  enum class Method { kArea, kBilinear };  // cv2.INTER_AREA, cv2.INTER_LINEAR

  Resizer(int src_h, int src_w, int dst_h, int dst_w, int channels,
          Method method)
      : src_h_(src_h),
        src_w_(src_w),
        dst_h_(dst_h),
        dst_w_(dst_w),
        cn_(channels) {
    constexpr int kMaxSide = 1 << 15;
    if (src_h <= 0 || src_w <= 0 || dst_h <= 0 || dst_w <= 0 || channels <= 0 ||
        src_h > kMaxSide || src_w > kMaxSide || dst_h > kMaxSide ||
        dst_w > kMaxSide || channels > 64) {
      throw std::invalid_argument(
          "Resizer: bad sizes " + std::to_string(src_h) + "x" +
          std::to_string(src_w) + "x" + std::to_string(channels) + " -> " +
          std::to_string(dst_h) + "x" + std::to_string(dst_w));
    }
    src_row_ = src_w * channels;
    n_ = dst_w * channels;
    n4_ = detail::RoundUp(n_, 4);
    n16_ = detail::RoundUp(n_, 16);
    if (src_h == dst_h && src_w == dst_w) {
      path_ = Path::kCopy;
      return;
    }
    // OpenCV's dispatch, with its double-precision scale factors.
    const double scale_x = 1.0 / (static_cast<double>(dst_w) / src_w);
    const double scale_y = 1.0 / (static_cast<double>(dst_h) / src_h);
    const double int_scale_x = std::nearbyint(scale_x);
    const double int_scale_y = std::nearbyint(scale_y);
    const bool integer_factors =
        std::abs(scale_x - int_scale_x) < 2.220446049250313e-16 &&
        std::abs(scale_y - int_scale_y) < 2.220446049250313e-16;
    bool area = method == Method::kArea;
    if (!area && integer_factors && int_scale_x == 2 && int_scale_y == 2) {
      area = true;  // OpenCV: linear 2x2 shrinking is the area block mean
    }
    if (area && scale_x >= 1 && scale_y >= 1) {
      if (integer_factors) {
        SetUpBlockMean(static_cast<int>(int_scale_y),
                       static_cast<int>(int_scale_x));
      } else {
        SetUpAreaMean(scale_y, scale_x);
      }
    } else {
      SetUpLinear(/*area_mode=*/area);
    }
  }

  int src_h() const { return src_h_; }
  int src_w() const { return src_w_; }
  int dst_h() const { return dst_h_; }
  int dst_w() const { return dst_w_; }
  int channels() const { return cn_; }
  // Which algorithm runs: "copy", "area-block-2x2" (2x2 block mean of one
  // channel), "area-block" (other integer factors), "area-mean" (INTER_AREA
  // by non-integer factors), "linear", or the slower exact fallbacks for
  // unusual size ratios, "area-float" and "area-block-scalar".
  const char* algorithm() const {
    switch (path_) {
      case Path::kCopy:
        return "copy";
      case Path::kBlockMean2x2Gray:
        return "area-block-2x2";
      case Path::kBlockMean:
        return "area-block";
      case Path::kAreaMean:
        return "area-mean";
      case Path::kAreaFloat:
        return "area-float";
      case Path::kBlockMeanScalar:
        return "area-block-scalar";
      case Path::kLinear:
        return "linear";
    }
    return "?";
  }

  // src: src_h x src_w x channels; dst: dst_h x dst_w x channels. They must
  // not overlap.
  void Run(const uint8_t* src, uint8_t* dst) const {
    switch (path_) {
      case Path::kCopy:
        std::memcpy(dst, src, static_cast<std::size_t>(src_h_) * src_row_);
        return;
      case Path::kBlockMean2x2Gray:
        for (int dy = 0; dy < dst_h_; ++dy) {
          const uint8_t* row =
              src + static_cast<std::size_t>(2 * dy) * src_row_;
          detail::BlockMean2x2Row(row, row + src_row_, n_,
                                  dst + static_cast<std::size_t>(dy) * n_);
        }
        return;
      case Path::kBlockMean:
      case Path::kAreaMean:
        RunWeightedSums(src, dst);
        return;
      case Path::kAreaFloat:
        for (int dy = 0; dy < dst_h_; ++dy) {
          for (int j = 0; j < n_; ++j) {
            dst[static_cast<std::size_t>(dy) * n_ + j] =
                AreaPixelFloat(src, dy, j);
          }
        }
        return;
      case Path::kBlockMeanScalar:
        RunBlockMeanScalar(src, dst);
        return;
      case Path::kLinear:
        RunLinear(src, dst);
        return;
    }
  }

 private:
  enum class Path {
    kCopy,
    kBlockMean2x2Gray,
    kBlockMean,
    kAreaMean,
    kAreaFloat,
    kBlockMeanScalar,
    kLinear
  };
  // How the exact integer sums N of kBlockMean / kAreaMean become pixels.
  enum class Rounding {
    kHalfUpQuarter,  // (N + 2) >> 2: OpenCV's 2x2 block mean
    kFloatScale,     // rint(float(N) * scale_): other block means
    kExactMean,  // N / D (D = qx * qy) to nearest, near-ties redone in float
  };

  // --- set-up ---------------------------------------------------------------

  // The horizontal pass: output pixel dx = sum of taps[dx] (source column,
  // integer weight; consecutive columns) over each channel. One channel (or
  // more than 4): one small dot product per output element, lane l of
  // output j = dx * cn + c reading source element x_offset_[j] + l (tap k
  // at lane (column_k - first column) * cn). 2 to 4 channels: pixel pairs
  // (see PixelPairDotsN).
  void SetUpHorizontal(
      const std::vector<std::vector<std::pair<int, int>>>& taps) {
    int columns = 1;  // the most source columns one output pixel spans
    for (const auto& t : taps)
      columns = std::max(columns, t.back().first - t.front().first + 1);
    pixel_pairs_ = cn_ >= 2 && cn_ <= 4 ? (columns + 1) / 2 : 0;
    if (pixel_pairs_ > 0) {
      x_offset_.assign(dst_w_, 0);
      x_weight_.assign(static_cast<std::size_t>(dst_w_) * pixel_pairs_ * 8, 0);
      for (int dx = 0; dx < dst_w_; ++dx) {
        const int first = taps[dx].front().first;
        x_offset_[dx] = first * cn_;
        for (const auto& [s, w] : taps[dx]) {
          const int q = (s - first) / 2, half = (s - first) % 2;
          for (int lane = 0; lane < 4; ++lane) {
            x_weight_[(static_cast<std::size_t>(dx) * pixel_pairs_ + q) * 8 +
                      2 * lane + half] = static_cast<int16_t>(w);
          }
        }
      }
    } else {
      const int span = (columns - 1) * cn_ + 1;
      x_lanes_ = span <= 2 ? 2 : (span <= 4 ? 4 : detail::RoundUp(span, 8));
      x_offset_.assign(n4_, 0);
      x_weight_.assign(static_cast<std::size_t>(n4_) * x_lanes_, 0);
      for (int dx = 0; dx < dst_w_; ++dx) {
        const int first = taps[dx].front().first;
        for (int c = 0; c < cn_; ++c) {
          const int j = dx * cn_ + c;
          x_offset_[j] = first * cn_ + c;
          for (const auto& [s, w] : taps[dx]) {
            x_weight_[static_cast<std::size_t>(j) * x_lanes_ +
                      (s - first) * cn_] = static_cast<int16_t>(w);
          }
        }
      }
    }
    // int16 rows are read past their end (zeros there) by both kernels.
    row16_.assign(static_cast<std::size_t>(src_row_) + x_lanes_ + 4 * cn_ + 32,
                  0);
    sums_.assign(n16_ + 4, 0);
    row8_.assign(n16_, 0);
  }

  // sums[0, n_) = the horizontal pass of the int16 row row16_.
  void Horizontal(int32_t* sums) const {
    if (pixel_pairs_ > 0) {
      detail::PixelPairDots(row16_.data(), x_offset_.data(), x_weight_.data(),
                            pixel_pairs_, cn_, dst_w_, sums);
    } else {
      detail::DotProducts(row16_.data(), x_offset_.data(), x_weight_.data(),
                          x_lanes_, n4_, sums);
    }
  }

  // Integer shrink factors: plain block sums.
  void SetUpBlockMean(int ky, int kx) {
    if (ky * 255 > 32767 ||
        kx * ky > 65536) {  // int16 column sums would overflow
      path_ = Path::kBlockMeanScalar;
      block_y_ = ky, block_x_ = kx;
      scale_ = 1.f / static_cast<float>(kx * ky);
      rounding_ = (kx == 2 && ky == 2 && (cn_ == 1 || cn_ == 3 || cn_ == 4))
                      ? Rounding::kHalfUpQuarter
                      : Rounding::kFloatScale;
      return;
    }
    if (kx == 2 && ky == 2 && cn_ == 1) {
      path_ = Path::kBlockMean2x2Gray;
      return;
    }
    path_ = Path::kBlockMean;
    rounding_ = (kx == 2 && ky == 2 && (cn_ == 1 || cn_ == 3 || cn_ == 4))
                    ? Rounding::kHalfUpQuarter
                    : Rounding::kFloatScale;
    scale_ = 1.f / static_cast<float>(kx * ky);
    y_begin_.assign(dst_h_ + 1, 0);
    for (int dy = 0; dy < dst_h_; ++dy) {
      for (int r = 0; r < ky; ++r) {
        y_row_.push_back(dy * ky + r);
        y_mult_.push_back(1);
      }
      y_begin_[dy + 1] = static_cast<int>(y_row_.size());
    }
    std::vector<std::vector<std::pair<int, int>>> taps(dst_w_);
    for (int dx = 0; dx < dst_w_; ++dx) {
      for (int k = 0; k < kx; ++k) taps[dx].push_back({dx * kx + k, 1});
    }
    SetUpHorizontal(taps);
    row_ptrs_.resize(ky);
  }

  // Non-integer shrink factors: OpenCV's area taps, as integers over qx, qy.
  void SetUpAreaMean(double scale_y, double scale_x) {
    const std::vector<detail::Tap> xt =
        detail::AreaTaps(src_w_, dst_w_, scale_x);
    const std::vector<detail::Tap> yt =
        detail::AreaTaps(src_h_, dst_h_, scale_y);
    // The float taps, for the exact fallback.
    x_tap_begin_.assign(dst_w_ + 1, 0);
    for (const auto& t : xt) {
      ++x_tap_begin_[t.dst + 1];
      x_tap_src_.push_back(t.src);
      x_tap_weight_.push_back(t.weight);
    }
    y_begin_.assign(dst_h_ + 1, 0);
    for (const auto& t : yt) {
      ++y_begin_[t.dst + 1];
      y_row_.push_back(t.src);
      y_tap_weight_.push_back(t.weight);
    }
    int max_x_taps = 0, max_y_taps = 0;
    for (int d = 0; d < dst_w_; ++d) {
      max_x_taps = std::max(max_x_taps, x_tap_begin_[d + 1]);
      x_tap_begin_[d + 1] += x_tap_begin_[d];
    }
    for (int d = 0; d < dst_h_; ++d) {
      max_y_taps = std::max(max_y_taps, y_begin_[d + 1]);
      y_begin_[d + 1] += y_begin_[d];
    }
    path_ = Path::kAreaFloat;  // unless the integer form below applies

    // Every weight of OpenCV's table is a float rounding of m / q (m an
    // integer, q = src / gcd(src, dst)): the exact mean is N / (qx * qy).
    const int qx = src_w_ / std::gcd(src_w_, dst_w_);
    const int qy = src_h_ / std::gcd(src_h_, dst_h_);
    const int64_t denominator = static_cast<int64_t>(qx) * qy;
    if (qy * 255 > 32767 || denominator * 255 >= (int64_t{1} << 24)) return;
    constexpr double kUlp = 1.0 / (1 << 24);  // float32 unit roundoff
    auto to_int = [](float weight, int q, int16_t* m) {
      const double exact = static_cast<double>(weight) * q;
      const double rounded = std::nearbyint(exact);
      *m = static_cast<int16_t>(rounded);
      return rounded >= 1 && std::abs(exact - rounded) <= 4 * kUlp * rounded;
    };
    y_mult_.resize(yt.size());
    for (std::size_t t = 0; t < yt.size(); ++t) {
      if (!to_int(yt[t].weight, qy, &y_mult_[t])) return;
    }
    std::vector<std::vector<std::pair<int, int>>> taps(dst_w_);
    for (const auto& t : xt) {
      int16_t m;
      if (!to_int(t.weight, qx, &m)) return;
      taps[t.dst].push_back({t.src, m});
    }
    path_ = Path::kAreaMean;
    rounding_ = Rounding::kExactMean;
    scale_ = 1.f / static_cast<float>(denominator);
    // All terms being positive, OpenCV's float result is within
    // 255 * (x taps + y taps + 4) * ulp of the exact mean N / D (one rounding
    // per weight, product and sum; weights within 4 ulp: +8), and
    // float(N) * scale_ within 256 * 2 * ulp. So when the latter lies
    // farther than both errors from .5 + an integer, both round to the same
    // integer; pixels nearer (in practice: exact ties) are redone in float.
    const double error =
        255.0 * (max_x_taps + max_y_taps + 12) * kUlp + 512.0 * kUlp;
    tie_threshold_ = static_cast<float>(0.5 - 2 * error);  // with a 2x margin
    SetUpHorizontal(taps);
    row_ptrs_.resize(max_y_taps);
    flagged_.assign(n_, 0);
  }

  void SetUpLinear(bool area_mode) {
    path_ = Path::kLinear;
    const std::vector<detail::LinearTap> xt =
        detail::LinearTaps(src_w_, dst_w_, area_mode, true);
    const std::vector<detail::LinearTap> yt =
        detail::LinearTaps(src_h_, dst_h_, area_mode, false);
    std::vector<std::vector<std::pair<int, int>>> taps(dst_w_);
    for (int dx = 0; dx < dst_w_; ++dx) {
      taps[dx] = {{xt[dx].src, xt[dx].w0}, {xt[dx].src + 1, xt[dx].w1}};
    }
    SetUpHorizontal(taps);  // the second tap may read the zero padding
    for (const auto& t : yt) {
      linear_rows_.push_back({std::clamp(t.src, 0, src_h_ - 1),
                              std::clamp(t.src + 1, 0, src_h_ - 1), t.w0,
                              t.w1});
    }
    for (auto& row : linear_cache_) row.assign(n16_ + 4, 0);
  }

  // --- running --------------------------------------------------------------

  // kBlockMean / kAreaMean: per output row, weighted sum of its source rows
  // (int16), horizontal dot products (int32), rounding.
  void RunWeightedSums(const uint8_t* src, uint8_t* dst) const {
    int16_t* row16 = row16_.data();
    int32_t* sums = sums_.data();
    for (int dy = 0; dy < dst_h_; ++dy) {
      const int begin = y_begin_[dy];
      const int taps = y_begin_[dy + 1] - begin;
      for (int t = 0; t < taps; ++t) {
        row_ptrs_[t] =
            src + static_cast<std::size_t>(y_row_[begin + t]) * src_row_;
      }
      detail::WeightedRowSum(row_ptrs_.data(), &y_mult_[begin], taps, src_row_,
                             row16);
      Horizontal(sums);
      uint8_t* out = dst + static_cast<std::size_t>(dy) * n_;
      switch (rounding_) {
        case Rounding::kHalfUpQuarter:
          RoundRow<Rounding::kHalfUpQuarter>(sums, out);
          break;
        case Rounding::kFloatScale:
          RoundRow<Rounding::kFloatScale>(sums, out);
          break;
        case Rounding::kExactMean:
          RoundRow<Rounding::kExactMean>(sums, out);
          for (int f = 0; f < flagged_count_; ++f) {
            out[flagged_[f]] = AreaPixelFloat(src, dy, flagged_[f]);
          }
          break;
      }
    }
  }

  // out[0, n_) = the pixels of the exact sums sums[0, n_) (readable up to
  // n16_). kExactMean rounds N / D, computed as float(N) * scale_
  // (within 2 ulp), to nearest and lists in flagged_ the pixels closer to a
  // .5 boundary than tie_threshold_ allows, for AreaPixelFloat.
  template <Rounding kRounding>
  void RoundRow(const int32_t* sums, uint8_t* out) const {
    flagged_count_ = 0;
#ifdef ENVPOOL_LITE_ATARI_SSE2
    const __m128i two = _mm_set1_epi32(2);
    const __m128 scale = _mm_set1_ps(scale_);
    const __m128 threshold = _mm_set1_ps(tie_threshold_);
    const __m128 abs_mask = _mm_castsi128_ps(_mm_set1_epi32(0x7fffffff));
    uint8_t* row = row8_.data();
    for (int j = 0; j < n_; j += 16) {
      __m128i r[4];
      int near_tie = 0;
      for (int u = 0; u < 4; ++u) {
        const __m128i s =
            _mm_loadu_si128(reinterpret_cast<const __m128i*>(sums + j + 4 * u));
        if (kRounding == Rounding::kHalfUpQuarter) {
          r[u] = _mm_srai_epi32(_mm_add_epi32(s, two), 2);
        } else {
          // cvtps2dq rounds half to even (the default MXCSR mode), like
          // cvRound.
          const __m128 mean = _mm_mul_ps(_mm_cvtepi32_ps(s), scale);
          r[u] = _mm_cvtps_epi32(mean);
          if (kRounding == Rounding::kExactMean) {
            const __m128 distance =
                _mm_and_ps(_mm_sub_ps(mean, _mm_cvtepi32_ps(r[u])), abs_mask);
            near_tie |= _mm_movemask_ps(_mm_cmpge_ps(distance, threshold))
                        << (4 * u);
          }
        }
      }
      _mm_storeu_si128(reinterpret_cast<__m128i*>(row + j),
                       _mm_packus_epi16(_mm_packs_epi32(r[0], r[1]),
                                        _mm_packs_epi32(r[2], r[3])));
      while (near_tie) {  // rare
        const int u = __builtin_ctz(static_cast<unsigned>(near_tie));
        near_tie &= near_tie - 1;
        if (j + u < n_) flagged_[flagged_count_++] = j + u;
      }
    }
    std::memcpy(out, row, n_);
#else
    for (int j = 0; j < n_; ++j) {
      if (kRounding == Rounding::kHalfUpQuarter) {
        out[j] = detail::ClampToU8((sums[j] + 2) >> 2);
      } else {
        const float mean = static_cast<float>(sums[j]) * scale_;
        const float rounded = std::nearbyint(mean);
        out[j] = detail::ClampToU8(static_cast<int>(rounded));
        if (kRounding == Rounding::kExactMean &&
            std::abs(mean - rounded) >= tie_threshold_) {
          flagged_[flagged_count_++] = j;
        }
      }
    }
#endif
  }

  // OpenCV's float computation of one INTER_AREA pixel, in its order:
  // per source row the horizontal weighted sum, then the vertical one.
  uint8_t AreaPixelFloat(const uint8_t* src, int dy, int j) const {
    const int dx = j / cn_;
    const int c = j - dx * cn_;
    float sum = 0.f;
    for (int t = y_begin_[dy]; t < y_begin_[dy + 1]; ++t) {
      const uint8_t* row =
          src + static_cast<std::size_t>(y_row_[t]) * src_row_ + c;
      float h = 0.f;
      for (int k = x_tap_begin_[dx]; k < x_tap_begin_[dx + 1]; ++k) {
        h += static_cast<float>(row[x_tap_src_[k] * cn_]) * x_tap_weight_[k];
      }
      sum += y_tap_weight_[t] * h;
    }
    return detail::ClampToU8(static_cast<int>(std::nearbyint(sum)));
  }

  // Block means too large for int16 column sums (factors above 128).
  void RunBlockMeanScalar(const uint8_t* src, uint8_t* dst) const {
    for (int dy = 0; dy < dst_h_; ++dy) {
      for (int dx = 0; dx < dst_w_; ++dx) {
        for (int c = 0; c < cn_; ++c) {
          int32_t sum = 0;
          for (int r = 0; r < block_y_; ++r) {
            const uint8_t* row =
                src + static_cast<std::size_t>(dy * block_y_ + r) * src_row_;
            for (int k = 0; k < block_x_; ++k)
              sum += row[(dx * block_x_ + k) * cn_ + c];
          }
          const std::size_t j =
              static_cast<std::size_t>(dy) * n_ + dx * cn_ + c;
          dst[j] = rounding_ == Rounding::kHalfUpQuarter
                       ? detail::ClampToU8((sum + 2) >> 2)
                       : detail::ClampToU8(static_cast<int>(
                             std::nearbyint(static_cast<float>(sum) * scale_)));
        }
      }
    }
  }

  // The horizontal pass of source row `row` (int32, exact), cached: output
  // rows mostly share source rows with their neighbours.
  const int32_t* LinearRow(const uint8_t* src, int row, int keep) const {
    for (int s = 0; s < 2; ++s) {
      if (linear_cached_[s] == row) return linear_cache_[s].data();
    }
    // Evict the slot not holding `keep`; with nothing to keep, the older row.
    const int s = keep >= 0 ? (linear_cached_[0] == keep ? 1 : 0)
                            : (linear_cached_[0] <= linear_cached_[1] ? 0 : 1);
    detail::WidenRow(src + static_cast<std::size_t>(row) * src_row_, src_row_,
                     row16_.data());
    Horizontal(linear_cache_[s].data());
    linear_cached_[s] = row;
    return linear_cache_[s].data();
  }

  void RunLinear(const uint8_t* src, uint8_t* dst) const {
    linear_cached_[0] = linear_cached_[1] = -1;
    for (int dy = 0; dy < dst_h_; ++dy) {
      const LinearRows& r = linear_rows_[dy];
      const int32_t* h0 = LinearRow(src, r.row0, -1);
      const int32_t* h1 = LinearRow(src, r.row1, r.row0);
      uint8_t* out = dst + static_cast<std::size_t>(dy) * n_;
#ifdef ENVPOOL_LITE_ATARI_SSE2
      // OpenCV's vertical pass in 16-bit lanes (h >> 4 fits in int16).
      const __m128i b0 = _mm_set1_epi16(r.w0);
      const __m128i b1 = _mm_set1_epi16(r.w1);
      const __m128i two = _mm_set1_epi16(2);
      auto load = [](const int32_t* p) {
        return _mm_packs_epi32(
            _mm_srai_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)),
                           4),
            _mm_srai_epi32(
                _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 4)), 4));
      };
      uint8_t* row = row8_.data();
      for (int j = 0; j < n_; j += 8) {
        const __m128i v = _mm_srai_epi16(
            _mm_add_epi16(_mm_add_epi16(_mm_mulhi_epi16(load(h0 + j), b0),
                                        _mm_mulhi_epi16(load(h1 + j), b1)),
                          two),
            2);
        _mm_storel_epi64(reinterpret_cast<__m128i*>(row + j),
                         _mm_packus_epi16(v, v));
      }
      std::memcpy(out, row, n_);
#else
      for (int j = 0; j < n_; ++j) {
        out[j] = detail::ClampToU8(((((h0[j] >> 4) * r.w0) >> 16) +
                                    (((h1[j] >> 4) * r.w1) >> 16) + 2) >>
                                   2);
      }
#endif
    }
  }

  struct LinearRows {
    int row0, row1;
    int16_t w0, w1;
  };

  int src_h_, src_w_, dst_h_, dst_w_, cn_;
  int src_row_ = 0;  // src_w * channels
  int n_ = 0;        // dst_w * channels
  int n4_ = 0;       // n_ rounded up to a multiple of 4 (table padding)
  int n16_ = 0;      // and to a multiple of 16 (row buffers)
  Path path_ = Path::kCopy;
  Rounding rounding_ = Rounding::kFloatScale;
  float scale_ = 1.f;  // 1 / block area, or 1 / D for kExactMean
  float tie_threshold_ = 0.5f;
  int block_y_ = 1, block_x_ = 1;

  // Vertical taps per output row: y_begin_[dy] .. y_begin_[dy + 1] index
  // y_row_ (source row), y_mult_ (integer weight), y_tap_weight_ (float).
  std::vector<int> y_begin_, y_row_;
  std::vector<int16_t> y_mult_;
  std::vector<float> y_tap_weight_;
  // OpenCV's float horizontal taps (kAreaMean fallback, kAreaFloat).
  std::vector<int> x_tap_begin_, x_tap_src_;
  std::vector<float> x_tap_weight_;
  // Horizontal pass tables (see SetUpHorizontal).
  int x_lanes_ = 4;
  int pixel_pairs_ = 0;  // > 0: the pixel-pair kernel, with this many pairs
  std::vector<int32_t> x_offset_;
  std::vector<int16_t> x_weight_;
  std::vector<LinearRows> linear_rows_;

  // Scratch.
  mutable std::vector<const uint8_t*> row_ptrs_;
  mutable std::vector<int16_t> row16_;
  mutable std::vector<int32_t> sums_;
  mutable std::vector<uint8_t> row8_;
  mutable std::vector<int> flagged_;  // near-ties of the current row
  mutable int flagged_count_ = 0;
  mutable std::vector<int32_t> linear_cache_[2];
  mutable int linear_cached_[2] = {-1, -1};
};

}  // namespace envpool_lite::image
