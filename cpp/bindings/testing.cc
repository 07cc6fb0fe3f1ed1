// envpool_lite._testing: the Atari image kernels
// (cpp/refkit/cv2/image.h) callable from Python, for the tests that
// compare them with OpenCV and numpy, and a C++-timed resize benchmark;
// numpy's random streams as the envs draw them (cpp/refkit/numpy/random.h,
// cpp/refkit/numpy/random_state.h), for the tests that compare them with numpy;
// jax.random as the JAX-defined envs draw it (cpp/refkit/jax/random.h), for
// tests/test_jax_random.py, which compares it with jax;
// and the pygame-ce drawing routines of the Box2D envs
// (cpp/refkit/pygame/draw.h: pygame_draw, pygame_smoothscale,
// pygame_blit), for tests/test_pygame_draw.py, which compares them with
// pygame-ce itself.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "refkit/cv2/image.h"
#include "refkit/jax/random.h"
#include "refkit/numpy/random.h"
#include "refkit/numpy/random_state.h"
#include "refkit/pygame/draw.h"
#ifdef ENVPOOL_LITE_NUMPY_RANDOM
#include "refkit/pink/colored_noise.h"
#endif

namespace py = pybind11;

namespace {

using U8Array = py::array_t<uint8_t, py::array::c_style>;
using envpool_lite::image::Resizer;

// uint8 only (no silent casts), C-contiguous (a copy if needed).
U8Array AsU8(const py::array& a, const char* what) {
  if (!a.dtype().is(py::dtype::of<uint8_t>())) {
    throw py::type_error(std::string(what) + " must be uint8, got " +
                         std::string(py::str(a.dtype())));
  }
  return U8Array::ensure(a);
}

struct Image {
  U8Array array;
  int h, w, c;
};

Image AsImage(const py::array& img) {
  Image out{AsU8(img, "img"), 0, 0, 1};
  if (out.array.ndim() != 2 && out.array.ndim() != 3) {
    throw py::value_error("img must be HxW or HxWxC");
  }
  out.h = static_cast<int>(out.array.shape(0));
  out.w = static_cast<int>(out.array.shape(1));
  if (out.array.ndim() == 3) out.c = static_cast<int>(out.array.shape(2));
  return out;
}

Resizer MakeResizer(const Image& img, int height, int width, bool area) {
  try {
    return Resizer(img.h, img.w, height, width, img.c,
                   area ? Resizer::Method::kArea : Resizer::Method::kBilinear);
  } catch (const std::invalid_argument& e) {
    throw py::value_error(e.what());
  }
}

U8Array Resize(const py::array& src, int height, int width, bool area) {
  const Image img = AsImage(src);
  const Resizer resizer = MakeResizer(img, height, width, area);
  std::vector<py::ssize_t> shape = {height, width};
  if (img.array.ndim() == 3) shape.push_back(img.c);
  U8Array out(shape);
  {
    py::gil_scoped_release release;
    resizer.Run(img.array.data(), out.mutable_data());
  }
  return out;
}

double ResizeBenchmark(const py::array& src, int height, int width, bool area,
                       int iterations) {
  if (iterations <= 0) throw py::value_error("iterations must be positive");
  const Image img = AsImage(src);
  const Resizer resizer = MakeResizer(img, height, width, area);
  std::vector<uint8_t> out(static_cast<std::size_t>(height) * width * img.c);
  const uint8_t* in = img.array.data();
  py::gil_scoped_release release;
  resizer.Run(in, out.data());  // warm up
  // Best of 5 batches (the machine may be shared), in ns per call.
  const int batch = std::max(1, iterations / 5);
  double best = 1e300;
  for (int b = 0; b < 5; ++b) {
    const auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < batch; ++i) resizer.Run(in, out.data());
    const auto t1 = std::chrono::steady_clock::now();
    best = std::min(
        best,
        std::chrono::duration<double, std::nano>(t1 - t0).count() / batch);
  }
  return best;
}

