// numpy.fft.irfft, as numpy computes it: the inner loop of numpy's own
// gufunc numpy.fft._pocketfft_umath.irfft (numpy's pocketfft, complex128
// and float64 in, float64 out), called from C++. Python finds the loop
// (envpool_lite.refkit.numpy_loops: its function and data addresses) and
// passes it in the "numpy_loops" option as "irfft".
#pragma once

#include <complex>
#include <cstdint>
#include <mutex>
#include <stdexcept>

#include "core/config.h"

namespace envpool_lite {

class NumpyFft {
 public:
  NumpyFft() = default;  // none: Irfft throws
  explicit NumpyFft(const NamedNumbers& loops) {
    for (const auto& [name, v] : loops) {
      if (name != "irfft") continue;
      if (v.size() != 2) {
        throw std::invalid_argument("numpy_loops: [function, data] needed");
      }
      irfft_ = reinterpret_cast<Fn>(static_cast<uintptr_t>(v[0]));
      data_ = reinterpret_cast<void*>(static_cast<uintptr_t>(v[1]));
    }
  }

  bool has_irfft() const { return irfft_ != nullptr; }

  // numpy.fft.irfft(in[:npts_in], n=npts) (norm "backward": numpy's factor
  // 1 / n, np.reciprocal(n)) into out[:npts].
  void Irfft(const std::complex<double>* in, int64_t npts_in, int64_t npts,
             double* out) const {
    if (irfft_ == nullptr) {
      throw std::runtime_error(
          "numpy.fft.irfft's loop was not passed (numpy_loops 'irfft')");
    }
    double fct = 1.0 / static_cast<double>(npts);
    // The gufunc's arguments for one row: (m),()->(n).
    char* args[3] = {
        reinterpret_cast<char*>(const_cast<std::complex<double>*>(in)),
        reinterpret_cast<char*>(&fct), reinterpret_cast<char*>(out)};
    const intptr_t dimensions[3] = {1, static_cast<intptr_t>(npts_in),
                                    static_cast<intptr_t>(npts)};
    const intptr_t steps[5] = {0, 0, 0, sizeof(std::complex<double>),
                               sizeof(double)};
    // numpy compiles pocketfft without its own locking of the plan cache.
    static std::mutex mutex;
    std::lock_guard<std::mutex> lock(mutex);
    irfft_(args, dimensions, steps, data_);
  }

 private:
  using Fn = void (*)(char**, const intptr_t*, const intptr_t*, void*);
  Fn irfft_ = nullptr;
  void* data_ = nullptr;
};

}  // namespace envpool_lite
