// myosuite 2.12.2's HeightField (envs/heightfields.py), what chase tag's
// ChaseTagField and run track's TrackField share: cart2map (a position to
// a cell of the model's height field) and _measure_height (the heights
// under a 10 x 10 grid around the root, the obs dict's "hfield"),
// computed as numpy computes them.
#pragma once

#include <algorithm>
#include <cstdint>

#include "envs/myosuite/quat_math.h"
#include "refkit/numpy/loops.h"
#include "refkit/numpy/rotations.h"

namespace envpool_lite {
namespace myosuite {

// A height field of nrow x ncol float32 heights over real_length x
// real_width metres (the task's, not the geom's size).
struct HeightMap {
  const float* data = nullptr;
  int nrow = 0, ncol = 0;
  double real_length = 0.0, real_width = 0.0;
};

// np.array(x, dtype=np.int16) of a float64: C's conversion through int32
// (what x86-64 computes: INT32_MIN where it does not fit, NaN included),
// its low 16 bits.
inline int NumpyInt16(double x) {
  int32_t t = INT32_MIN;
  if (x > -2147483649.0 && x < 2147483648.0) t = static_cast<int32_t>(x);
  return static_cast<int16_t>(
      static_cast<uint16_t>(static_cast<uint32_t>(t) & 0xffffu));
}

// cart2map of one coordinate over n cells spanning `real` metres:
// int16(v / (real / n) + n / 2), clipped to [0, n - 2].
inline int MapCell(double v, double real, int n) {
  const double delta = real / n;
  return std::min(std::max(NumpyInt16(v / delta + n / 2.0), 0), n - 2);
}

// _measure_height: the grid of (x, y) in -0.4 to 0.5 m by 0.1 (np.meshgrid,
// point 10 a + b at (x[b], y[a])) turned with the root's yaw (quat2euler of
// qpos[3:7], euler2mat; np.einsum sums the three products in order), times
// view_distance, about the root; cart2map of (y, x): rows from y, columns
// from x; the heights there as np.flipud(np.rot90(., axes=(1, 0))).
inline void MeasureHeight(const NumpyMath& np, const double* qpos,
                          const HeightMap& f, double view_distance,
                          double* out) {
  double euler[3];
  Quat2Euler(np, qpos + 3, euler);
  const double yaw[3] = {0.0, 0.0, euler[2]};
  double rot[9];
  Euler2Mat(np, yaw, rot);
  static constexpr double kGrid[10] = {-0.4, -0.3, -0.2, -0.1, 0.0,
                                       0.1,  0.2,  0.3,  0.4,  0.5};
  double heights[100];
  for (int a = 0; a < 10; ++a) {
    for (int b = 0; b < 10; ++b) {
      const double p[3] = {kGrid[b], kGrid[a], 0.0};
      double q[2];
      for (int k = 0; k < 2; ++k) {
        q[k] =
            p[0] * rot[3 * k] + p[1] * rot[3 * k + 1] + p[2] * rot[3 * k + 2];
        q[k] = q[k] * view_distance + qpos[k];
      }
      const int row = MapCell(q[1], f.real_length, f.nrow);
      const int col = MapCell(q[0], f.real_width, f.ncol);
      heights[10 * a + b] = static_cast<double>(f.data[row * f.ncol + col]);
    }
  }
  for (int i = 0; i < 10; ++i) {
    for (int j = 0; j < 10; ++j)
      out[10 * i + j] = heights[10 * (9 - j) + 9 - i];
  }
}

}  // namespace myosuite
}  // namespace envpool_lite
