// Port of highway_env/utils.py (highway-env 1.12.1), plus the numerics that
// every highway header shares: the common types (Vec2, LaneIndex, Route,
// Interval), numpy's own math loops (Np()), numpy's BLAS (Dot, Norm, and the
// small matrix products numpy sends to BLAS), numpy's standard normal, and a
// few Python semantics helpers (PyMax, PyMin, Clip, FloorMod, Pow2).
//
// The uncertainty helpers (confidence_ellipsoid, confidence_polytope,
// is_valid_observation, is_consistent_dataset) and the config / class_path
// helpers are not ported.
#pragma once

#include <numpy/random/bitgen.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/config.h"
#include "refkit/numpy/blas.h"
#include "refkit/numpy/loops.h"
#include "refkit/numpy/math.h"
#include "refkit/numpy/random.h"

// numpy's Generator.standard_normal (the ziggurat), from libnpyrandom.a.
extern "C" double random_standard_normal(bitgen_t* bitgen_state);

namespace envpool_lite::highway {

// ---------------------------------------------------------------------------
// Common types.
// ---------------------------------------------------------------------------

// np.array of two float64 (positions, velocities, directions, ...).
using Vec2 = std::array<double, 2>;

// Python's LaneIndex = tuple[str, str, int]: (origin node, destination node,
// lane id). The id may be None in Python (routes planned by
// ControlledVehicle.plan_route_to hold (from, to, None)): that is
// LaneIndex::kNone. Negative ids index from the end, as in Python
// (observation.py asks for ("1", "2", -1)).
struct LaneIndex {
  static constexpr int64_t kNone = std::numeric_limits<int64_t>::min();

  std::string from;
  std::string to;
  int64_t id = 0;

