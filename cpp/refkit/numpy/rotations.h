// The rotations that gymnasium-robotics' utils/rotations.py and myosuite's
// utils/quat_math.py (its copy) compute in numpy, as they compute them:
// quat2mat, mat2euler, quat2euler, euler2quat and euler2mat.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>

#include "refkit/numpy/loops.h"

namespace envpool_lite {

// quat2mat of a (w, x, y, z) quaternion (transforms3d's formula): s = 2 /
// |q|^2 with |q|^2 summed as np.sum(quat * quat, axis=-1) sums four values,
// row-major; the identity where |q|^2 is not above float64's eps.
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

// mat2euler of a row-major 3x3 matrix (np.where computes both branches;
// only the chosen one matters): numpy's arctan2 loop.
inline void Mat2Euler(const NumpyMath& np, const double* m, double* euler) {
  constexpr double kEps4 = std::numeric_limits<double>::epsilon() * 4.0;
  const double cy = std::sqrt(m[8] * m[8] + m[5] * m[5]);
  const bool condition = cy > kEps4;
  euler[2] = condition ? -np.Arctan2(m[1], m[0]) : -np.Arctan2(-m[3], m[4]);
  euler[1] = -np.Arctan2(-m[2], cy);
  euler[0] = condition ? -np.Arctan2(m[5], m[8]) : 0.0;
}

// quat2euler: mat2euler(quat2mat(quat)).
inline void Quat2Euler(const NumpyMath& np, const double* quat, double* euler) {
  double mat[9];
  Quat2Mat(quat, mat);
  Mat2Euler(np, mat, euler);
}

// euler2quat of (x, y, z) Euler angles: (w, x, y, z).
inline void Euler2Quat(const NumpyMath& np, const double* euler, double* quat) {
  const double ai = euler[2] / 2, aj = -euler[1] / 2, ak = euler[0] / 2;
  const double si = np.Sin(ai), sj = np.Sin(aj), sk = np.Sin(ak);
  const double ci = np.Cos(ai), cj = np.Cos(aj), ck = np.Cos(ak);
  const double cc = ci * ck, cs = ci * sk;
  const double sc = si * ck, ss = si * sk;
  quat[0] = cj * cc + sj * ss;
  quat[3] = cj * sc - sj * cs;
  quat[2] = -(cj * ss + sj * cc);
  quat[1] = cj * cs - sj * sc;
}

// euler2mat of (x, y, z) Euler angles: a row-major 3x3 matrix.
inline void Euler2Mat(const NumpyMath& np, const double* euler, double* mat) {
  const double ai = -euler[2], aj = -euler[1], ak = -euler[0];
  const double si = np.Sin(ai), sj = np.Sin(aj), sk = np.Sin(ak);
  const double ci = np.Cos(ai), cj = np.Cos(aj), ck = np.Cos(ak);
  const double cc = ci * ck, cs = ci * sk;
  const double sc = si * ck, ss = si * sk;
  mat[8] = cj * ck;
  mat[7] = sj * sc - cs;
  mat[6] = sj * cc + ss;
  mat[5] = cj * sk;
  mat[4] = sj * ss + cc;
  mat[3] = sj * cs - sc;
  mat[2] = -sj;
  mat[1] = cj * si;
  mat[0] = cj * ci;
}

}  // namespace envpool_lite
