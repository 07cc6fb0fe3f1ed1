// myosuite 2.12.2's quaternion helpers (utils/quat_math.py) that MyoDM's
// TrackEnv uses, computed as numpy computes them: float64 element-wise
// arithmetic in the reference's order, numpy's own loops (NumpyMath) for
// the ufuncs it applies (np.sin, np.cos, np.arctan2), np.sum as numpy's
// pairwise sum, and np.linalg.eigh (mat2quat) as numpy's LAPACK (dsyevd of
// the OpenBLAS its wheel bundles, called here from the library numpy loaded);
// euler2quat and euler2mat are refkit/numpy/rotations.h's.
#pragma once

#include <dlfcn.h>

#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <map>
#include <mutex>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "refkit/numpy/loops.h"
#include "refkit/numpy/rotations.h"

namespace envpool_lite {
namespace myosuite {

constexpr double kPi = 3.141592653589793;  // np.pi

// np.around(x, 4) of a float64: rint(x * 10**4) / 10**4, as numpy's round
// multiplies, rounds half to even and divides.
inline double Around4(double x) {
  return std::nearbyint(x * 10000.0) / 10000.0;
}

// np.sum(np.square(x)) of n float64 values (TrackEnv.norm2).
inline double SumSquares(const double* x, int n) {
  double sq[64];
  if (n > 64) {
    std::vector<double> big(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) big[i] = x[i] * x[i];
    return PairwiseSum(big.data(), n);
  }
  for (int i = 0; i < n; ++i) sq[i] = x[i] * x[i];
  return PairwiseSum(sq, n);
}

// np.linalg.eigh of a 4x4 symmetric matrix (its lower triangle, UPLO='L'),
// as numpy computes it: LAPACK's dsyevd (jobz 'V') of the library numpy
// links (the path of envpool_lite.refkit.numpy_blas), with the workspace its
// size query asks for, as numpy's umath_linalg calls it. Without a library
// (""), a cyclic Jacobi iteration: the same eigenpairs up to rounding.
class NumpyLapack {
 public:
  static const NumpyLapack& Load(const std::string& path) {
    static std::mutex mutex;
    static std::map<std::string, NumpyLapack> loaded;
    std::lock_guard<std::mutex> lock(mutex);
    auto it = loaded.find(path);
    if (it != loaded.end()) return it->second;
    NumpyLapack lapack;
    if (!path.empty()) lapack.Open(path);
    return loaded.emplace(path, lapack).first->second;
  }

  // k: row-major 4x4, lower triangle read. w: the eigenvalues, ascending;
  // v: numpy's `vecs` (row-major: v[4 * i + j] is component i of the
  // eigenvector of w[j]).
  void Eigh4(const double* k, double* w, double* v) const {
    // numpy's linearize_matrix: the Fortran buffer's (i, j) is k[i][j].
    double a[16];
    for (int j = 0; j < 4; ++j) {
      for (int i = 0; i < 4; ++i) a[i + 4 * j] = k[4 * i + j];
    }
    if (syevd64_ != nullptr || syevd32_ != nullptr) {
      Syevd(a, w);
    } else {
      Jacobi(a, w);
    }
    // delinearize: vecs[i][j] is the buffer's (i, j).
    for (int i = 0; i < 4; ++i) {
      for (int j = 0; j < 4; ++j) v[4 * i + j] = a[i + 4 * j];
    }
  }

 private:
  // Fortran dsyevd, with the hidden lengths of its two character arguments.
  using Syevd64 = void (*)(const char*, const char*, const int64_t*, double*,
                           const int64_t*, double*, double*, const int64_t*,
                           int64_t*, const int64_t*, int64_t*, std::size_t,
                           std::size_t);
  using Syevd32 = void (*)(const char*, const char*, const int32_t*, double*,
                           const int32_t*, double*, double*, const int32_t*,
                           int32_t*, const int32_t*, int32_t*, std::size_t,
                           std::size_t);

