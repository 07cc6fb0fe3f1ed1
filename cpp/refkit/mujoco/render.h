// Drawing a MuJoCo model in C++, in the thread that steps the env, as
// dm_control's Physics.render(height, width, camera_id) draws it: a headless
// OpenGL context of the backend dm_control uses (MUJOCO_GL: "egl" or
// "osmesa", created with dm_control's attributes), MuJoCo's own renderer
// (mjv_updateScene into a scene of dm_control's size, mjr_render into the
// offscreen buffer, mjr_readPixels), the rows flipped to top-down.
//
// Each env owns its context (an OpenGL context is current on one thread at
// a time; an env is stepped by one worker thread at a time, so it makes its
// context current for a frame and releases it after). The GL library is
// loaded with RTLD_GLOBAL: MuJoCo finds the platform's GetProcAddress in the
// process, as it does when dm_control's PyOpenGL has loaded the library.
#pragma once

#include <dlfcn.h>
#include <mujoco/mujoco.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include "refkit/mujoco/api.h"

namespace envpool_lite {
namespace mujoco {

// libmujoco's rendering functions (loaded only by envs that draw).
struct RenderApi {
  decltype(&::mjv_defaultOption) default_option = nullptr;
  decltype(&::mjv_defaultCamera) default_camera = nullptr;
  decltype(&::mjv_defaultFreeCamera) default_free_camera = nullptr;
  decltype(&::mjv_defaultPerturb) default_perturb = nullptr;
  decltype(&::mjv_defaultScene) default_scene = nullptr;
  decltype(&::mjv_makeScene) make_scene = nullptr;
  decltype(&::mjv_freeScene) free_scene = nullptr;
  decltype(&::mjv_updateScene) update_scene = nullptr;
  decltype(&::mjr_defaultContext) default_context = nullptr;
  decltype(&::mjr_makeContext) make_context = nullptr;
  decltype(&::mjr_freeContext) free_context = nullptr;
  decltype(&::mjr_setBuffer) set_buffer = nullptr;
  decltype(&::mjr_render) render = nullptr;
  decltype(&::mjr_readPixels) read_pixels = nullptr;
  decltype(&::mjr_uploadHField) upload_hfield = nullptr;
};

inline const RenderApi& LoadRenderApi(const std::string& lib_path) {
  static std::mutex mutex;
  static RenderApi api;
  static bool loaded = false;
  std::lock_guard<std::mutex> lock(mutex);
  if (loaded) return api;
  LoadApi(lib_path);  // checks the library and its version
  SharedLibrary so(
      "MuJoCo", lib_path,
      std::string("envpool_lite needs mujoco==") + ENVPOOL_LITE_MUJOCO_VERSION);
  RenderApi a;
  so.Load(&a.default_option, "mjv_defaultOption");
  so.Load(&a.default_camera, "mjv_defaultCamera");
  so.Load(&a.default_free_camera, "mjv_defaultFreeCamera");
  so.Load(&a.default_perturb, "mjv_defaultPerturb");
  so.Load(&a.default_scene, "mjv_defaultScene");
  so.Load(&a.make_scene, "mjv_makeScene");
  so.Load(&a.free_scene, "mjv_freeScene");
  so.Load(&a.update_scene, "mjv_updateScene");
  so.Load(&a.default_context, "mjr_defaultContext");
  so.Load(&a.make_context, "mjr_makeContext");
  so.Load(&a.free_context, "mjr_freeContext");
  so.Load(&a.set_buffer, "mjr_setBuffer");
  so.Load(&a.render, "mjr_render");
  so.Load(&a.read_pixels, "mjr_readPixels");
  so.Load(&a.upload_hfield, "mjr_uploadHField");
  api = a;
  loaded = true;
  return api;
}

// One env's GL work at a time in the process: Mesa's software driver
// (swrast_dri, EGL) crashed inside mjr_render with two envs' contexts
// rendering on two worker threads at once (a native backtrace of the
// intermittent pixel-test crash, docs/reliability.md). llvmpipe already
// spreads one frame over the cores, so the lock costs little.
inline std::mutex& GlMutex() {
  static std::mutex mutex;
  return mutex;
}

// A headless OpenGL context: EGL (a device's display, no surface) or OSMesa
// (a float buffer of the model's offscreen size), as dm_control makes them.
class GlContext {
 public:
  GlContext(const std::string& backend, int width, int height)
      : backend_(backend) {
    std::lock_guard<std::mutex> lock(GlMutex());
    if (backend == "osmesa") {
      const Osmesa& o = LoadOsmesa();
      // OSMesaCreateContextExt(OSMESA_RGBA, depth 24, stencil 8, accum 0)
      context_ = o.create(0x1908, 24, 8, 0, nullptr);
      if (context_ == nullptr) {
        throw std::runtime_error("OSMesa: cannot create a GL context");
      }
      width_ = width;
      height_ = height;
      buffer_.assign(static_cast<std::size_t>(width) * height * 4, 0.0f);
    } else if (backend == "egl") {
      const Egl& e = LoadEgl();
      const int32_t attributes[] = {
          0x3024, 8,       // EGL_RED_SIZE
          0x3023, 8,       // EGL_GREEN_SIZE
          0x3022, 8,       // EGL_BLUE_SIZE
          0x3021, 8,       // EGL_ALPHA_SIZE
          0x3025, 24,      // EGL_DEPTH_SIZE
          0x3026, 8,       // EGL_STENCIL_SIZE
          0x303F, 0x308E,  // EGL_COLOR_BUFFER_TYPE, EGL_RGB_BUFFER
          0x3033, 0x0001,  // EGL_SURFACE_TYPE, EGL_PBUFFER_BIT
          0x3040, 0x0008,  // EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT
          0x3038};         // EGL_NONE
      void* config = nullptr;
      int32_t num_configs = 0;
      if (!e.choose_config(e.display, attributes, &config, 1, &num_configs) ||
          num_configs < 1) {
        throw std::runtime_error("EGL: no config with the needed attributes");
      }
      e.bind_api(0x30A2);  // EGL_OPENGL_API
      context_ = e.create_context(e.display, config, nullptr, nullptr);
      if (context_ == nullptr) {
        throw std::runtime_error("EGL: cannot create a GL context");
      }
    } else {
      throw std::invalid_argument("unknown OpenGL backend '" + backend +
                                  "' (egl or osmesa)");
    }
  }
  ~GlContext() {
    if (context_ == nullptr) return;
    std::lock_guard<std::mutex> lock(GlMutex());
    if (backend_ == "osmesa") {
      LoadOsmesa().destroy(context_);
    } else {
      const Egl& e = LoadEgl();
      e.destroy_context(e.display, context_);
    }
  }
  GlContext(const GlContext&) = delete;
  GlContext& operator=(const GlContext&) = delete;

