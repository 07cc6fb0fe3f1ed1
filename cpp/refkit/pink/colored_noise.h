// pink-noise-rl 2.0.1's ColoredNoiseProcess (pink/cnrl.py) and its
// powerlaw_psd_gaussian (pink/colorednoise.py, after the colorednoise
// package), as they compute in numpy: a buffer of `rows` series of `steps`
// samples of noise whose power spectrum goes as 1 / f^beta, drawn from the
// caller's Generator (Generator.normal: refkit/numpy/generator_normal.h)
// and turned into series by numpy.fft.irfft (numpy's own loop:
// refkit/numpy/fft.h), numpy's power loop for the spectrum's scale where
// numpy takes no shortcut; sample() hands out one column at a time (times
// scale) and draws a new buffer when the last is spent.
#pragma once

#include <cmath>
#include <complex>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "core/env_state.h"
#include "refkit/numpy/fft.h"
#include "refkit/numpy/generator_normal.h"
#include "refkit/numpy/loops.h"
#include "refkit/numpy/random.h"

namespace envpool_lite {
namespace pink {

// powerlaw_psd_gaussian(exponent, size=(rows, samples), fmin, rng): rows
// series, row-major into out (rows * samples).
inline void PowerlawPsdGaussian(double exponent, int rows, int samples,
                                double fmin, NumpyRandom* rng,
                                const NumpyMath& np, const NumpyFft& fft,
                                std::vector<double>* out) {
  if (samples < 1 || rows < 1) {
    throw std::invalid_argument("powerlaw_psd_gaussian: empty size");
  }
  // f = rfftfreq(samples): i * (1 / samples).
  const int n = samples / 2 + 1;
  const double val = 1.0 / static_cast<double>(samples);
  std::vector<double> s_scale(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) s_scale[i] = static_cast<double>(i) * val;
  if (!(0 <= fmin && fmin <= 0.5)) {
    throw std::invalid_argument("fmin must be chosen between 0 and 0.5.");
  }
  fmin = std::max(fmin, 1. / samples);
  int ix = 0;
  for (double f : s_scale) ix += f < fmin ? 1 : 0;
  if (ix != 0 && ix < n) {
    for (int i = 0; i < ix; ++i) s_scale[i] = s_scale[ix];
  }
  // s_scale ** (-exponent / 2): numpy's scalar-power fast paths for the
  // exponents that have one (reciprocal, square, sqrt), else numpy's power
  // loop.
  const double e = -exponent / 2.;
  for (double& s : s_scale) {
    if (e == -1.0) {
      s = 1.0 / s;
    } else if (e == 2.0) {
      s = s * s;
    } else if (e == 0.5) {
      s = std::sqrt(s);
    } else if (e == 1.0) {
      // positive: unchanged
    } else {
      s = np.Power(s, e);
    }
  }
  // sigma = 2 * np.sqrt(np.sum(w**2)) / samples.
  std::vector<double> w2(s_scale.begin() + 1, s_scale.end());
  if (!w2.empty()) w2.back() *= (1 + (samples % 2)) / 2.;
  for (double& x : w2) x = x * x;
  const double sigma =
      2 * std::sqrt(PairwiseSum(w2.data(), static_cast<int64_t>(w2.size()))) /
      samples;
  // sr, si = rng.normal(scale=s_scale, size=(rows, n)), each row-major.
  std::vector<double> sr(static_cast<std::size_t>(rows) * n);
  std::vector<double> si(sr.size());
  for (std::size_t k = 0; k < sr.size(); ++k) {
    sr[k] = Normal(rng, 0.0, s_scale[k % n]);
  }
  for (std::size_t k = 0; k < si.size(); ++k) {
    si[k] = Normal(rng, 0.0, s_scale[k % n]);
  }
  const double sqrt2 = std::sqrt(2.0);
  std::vector<std::complex<double>> s(static_cast<std::size_t>(n));
  out->assign(static_cast<std::size_t>(rows) * samples, 0.0);
  for (int r = 0; r < rows; ++r) {
    double* re = sr.data() + static_cast<std::size_t>(r) * n;
    double* im = si.data() + static_cast<std::size_t>(r) * n;
    if (samples % 2 == 0) {
      im[n - 1] = 0;
      re[n - 1] *= sqrt2;
    }
    im[0] = 0;
    re[0] *= sqrt2;
    // sr + 1J * si.
    for (int i = 0; i < n; ++i) s[i] = std::complex<double>(re[i], im[i]);
    double* y = out->data() + static_cast<std::size_t>(r) * samples;
    fft.Irfft(s.data(), n, samples, y);
    for (int i = 0; i < samples; ++i) y[i] = y[i] / sigma;
  }
}

class ColoredNoiseProcess {
 public:
  ColoredNoiseProcess() = default;
  // ColoredNoiseProcess(beta, size=(rows, steps), scale, max_period); no
  // draw yet (Reset draws the first buffer).
  ColoredNoiseProcess(double beta, int rows, int steps, double scale,
                      double max_period = 0.0)
      : beta_(beta),
        rows_(rows),
        steps_(steps),
        scale_(scale),
        fmin_(max_period > 0.0 ? 1 / max_period : 0.0) {}

  // reset(): a new buffer.
  void Reset(NumpyRandom* rng, const NumpyMath& np, const NumpyFft& fft) {
    PowerlawPsdGaussian(beta_, rows_, steps_, fmin_, rng, np, fft, &buffer_);
    idx_ = 0;
  }

  // sample() (T = 1): scale * the buffer's next column, into out[:rows].
  void Sample(NumpyRandom* rng, const NumpyMath& np, const NumpyFft& fft,
              double* out) {
    if (idx_ >= steps_) Reset(rng, np, fft);
    for (int r = 0; r < rows_; ++r) {
      out[r] = scale_ * buffer_[static_cast<std::size_t>(r) * steps_ + idx_];
    }
    idx_ += 1;
  }

  ENVPOOL_LITE_STATE_FIELDS(beta_, rows_, steps_, scale_, fmin_, buffer_, idx_)

 private:
  double beta_ = 1.0;
  int rows_ = 1, steps_ = 1;
  double scale_ = 1.0, fmin_ = 0.0;
  std::vector<double> buffer_;
  int idx_ = 0;
};

}  // namespace pink
}  // namespace envpool_lite
