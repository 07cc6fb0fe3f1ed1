// numpy's own BLAS, called from C++ so that dot products, norms and small
// matrix products equal numpy's on every machine.
//
// numpy computes np.dot / np.linalg.norm of float64 vectors with its BLAS's
// ddot, a vector-matrix product (`v.dot(m)`) with dgemv and a matrix product
// with dgemm. numpy's wheels bundle OpenBLAS, which picks kernels for the
// CPU at run time: some (Haswell, Zen, SkylakeX) sum with fused
// multiply-adds, others do not, so the last bit of a result depends on the
// machine (measured here, AVX-512: plain C++ differs from numpy's dgemv in
// 70% of random 3x3 products). The envs call the same functions, from the
// library numpy loaded, whose path Python passes in the "numpy_blas" option
// (envpool_lite.refkit.numpy_blas.path). Without one (""), they sum
// plain products in order, which is numpy's where the kernels have no FMA.
#pragma once

#include <dlfcn.h>

#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <map>
#include <mutex>
#include <stdexcept>
#include <string>

namespace envpool_lite {

class NumpyBlas {
 public:
  // The BLAS at `path` ("" for plain loops), loaded once per path.
  static const NumpyBlas& Load(const std::string& path) {
    static std::mutex mutex;
    static std::map<std::string, NumpyBlas> loaded;
    std::lock_guard<std::mutex> lock(mutex);
    auto it = loaded.find(path);
    if (it != loaded.end()) return it->second;
    NumpyBlas blas;
    if (!path.empty()) blas.Open(path);
    return loaded.emplace(path, blas).first->second;
  }

  // np.dot(x, y) of two float64 vectors of n values.
  double Dot(const double* x, const double* y, int n) const {
    if (ddot64_ != nullptr) return ddot64_(n, x, 1, y, 1);
    if (ddot32_ != nullptr) return ddot32_(n, x, 1, y, 1);
    double s = 0.0;
    for (int i = 0; i < n; ++i) s += x[i] * y[i];
    return s;
  }

  // np.linalg.norm(x): sqrt(x.dot(x)).
  double Norm(const double* x, int n) const { return std::sqrt(Dot(x, x, n)); }

  // out (3) = v (3) . m (3x3, row-major), numpy's vector-matrix product:
  // cblas_dgemv(RowMajor, Trans, 3, 3, 1, m, 3, v, 1, 0, out, 1).
  void VecMat3(const double* v, const double* m, double* out) const {
    if (dgemv64_ != nullptr) {
      dgemv64_(kRowMajor, kTrans, 3, 3, 1.0, m, 3, v, 1, 0.0, out, 1);
    } else if (dgemv32_ != nullptr) {
      dgemv32_(kRowMajor, kTrans, 3, 3, 1.0, m, 3, v, 1, 0.0, out, 1);
    } else {
      for (int j = 0; j < 3; ++j) {
        double s = 0.0;
        for (int i = 0; i < 3; ++i) s += v[i] * m[3 * i + j];
        out[j] = s;
      }
    }
  }

  // out (rows) = m (rows x cols, row-major) @ v (cols), numpy's
  // matrix-vector product (np.matmul of a C-contiguous 2-d and a 1-d array):
  // cblas_dgemv(RowMajor, NoTrans, rows, cols, 1, m, cols, v, 1, 0, out, 1).
  void MatVec(const double* m, int rows, int cols, const double* v,
              double* out) const {
    if (dgemv64_ != nullptr) {
      dgemv64_(kRowMajor, kNoTrans, rows, cols, 1.0, m, cols, v, 1, 0.0, out,
               1);
    } else if (dgemv32_ != nullptr) {
      dgemv32_(kRowMajor, kNoTrans, rows, cols, 1.0, m, cols, v, 1, 0.0, out,
               1);
    } else {
      for (int i = 0; i < rows; ++i) {
        double s = 0.0;
        for (int j = 0; j < cols; ++j) s += m[i * cols + j] * v[j];
        out[i] = s;
      }
    }
  }

