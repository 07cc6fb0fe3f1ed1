// quat2mat of a (w, x, y, z) quaternion as the references compute it in
// numpy (transforms3d's formula: gymnasium-robotics' utils/rotations.py,
// myosuite's utils/quat_math.py): s = 2 / |q|^2 with |q|^2 summed as
// np.sum(quat * quat, axis=-1) sums four values, row-major; the identity
// where |q|^2 is not above float64's eps.
#pragma once

#include <algorithm>
#include <limits>

#include "refkit/numpy/loops.h"

namespace envpool_lite {

inline void Quat2Mat(const double* q, double* m) {
  const double w = q[0], x = q[1], y = q[2], z = q[3];
  const double sq[4] = {w * w, x * x, y * y, z * z};
  const double nq = PairwiseSum(sq, 4);
  if (!(nq > std::numeric_limits<double>::epsilon())) {
    const double eye[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
    std::copy(eye, eye + 9, m);
    return;
  }
  const double s = 2.0 / nq;
  const double X = x * s, Y = y * s, Z = z * s;
  const double wX = w * X, wY = w * Y, wZ = w * Z;
  const double xX = x * X, xY = x * Y, xZ = x * Z;
  const double yY = y * Y, yZ = y * Z, zZ = z * Z;
  m[0] = 1.0 - (yY + zZ);
  m[1] = xY - wZ;
  m[2] = xZ + wY;
  m[3] = xY + wZ;
  m[4] = 1.0 - (xX + zZ);
  m[5] = yZ - wX;
  m[6] = xZ - wY;
  m[7] = yZ + wX;
  m[8] = 1.0 - (xX + yY);
}

}  // namespace envpool_lite