U8Array MaxPool(const py::array& a_in, const py::array& b_in) {
  const U8Array a = AsU8(a_in, "a");
  const U8Array b = AsU8(b_in, "b");
  if (a.ndim() != b.ndim() ||
      !std::equal(a.shape(), a.shape() + a.ndim(), b.shape())) {
    throw py::value_error("a and b must have the same shape");
  }
  U8Array out(std::vector<py::ssize_t>(a.shape(), a.shape() + a.ndim()));
  envpool_lite::image::MaxPool(a.data(), b.data(), out.mutable_data(),
                               static_cast<std::size_t>(a.size()));
  return out;
}

// In place: a[...] = max(a, b) through the kernel's aliasing path (out == a).
void MaxPoolInPlace(py::array a, const py::array& b_in) {
  if (!a.dtype().is(py::dtype::of<uint8_t>()) ||
      !(a.flags() & py::array::c_style) || !a.writeable()) {
    throw py::type_error("a must be a writeable C-contiguous uint8 array");
  }
  const U8Array b = AsU8(b_in, "b");
  if (a.size() != b.size())
    throw py::value_error("a and b must have the same size");
  auto* data = static_cast<uint8_t*>(a.mutable_data());
  envpool_lite::image::MaxPool(data, b.data(), data,
                               static_cast<std::size_t>(a.size()));
}

U8Array HwcToChw(const py::array& src) {
  const U8Array img = AsU8(src, "img");
  if (img.ndim() != 3) throw py::value_error("img must be HxWxC");
  const int h = static_cast<int>(img.shape(0));
  const int w = static_cast<int>(img.shape(1));
  const int c = static_cast<int>(img.shape(2));
  U8Array out(std::vector<py::ssize_t>{c, h, w});
  envpool_lite::image::HwcToChw(img.data(), out.mutable_data(), h, w, c);
  return out;
}

// Runs `ops` on one stream seeded `seed`, in order, and returns what each
// draws: ops are (name, *args) tuples. The stream is numpy's legacy
// RandomState ("random_state") or Generator(PCG64) ("generator").
#ifdef ENVPOOL_LITE_NUMPY_RANDOM
// pink-noise-rl's ColoredNoiseProcess(beta, size=(rows, steps), scale,
// rng=Generator(PCG64(seed))): its first `draws` samples, (draws, rows).
py::array_t<double> ColoredNoise(uint64_t seed, double beta, int rows,
                                 int steps, double scale, int draws,
                                 const py::dict& numpy_loops) {
  envpool_lite::NamedNumbers loops;
  for (auto item : numpy_loops) {
    loops.emplace_back(item.first.cast<std::string>(),
                       item.second.cast<std::vector<double>>());
  }
  if (rows < 1 || steps < 1 || draws < 0) {
    throw py::value_error(
        "rows and steps must be positive, draws not negative");
  }
  envpool_lite::NumpyRandom rng(seed);
  const envpool_lite::NumpyMath np(loops);
  const envpool_lite::NumpyFft fft(loops);
  envpool_lite::pink::ColoredNoiseProcess noise(beta, rows, steps, scale);
  noise.Reset(&rng, np, fft);
  py::array_t<double> out({draws, rows});
  for (int i = 0; i < draws; ++i) {
    noise.Sample(&rng, np, fft,
                 out.mutable_data() + static_cast<std::size_t>(i) * rows);
  }
  return out;
}
#endif