  // Makes this context current on the calling thread, keeping the one that
  // was current (another library's: dm_control's, a viewer's) for Release
  // to restore.
  void MakeCurrent() {
    SavePrevious();
    if (!TryMakeCurrent()) {
      throw std::runtime_error("cannot make the GL context current");
    }
  }
  // false when the context cannot be made current (e.g. at exit, after
  // another user of the same EGL display terminated it).
  bool TryMakeCurrent() {
    bool ok;
    if (backend_ == "osmesa") {
      ok = LoadOsmesa().make_current(context_, buffer_.data(), 0x1406, width_,
                                     height_);  // GL_FLOAT
    } else {
      const Egl& e = LoadEgl();
      // The thread's rendering API (eglBindAPI is per thread; a worker that
      // did not create this context still has EGL_OPENGL_ES_API): Release's
      // eglMakeCurrent(EGL_NO_CONTEXT) releases the context of that API.
      e.bind_api(0x30A2);  // EGL_OPENGL_API
      ok = e.make_current(e.display, nullptr, nullptr, context_);
    }
    return ok;
  }
  bool TrySaveAndMakeCurrent() {
    SavePrevious();
    return TryMakeCurrent();
  }
  // The context that was current before MakeCurrent is current again (or
  // none).
  void Release() {
    if (backend_ == "osmesa") {
      const Osmesa& o = LoadOsmesa();
      if (prev_.context != nullptr) {
        o.make_current(prev_.context, prev_.buffer, prev_.type, prev_.width,
                       prev_.height);
      } else {
        o.make_current(nullptr, nullptr, 0x1406, 0, 0);
      }
    } else {
      const Egl& e = LoadEgl();
      e.bind_api(0x30A2);  // release the OpenGL context, not an ES one
      if (prev_.context != nullptr) {
        e.make_current(prev_.display, prev_.draw, prev_.read, prev_.context);
      } else {
        e.make_current(e.display, nullptr, nullptr, nullptr);
      }
    }
    prev_ = Previous{};
  }

