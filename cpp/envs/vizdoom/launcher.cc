// vizdoom_launcher: what every ViZDoom env starts instead of the engine, so
// that no engine outlives its env and no engine leaves anything behind.
//
// ViZDoom's client library forks and execs the "ViZDoom path" itself (from a
// thread of its own). Each env points that path at a symlink to this program
// inside the env's private directory (see engine_process.h), which holds:
//   owner   the pid of the process that owns the env (the Python process);
//   engine  a symlink to the real engine binary (from the vizdoom wheel).
// The launcher then
//   - asks for SIGTERM when its parent dies (PR_SET_PDEATHSIG) and checks
//     that the owner is still its parent (it may have died before that);
//   - starts its own session, so that a Ctrl-C in the terminal reaches the
//     Python process only, which then closes its envs in order;
//   - takes a lock named by the engine's instance id (an abstract Unix
//     socket: it vanishes with the process, nothing is left on disk): two
//     live engines never share an instance name, hence never share message
//     queues or shared memory. If the name is taken it leaves a `collision`
//     file and exits; the env starts again under a new name;
//   - writes its pid to `launcher.pid` (the env's watchdog signals it);
//   - forks the engine, which dies with the launcher (PR_SET_PDEATHSIG,
//     SIGKILL), runs in the private directory (so its _vizdoom/ directory,
//     ini and save files land there, never in the user's working
//     directory) and inherits no file descriptor but stdin/out/err;
//   - waits for the engine to exit or for SIGTERM/SIGINT/SIGHUP (its parent
//     died, or the env's watchdog gave up on the engine), then kills the
//     engine, removes the engine's shared memory and both message queues
//     from /dev/shm (the client library removes them too on a normal close,
//     but not when its process was killed) and the private directory, and
//     exits with the engine's status.
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace {

constexpr const char* kDirPrefix = "envpool_lite_vizdoom_";

std::string g_dir;
std::string g_instance_id;

void Log(const std::string& message) {
  std::string line = "vizdoom_launcher: " + message + "\n";
  ssize_t ignored = write(STDERR_FILENO, line.data(), line.size());
  (void)ignored;
}

// The engine's names in /dev/shm (ViZDoom's SM_NAME_BASE, MQ_DOOM_NAME_BASE
// and MQ_CTR_NAME_BASE followed by the instance id).
void RemoveEngineNames() {
  if (g_instance_id.empty()) return;
  for (const char* base : {"ViZDoomSM", "ViZDoomMQDoom", "ViZDoomMQCtr"}) {
    std::string name = std::string("/") + base + g_instance_id;
    shm_unlink(name.c_str());
  }
}

void RemoveDir() {
  std::error_code ec;
  std::filesystem::remove_all(g_dir, ec);
}

void Ignore(int) {}

void CloseInheritedFds() {
  // close_range(3, ~0U, 0) where the kernel has it; else one by one.
#ifdef SYS_close_range
  if (syscall(SYS_close_range, 3U, ~0U, 0U) == 0) return;
#endif
  DIR* d = opendir("/proc/self/fd");
  if (d == nullptr) return;
  std::vector<int> fds;
  int self = dirfd(d);
  while (dirent* e = readdir(d)) {
    int fd = std::atoi(e->d_name);
    if (fd > 2 && fd != self) fds.push_back(fd);
  }
  closedir(d);
  for (int fd : fds) close(fd);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 1) return 2;
  // The Python process's files (sockets, pipes) are none of our business.
  CloseInheritedFds();
  std::filesystem::path self(argv[0]);
  g_dir = self.parent_path().string();
  // Only ever act inside an env's private directory.
  if (self.parent_path().filename().string().rfind(kDirPrefix, 0) != 0) {
    Log("must be started by an envpool_lite ViZDoom env (from its private "
        "directory), not as " +
        std::string(argv[0]));
    return 2;
  }
  pid_t owner = 0;
  {
    std::ifstream f(g_dir + "/owner");
    f >> owner;
  }
  char engine[PATH_MAX];
  if (owner <= 0 || realpath((g_dir + "/engine").c_str(), engine) == nullptr) {
    Log("no owner or engine in " + g_dir);
    return 2;
  }
  for (int i = 1; i + 1 < argc; ++i) {
    if (std::strcmp(argv[i], "+viz_instance_id") == 0)
      g_instance_id = argv[i + 1];
  }

  // Everything from here on ends through the cleanup below. Signals are
  // taken synchronously (sigwaitinfo) so that none is lost before the wait.
  // A handler (not SIG_IGN, which the parent may have left us) makes sure
  // they stay pending until taken.
  sigset_t wait_set;
  sigemptyset(&wait_set);
  for (int s : {SIGTERM, SIGINT, SIGHUP, SIGCHLD}) {
    sigaddset(&wait_set, s);
    struct sigaction action{};
    action.sa_handler = Ignore;
    sigaction(s, &action, nullptr);
  }
  sigprocmask(SIG_BLOCK, &wait_set, nullptr);
  prctl(PR_SET_PDEATHSIG, SIGTERM);
  if (getppid() != owner) {  // the owner died before we could notice
    RemoveEngineNames();
    RemoveDir();
    return 1;
  }
  setsid();

  // One live engine per instance name.
  int lock = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (lock >= 0 && !g_instance_id.empty()) {
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    std::string name = "envpool_lite_vizdoom/" + g_instance_id;
    std::memcpy(addr.sun_path + 1, name.data(),
                std::min(name.size(), sizeof(addr.sun_path) - 2));
    socklen_t len = static_cast<socklen_t>(
        offsetof(sockaddr_un, sun_path) + 1 +
        std::min(name.size(), sizeof(addr.sun_path) - 2));
    if (bind(lock, reinterpret_cast<sockaddr*>(&addr), len) != 0 &&
        errno == EADDRINUSE) {
      std::ofstream(g_dir + "/collision") << g_instance_id << "\n";
      Log("instance id " + g_instance_id + " is taken by a live engine");
      return 3;  // leaves the other engine's names alone
    }
  }
  {
    std::string tmp = g_dir + "/launcher.pid.tmp";
    std::ofstream(tmp) << getpid() << "\n";
    std::rename(tmp.c_str(), (g_dir + "/launcher.pid").c_str());
  }

  pid_t launcher = getpid();
  pid_t child = fork();
  if (child < 0) {
    Log(std::string("fork failed: ") + std::strerror(errno));
    RemoveEngineNames();
    RemoveDir();
    return 1;
  }
  if (child == 0) {
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != launcher) _exit(1);
    sigprocmask(SIG_UNBLOCK, &wait_set, nullptr);
    if (chdir(g_dir.c_str()) != 0) _exit(1);
    CloseInheritedFds();
    std::vector<char*> args(argv, argv + argc);
    args[0] = engine;
    args.push_back(nullptr);
    execv(engine, args.data());
    Log(std::string("cannot run the engine ") + engine + ": " +
        std::strerror(errno));
    _exit(127);
  }

  int status = 0;
  bool reaped = false;
  while (!reaped) {
    siginfo_t info;
    int sig = sigwaitinfo(&wait_set, &info);
    if (sig < 0) continue;  // EINTR
    if (sig == SIGCHLD) {
      reaped = waitpid(child, &status, WNOHANG) == child;
    } else {  // SIGTERM, SIGINT, SIGHUP: the owner or its watchdog
      kill(child, SIGKILL);
      while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
      }
      reaped = true;
    }
  }
  RemoveEngineNames();
  RemoveDir();
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  return 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}
