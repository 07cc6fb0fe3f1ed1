// envpool_lite._core: resize_images(): n uint8 pictures resized with the
// arithmetic of cv2.resize (refkit/cv2/image.h's Resizer).
#include "bindings/render_resize.h"

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <optional>
#include <stdexcept>
#include <vector>

#include "refkit/cv2/image.h"

namespace envpool_lite {

// render()'s resize to make(render_width=, render_height=): n pictures
// (n, H, W, C) uint8 to (n, height, width, C), with cv2.resize's INTER_AREA
// or INTER_LINEAR arithmetic (refkit/cv2/image.h).
py::array_t<uint8_t> ResizeImages(const py::array& images, int height,
                                  int width, bool area) {
  if (!images.dtype().is(py::dtype::of<uint8_t>()) || images.ndim() != 4) {
    throw py::type_error("images must be an (n, H, W, C) uint8 array");
  }
  const auto in = py::array_t<uint8_t, py::array::c_style>::ensure(images);
  const auto n = in.shape(0), h = in.shape(1), w = in.shape(2), c = in.shape(3);
  std::optional<image::Resizer> resizer;
  try {
    resizer.emplace(static_cast<int>(h), static_cast<int>(w), height, width,
                    static_cast<int>(c),
                    area ? image::Resizer::Method::kArea
                         : image::Resizer::Method::kBilinear);
  } catch (const std::invalid_argument& e) {
    throw py::value_error(e.what());
  }
  py::array_t<uint8_t> out(std::vector<py::ssize_t>{n, height, width, c});
  const uint8_t* src = in.data();
  uint8_t* dst = out.mutable_data();
  py::gil_scoped_release release;
  for (py::ssize_t i = 0; i < n; ++i) {
    resizer->Run(src + i * h * w * c, dst + i * height * width * c);
  }
  return out;
}

}  // namespace envpool_lite
