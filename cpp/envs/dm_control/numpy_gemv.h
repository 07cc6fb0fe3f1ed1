// np.dot of a float64 3-vector and a 3x3 matrix (`v.dot(m)`, as dm_control's
// humanoid, humanoid_CMU and fish compute egocentric positions), equal to
// numpy's on every machine.
//
// numpy computes a vector x matrix product with its BLAS's dgemv (the
// matrix, C-contiguous, transposed: y = m^T v). OpenBLAS's dgemv kernels use
// fused multiply-adds on some CPUs (AVX2/AVX-512), so plain C++ products
// differ from numpy's in the last bit there (measured: 70% of random
// vectors). As Norm does with ddot (envs/common/mujoco_api.h), VecMat3
// calls that same dgemv, found in the library whose path Python passes in
// the "numpy_blas" option. Without one (""), it sums plain products in
// order.
#pragma once

#include <dlfcn.h>

#include <cstdint>
#include <mutex>
#include <stdexcept>
#include <string>

namespace envpool_lite {
namespace dm_control {

// cblas_dgemv(order, trans, m, n, alpha, a, lda, x, incx, beta, y, incy),
// with 64-bit ints (numpy >= 2's scipy-openblas64) or 32-bit ones.
using Dgemv64 = void (*)(int order, int trans, int64_t m, int64_t n,
                         double alpha, const double* a, int64_t lda,
                         const double* x, int64_t incx, double beta, double* y,
                         int64_t incy);
using Dgemv32 = void (*)(int order, int trans, int32_t m, int32_t n,
                         double alpha, const double* a, int32_t lda,
                         const double* x, int32_t incx, double beta, double* y,
                         int32_t incy);
struct NumpyDgemv {
  Dgemv64 dgemv64 = nullptr;
  Dgemv32 dgemv32 = nullptr;
};

inline NumpyDgemv LoadNumpyDgemv(const std::string& path) {
  static std::mutex mutex;
  static NumpyDgemv dgemv;
  static std::string loaded_path;
  std::lock_guard<std::mutex> lock(mutex);
  if (path.empty() || path == loaded_path) return dgemv;
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    throw std::runtime_error("dm_control: cannot load numpy's BLAS (" + path +
                             "): " + dlerror());
  }
  NumpyDgemv found;
  for (const char* name : {"scipy_cblas_dgemv64_", "cblas_dgemv64_"}) {
    if (void* f = dlsym(handle, name)) {
      found.dgemv64 = reinterpret_cast<Dgemv64>(f);
      break;
    }
  }
  if (found.dgemv64 == nullptr) {
    for (const char* name : {"scipy_cblas_dgemv", "cblas_dgemv"}) {
      if (void* f = dlsym(handle, name)) {
        found.dgemv32 = reinterpret_cast<Dgemv32>(f);
        break;
      }
    }
  }
  if (found.dgemv64 == nullptr && found.dgemv32 == nullptr) {
    throw std::runtime_error("dm_control: numpy's BLAS (" + path +
                             ") has no cblas_dgemv");
  }
  dgemv = found;
  loaded_path = path;
  return dgemv;
}

// out = v.dot(m) for v of shape (3,) and m of shape (3, 3) (row-major):
// out[j] = sum_i v[i] m[i][j].
inline void VecMat3(const NumpyDgemv& dgemv, const double* v, const double* m,
                    double* out) {
  constexpr int kRowMajor = 101, kTrans = 112;  // CBLAS_ORDER, CBLAS_TRANSPOSE
  if (dgemv.dgemv64 != nullptr) {
    dgemv.dgemv64(kRowMajor, kTrans, 3, 3, 1.0, m, 3, v, 1, 0.0, out, 1);
    return;
  }
  if (dgemv.dgemv32 != nullptr) {
    dgemv.dgemv32(kRowMajor, kTrans, 3, 3, 1.0, m, 3, v, 1, 0.0, out, 1);
    return;
  }
  for (int j = 0; j < 3; ++j) {
    double s = 0.0;
    for (int i = 0; i < 3; ++i) s += v[i] * m[3 * i + j];
    out[j] = s;
  }
}

}  // namespace dm_control
}  // namespace envpool_lite
