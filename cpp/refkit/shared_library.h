// A shared library loaded at run time (dlopen, RTLD_LOCAL) and its functions
// (dlsym), for the families that run an upstream library from an installed
// package: MuJoCo's libmujoco, Procgen's libenv.so. Every error names the
// library and says what to do (`hint`); make() raises it as ValueError.
#pragma once

#include <dlfcn.h>

#include <stdexcept>
#include <string>
#include <utility>

namespace envpool_lite {

class SharedLibrary {
 public:
  // `label` names the family in messages ("MuJoCo", "Procgen").
  SharedLibrary(std::string label, std::string path, std::string hint)
      : label_(std::move(label)),
        path_(std::move(path)),
        hint_(std::move(hint)) {
    handle_ = dlopen(path_.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (handle_ == nullptr) {
      const char* err = dlerror();
      Fail("cannot load " + path_ + ": " + (err ? err : "unknown error"));
    }
  }

  // Sets *fn to the library's function `name`.
  template <typename F>
  void Load(F* fn, const char* name) const {
    void* p = dlsym(handle_, name);
    if (p == nullptr) Fail(path_ + " has no " + name);
    *fn = reinterpret_cast<F>(p);
  }

  [[noreturn]] void Fail(const std::string& what) const {
    throw std::invalid_argument(label_ + ": " + what + "; " + hint_);
  }

  const std::string& path() const { return path_; }

 private:
  std::string label_, path_, hint_;
  void* handle_ = nullptr;  // never closed: the envs' functions live on
};

}  // namespace envpool_lite