  void Open(const std::string& path) {
    void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (handle == nullptr) {
      throw std::runtime_error("cannot load numpy's LAPACK (" + path +
                               "): " + dlerror());
    }
    auto find = [handle](std::initializer_list<const char*> names) {
      for (const char* name : names) {
        if (void* f = dlsym(handle, name)) return f;
      }
      return static_cast<void*>(nullptr);
    };
    // numpy >= 2's scipy-openblas64 (64-bit ints), then 32-bit ones.
    syevd64_ = reinterpret_cast<Syevd64>(
        find({"scipy_dsyevd_64_", "dsyevd_64_", "dsyevd64_"}));
    if (syevd64_ == nullptr) {
      syevd32_ = reinterpret_cast<Syevd32>(find({"scipy_dsyevd_", "dsyevd_"}));
    }
    if (syevd64_ == nullptr && syevd32_ == nullptr) {
      throw std::runtime_error("numpy's LAPACK (" + path + ") lacks dsyevd");
    }
  }

  template <typename I, typename F>
  static void Call(F f, double* a, double* w) {
    const char jobz = 'V', uplo = 'L';
    const I n = 4, lda = 4;
    I info = 0;
    // The size query (lwork = liwork = -1), then the call with that space.
    double query = 0.0;
    I iquery = 0;
    I lwork = -1, liwork = -1;
    f(&jobz, &uplo, &n, a, &lda, w, &query, &lwork, &iquery, &liwork, &info, 1,
      1);
    lwork = static_cast<I>(query);
    liwork = iquery;
    std::vector<double> work(static_cast<std::size_t>(lwork < 1 ? 1 : lwork));
    std::vector<I> iwork(static_cast<std::size_t>(liwork < 1 ? 1 : liwork));
    f(&jobz, &uplo, &n, a, &lda, w, work.data(), &lwork, iwork.data(), &liwork,
      &info, 1, 1);
    if (info != 0) {
      // numpy's eigh raises LinAlgError("Eigenvalues did not converge").
      throw std::runtime_error(
          "np.linalg.eigh (mat2quat): Eigenvalues did not converge");
    }
  }

  void Syevd(double* a, double* w) const {
    if (syevd64_ != nullptr) {
      Call<int64_t>(syevd64_, a, w);
    } else {
      Call<int32_t>(syevd32_, a, w);
    }
  }

  // Cyclic Jacobi of the symmetric matrix in a (column-major, its lower
  // triangle mirrored), eigenvalues sorted ascending with their vectors.
  static void Jacobi(double* a, double* w) {
    double s[4][4], v[4][4];
    for (int i = 0; i < 4; ++i) {
      for (int j = 0; j < 4; ++j) {
        s[i][j] = i >= j ? a[i + 4 * j] : a[j + 4 * i];
        v[i][j] = i == j ? 1.0 : 0.0;
      }
    }
    for (int sweep = 0; sweep < 64; ++sweep) {
      double off = 0.0;
      for (int p = 0; p < 4; ++p) {
        for (int q = p + 1; q < 4; ++q) off += s[p][q] * s[p][q];
      }
      if (off < 1e-300) break;
      for (int p = 0; p < 4; ++p) {
        for (int q = p + 1; q < 4; ++q) {
          if (s[p][q] == 0.0) continue;
          const double theta = (s[q][q] - s[p][p]) / (2.0 * s[p][q]);
          const double t = (theta >= 0 ? 1.0 : -1.0) /
                           (std::fabs(theta) + std::sqrt(theta * theta + 1.0));
          const double c = 1.0 / std::sqrt(t * t + 1.0), sn = t * c;
          for (int k = 0; k < 4; ++k) {
            const double skp = s[k][p], skq = s[k][q];
            s[k][p] = c * skp - sn * skq;
            s[k][q] = sn * skp + c * skq;
          }
          for (int k = 0; k < 4; ++k) {
            const double spk = s[p][k], sqk = s[q][k];
            s[p][k] = c * spk - sn * sqk;
            s[q][k] = sn * spk + c * sqk;
          }
          for (int k = 0; k < 4; ++k) {
            const double vkp = v[k][p], vkq = v[k][q];
            v[k][p] = c * vkp - sn * vkq;
            v[k][q] = sn * vkp + c * vkq;
          }
        }
      }
    }
    int order[4] = {0, 1, 2, 3};
    for (int i = 1; i < 4; ++i) {
      for (int j = i;
           j > 0 && s[order[j]][order[j]] < s[order[j - 1]][order[j - 1]];
           --j) {
        std::swap(order[j], order[j - 1]);
      }
    }
    for (int j = 0; j < 4; ++j) {
      w[j] = s[order[j]][order[j]];
      for (int i = 0; i < 4; ++i) a[i + 4 * j] = v[i][order[j]];
    }
  }

