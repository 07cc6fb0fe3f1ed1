// AreaResize: resizes one 8-bit image plane by area averaging, the way
// OpenCV's INTER_AREA does when it shrinks an image (each output pixel is
// the mean of the source area it covers, partly covered source pixels
// weighted by their coverage), so an observation matches
// cv2.resize(screen, (w, h), interpolation=cv2.INTER_AREA) to within one
// grey level. Same size: a copy.
//
// Exact integer arithmetic: along an axis scaled from `in` to `out` pixels,
// with p = in / gcd(in, out) and q = out / gcd(in, out), every coverage
// weight is an integer over p, so an output pixel is an integer sum over
// p_y * p_x, rounded half up. Separable: a vertical pass sums the covered
// source rows over the whole width in 16 bits (vectorised by the compiler),
// then a horizontal pass takes each output pixel's (at most 16) columns with
// SSE2's pmaddwd. Sizes outside those bounds (an extreme shrink) take a
// plain float path.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace envpool_lite {

class AreaResize {
 public:
  AreaResize() = default;
  AreaResize(int in_h, int in_w, int out_h, int out_w)
      : in_h_(in_h), in_w_(in_w), out_h_(out_h), out_w_(out_w),
        y_(in_h, out_h, 1), x_(in_w, out_w, 8) {
    // 16 bits hold a vertical sum (255 * p_y) and pmaddwd's signed inputs.
    fast_ = 255 * y_.p <= 32767 && x_.taps <= 16 &&
            static_cast<int64_t>(255) * y_.p * x_.p < (int64_t{1} << 30);
    // floor(n / 2D) == (n * magic) >> shift for all n < 2^31 (n * magic fits
    // 64 bits: 2D < 2^31, so shift <= 62 and magic < 2^(shift - 30)).
    d_ = static_cast<uint64_t>(y_.p) * x_.p;
    const uint64_t two_d = 2 * d_;
    shift_ = 31;
    while ((uint64_t{1} << (shift_ - 31)) < two_d) ++shift_;
    magic_ = (uint64_t{1} << shift_) / two_d + 1;
    rows16_.assign(static_cast<std::size_t>(in_w) + x_.taps, 0);
    rowsf_.assign(static_cast<std::size_t>(in_w) + x_.taps, 0.0f);
  }

  bool Identity() const { return in_h_ == out_h_ && in_w_ == out_w_; }

  // src: in_h x in_w (row stride in_w); dst: out_h x out_w.
  void operator()(const uint8_t* __restrict src, uint8_t* __restrict dst) {
    if (Identity()) {
      std::memcpy(dst, src, static_cast<std::size_t>(in_h_) * in_w_);
    } else if (fast_) {
      Fast(src, dst);
    } else {
      Float(src, dst);
    }
  }

 private:
  // For each output pixel along one axis: the first source pixel it covers
  // and the integer weights of the `taps` source pixels from there (coverage
  // times q: they sum to p; zero-padded, and shifted back near the end so
  // that reads stay inside the row).
  struct Axis {
    Axis() = default;
    Axis(int in, int out, int align) : first(out) {
      const int g = std::gcd(in, out);
      p = in / g;
      const int q = out / g;
      std::vector<std::vector<int>> w(out);
      for (int o = 0; o < out; ++o) {
        // Output o covers [o * p, (o + 1) * p) in units of 1/q source pixel.
        const int64_t lo = static_cast<int64_t>(o) * p, hi = lo + p;
        first[o] = static_cast<int>(lo / q);
        for (int64_t i = first[o]; i * q < hi; ++i) {
          w[o].push_back(static_cast<int>(std::min(hi, (i + 1) * q) -
                                          std::max(lo, i * q)));
        }
        taps = std::max(taps, static_cast<int>(w[o].size()));
      }
      taps = (taps + align - 1) / align * align;
      weight.assign(static_cast<std::size_t>(out) * taps, 0);
      for (int o = 0; o < out; ++o) {
        const int shift = std::max(0, first[o] + static_cast<int>(w[o].size()) - in);
        first[o] -= shift;  // never: coverage ends inside the row
        for (std::size_t k = 0; k < w[o].size(); ++k) {
          weight[static_cast<std::size_t>(o) * taps + shift + k] =
              static_cast<int16_t>(w[o][k]);
        }
      }
    }
    int p = 1;
    int taps = 1;
    std::vector<int> first;
    std::vector<int16_t> weight;
  };