 private:
  struct Osmesa {
    void* (*create)(unsigned format, int depth, int stencil, int accum,
                    void* share) = nullptr;
    unsigned char (*make_current)(void* ctx, void* buffer, unsigned type,
                                  int width, int height) = nullptr;
    void (*destroy)(void* ctx) = nullptr;
    void* (*get_current)() = nullptr;
    void (*get_integerv)(int pname, int* value) = nullptr;
    unsigned char (*get_color_buffer)(void* ctx, int* width, int* height,
                                      int* format, void** buffer) = nullptr;
  };
  // What was current before MakeCurrent.
  struct Previous {
    void* context = nullptr;
    void* display = nullptr;  // EGL
    void* draw = nullptr;
    void* read = nullptr;
    void* buffer = nullptr;  // OSMesa
    unsigned type = 0;
    int width = 0, height = 0;
  };
  void SavePrevious() {
    prev_ = Previous{};
    if (backend_ == "osmesa") {
      const Osmesa& o = LoadOsmesa();
      void* current = o.get_current();
      if (current == nullptr || current == context_) return;
      int w = 0, h = 0, format = 0, type = 0;
      void* buffer = nullptr;
      if (!o.get_color_buffer(current, &w, &h, &format, &buffer)) return;
      o.get_integerv(0x23, &type);  // OSMESA_TYPE
      prev_ = Previous{current, nullptr, nullptr,
                       nullptr, buffer,  static_cast<unsigned>(type),
                       w,       h};
    } else {
      const Egl& e = LoadEgl();
      e.bind_api(0x30A2);  // the current context of the OpenGL API
      void* current = e.get_current_context();
      if (current == nullptr || current == context_) return;
      prev_.context = current;
      prev_.display = e.get_current_display();
      prev_.draw = e.get_current_surface(0x3059);  // EGL_DRAW
      prev_.read = e.get_current_surface(0x305A);  // EGL_READ
    }
  }
  struct Egl {
    void* display = nullptr;
    unsigned (*choose_config)(void* dpy, const int32_t* attrs, void** configs,
                              int32_t size, int32_t* num) = nullptr;
    unsigned (*bind_api)(unsigned api) = nullptr;
    void* (*create_context)(void* dpy, void* config, void* share,
                            const int32_t* attrs) = nullptr;
    unsigned (*make_current)(void* dpy, void* draw, void* read,
                             void* ctx) = nullptr;
    unsigned (*destroy_context)(void* dpy, void* ctx) = nullptr;
    void* (*get_current_context)() = nullptr;
    void* (*get_current_display)() = nullptr;
    void* (*get_current_surface)(int32_t which) = nullptr;
  };

  static void* OpenGlobal(const char* const* names, const char* what) {
    for (const char* const* n = names; *n != nullptr; ++n) {
      if (void* h = dlopen(*n, RTLD_NOW | RTLD_GLOBAL)) return h;
    }
    throw std::runtime_error(
        std::string("cannot load ") + what + " (on Debian: apt-get install " +
        (std::string(what) == "libOSMesa" ? "libosmesa6" : "libegl1") + ")");
  }

  static const Osmesa& LoadOsmesa() {
    static std::once_flag once;
    static Osmesa o;
    static std::string error;
    std::call_once(once, [] {
      try {
        static const char* names[] = {"libOSMesa.so.8", "libOSMesa.so.6",
                                      "libOSMesa.so", nullptr};
        void* h = OpenGlobal(names, "libOSMesa");
        o.create = reinterpret_cast<decltype(o.create)>(
            dlsym(h, "OSMesaCreateContextExt"));
        o.make_current = reinterpret_cast<decltype(o.make_current)>(
            dlsym(h, "OSMesaMakeCurrent"));
        o.destroy = reinterpret_cast<decltype(o.destroy)>(
            dlsym(h, "OSMesaDestroyContext"));
        o.get_current = reinterpret_cast<decltype(o.get_current)>(
            dlsym(h, "OSMesaGetCurrentContext"));
        o.get_integerv = reinterpret_cast<decltype(o.get_integerv)>(
            dlsym(h, "OSMesaGetIntegerv"));
        o.get_color_buffer = reinterpret_cast<decltype(o.get_color_buffer)>(
            dlsym(h, "OSMesaGetColorBuffer"));
        if (!o.create || !o.make_current || !o.destroy || !o.get_current ||
            !o.get_integerv || !o.get_color_buffer) {
          error = "libOSMesa lacks OSMesaCreateContextExt";
        }
      } catch (const std::exception& e) {
        error = e.what();
      }
    });
    if (!error.empty()) throw std::runtime_error(error);
    return o;
  }