py::list RandomDraws(const std::string& stream, uint64_t seed,
                     const py::list& ops) {
  py::list out;
  if (stream == "random_state") {
    if (seed > 0xFFFFFFFFull) throw py::value_error("seed must be < 2**32");
    envpool_lite::NumpyRandomState rng(static_cast<uint32_t>(seed));
    for (auto item : ops) {
      auto op = item.cast<py::tuple>();
      const std::string name = op[0].cast<std::string>();
      if (name == "random_sample") {
        out.append(rng.RandomSample());
      } else if (name == "uniform") {
        out.append(rng.Uniform(op[1].cast<double>(), op[2].cast<double>()));
      } else if (name == "standard_normal") {
        out.append(rng.StandardNormal());
      } else if (name == "normal") {
        out.append(rng.Normal(op[1].cast<double>(), op[2].cast<double>()));
      } else if (name == "randint") {
        out.append(rng.RandInt(op[1].cast<int64_t>(), op[2].cast<int64_t>()));
      } else if (name == "choice") {
        out.append(rng.Choice(op[1].cast<int64_t>()));
      } else if (name == "interval") {
        out.append(rng.Interval(op[1].cast<uint64_t>()));
      } else {
        throw py::value_error("unknown RandomState draw '" + name + "'");
      }
    }
    return out;
  }
  if (stream == "generator") {
    envpool_lite::NumpyRandom rng(seed);
    for (auto item : ops) {
      auto op = item.cast<py::tuple>();
      const std::string name = op[0].cast<std::string>();
      if (name == "random") {
        out.append(rng.NextDouble());
      } else if (name == "uniform") {
        out.append(rng.Uniform(op[1].cast<double>(), op[2].cast<double>()));
      } else if (name == "integers") {
        out.append(rng.Integers(op[1].cast<int64_t>(), op[2].cast<int64_t>()));
      } else if (name == "choice") {
        out.append(rng.Choice(op[1].cast<int64_t>()));
      } else if (name == "interval") {
        out.append(rng.Interval(op[1].cast<uint64_t>()));
      } else {
        throw py::value_error("unknown Generator draw '" + name + "'");
      }
    }
    return out;
  }
  throw py::value_error("stream must be 'random_state' or 'generator'");
}

// ---- refkit/jax/random.h ----

namespace jr = envpool_lite::jax_random;

// (m, 2) uint32 keys, one jax key a row.
std::vector<jr::Key> AsKeys(const py::array& keys_in) {
  if (!keys_in.dtype().is(py::dtype::of<uint32_t>())) {
    throw py::type_error("keys must be uint32");
  }
  const auto keys = py::array_t<uint32_t, py::array::c_style>::ensure(keys_in);
  if (keys.ndim() != 2 || keys.shape(1) != 2) {
    throw py::value_error("keys must have shape (m, 2)");
  }
  std::vector<jr::Key> out(static_cast<std::size_t>(keys.shape(0)));
  for (std::size_t i = 0; i < out.size(); ++i) {
    out[i] = {keys.data()[2 * i], keys.data()[2 * i + 1]};
  }
  return out;
}

// An (m, *shape) array of T: row i is what fill(keys[i], row pointer)
// writes (prod(shape) elements).
template <class T, class F>
py::array_t<T> PerKey(const std::vector<jr::Key>& keys,
                      const std::vector<py::ssize_t>& shape, F&& fill) {
  std::vector<py::ssize_t> full = {static_cast<py::ssize_t>(keys.size())};
  full.insert(full.end(), shape.begin(), shape.end());
  py::array_t<T> out(full);
  std::size_t row = 1;
  for (py::ssize_t d : shape) row *= static_cast<std::size_t>(d);
  T* data = out.mutable_data();
  for (std::size_t i = 0; i < keys.size(); ++i) fill(keys[i], data + i * row);
  return out;
}

template <class T>
std::vector<T> AsVector(const py::array& a) {
  if (!a.dtype().is(py::dtype::of<T>())) {
    throw py::type_error("unexpected dtype " + std::string(py::str(a.dtype())));
  }
  if (a.ndim() != 1) throw py::value_error("arrays must be 1-D");
  const auto c = py::array_t<T, py::array::c_style>::ensure(a);
  return std::vector<T>(c.data(), c.data() + c.size());
}