  void Fast(const uint8_t* __restrict src, uint8_t* __restrict dst) {
    int16_t* __restrict row = rows16_.data();
    for (int y = 0; y < out_h_; ++y) {
      const int16_t* wy = &y_.weight[static_cast<std::size_t>(y) * y_.taps];
      const uint8_t* in = src + static_cast<std::size_t>(y_.first[y]) * in_w_;
      {
        const int16_t w = wy[0];
        for (int x = 0; x < in_w_; ++x) row[x] = static_cast<int16_t>(w * in[x]);
      }
      for (int k = 1; k < y_.taps && wy[k] != 0; ++k) {
        const int16_t w = wy[k];
        const uint8_t* r = in + static_cast<std::size_t>(k) * in_w_;
        for (int x = 0; x < in_w_; ++x) {
          row[x] = static_cast<int16_t>(row[x] + w * r[x]);
        }
      }
      uint8_t* out = dst + static_cast<std::size_t>(y) * out_w_;
      int x = 0;
#if defined(__SSE2__)
      for (; x + 4 <= out_w_; x += 4) {
        alignas(16) int32_t sums[4];
        _mm_store_si128(reinterpret_cast<__m128i*>(sums), Dot4(row, x));
        for (int i = 0; i < 4; ++i) out[x + i] = Round(sums[i]);
      }
#endif
      for (; x < out_w_; ++x) {
        out[x] = Round(Dot(row + x_.first[x],
                           &x_.weight[static_cast<std::size_t>(x) * x_.taps]));
      }
    }
  }

#if defined(__SSE2__)
  __m128i Madd(const int16_t* row, int x) const {
    const int16_t* r = row + x_.first[x];
    const int16_t* w = &x_.weight[static_cast<std::size_t>(x) * x_.taps];
    __m128i acc = _mm_madd_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(r)),
                                 _mm_loadu_si128(reinterpret_cast<const __m128i*>(w)));
    if (x_.taps > 8) {
      acc = _mm_add_epi32(
          acc, _mm_madd_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(r + 8)),
                              _mm_loadu_si128(reinterpret_cast<const __m128i*>(w + 8))));
    }
    return acc;
  }

  // The sums of output pixels x .. x + 3, one per lane.
  __m128i Dot4(const int16_t* row, int x) const {
    const __m128i a0 = Madd(row, x), a1 = Madd(row, x + 1);
    const __m128i a2 = Madd(row, x + 2), a3 = Madd(row, x + 3);
    const __m128i s01 = _mm_add_epi32(_mm_unpacklo_epi32(a0, a1), _mm_unpackhi_epi32(a0, a1));
    const __m128i s23 = _mm_add_epi32(_mm_unpacklo_epi32(a2, a3), _mm_unpackhi_epi32(a2, a3));
    return _mm_add_epi32(_mm_unpacklo_epi64(s01, s23), _mm_unpackhi_epi64(s01, s23));
  }
#endif

  // The sum of taps products (taps a multiple of 8; `row` is padded).
  int32_t Dot(const int16_t* row, const int16_t* w) const {
#if defined(__SSE2__)
    __m128i acc = _mm_madd_epi16(
        _mm_loadu_si128(reinterpret_cast<const __m128i*>(row)),
        _mm_loadu_si128(reinterpret_cast<const __m128i*>(w)));
    if (x_.taps > 8) {
      acc = _mm_add_epi32(
          acc, _mm_madd_epi16(
                   _mm_loadu_si128(reinterpret_cast<const __m128i*>(row + 8)),
                   _mm_loadu_si128(reinterpret_cast<const __m128i*>(w + 8))));
    }
    acc = _mm_add_epi32(acc, _mm_shuffle_epi32(acc, 0x4e));
    acc = _mm_add_epi32(acc, _mm_shuffle_epi32(acc, 0xb1));
    return _mm_cvtsi128_si32(acc);
#else
    int32_t sum = 0;
    for (int k = 0; k < x_.taps; ++k) sum += int32_t{row[k]} * w[k];
    return sum;
#endif
  }

  // sum / (p_y * p_x), rounded half up: floor((2 sum + D) / 2D) with D =
  // p_y * p_x, as a multiplication by a reciprocal that is exact for every
  // sum the fast path can produce (0 <= 2 sum + D < 2^31).
  uint8_t Round(int32_t sum) const {
    const uint64_t n = 2 * static_cast<uint64_t>(sum) + d_;
    const uint64_t v = (n * magic_) >> shift_;
    return static_cast<uint8_t>(v > 255 ? 255 : v);
  }

  void Float(const uint8_t* __restrict src, uint8_t* __restrict dst) {
    float* __restrict row = rowsf_.data();
    const float norm = static_cast<float>(1.0 / (static_cast<double>(y_.p) * x_.p));
    for (int y = 0; y < out_h_; ++y) {
      const int16_t* wy = &y_.weight[static_cast<std::size_t>(y) * y_.taps];
      const uint8_t* in = src + static_cast<std::size_t>(y_.first[y]) * in_w_;
      for (int x = 0; x < in_w_; ++x) row[x] = static_cast<float>(wy[0]) * in[x];
      for (int k = 1; k < y_.taps; ++k) {
        const float w = wy[k];
        const uint8_t* r = in + static_cast<std::size_t>(k) * in_w_;
        for (int x = 0; x < in_w_; ++x) row[x] += w * r[x];
      }
      uint8_t* out = dst + static_cast<std::size_t>(y) * out_w_;
      for (int x = 0; x < out_w_; ++x) {
        const int16_t* wx = &x_.weight[static_cast<std::size_t>(x) * x_.taps];
        const float* r = row + x_.first[x];
        float sum = 0.0f;
        for (int k = 0; k < x_.taps; ++k) sum += wx[k] * r[k];
        long v = std::lrint(sum * norm);
        out[x] = static_cast<uint8_t>(v < 0 ? 0 : (v > 255 ? 255 : v));
      }
    }
  }

  int in_h_ = 0, in_w_ = 0, out_h_ = 0, out_w_ = 0;
  Axis y_, x_;
  bool fast_ = false;
  uint64_t d_ = 1, magic_ = 1;
  int shift_ = 31;
  std::vector<int16_t> rows16_;
  std::vector<float> rowsf_;
};

}  // namespace envpool_lite
