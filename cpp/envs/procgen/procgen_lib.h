// procgen's libenv.so, the 16 games as OpenAI's procgen 0.10.7 wheel ships
// them, loaded at run time (dlopen) from the path Python passes in the
// "procgen_lib" option (third_party/procgen.cmake installs it into the
// package). Its API is gym3's libenv (gym3/libenv.h): libenv_make builds a
// vector of games from typed options, libenv_set_buffers tells it where to
// write, libenv_act steps, libenv_observe draws the 512x512 picture; procgen
// adds get_state / set_state.
#pragma once

#include <gym3/libenv.h>

#include <cstdint>
#include <cstring>
#include <map>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include "refkit/shared_library.h"

namespace envpool_lite {
namespace procgen {

struct Lib {
  decltype(&::libenv_version) version = nullptr;
  decltype(&::libenv_make) make = nullptr;
  decltype(&::libenv_get_tensortypes) get_tensortypes = nullptr;
  decltype(&::libenv_set_buffers) set_buffers = nullptr;
  decltype(&::libenv_observe) observe = nullptr;
  decltype(&::libenv_act) act = nullptr;
  decltype(&::libenv_close) close = nullptr;
  // procgen's own additions to the API (what ProcgenGym3Env.get_state()
  // and set_state() call): one game's state, serialized by procgen.
  // get_state writes at most `length` bytes and returns how many (procgen
  // exits the process if they do not fit); set_state re-observes the game.
  int (*get_state)(libenv_env* env, int env_idx, char* data,
                   int length) = nullptr;
  void (*set_state)(libenv_env* env, int env_idx, char* data,
                    int length) = nullptr;
};

// procgen's Python wrapper's buffer for one game's state (MAX_STATE_SIZE).
constexpr int kMaxStateSize = 1 << 20;

inline std::string InstallHint() {
  return std::string("envpool_lite's build installs procgen==") +
         ENVPOOL_LITE_PROCGEN_VERSION +
         "'s libenv.so into the package (third_party/procgen.cmake); "
         "reinstall envpool_lite";
}

// Loads libenv.so from `path` (once per process and path) and checks that
// it is the libenv API this build was compiled for.
inline const Lib& LoadLib(const std::string& path) {
  static std::mutex mutex;
  static std::map<std::string, Lib> libs;
  std::lock_guard<std::mutex> lock(mutex);
  auto it = libs.find(path);
  if (it != libs.end()) return it->second;
  SharedLibrary so("Procgen", path, InstallHint());
  Lib l;
  so.Load(&l.version, "libenv_version");
  so.Load(&l.make, "libenv_make");
  so.Load(&l.get_tensortypes, "libenv_get_tensortypes");
  so.Load(&l.set_buffers, "libenv_set_buffers");
  so.Load(&l.observe, "libenv_observe");
  so.Load(&l.act, "libenv_act");
  so.Load(&l.close, "libenv_close");
  so.Load(&l.get_state, "get_state");
  so.Load(&l.set_state, "set_state");
  if (l.version() != LIBENV_VERSION) {
    so.Fail(path + " implements libenv version " + std::to_string(l.version()) +
            ", this build needs " + std::to_string(LIBENV_VERSION));
  }
  return libs[path] = l;
}

// libenv's options: a name, a dtype and the bytes of the value. procgen reads
// ints as int32, bools as one uint8 and strings as uint8 arrays (gym3's
// CEnv passes them so).
class Options {
 public:
  void Int(const char* name, int32_t value) {
    Add(name, LIBENV_DTYPE_INT32, &value, sizeof(value), 1);
  }
  void Bool(const char* name, bool value) {
    uint8_t v = value ? 1 : 0;
    Add(name, LIBENV_DTYPE_UINT8, &v, 1, 1);
  }
  void String(const char* name, const std::string& value) {
    Add(name, LIBENV_DTYPE_UINT8, value.data(), value.size(),
        static_cast<int>(value.size()));
  }
  // Valid while this object lives and is not changed.
  libenv_options Get() {
    items_.resize(data_.size());
    for (std::size_t i = 0; i < data_.size(); ++i) {
      items_[i].data = data_[i].data();
    }
    return libenv_options{items_.data(), static_cast<int>(items_.size())};
  }

 private:
  void Add(const char* name, libenv_dtype dtype, const void* data,
           std::size_t bytes, int count) {
    libenv_option item;
    std::memset(&item, 0, sizeof(item));
    std::strncpy(item.name, name, LIBENV_MAX_NAME_LEN - 1);
    item.dtype = dtype;
    item.count = count;
    items_.push_back(item);
    const char* p = static_cast<const char*>(data);
    data_.emplace_back(p, p + bytes);
  }
  std::vector<libenv_option> items_;
  std::vector<std::vector<char>> data_;
};

}  // namespace procgen
}  // namespace envpool_lite
