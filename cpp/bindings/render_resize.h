// envpool_lite._core: resize_images(), render()'s resize to
// make(render_width=, render_height=).
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cstdint>

namespace envpool_lite {

namespace py = pybind11;

// render()'s resize to make(render_width=, render_height=): n pictures
// (n, H, W, C) uint8 to (n, height, width, C), with cv2.resize's INTER_AREA
// or INTER_LINEAR arithmetic (refkit/cv2/image.h).
py::array_t<uint8_t> ResizeImages(const py::array& images, int height,
                                  int width, bool area);

}  // namespace envpool_lite