  // dm_control's headless display: the first EGL device whose display
  // initialises (MUJOCO_EGL_DEVICE_ID is not read here).
  static const Egl& LoadEgl() {
    static std::once_flag once;
    static Egl e;
    static std::string error;
    std::call_once(once, [] {
      try {
        static const char* names[] = {"libEGL.so.1", "libEGL.so", nullptr};
        void* h = OpenGlobal(names, "libEGL");
        auto get_proc = reinterpret_cast<void* (*)(const char*)>(
            dlsym(h, "eglGetProcAddress"));
        auto initialize =
            reinterpret_cast<unsigned (*)(void*, int32_t*, int32_t*)>(
                dlsym(h, "eglInitialize"));
        e.choose_config = reinterpret_cast<decltype(e.choose_config)>(
            dlsym(h, "eglChooseConfig"));
        e.bind_api =
            reinterpret_cast<decltype(e.bind_api)>(dlsym(h, "eglBindAPI"));
        e.create_context = reinterpret_cast<decltype(e.create_context)>(
            dlsym(h, "eglCreateContext"));
        e.make_current = reinterpret_cast<decltype(e.make_current)>(
            dlsym(h, "eglMakeCurrent"));
        e.destroy_context = reinterpret_cast<decltype(e.destroy_context)>(
            dlsym(h, "eglDestroyContext"));
        e.get_current_context =
            reinterpret_cast<decltype(e.get_current_context)>(
                dlsym(h, "eglGetCurrentContext"));
        e.get_current_display =
            reinterpret_cast<decltype(e.get_current_display)>(
                dlsym(h, "eglGetCurrentDisplay"));
        e.get_current_surface =
            reinterpret_cast<decltype(e.get_current_surface)>(
                dlsym(h, "eglGetCurrentSurface"));
        if (!get_proc || !initialize || !e.choose_config || !e.bind_api ||
            !e.create_context || !e.make_current || !e.destroy_context ||
            !e.get_current_context || !e.get_current_display ||
            !e.get_current_surface) {
          error = "libEGL lacks core functions";
          return;
        }
        auto query_devices =
            reinterpret_cast<unsigned (*)(int32_t, void**, int32_t*)>(
                get_proc("eglQueryDevicesEXT"));
        auto platform_display =
            reinterpret_cast<void* (*)(unsigned, void*, const int32_t*)>(
                get_proc("eglGetPlatformDisplayEXT"));
        if (!query_devices || !platform_display) {
          error = "EGL lacks EGL_EXT_device_enumeration";
          return;
        }
        void* devices[32];
        int32_t n = 0;
        query_devices(32, devices, &n);
        for (int32_t i = 0; i < n && e.display == nullptr; ++i) {
          void* dpy = platform_display(0x313F, devices[i], nullptr);
          if (dpy != nullptr && initialize(dpy, nullptr, nullptr)) {
            e.display = dpy;
          }
        }
        if (e.display == nullptr) error = "EGL: no headless display";
      } catch (const std::exception& ex) {
        error = ex.what();
      }
    });
    if (!error.empty()) throw std::runtime_error(error);
    return e;
  }

  std::string backend_;
  void* context_ = nullptr;
  Previous prev_;
  int width_ = 0, height_ = 0;
  std::vector<float> buffer_;  // OSMesa's default framebuffer
};

// dm_control's Camera: a scene sized as dm_control sizes it, a default
// option and perturbation, a fixed camera (id >= 0) or the free camera
// (-1), and MuJoCo's offscreen buffer (the model's offwidth x offheight).
class Renderer {
 public:
  // max_geom: the scene's size (0: dm_control's estimate for the model,
  // at least 1000; gymnasium's MujocoRenderer makes 1000).
  Renderer(const std::string& lib_path, const std::string& backend,
           const mjModel* m, int max_geom = 0)
      : api_(LoadRenderApi(lib_path)),
        gl_(backend, m->vis.global.offwidth, m->vis.global.offheight) {
    std::lock_guard<std::mutex> lock(GlMutex());
    gl_.MakeCurrent();
    api_.default_option(&option_);
    api_.default_perturb(&perturb_);
    perturb_.active = 0;
    perturb_.select = 0;
    api_.default_scene(&scene_);
    api_.make_scene(
        m, &scene_,
        max_geom > 0 ? max_geom : std::max(1000, MaxRenderableGeoms(m)));
    api_.default_context(&context_);
    api_.make_context(m, &context_, mjFONTSCALE_150);
    api_.set_buffer(mjFB_OFFSCREEN, &context_);
    gl_.Release();
  }
  ~Renderer() {
    std::lock_guard<std::mutex> lock(GlMutex());
    if (gl_.TrySaveAndMakeCurrent()) {  // else the GL objects went with the
                                        // display
      api_.free_context(&context_);
      gl_.Release();
    }
    api_.free_scene(&scene_);
  }
  Renderer(const Renderer&) = delete;
  Renderer& operator=(const Renderer&) = delete;