  // out (rows x 3) = a (rows x 3) . m (3x3), numpy's matrix product:
  // cblas_dgemm(RowMajor, NoTrans, NoTrans, rows, 3, 3, 1, a, 3, m, 3, 0,
  // out, 3).
  void MatMat3(const double* a, int rows, const double* m, double* out) const {
    if (dgemm64_ != nullptr) {
      dgemm64_(kRowMajor, kNoTrans, kNoTrans, rows, 3, 3, 1.0, a, 3, m, 3, 0.0,
               out, 3);
    } else if (dgemm32_ != nullptr) {
      dgemm32_(kRowMajor, kNoTrans, kNoTrans, rows, 3, 3, 1.0, a, 3, m, 3, 0.0,
               out, 3);
    } else {
      for (int i = 0; i < rows; ++i) VecMat3(a + 3 * i, m, out + 3 * i);
    }
  }

 private:
  static constexpr int kRowMajor = 101, kNoTrans = 111, kTrans = 112;
  // OpenBLAS's cblas names: 64-bit ints first (numpy >= 2's
  // scipy-openblas64), then 32-bit ones.
  using Ddot64 = double (*)(int64_t, const double*, int64_t, const double*,
                            int64_t);
  using Ddot32 = double (*)(int32_t, const double*, int32_t, const double*,
                            int32_t);
  using Dgemv64 = void (*)(int, int, int64_t, int64_t, double, const double*,
                           int64_t, const double*, int64_t, double, double*,
                           int64_t);
  using Dgemv32 = void (*)(int, int, int32_t, int32_t, double, const double*,
                           int32_t, const double*, int32_t, double, double*,
                           int32_t);
  using Dgemm64 = void (*)(int, int, int, int64_t, int64_t, int64_t, double,
                           const double*, int64_t, const double*, int64_t,
                           double, double*, int64_t);
  using Dgemm32 = void (*)(int, int, int, int32_t, int32_t, int32_t, double,
                           const double*, int32_t, const double*, int32_t,
                           double, double*, int32_t);

  void Open(const std::string& path) {
    void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (handle == nullptr) {
      throw std::runtime_error("cannot load numpy's BLAS (" + path +
                               "): " + dlerror());
    }
    auto find = [handle](std::initializer_list<const char*> names) {
      for (const char* name : names) {
        if (void* f = dlsym(handle, name)) return f;
      }
      return static_cast<void*>(nullptr);
    };
    ddot64_ = reinterpret_cast<Ddot64>(
        find({"scipy_cblas_ddot64_", "cblas_ddot64_"}));
    dgemv64_ = reinterpret_cast<Dgemv64>(
        find({"scipy_cblas_dgemv64_", "cblas_dgemv64_"}));
    dgemm64_ = reinterpret_cast<Dgemm64>(
        find({"scipy_cblas_dgemm64_", "cblas_dgemm64_"}));
    if (ddot64_ == nullptr || dgemv64_ == nullptr || dgemm64_ == nullptr) {
      ddot64_ = nullptr, dgemv64_ = nullptr, dgemm64_ = nullptr;
      ddot32_ =
          reinterpret_cast<Ddot32>(find({"scipy_cblas_ddot", "cblas_ddot"}));
      dgemv32_ =
          reinterpret_cast<Dgemv32>(find({"scipy_cblas_dgemv", "cblas_dgemv"}));
      dgemm32_ =
          reinterpret_cast<Dgemm32>(find({"scipy_cblas_dgemm", "cblas_dgemm"}));
      if (ddot32_ == nullptr || dgemv32_ == nullptr || dgemm32_ == nullptr) {
        throw std::runtime_error("numpy's BLAS (" + path +
                                 ") lacks cblas_ddot, cblas_dgemv or "
                                 "cblas_dgemm");
      }
    }
  }

  Ddot64 ddot64_ = nullptr;
  Ddot32 ddot32_ = nullptr;
  Dgemv64 dgemv64_ = nullptr;
  Dgemv32 dgemv32_ = nullptr;
  Dgemm64 dgemm64_ = nullptr;
  Dgemm32 dgemm32_ = nullptr;
};

}  // namespace envpool_lite