// Calls f(std::vector<T>) with the 1-D array a as int8, int32 or float32.
template <class F>
py::array WithArray(const py::array& a, F&& f) {
  if (a.dtype().is(py::dtype::of<int8_t>())) return f(AsVector<int8_t>(a));
  if (a.dtype().is(py::dtype::of<int32_t>())) return f(AsVector<int32_t>(a));
  if (a.dtype().is(py::dtype::of<float>())) return f(AsVector<float>(a));
  throw py::type_error("arrays must be int8, int32 or float32");
}

// The jax.random function `name` (see below) of each key in keys ((m, 2)
// uint32), with args; an (m, *shape) array. n None means shape ().
py::array JaxRandom(const std::string& name, const py::array& keys_in,
                    const py::tuple& args) {
  const std::vector<jr::Key> keys = AsKeys(keys_in);
  const auto arg = [&](std::size_t i) -> py::object {
    if (i >= args.size()) throw py::value_error(name + ": too few args");
    return args[i];
  };
  // args[0] as n (shape (n,)) or None (shape ()).
  const auto shape_of = [&](const py::object& n) {
    return n.is_none() ? std::vector<py::ssize_t>{}
                       : std::vector<py::ssize_t>{n.cast<py::ssize_t>()};
  };
  if (name == "threefry") {
    const auto x0 = arg(0).cast<uint32_t>(), x1 = arg(1).cast<uint32_t>();
    return PerKey<uint32_t>(keys, {2}, [&](jr::Key k, uint32_t* o) {
      const auto r = jr::Threefry2x32(k, x0, x1);
      std::copy(r.begin(), r.end(), o);
    });
  }
  if (name == "split") {
    const int n = arg(0).cast<int>();
    if (n < 0) throw py::value_error("n must be >= 0");
    return PerKey<uint32_t>(keys, {n, 2}, [&](jr::Key k, uint32_t* o) {
      for (const jr::Key& s : jr::Split(k, n))
        o = std::copy(s.begin(), s.end(), o);
    });
  }
  if (name == "split2") {
    return PerKey<uint32_t>(keys, {2, 2}, [&](jr::Key k, uint32_t* o) {
      const auto [a, b] = jr::Split2(k);
      std::copy(b.begin(), b.end(), std::copy(a.begin(), a.end(), o));
    });
  }
  if (name == "fold_in") {
    const auto data = arg(0).cast<uint32_t>();
    return PerKey<uint32_t>(keys, {2}, [&](jr::Key k, uint32_t* o) {
      const jr::Key r = jr::FoldIn(k, data);
      std::copy(r.begin(), r.end(), o);
    });
  }
  if (name == "bits") {
    const py::object n = arg(0);
    return PerKey<uint32_t>(keys, shape_of(n), [&](jr::Key k, uint32_t* o) {
      if (n.is_none()) {
        *o = jr::RandomBits32(k);
      } else {
        const auto v = jr::RandomBits32(k, n.cast<std::size_t>());
        std::copy(v.begin(), v.end(), o);
      }
    });
  }
  if (name == "uniform") {  // (n, minval, maxval); minval None: defaults
    const py::object n = arg(0);
    const bool bounds = !arg(1).is_none();
    const float lo = bounds ? arg(1).cast<float>() : 0.0f;
    const float hi = bounds ? arg(2).cast<float>() : 1.0f;
    return PerKey<float>(keys, shape_of(n), [&](jr::Key k, float* o) {
      if (n.is_none()) {
        *o = bounds ? jr::Uniform(k, lo, hi) : jr::Uniform(k);
      } else {
        const auto m = n.cast<std::size_t>();
        const auto v = bounds ? jr::Uniform(k, m, lo, hi) : jr::Uniform(k, m);
        std::copy(v.begin(), v.end(), o);
      }
    });
  }
  if (name == "bernoulli") {  // (n, p)
    const py::object n = arg(0);
    const float p = arg(1).cast<float>();
    return PerKey<bool>(keys, shape_of(n), [&](jr::Key k, bool* o) {
      if (n.is_none()) {
        *o = jr::Bernoulli(k, p);
      } else {
        const auto v = jr::Bernoulli(k, n.cast<std::size_t>(), p);
        for (uint8_t b : v) *o++ = b != 0;
      }
    });
  }
  if (name == "randint") {  // (n, minval, maxval)
    const py::object n = arg(0);
    const auto lo = arg(1).cast<int32_t>(), hi = arg(2).cast<int32_t>();
    return PerKey<int32_t>(keys, shape_of(n), [&](jr::Key k, int32_t* o) {
      if (n.is_none()) {
        *o = jr::Randint(k, lo, hi);
      } else {
        const auto v = jr::Randint(k, n.cast<std::size_t>(), lo, hi);
        std::copy(v.begin(), v.end(), o);
      }
    });
  }
  if (name == "choice") {  // (n,): choice(key, n)
    const auto n = arg(0).cast<int32_t>();
    return PerKey<int32_t>(
        keys, {}, [&](jr::Key k, int32_t* o) { *o = jr::Choice(k, n); });
  }
  if (name == "choice_a") {  // (a,): choice(key, a)
    return WithArray(arg(0).cast<py::array>(), [&](const auto& a) {
      using T = typename std::decay_t<decltype(a)>::value_type;
      return py::array(
          PerKey<T>(keys, {}, [&](jr::Key k, T* o) { *o = jr::Choice(k, a); }));
    });
  }
  if (name == "choice_p") {  // (a, p): choice(key, a, p=p), p float32/bool
    const auto p_arr = arg(1).cast<py::array>();
    const bool is_bool = p_arr.dtype().is(py::dtype::of<bool>());
    std::vector<float> pf;
    std::unique_ptr<bool[]> pb;  // a span<const bool> (no vector<bool>)
    std::size_t pb_size = 0;
    if (is_bool) {
      const auto c = py::array_t<bool, py::array::c_style>::ensure(p_arr);
      if (c.ndim() != 1) throw py::value_error("p must be 1-D");
      pb_size = static_cast<std::size_t>(c.size());
      pb = std::make_unique<bool[]>(pb_size);
      std::copy(c.data(), c.data() + pb_size, pb.get());
    } else {
      pf = AsVector<float>(p_arr);
    }
    return WithArray(arg(0).cast<py::array>(), [&](const auto& a) {
      using T = typename std::decay_t<decltype(a)>::value_type;
      return py::array(PerKey<T>(keys, {}, [&](jr::Key k, T* o) {
        *o = is_bool
                 ? jr::Choice(k, a, std::span<const bool>(pb.get(), pb_size))
                 : jr::Choice(k, a, pf);
      }));
    });
  }
  if (name == "choice_noreplace" || name == "permutation") {
    // (n or a[, k]): choice(key, n or a, (k,), replace=False) or
    // permutation(key, n or a)
    const bool perm = name == "permutation";
    const py::object x = arg(0);
    if (py::isinstance<py::int_>(x)) {
      const auto n = x.cast<int32_t>();
      const std::size_t k = perm ? static_cast<std::size_t>(std::max(n, 0))
                                 : arg(1).cast<std::size_t>();
      return PerKey<int32_t>(
          keys, {static_cast<py::ssize_t>(k)}, [&](jr::Key key, int32_t* o) {
            const auto v = perm ? jr::Permutation(key, n)
                                : jr::ChoiceWithoutReplacement(key, n, k);
            std::copy(v.begin(), v.end(), o);
          });
    }
    return WithArray(x.cast<py::array>(), [&](const auto& a) {
      using T = typename std::decay_t<decltype(a)>::value_type;
      const std::size_t k = perm ? a.size() : arg(1).cast<std::size_t>();
      return py::array(PerKey<T>(
          keys, {static_cast<py::ssize_t>(k)}, [&](jr::Key key, T* o) {
            const auto v = perm ? jr::Permutation(key, a)
                                : jr::ChoiceWithoutReplacement(key, a, k);
            std::copy(v.begin(), v.end(), o);
          }));
    });
  }
  throw py::value_error("unknown jax.random function '" + name + "'");
}