  // `lane_index[2] is not None`
  bool HasId() const { return id != kNone; }
  // A Python `None` lane index (a RoadObject made without a road).
  bool IsNone() const { return from.empty() && to.empty(); }
  // `lane_index[:2] == other[:2]`
  bool SameRoad(const LaneIndex& other) const {
    return from == other.from && to == other.to;
  }
  bool operator==(const LaneIndex& other) const {
    return from == other.from && to == other.to && id == other.id;
  }
  bool operator!=(const LaneIndex& other) const { return !(*this == other); }
};

using Route = std::vector<LaneIndex>;
using Interval = std::array<double, 2>;

// Elementwise float64 ndarray arithmetic on Vec2 (plain IEEE, as numpy).
inline Vec2 operator+(const Vec2& a, const Vec2& b) {
  return {a[0] + b[0], a[1] + b[1]};
}
inline Vec2 operator-(const Vec2& a, const Vec2& b) {
  return {a[0] - b[0], a[1] - b[1]};
}
inline Vec2 operator-(const Vec2& a) { return {-a[0], -a[1]}; }
// `s * v` (scalar times array: each element s * v[i]).
inline Vec2 operator*(double s, const Vec2& v) { return {s * v[0], s * v[1]}; }
// `v * s` (each element v[i] * s).
inline Vec2 operator*(const Vec2& v, double s) { return {v[0] * s, v[1] * s}; }
inline Vec2 operator/(const Vec2& v, double s) { return {v[0] / s, v[1] / s}; }
inline Vec2& operator+=(Vec2& a, const Vec2& b) {
  a[0] += b[0];
  a[1] += b[1];
  return a;
}
inline Vec2& operator-=(Vec2& a, const Vec2& b) {
  a[0] -= b[0];
  a[1] -= b[1];
  return a;
}

// ---------------------------------------------------------------------------
// numpy's math loops and BLAS.
// ---------------------------------------------------------------------------

using numpy_math::FloorMod;
using numpy_math::kPi;
using numpy_math::Pow2;

namespace detail {
inline NumpyMath& NumpyMathStorage() {
  static NumpyMath math;  // libm until SetNumpy
  return math;
}
inline const NumpyBlas*& NumpyBlasStorage() {
  static const NumpyBlas* blas = &NumpyBlas::Load("");  // plain loops
  return blas;
}
inline std::once_flag& NumpyOnce() {
  static std::once_flag once;
  return once;
}

// How the BLAS computes the ddot of two 2-vectors, found by asking it
// (Dot2FormOf): a 2-vector's np.dot / np.linalg.norm is the simulator's
// most frequent numpy call (every lane coordinate, every distance), and a
// call into the library costs more than the arithmetic. The candidates are
// the ways a ddot kernel's loop (dot = 0; dot += x[i] * y[i]) can be
// compiled: plain, or contracted into fused multiply-adds.
enum class Dot2Form { kLibrary, kPlain, kFused };
inline double Dot2Plain(const double* a, const double* b) {
  double s = 0.0;
  s += a[0] * b[0];
  s += a[1] * b[1];
  return s;
}
inline double Dot2Fused(const double* a, const double* b) {
  return std::fma(a[1], b[1], std::fma(a[0], b[0], 0.0));
}
// The one candidate that equals the library on 20,000 probes (random
// magnitudes from 1e-30 to 1e30, both signs, signed zeros), or kLibrary
// (keep calling it) when none or both do.
inline Dot2Form Dot2FormOf(const NumpyBlas& blas) {
  uint64_t state = 0x9e3779b97f4a7c15ULL;
  auto next = [&state]() {  // splitmix64
    uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  };
  auto value = [&next]() {
    const uint64_t r = next();
    if ((r & 63) == 0) return (r & 64) ? -0.0 : 0.0;
    const double mantissa = static_cast<double>(r >> 11) * 0x1.0p-53 + 0.5;
    const int exponent = static_cast<int>((r >> 6) % 200) - 100;
    return ((r & 128) ? -1.0 : 1.0) * std::ldexp(mantissa, exponent);
  };
  bool plain = true, fused = true;
  auto same = [](double x, double y) {
    return std::memcmp(&x, &y, sizeof(double)) == 0;
  };
  for (int i = 0; i < 20000 && (plain || fused); ++i) {
    const double a[2] = {value(), value()};
    double b[2] = {value(), value()};
    if (i % 2 == 0) b[1] = -a[0] * b[0] / (a[1] == 0 ? 1 : a[1]);  // cancel
    const double library = blas.Dot(a, b, 2);
    plain = plain && same(library, Dot2Plain(a, b));
    fused = fused && same(library, Dot2Fused(a, b));
  }
  if (plain == fused) return Dot2Form::kLibrary;
  return plain ? Dot2Form::kPlain : Dot2Form::kFused;
}
inline Dot2Form& Dot2FormStorage() {
  static Dot2Form form = Dot2Form::kPlain;  // NumpyBlas's plain loop
  return form;
}

// The same for the two-term sums of a 2x2 matrix product (dgemv's m @ v,
// dgemm's rotation of a polygon's points): x0 * y0 + x1 * y1 computed plain,
// or with one product fused into the other's sum, either way round.
enum class Sum2Form { kLibrary, kPlain, kFusedLast, kFusedFirst };
inline double Sum2(Sum2Form form, double x0, double y0, double x1, double y1) {
  switch (form) {
    case Sum2Form::kPlain:
      return x0 * y0 + x1 * y1;
    case Sum2Form::kFusedLast:
      return std::fma(x1, y1, x0 * y0);
    default:
      return std::fma(x0, y0, x1 * y1);
  }
}
struct Sum2Forms {
  Sum2Form matvec = Sum2Form::kPlain;  // NumpyBlas's plain loops
  Sum2Form points = Sum2Form::kPlain;
};
inline Sum2Forms& Sum2FormsStorage() {
  static Sum2Forms forms;
  return forms;
}
// The one candidate form that equals `library` (which fills n outputs from
// the 4 + 2 * rows inputs) on every probe, or kLibrary.
template <typename Library, typename Candidate>
inline Sum2Form Sum2FormOf(Library library, Candidate candidate) {
  uint64_t state = 0x2545f4914f6cdd1dULL;
  auto value = [&state]() {
    uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    z ^= z >> 31;
    const double mantissa = static_cast<double>(z >> 11) * 0x1.0p-53 + 0.5;
    const int exponent = static_cast<int>((z >> 6) % 60) - 30;
    return ((z & 1) ? -1.0 : 1.0) * std::ldexp(mantissa, exponent);
  };
  bool ok[3] = {true, true, true};
  const Sum2Form forms[3] = {Sum2Form::kPlain, Sum2Form::kFusedLast,
                             Sum2Form::kFusedFirst};
  for (int probe = 0; probe < 4000; ++probe) {
    double m[4], p[10], out[10];
    for (double& x : m) x = value();
    for (double& x : p) x = value();
    const int n = library(m, p, out);
    for (int f = 0; f < 3; ++f) {
      for (int i = 0; i < n && ok[f]; ++i) {
        const double c = candidate(forms[f], m, p, i);
        ok[f] = std::memcmp(&c, &out[i], sizeof(double)) == 0;
      }
    }
  }
  if (ok[0] + ok[1] + ok[2] != 1) return Sum2Form::kLibrary;
  return ok[0] ? forms[0] : ok[1] ? forms[1] : forms[2];
}
}  // namespace detail

// Installs numpy's ufunc loops (the "numpy_loops" option) and numpy's BLAS
// (the "numpy_blas" option, "" for plain loops). The env constructor calls it;
// only the first call in the process takes effect (envs are built
// concurrently from pool threads: std::call_once makes the others wait until
// the first has finished).
inline void SetNumpy(const NamedNumbers& numpy_loops,
                     const std::string& numpy_blas_path) {
  std::call_once(detail::NumpyOnce(), [&] {
    detail::NumpyMathStorage() = NumpyMath(numpy_loops);
    detail::NumpyBlasStorage() = &NumpyBlas::Load(numpy_blas_path);
    const NumpyBlas& blas = *detail::NumpyBlasStorage();
    detail::Dot2FormStorage() = detail::Dot2FormOf(blas);
    detail::Sum2Forms forms;
    // m (2x2) @ v: out[i] = m[i][0] * v[0] + m[i][1] * v[1].
    forms.matvec = detail::Sum2FormOf(
        [&blas](const double* m, const double* p, double* out) {
          blas.MatVec(m, 2, 2, p, out);
          return 2;
        },
        [](detail::Sum2Form f, const double* m, const double* p, int i) {
          return detail::Sum2(f, m[2 * i], p[0], m[2 * i + 1], p[1]);
        });
    // (m @ points.T).T for 5 points, as MatTimesPoints asks the BLAS:
    // out[r][c] = points[r][0] * m[c][0] + points[r][1] * m[c][1].
    forms.points = detail::Sum2FormOf(
        [&blas](const double* m, const double* p, double* out) {
          double a[15], mt[9] = {m[0], m[2], 0.0, m[1], m[3], 0.0, 0, 0, 0};
          double o[15];
          for (int r = 0; r < 5; ++r) {
            a[3 * r] = p[2 * r];
            a[3 * r + 1] = p[2 * r + 1];
            a[3 * r + 2] = 0.0;
          }
          blas.MatMat3(a, 5, mt, o);
          for (int r = 0; r < 5; ++r) {
            out[2 * r] = o[3 * r];
            out[2 * r + 1] = o[3 * r + 1];
          }
          return 10;
        },
        [](detail::Sum2Form f, const double* m, const double* p, int i) {
          const int r = i / 2, c = i % 2;
          return detail::Sum2(f, p[2 * r], m[2 * c], p[2 * r + 1],
                              m[2 * c + 1]);
        });
    detail::Sum2FormsStorage() = forms;
  });
}

// numpy's float64 ufunc loops: Np().Cos(x) is np.cos(x), etc., each
// remembered for its last arguments. A call into numpy's loop for one value
// costs more than the simulator's own arithmetic, and the same arguments
// come back often (headings and steering angles of 0 on a straight lane, a
// vehicle's heading read several times a step): a small table per thread and
// function, keyed by the arguments' bits, returns numpy's own earlier result.
class RememberedMath {
 public:
  double Cos(double x) const { return One(kCos, x, &NumpyMath::Cos); }
  double Sin(double x) const { return One(kSin, x, &NumpyMath::Sin); }
  double Tan(double x) const { return One(kTan, x, &NumpyMath::Tan); }
  double Arctan(double x) const { return One(kArctan, x, &NumpyMath::Arctan); }
  double Arcsin(double x) const { return One(kArcsin, x, &NumpyMath::Arcsin); }
  double Exp(double x) const { return One(kExp, x, &NumpyMath::Exp); }
  double Arctan2(double y, double x) const {
    return Two(kArctan2, y, x, &NumpyMath::Arctan2);
  }
  double Power(double a, double b) const {
    return Two(kPower, a, b, &NumpyMath::Power);
  }