  // height x width x 3 RGB, top row first: dm_control's camera_id (-1:
  // mjv_defaultFreeCamera).
  void Render(const mjModel* m, mjData* d, int height, int width, int camera_id,
              uint8_t* rgb) {
    mjvCamera camera;
    api_.default_camera(&camera);
    camera.fixedcamid = camera_id;
    if (camera_id == -1) {
      camera.type = mjCAMERA_FREE;
      api_.default_free_camera(m, &camera);
    } else {
      camera.type = mjCAMERA_FIXED;
    }
    Render(m, d, height, width, camera, rgb);
  }

  // The same from a camera the caller keeps (gymnasium's viewer keeps its
  // free camera from frame to frame).
  void Render(const mjModel* m, mjData* d, int height, int width,
              mjvCamera camera, uint8_t* rgb) {
    const mjrRect rect{0, 0, width, height};
    pixels_.resize(static_cast<std::size_t>(width) * height * 3);
    std::unique_lock<std::mutex> lock(GlMutex());
    gl_.MakeCurrent();
    api_.update_scene(m, d, &option_, &perturb_, &camera, mjCAT_ALL, &scene_);
    api_.set_buffer(mjFB_OFFSCREEN, &context_);
    api_.render(rect, &scene_, &context_);
    api_.read_pixels(pixels_.data(), nullptr, rect, &context_);
    gl_.Release();
    lock.unlock();
    const std::size_t row = static_cast<std::size_t>(width) * 3;
    for (int r = 0; r < height; ++r) {
      std::memcpy(rgb + r * row, pixels_.data() + (height - 1 - r) * row, row);
    }
  }

  // The scene's visualisation options (mjv_defaultOption's until changed:
  // myosuite's renderer shows the actuators coloured by activation).
  mjvOption& Option() { return option_; }

  // mjv_defaultCamera's camera (what gymnasium's MjvCamera() holds).
  mjvCamera DefaultCamera() const {
    mjvCamera camera;
    api_.default_camera(&camera);
    return camera;
  }

  // A heightfield the env changed (quadruped's terrain): to the GPU copy.
  void UploadHField(const mjModel* m, int hfield_id) {
    std::lock_guard<std::mutex> lock(GlMutex());
    gl_.MakeCurrent();
    api_.upload_hfield(m, &context_, hfield_id);
    gl_.Release();
  }

 private:
  // dm_control's _estimate_max_renderable_geoms.
  static int MaxRenderableGeoms(const mjModel* m) {
    const int max_frames =
        std::max({m->nbody, m->ngeom, m->nsite, m->ncam, m->nlight});
    return 3 * max_frames + 4 * m->ngeom + 3 * m->nbody + m->nsite +
           m->ntendon + m->njnt + m->nu + m->nskin + m->ncam + m->nlight;
  }

  const RenderApi& api_;
  GlContext gl_;
  mjvOption option_;
  mjvPerturb perturb_;
  mjvScene scene_;
  mjrContext context_;
  std::vector<uint8_t> pixels_;
};

// A renderer on the backend MUJOCO_GL names, else on the first headless one
// that works (dm_control's order: EGL, then OSMesa). `who` names the family
// in the error when none does.
inline std::unique_ptr<Renderer> MakeRenderer(const std::string& lib_path,
                                              const mjModel* m, const char* who,
                                              int max_geom = 0) {
  const char* env = std::getenv("MUJOCO_GL");
  if (env != nullptr && *env != '\0') {
    return std::make_unique<Renderer>(lib_path, env, m, max_geom);
  }
  std::string errors;
  for (const char* name : {"egl", "osmesa"}) {
    try {
      return std::make_unique<Renderer>(lib_path, name, m, max_geom);
    } catch (const std::exception& e) {
      errors +=
          std::string(errors.empty() ? "" : "; ") + name + ": " + e.what();
    }
  }
  throw std::runtime_error(
      std::string(who) +
      ": drawing needs a headless OpenGL backend, EGL or OSMesa, and neither "
      "works here (" +
      errors + "); set MUJOCO_GL to one that does");
}

}  // namespace mujoco
}  // namespace envpool_lite