// ---- refkit/pygame/draw.h ----

namespace pgd = envpool_lite::pygame_draw;

// An (h, w, 3) uint8 image as a Surface (a copy).
pgd::Surface ToSurface(const py::array& img_in) {
  const U8Array img = AsU8(img_in, "img");
  if (img.ndim() != 3 || img.shape(2) != 3) {
    throw py::value_error("img must be (h, w, 3)");
  }
  pgd::Surface s(static_cast<int>(img.shape(1)),
                 static_cast<int>(img.shape(0)));
  s.CopyFrom(img.data());
  return s;
}

U8Array FromSurface(const pgd::Surface& s) {
  U8Array out(std::vector<py::ssize_t>{s.height(), s.width(), 3});
  s.CopyTo(out.mutable_data());
  return out;
}

pgd::Color ToColor(const py::handle& h) {
  auto t = h.cast<py::sequence>();
  if (t.size() != 3) throw py::value_error("color must be (r, g, b)");
  return pgd::Color{t[0].cast<uint8_t>(), t[1].cast<uint8_t>(),
                    t[2].cast<uint8_t>()};
}

pgd::Point ToPoint(const py::handle& h) {
  auto t = h.cast<py::sequence>();
  if (t.size() != 2) throw py::value_error("a point must be (x, y)");
  return pgd::Point{t[0].cast<double>(), t[1].cast<double>()};
}

