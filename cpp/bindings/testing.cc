// envpool_lite._core._testing: the Atari image kernels
// (cpp/envs/common/image.h) callable from Python, for the tests that
// compare them with OpenCV and numpy, and a C++-timed resize benchmark;
// numpy's random streams as the envs draw them (cpp/core/np_random.h,
// cpp/core/np_random_state.h), for the tests that compare them with numpy;
// and the pygame-ce drawing routines of the Box2D envs
// (cpp/envs/common/pygame_draw.h: pygame_draw, pygame_smoothscale,
// pygame_blit), for tests/test_pygame_draw.py, which compares them with
// pygame-ce itself.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "core/np_random.h"
#include "core/np_random_state.h"
#include "envs/common/image.h"
#include "envs/common/pygame_draw.h"

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

// ---- pygame_draw.h ----

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

// Called from PYBIND11_MODULE in module.cc on the `_testing` submodule.
void RegisterTestingKernels(py::module_ t) {
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
  t.def("random_draws", &RandomDraws, py::arg("stream"), py::arg("seed"),
        py::arg("ops"),
        "The draws of numpy's RandomState (stream 'random_state') or "
        "Generator ('generator') as the envs make them, for ops "
        "[(name, *args), ...] in order.");
  t.def("hwc_to_chw", &HwcToChw, py::arg("img"),
        "img.transpose(2, 0, 1), contiguous.");
  t.def("pygame_draw", &PygameDraw, py::arg("img"), py::arg("ops"),
        "A copy of the (h, w, 3) uint8 image with pygame drawing calls "
        "applied by pygame_draw.h; ops: [(name, *args), ...] (see "
        "PygameDraw in cpp/bindings/testing.cc).");
  t.def("pygame_smoothscale", &PygameSmoothscale, py::arg("img"),
        py::arg("height"), py::arg("width"), py::arg("flip") = false,
        "pygame.transform.smoothscale of an (h, w, 3) uint8 image (flipped "
        "upside down first if flip) to (width, height), by pygame_draw.h.");
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
      "pygame_draw.h (CarRacing then draws its background as one fill).");
  t.def("pygame_blit", &PygameBlit, py::arg("dst"), py::arg("src"),
        py::arg("x"), py::arg("y"),
        "A copy of dst with src blitted at (x, y), by pygame_draw.h.");
}
