// What keeps a ViZDoom env's engine process under control (see launcher.cc
// for the other half):
//   - EngineDir: the env's private temporary directory (mkdtemp), where the
//     engine runs and writes its ini, _vizdoom/ and save files, never the
//     user's working directory. It holds the launcher's symlink (the "ViZDoom
//     path" the client library execs), the real engine's symlink and the
//     owner's pid. The launcher removes it when its engine exits; the env
//     removes it too (whichever comes first).
//   - Watchdog: bounds every call into the engine. The client library waits
//     on its message queue with no timeout; when a call outlasts its limit
//     the watchdog signals the launcher (SIGTERM: it kills the engine), then
//     kills it (SIGKILL) if it did not go. The library then sees its engine
//     exit and throws, so the call returns with an error instead of hanging.
#pragma once

#include <dlfcn.h>
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <mutex>
#include <stdexcept>
#include <string>
#include <system_error>
#include <thread>

namespace envpool_lite {
namespace vizdoom_detail {

// Where the extension module (which holds this code) lives: the launcher is
// installed beside it.
inline std::string ModuleDir() {
  Dl_info info;
  if (dladdr(reinterpret_cast<void*>(&ModuleDir), &info) == 0 ||
      info.dli_fname == nullptr) {
    return ".";
  }
  return std::filesystem::absolute(info.dli_fname).parent_path().string();
}

// ENVPOOL_LITE_VIZDOOM_LAUNCHER overrides it (tests put a wrapper there).
inline std::string LauncherPath() {
  if (const char* p = std::getenv("ENVPOOL_LITE_VIZDOOM_LAUNCHER")) return p;
  return ModuleDir() + "/vizdoom_launcher";
}

class EngineDir {
 public:
  // A new private directory for an engine: `engine` is the real engine
  // binary, `launcher` the program the client library will exec instead.
  EngineDir(const std::string& engine, const std::string& launcher) {
    std::string base = "/tmp";
    if (const char* t = std::getenv("TMPDIR"); t != nullptr && *t != '\0') {
      base = t;
    }
    std::string templ = base + "/envpool_lite_vizdoom_XXXXXX";
    if (mkdtemp(templ.data()) == nullptr) {
      throw std::runtime_error("cannot create a private directory in " + base +
                               " for the ViZDoom engine");
    }
    path_ = templ;
    std::error_code ec;
    std::filesystem::create_symlink(engine, path_ + "/engine", ec);
    if (!ec) std::filesystem::create_symlink(launcher, LauncherLink(), ec);
    if (ec) {
      Remove();
      throw std::runtime_error(
          "cannot set up the ViZDoom engine's directory: " + ec.message());
    }
    std::ofstream(path_ + "/owner") << getpid() << "\n";
  }
  ~EngineDir() { Remove(); }
  EngineDir(const EngineDir&) = delete;
  EngineDir& operator=(const EngineDir&) = delete;

  const std::string& Path() const { return path_; }
  std::string LauncherLink() const { return path_ + "/vizdoom_launcher"; }
  std::string IniPath() const { return path_ + "/_vizdoom.ini"; }
  bool Collided() const {
    return std::filesystem::exists(path_ + "/collision");
  }
  static pid_t ReadPid(const std::string& dir) {
    std::ifstream f(dir + "/launcher.pid");
    long pid = 0;
    f >> pid;
    return pid > 0 ? static_cast<pid_t>(pid) : 0;
  }
  void Remove() {
    if (path_.empty()) return;
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }

 private:
  std::string path_;
};

class Watchdog {
 public:
  using Clock = std::chrono::steady_clock;

  Watchdog() : thread_([this] { Loop(); }) {}
  ~Watchdog() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      stop_ = true;
    }
    cv_.notify_all();
    thread_.join();
  }
  Watchdog(const Watchdog&) = delete;
  Watchdog& operator=(const Watchdog&) = delete;

  // While a Guard lives, the engine whose launcher pid is in `dir` has
  // `seconds` to answer.
  class Guard {
   public:
    Guard(Watchdog& w, const std::string& dir, double seconds) : w_(w) {
      w_.Arm(dir, seconds);
    }
    ~Guard() { w_.Disarm(); }
    Guard(const Guard&) = delete;
    Guard& operator=(const Guard&) = delete;

   private:
    Watchdog& w_;
  };

  // Whether the last guarded call ran out of time (the engine was killed).
  bool Fired() const {
    std::lock_guard<std::mutex> lock(mu_);
    return fired_;
  }

 private:
  // Cheap enough for every step: the watchdog thread is woken only when it
  // would otherwise sleep past the new deadline (it sleeps until the
  // earliest deadline it knows of, then looks again).
  void Arm(const std::string& dir, double seconds) {
    std::lock_guard<std::mutex> lock(mu_);
    if (dir_ != dir) dir_ = dir;
    deadline_ = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                   std::chrono::duration<double>(seconds));
    armed_ = true;
    fired_ = false;
    stage_ = 0;
    if (deadline_ < wake_) cv_.notify_all();
  }
  void Disarm() {
    std::lock_guard<std::mutex> lock(mu_);
    armed_ = false;
  }

  // The launcher is a child of this process (never signal a recycled pid).
  static bool IsOurChild(pid_t pid) {
    std::ifstream f("/proc/" + std::to_string(pid) + "/stat");
    std::string stat((std::istreambuf_iterator<char>(f)),
                     std::istreambuf_iterator<char>());
    auto paren = stat.rfind(')');
    if (paren == std::string::npos) return false;
    char state = 0;
    long ppid = 0;
    if (std::sscanf(stat.c_str() + paren + 1, " %c %ld", &state, &ppid) != 2) {
      return false;
    }
    return ppid == getpid();
  }

  void Loop() {
    std::unique_lock<std::mutex> lock(mu_);
    while (!stop_) {
      if (!armed_) {
        wake_ = Clock::time_point::max();
        cv_.wait(lock);
        continue;
      }
      if (Clock::now() < deadline_) {
        wake_ = deadline_;
        cv_.wait_until(lock, wake_);
        continue;
      }
      // Out of time: first ask the launcher to kill its engine, then kill
      // the launcher itself (its engine dies with it).
      fired_ = true;
      if (stage_ < 2) {
        pid_t pid = EngineDir::ReadPid(dir_);
        if (pid > 0 && IsOurChild(pid))
          kill(pid, stage_ == 0 ? SIGTERM : SIGKILL);
        ++stage_;
      }
      deadline_ = Clock::now() + std::chrono::seconds(3);
    }
  }

  mutable std::mutex mu_;
  std::condition_variable cv_;
  bool stop_ = false;
  bool armed_ = false;
  bool fired_ = false;
  int stage_ = 0;
  std::string dir_;
  Clock::time_point deadline_;
  Clock::time_point wake_ = Clock::time_point::max();  // when Loop looks next
  std::thread thread_;  // last: starts once the rest is initialised
};

}  // namespace vizdoom_detail
}  // namespace envpool_lite