std::vector<pgd::Point> ToPoints(const py::handle& h) {
  std::vector<pgd::Point> pts;
  for (auto p : h.cast<py::sequence>()) pts.push_back(ToPoint(p));
  return pts;
}

// Applies pygame calls to a copy of img and returns it. ops are tuples, in
// pygame's argument order (surface omitted):
//   ("fill", color)                      surf.fill(color)
//   ("rect", color, x, y, w, h)          draw.rect(surf, color, (x, y, w, h))
//   ("polygon", color, points, width)    draw.polygon
//   ("line", color, a, b, width)         draw.line
//   ("lines", color, closed, points, width)  draw.lines
//   ("aaline", color, a, b)              draw.aaline
//   ("aalines", color, closed, points)   draw.aalines
//   ("circle", color, center, radius, width)  draw.circle
//   ("aapolygon", points, color)         gfxdraw.aapolygon
//   ("filled_polygon", points, color)    gfxdraw.filled_polygon
//   ("flip",)                            transform.flip(surf, False, True)
U8Array PygameDraw(const py::array& img, const py::list& ops) {
  pgd::Surface s = ToSurface(img);
  for (auto item : ops) {
    auto op = item.cast<py::tuple>();
    const std::string name = op[0].cast<std::string>();
    if (name == "fill") {
      pgd::Fill(s, ToColor(op[1]));
    } else if (name == "rect") {
      pgd::DrawRect(s, ToColor(op[1]), op[2].cast<double>(),
                    op[3].cast<double>(), op[4].cast<double>(),
                    op[5].cast<double>());
    } else if (name == "polygon") {
      const auto pts = ToPoints(op[2]);
      pgd::DrawPolygon(s, ToColor(op[1]), pts.data(),
                       static_cast<int>(pts.size()), op[3].cast<int>());
    } else if (name == "line") {
      pgd::DrawLine(s, ToColor(op[1]), ToPoint(op[2]), ToPoint(op[3]),
                    op[4].cast<int>());
    } else if (name == "lines") {
      const auto pts = ToPoints(op[3]);
      pgd::DrawLines(s, ToColor(op[1]), op[2].cast<bool>(), pts.data(),
                     static_cast<int>(pts.size()), op[4].cast<int>());
    } else if (name == "aaline") {
      pgd::DrawAaline(s, ToColor(op[1]), ToPoint(op[2]), ToPoint(op[3]));
    } else if (name == "aalines") {
      const auto pts = ToPoints(op[3]);
      pgd::DrawAalines(s, ToColor(op[1]), op[2].cast<bool>(), pts.data(),
                       static_cast<int>(pts.size()));
    } else if (name == "circle") {
      pgd::DrawCircle(s, ToColor(op[1]), ToPoint(op[2]), op[3].cast<double>(),
                      op[4].cast<int>());
    } else if (name == "aapolygon") {
      const auto pts = ToPoints(op[1]);
      pgd::GfxAapolygon(s, pts.data(), static_cast<int>(pts.size()),
                        ToColor(op[2]));
    } else if (name == "filled_polygon") {
      const auto pts = ToPoints(op[1]);
      pgd::GfxFilledPolygon(s, pts.data(), static_cast<int>(pts.size()),
                            ToColor(op[2]));
    } else if (name == "flip") {
      pgd::FlipVertical(s);
    } else {
      throw py::value_error("unknown pygame op '" + name + "'");
    }
  }
  return FromSurface(s);
}