  Syevd64 syevd64_ = nullptr;
  Syevd32 syevd32_ = nullptr;
};

// quat_math.mat2quat of a row-major 3x3 rotation matrix: the largest
// eigenvector of the symmetric K (its lower half filled, divided by 3),
// reordered to (w, x, y, z), with w >= 0.
inline void Mat2Quat(const NumpyLapack& lapack, const double* mat, double* q) {
  const double qxx = mat[0], qyx = mat[1], qzx = mat[2];
  const double qxy = mat[3], qyy = mat[4], qzy = mat[5];
  const double qxz = mat[6], qyz = mat[7], qzz = mat[8];
  double k[16] = {0.0};
  k[4 * 0 + 0] = qxx - qyy - qzz;
  k[4 * 1 + 0] = qyx + qxy;
  k[4 * 1 + 1] = qyy - qxx - qzz;
  k[4 * 2 + 0] = qzx + qxz;
  k[4 * 2 + 1] = qzy + qyz;
  k[4 * 2 + 2] = qzz - qxx - qyy;
  k[4 * 3 + 0] = qyz - qzy;
  k[4 * 3 + 1] = qzx - qxz;
  k[4 * 3 + 2] = qxy - qyx;
  k[4 * 3 + 3] = qxx + qyy + qzz;
  for (double& x : k) x /= 3.0;
  double vals[4], vecs[16];
  lapack.Eigh4(k, vals, vecs);
  // np.argmax: the first largest (the first NaN, if any).
  int best = 0;
  for (int i = 0; i < 4; ++i) {
    if (std::isnan(vals[i])) {
      best = i;
      break;
    }
    if (vals[i] > vals[best]) best = i;
  }
  const int rows[4] = {3, 0, 1, 2};
  for (int i = 0; i < 4; ++i) q[i] = vecs[4 * rows[i] + best];
  if (q[0] < 0) {
    for (int i = 0; i < 4; ++i) q[i] = q[i] * -1.0;
  }
}

// quat_math.quatDiff2Vel(quat1, quat2, dt=1)[0]: the rotation speed of
// mulQuat(quat2, negQuat(quat1)) (quat2Vel: 2 arctan2(|axis|, w) / dt).
inline double QuatDiff2Speed(const NumpyMath& np, const double* quat1,
                             const double* quat2) {
  const double qb[4] = {quat1[0], -quat1[1], -quat1[2], -quat1[3]};
  const double* qa = quat2;
  double res[4];
  res[0] = qa[0] * qb[0] - qa[1] * qb[1] - qa[2] * qb[2] - qa[3] * qb[3];
  res[1] = qa[0] * qb[1] + qa[1] * qb[0] + qa[2] * qb[3] - qa[3] * qb[2];
  res[2] = qa[0] * qb[2] - qa[1] * qb[3] + qa[2] * qb[0] + qa[3] * qb[1];
  res[3] = qa[0] * qb[3] + qa[1] * qb[2] - qa[2] * qb[1] + qa[3] * qb[0];
  const double sin_a_2 = std::sqrt(SumSquares(res + 1, 3));
  return 2 * np.Arctan2(sin_a_2, res[0]) / 1.0;
}

}  // namespace myosuite
}  // namespace envpool_lite