 private:
  enum Fn { kCos, kSin, kTan, kArctan, kArcsin, kExp, kArctan2, kPower, kFns };
  static constexpr int kSlots = 64;
  struct Entry {
    uint64_t a = 0, b = 0;
    double value = 0;
    bool used = false;
  };
  static Entry& Slot(Fn fn, uint64_t a, uint64_t b) {
    thread_local Entry table[kFns][kSlots];
    const uint64_t h =
        (a ^ (b * 0x9e3779b97f4a7c15ULL)) * 0xbf58476d1ce4e5b9ULL;
    return table[fn][h >> 58];
  }
  static uint64_t Bits(double x) {
    uint64_t u;
    std::memcpy(&u, &x, sizeof(u));
    return u;
  }
  static double One(Fn fn, double x, double (NumpyMath::*f)(double) const) {
    const uint64_t a = Bits(x);
    Entry& e = Slot(fn, a, 0);
    if (!e.used || e.a != a) {
      e = {a, 0, (detail::NumpyMathStorage().*f)(x), true};
    }
    return e.value;
  }
  static double Two(Fn fn, double x, double y,
                    double (NumpyMath::*f)(double, double) const) {
    const uint64_t a = Bits(x), b = Bits(y);
    Entry& e = Slot(fn, a, b);
    if (!e.used || e.a != a || e.b != b) {
      e = {a, b, (detail::NumpyMathStorage().*f)(x, y), true};
    }
    return e.value;
  }
};
inline const RememberedMath& Np() {
  static const RememberedMath math;
  return math;
}
// numpy's BLAS.
inline const NumpyBlas& Blas() { return *detail::NumpyBlasStorage(); }

// np.dot(a, b) of two float64 vectors (BLAS ddot; for n = 2 OpenBLAS sums the
// plain products here, but let BLAS decide).
inline double Dot(const double* a, const double* b, int n) {
  return Blas().Dot(a, b, n);
}
inline double Dot(const Vec2& a, const Vec2& b) {
  switch (detail::Dot2FormStorage()) {
    case detail::Dot2Form::kPlain:
      return detail::Dot2Plain(a.data(), b.data());
    case detail::Dot2Form::kFused:
      return detail::Dot2Fused(a.data(), b.data());
    default:
      return Blas().Dot(a.data(), b.data(), 2);
  }
}
// np.linalg.norm(v): sqrt(v.dot(v)).
inline double Norm(const double* v, int n) { return Blas().Norm(v, n); }
inline double Norm(const Vec2& v) { return std::sqrt(Dot(v, v)); }

// A 2x2 float64 matrix, row-major: m[row][col].
using Mat2 = std::array<Vec2, 2>;

// `m.dot(v)` / `m @ v` for a C-contiguous 2x2 matrix and a vector: numpy
// calls BLAS dgemv (which, measured on this AVX-512 CPU, rounds as
// fma(m[i][0], v[0], m[i][1] * v[1]), unlike ddot).
inline Vec2 MatVec(const Mat2& m, const Vec2& v) {
  const detail::Sum2Form form = detail::Sum2FormsStorage().matvec;
  if (form != detail::Sum2Form::kLibrary) {
    return {detail::Sum2(form, m[0][0], v[0], m[0][1], v[1]),
            detail::Sum2(form, m[1][0], v[0], m[1][1], v[1])};
  }
  const double flat[4] = {m[0][0], m[0][1], m[1][0], m[1][1]};
  Vec2 out{0.0, 0.0};
  Blas().MatVec(flat, 2, 2, v.data(), out.data());
  return out;
}

// `(m @ np.array(points).T).T`: a 2x2 matrix times each point (rows of a C
// array, so the transpose is F-contiguous): numpy calls BLAS
// dgemm(NoTrans, Trans). We get the same rounding (checked against numpy on
// 40000 random cases for 4 and 9 points) from NumpyBlas::MatMat3 on the
// points padded with a zero column: (points | 0) @ (m^T padded with zeros);
// the extra product 0 * 0 adds nothing.
inline std::vector<Vec2> MatTimesPoints(const Mat2& m,
                                        const std::vector<Vec2>& points) {
  const detail::Sum2Form form = detail::Sum2FormsStorage().points;
  if (form != detail::Sum2Form::kLibrary) {
    std::vector<Vec2> result(points.size());
    for (std::size_t r = 0; r < points.size(); ++r) {
      for (int c = 0; c < 2; ++c) {
        result[r][c] =
            detail::Sum2(form, points[r][0], m[c][0], points[r][1], m[c][1]);
      }
    }
    return result;
  }
  constexpr int kStack = 16;
  const int rows = static_cast<int>(points.size());
  double a_stack[3 * kStack], out_stack[3 * kStack];
  std::vector<double> a_heap, out_heap;
  double* a = a_stack;
  double* out = out_stack;
  if (rows > kStack) {
    a_heap.resize(3 * rows);
    out_heap.resize(3 * rows);
    a = a_heap.data();
    out = out_heap.data();
  }
  for (int i = 0; i < rows; ++i) {
    a[3 * i] = points[i][0];
    a[3 * i + 1] = points[i][1];
    a[3 * i + 2] = 0.0;
  }
  const double mt[9] = {m[0][0], m[1][0], 0.0, m[0][1], m[1][1],
                        0.0,     0.0,     0.0, 0.0};
  Blas().MatMat3(a, rows, mt, out);
  std::vector<Vec2> result(rows);
  for (int i = 0; i < rows; ++i) result[i] = {out[3 * i], out[3 * i + 1]};
  return result;
}

// The rotation matrix highway-env builds as
// `c, s = np.cos(angle), np.sin(angle); np.array([[c, -s], [s, c]])`.
inline Mat2 RotationMatrix(double angle) {
  const double c = Np().Cos(angle);
  const double s = Np().Sin(angle);
  return Mat2{Vec2{c, -s}, Vec2{s, c}};
}

// ---------------------------------------------------------------------------
// Randomness.
// ---------------------------------------------------------------------------

// Generator.standard_normal(): numpy's own ziggurat on our PCG64 stream (as
// refkit/gymnasium/mujoco_env.h's StandardNormal). `normal(loc, scale)` is
// loc + scale * StandardNormal(rng).
inline double StandardNormal(NumpyRandom& rng) {
  bitgen_t bitgen;
  bitgen.state = &rng;
  bitgen.next_uint64 = [](void* st) {
    return static_cast<NumpyRandom*>(st)->NextUint64();
  };
  bitgen.next_uint32 = [](void* st) {
    return static_cast<NumpyRandom*>(st)->NextUint32();
  };
  bitgen.next_double = [](void* st) {
    return static_cast<NumpyRandom*>(st)->NextDouble();
  };
  bitgen.next_raw = bitgen.next_uint64;
  return random_standard_normal(&bitgen);
}

// np_random.uniform() / np_random.random(): next_double.
inline double NextDouble(NumpyRandom& rng) { return rng.NextDouble(); }

// ---------------------------------------------------------------------------
// Python semantics helpers.
// ---------------------------------------------------------------------------

// Python's max(a, b): the first argument unless the second is greater
// (so max(-0.0, 0) is -0.0 and max(nan, x) is nan, max(x, nan) is x).
inline double PyMax(double a, double b) { return b > a ? b : a; }
// Python's min(a, b): the first argument unless the second is smaller.
inline double PyMin(double a, double b) { return b < a ? b : a; }

// np.clip(x, a, b) of float64 scalars: numpy's _NPY_CLIP,
// min(max(x, a), b) with NaN propagated and ties returning the bound.
inline double Clip(double x, double a, double b) {
  double t = std::isnan(x) ? x : (x > a ? x : a);
  return std::isnan(t) ? t : (t < b ? t : b);
}

// np.arange(start, stop, step) of floats: length ceil((stop - start) / step),
// values start + i * delta with delta = (start + step) - start (numpy's fill).
inline std::vector<double> Arange(double start, double stop, double step) {
  const double len = std::ceil((stop - start) / step);
  if (!(len > 0)) return {};
  std::vector<double> out(static_cast<size_t>(len));
  out[0] = start;
  if (out.size() > 1) out[1] = start + step;
  const double delta = out.size() > 1 ? out[1] - start : 0.0;
  for (size_t i = 2; i < out.size(); ++i) {
    out[i] = start + static_cast<double>(i) * delta;
  }
  return out;
}

// ---------------------------------------------------------------------------
// utils.py
// ---------------------------------------------------------------------------

// do_every(duration, timer)
inline bool DoEvery(double duration, double timer) { return duration < timer; }

// lmap(v, x, y): y[0] + (v - x[0]) * (y[1] - y[0]) / (x[1] - x[0]),
// evaluated left to right.
inline double Lmap(double v, const Interval& x, const Interval& y) {
  return y[0] + (v - x[0]) * (y[1] - y[0]) / (x[1] - x[0]);
}

// not_zero(x, eps=1e-2)
inline double NotZero(double x, double eps = 1e-2) {
  if (std::abs(x) > eps) return x;
  if (x >= 0) return eps;
  return -eps;
}

// wrap_to_pi(x) = ((x + np.pi) % (2 * np.pi)) - np.pi, with Python's / numpy's
// float modulo (same result for float and np.float64).
inline double WrapToPi(double x) { return FloorMod(x + kPi, 2 * kPi) - kPi; }

// point_in_rectangle(point, rect_min, rect_max)
inline bool PointInRectangle(const Vec2& point, const Vec2& rect_min,
                             const Vec2& rect_max) {
  return rect_min[0] <= point[0] && point[0] <= rect_max[0] &&
         rect_min[1] <= point[1] && point[1] <= rect_max[1];
}

// point_in_rotated_rectangle(point, center, length, width, angle):
// ru = r.dot(point - center) is a BLAS dgemv.
inline bool PointInRotatedRectangle(const Vec2& point, const Vec2& center,
                                    double length, double width, double angle) {
  const Mat2 r = RotationMatrix(angle);
  const Vec2 ru = MatVec(r, point - center);
  return PointInRectangle(ru, {-length / 2, -width / 2},
                          {length / 2, width / 2});
}

// A rectangle as highway-env passes it: (center, length, width, angle).
struct RotatedRect {
  Vec2 center;
  double length;
  double width;
  double angle;
};

// rect_corners(center, length, width, angle, include_midpoints,
// include_center): the corners [-hl - hw, -hl + hw, hl + hw, hl - hw], then
// [0, 0] if include_center, then [-hl, hl, -hw, hw] if include_midpoints,
// rotated by `rotation @ corners.T` (BLAS dgemm) and shifted by the center.
inline std::vector<Vec2> RectCorners(const Vec2& center, double length,
                                     double width, double angle,
                                     bool include_midpoints = false,
                                     bool include_center = false) {
  const Vec2 half_l{length / 2, 0.0};
  const Vec2 half_w{0.0, width / 2};
  std::vector<Vec2> corners = {-half_l - half_w, -half_l + half_w,
                               half_l + half_w, half_l - half_w};
  if (include_center) corners.push_back({0.0, 0.0});
  if (include_midpoints) {
    corners.push_back(-half_l);
    corners.push_back(half_l);
    corners.push_back(-half_w);
    corners.push_back(half_w);
  }
  const Mat2 rotation = RotationMatrix(angle);
  std::vector<Vec2> out = MatTimesPoints(rotation, corners);
  for (Vec2& p : out) p = p + center;
  return out;
}

// has_corner_inside(rect1, rect2): does a corner, edge midpoint or the
// center of rect1 lie inside rect2? (Python evaluates all nine points, without
// side effects, so stopping early is the same.)
inline bool HasCornerInside(const RotatedRect& rect1,
                            const RotatedRect& rect2) {
  for (const Vec2& p1 : RectCorners(rect1.center, rect1.length, rect1.width,
                                    rect1.angle, true, true)) {
    if (PointInRotatedRectangle(p1, rect2.center, rect2.length, rect2.width,
                                rect2.angle)) {
      return true;
    }
  }
  return false;
}

// rotated_rectangles_intersect(rect1, rect2)
inline bool RotatedRectanglesIntersect(const RotatedRect& rect1,
                                       const RotatedRect& rect2) {
  return HasCornerInside(rect1, rect2) || HasCornerInside(rect2, rect1);
}

// project_polygon(polygon, axis): (min, max) of p.dot(axis) (BLAS ddot).
inline std::pair<double, double> ProjectPolygon(
    const std::vector<Vec2>& polygon, const Vec2& axis) {
  double min_p = 0.0, max_p = 0.0;
  bool first = true;
  for (const Vec2& p : polygon) {
    const double projected = Dot(p, axis);
    if (first || projected < min_p) min_p = projected;
    if (first || projected > max_p) max_p = projected;
    first = false;
  }
  return {min_p, max_p};
}

// interval_distance(min_a, max_a, min_b, max_b)
inline double IntervalDistance(double min_a, double max_a, double min_b,
                               double max_b) {
  return min_a < min_b ? min_b - max_a : min_a - max_b;
}

// The result of are_polygons_intersecting (and RoadObject._is_colliding):
// (intersecting, will_intersect, translation); translation is None when the
// polygons will not intersect.
struct PolygonCollision {
  bool intersecting = false;
  bool will_intersect = false;
  std::optional<Vec2> translation;
};

// are_polygons_intersecting(a, b, displacement_a, displacement_b): the
// separating axis test on closed polygons (first point repeated last).
// `break` leaves only the loop over the edges of the current polygon, as in
// Python. The center difference is a[:-1].mean(axis=0) - b[:-1].mean(axis=0):
// a sequential sum down the column, divided by the count.
inline PolygonCollision ArePolygonsIntersecting(const std::vector<Vec2>& a,
                                                const std::vector<Vec2>& b,
                                                const Vec2& displacement_a,
                                                const Vec2& displacement_b) {
  bool intersecting = true, will_intersect = true;
  double min_distance = std::numeric_limits<double>::infinity();
  std::optional<Vec2> translation_axis;
  auto mean_but_last = [](const std::vector<Vec2>& poly) {
    Vec2 sum = poly[0];
    const size_t n = poly.size() - 1;
    for (size_t i = 1; i < n; ++i) sum = sum + poly[i];
    return Vec2{sum[0] / static_cast<double>(n),
                sum[1] / static_cast<double>(n)};
  };
  for (const std::vector<Vec2>* polygon : {&a, &b}) {
    for (size_t k = 0; k + 1 < polygon->size(); ++k) {
      const Vec2& p1 = (*polygon)[k];
      const Vec2& p2 = (*polygon)[k + 1];
      Vec2 normal{-p2[1] + p1[1], p2[0] - p1[0]};
      normal = normal / Norm(normal);
      auto [min_a, max_a] = ProjectPolygon(a, normal);
      auto [min_b, max_b] = ProjectPolygon(b, normal);

      if (IntervalDistance(min_a, max_a, min_b, max_b) > 0) {
        intersecting = false;
      }

      const double velocity_projection =
          Dot(normal, displacement_a - displacement_b);
      if (velocity_projection < 0) {
        min_a += velocity_projection;
      } else {
        max_a += velocity_projection;
      }

      const double distance = IntervalDistance(min_a, max_a, min_b, max_b);
      if (distance > 0) will_intersect = false;
      if (!intersecting && !will_intersect) break;
      if (std::abs(distance) < min_distance) {
        min_distance = std::abs(distance);
        const Vec2 d = mean_but_last(a) - mean_but_last(b);
        translation_axis = Dot(d, normal) > 0 ? normal : -normal;
      }
    }
  }
  PolygonCollision result;
  result.intersecting = intersecting;
  result.will_intersect = will_intersect;
  if (will_intersect && translation_axis.has_value()) {
    result.translation = min_distance * *translation_axis;
  }
  return result;
}

// near_split(x, num_bins=None, size_bins=None): bin sizes summing to x
// (Python divmod: floor division). Returns {} where Python returns None.
inline std::vector<int64_t> NearSplit(
    int64_t x, std::optional<int64_t> num_bins = std::nullopt,
    std::optional<double> size_bins = std::nullopt) {
  if (num_bins.has_value() && *num_bins != 0) {
    const int64_t n = *num_bins;
    int64_t quotient = x / n, remainder = x % n;
    if (remainder != 0 && ((remainder < 0) != (n < 0))) {
      quotient -= 1;
      remainder += n;
    }
    std::vector<int64_t> bins;
    for (int64_t i = 0; i < remainder; ++i) bins.push_back(quotient + 1);
    for (int64_t i = 0; i < n - remainder; ++i) bins.push_back(quotient);
    return bins;
  }
  if (size_bins.has_value() && *size_bins != 0) {
    return NearSplit(x, static_cast<int64_t>(
                            std::ceil(static_cast<double>(x) / *size_bins)));
  }
  return {};
}

// distance_to_rect(line=(r, q), rect=[a, b, c, d]): the distance from r to
// where the segment rq enters the rectangle abcd, or inf. The `@` products of
// 1-d arrays are BLAS ddot; divisions by zero give inf / nan as numpy does.
inline double DistanceToRect(const std::pair<Vec2, Vec2>& line,
                             const std::array<Vec2, 4>& rect) {
  const Vec2& r = line.first;
  const Vec2& q = line.second;
  const Vec2& a = rect[0];
  const Vec2& b = rect[1];
  const Vec2& d = rect[3];
  Vec2 u = b - a;
  Vec2 v = d - a;
  u = u / Norm(u);
  v = v / Norm(v);
  const double rqu = Dot(q - r, u);
  const double rqv = Dot(q - r, v);
  Interval interval_1{Dot(a - r, u) / rqu, Dot(b - r, u) / rqu};
  Interval interval_2{Dot(a - r, v) / rqv, Dot(d - r, v) / rqv};
  if (!(rqu >= 0)) std::swap(interval_1[0], interval_1[1]);
  if (!(rqv >= 0)) std::swap(interval_2[0], interval_2[1]);
  if (IntervalDistance(interval_1[0], interval_1[1], interval_2[0],
                       interval_2[1]) <= 0 &&
      IntervalDistance(0, 1, interval_1[0], interval_1[1]) <= 0 &&
      IntervalDistance(0, 1, interval_2[0], interval_2[1]) <= 0) {
    return PyMax(interval_1[0], interval_2[0]) * Norm(q - r);
  }
  return std::numeric_limits<double>::infinity();
}

}  // namespace envpool_lite::highway