U8Array PygameSmoothscale(const py::array& img, int height, int width,
                          bool flip) {
  if (height < 0 || width < 0) throw py::value_error("negative size");
  pgd::Surface src = ToSurface(img);
  if (flip) pgd::FlipVertical(src);
  pgd::Surface dst(width, height);
  pgd::Smoothscale(src, dst);
  return FromSurface(dst);
}

U8Array PygameBlit(const py::array& dst_img, const py::array& src_img, int x,
                   int y) {
  pgd::Surface dst = ToSurface(dst_img);
  pgd::Blit(dst, ToSurface(src_img), x, y);
  return FromSurface(dst);
}

}  // namespace

PYBIND11_MODULE(_testing, t) {
  t.doc() =
      "Kernels of envpool_lite's C++ for the tests that compare them with "
      "their references (cpp/bindings/testing.cc): cv2's resize and the "
      "Atari image kernels, numpy's random streams, jax.random, pygame's "
      "drawing. A module of its own: envpool_lite._core does not carry them.";
  t.def("resize", &Resize, py::arg("img"), py::arg("height"), py::arg("width"),
        py::arg("area"),
        "cv2.resize(img, (width, height), interpolation=INTER_AREA if area "
        "else INTER_LINEAR) with envpool_lite's Resizer; img uint8 HxW or "
        "HxWxC.");
  t.def("resize_benchmark", &ResizeBenchmark, py::arg("img"), py::arg("height"),
        py::arg("width"), py::arg("area"), py::arg("iterations"),
        "ns per Resizer::Run call, timed in C++ (best of 5 batches of "
        "iterations / 5 calls, GIL released).");
  t.def(
      "resize_algorithm",
      [](int src_h, int src_w, int dst_h, int dst_w, int channels, bool area) {
        return std::string(
            Resizer(src_h, src_w, dst_h, dst_w, channels,
                    area ? Resizer::Method::kArea : Resizer::Method::kBilinear)
                .algorithm());
      },
      py::arg("src_h"), py::arg("src_w"), py::arg("dst_h"), py::arg("dst_w"),
      py::arg("channels"), py::arg("area"),
      "The name of the code path Resizer takes for these sizes.");
  t.def("max_pool", &MaxPool, py::arg("a"), py::arg("b"),
        "np.maximum(a, b) for uint8 arrays.");
  t.def("max_pool_inplace", &MaxPoolInPlace, py::arg("a"), py::arg("b"),
        "a[...] = np.maximum(a, b) (the kernel with out aliasing a); a must be "
        "a C-contiguous uint8 array.");
#ifdef ENVPOOL_LITE_NUMPY_RANDOM
  t.def("colored_noise", &ColoredNoise, py::arg("seed"), py::arg("beta"),
        py::arg("rows"), py::arg("steps"), py::arg("scale"), py::arg("draws"),
        py::arg("numpy_loops"),
        "pink-noise-rl's ColoredNoiseProcess(beta, size=(rows, steps), "
        "scale, rng=Generator(PCG64(seed))).sample() `draws` times, by "
        "refkit/pink/colored_noise.h with numpy_loops' irfft.");
#endif
  t.def("random_draws", &RandomDraws, py::arg("stream"), py::arg("seed"),
        py::arg("ops"),
        "The draws of numpy's RandomState (stream 'random_state') or "
        "Generator ('generator') as the envs make them, for ops "
        "[(name, *args), ...] in order.");
  t.def(
      "jax_prng_key",
      [](int64_t seed) {
        const jr::Key k = jr::PRNGKey(seed);
        py::array_t<uint32_t> out(2);
        std::copy(k.begin(), k.end(), out.mutable_data());
        return out;
      },
      py::arg("seed"),
      "jax.random.PRNGKey(seed) (x64 disabled) by refkit/jax/random.h, as "
      "uint32 "
      "(2,).");
  t.def(
      "jax_random", &JaxRandom, py::arg("name"), py::arg("keys"),
      py::arg("args"),
      "jax.random's `name` by refkit/jax/random.h for each key of keys ((m, 2) "
      "uint32), stacked: threefry (x0, x1), split (n,), split2 (), "
      "fold_in (data,), bits (n,), uniform (n, minval, maxval), "
      "bernoulli (n, p), randint (n, minval, maxval), choice (n,), "
      "choice_a (a,), choice_p (a, p), choice_noreplace (n or a, k), "
      "permutation (n or a,); n None is shape ().");
  t.def(
      "jax_cumsum",
      [](const py::array& x) {
        const auto v = jr::detail::XlaCumsum(AsVector<float>(x));
        py::array_t<float> out(static_cast<py::ssize_t>(v.size()));
        std::copy(v.begin(), v.end(), out.mutable_data());
        return out;
      },
      py::arg("x"),
      "jnp.cumsum of a 1-D float32 array as XLA's CPU backend sums it, by "
      "refkit/jax/random.h.");
  t.def("hwc_to_chw", &HwcToChw, py::arg("img"),
        "img.transpose(2, 0, 1), contiguous.");
  t.def("pygame_draw", &PygameDraw, py::arg("img"), py::arg("ops"),
        "A copy of the (h, w, 3) uint8 image with pygame drawing calls "
        "applied by refkit/pygame/draw.h; ops: [(name, *args), ...] (see "
        "PygameDraw in cpp/bindings/testing.cc).");
  t.def("pygame_smoothscale", &PygameSmoothscale, py::arg("img"),
        py::arg("height"), py::arg("width"), py::arg("flip") = false,
        "pygame.transform.smoothscale of an (h, w, 3) uint8 image (flipped "
        "upside down first if flip) to (width, height), by "
        "refkit/pygame/draw.h.");
  t.def(
      "pygame_polygon_covers",
      [](int height, int width, const py::handle& points) {
        if (height < 0 || width < 0) throw py::value_error("negative size");
        const pgd::Surface s(width, height);
        const auto pts = ToPoints(points);
        return pgd::GfxPolygonCovers(s, pts.data(),
                                     static_cast<int>(pts.size()));
      },
      py::arg("height"), py::arg("width"), py::arg("points"),
      "Whether gfxdraw.aapolygon + filled_polygon of points paint every "
      "pixel of a (height, width) surface in the polygon's color, by "
      "refkit/pygame/draw.h (CarRacing then draws its background as one "
      "fill).");
  t.def("pygame_blit", &PygameBlit, py::arg("dst"), py::arg("src"),
        py::arg("x"), py::arg("y"),
        "A copy of dst with src blitted at (x, y), by refkit/pygame/draw.h.");
}
