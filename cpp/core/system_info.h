// What the machine offers a pool: usable cores and memory (Linux), for the
// pool's defaults and its checks before anything is allocated.
#pragma once

#include <malloc.h>
#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <thread>

namespace envpool_lite::system {

// The cores this process may run on (its affinity mask), at least 1.
inline int UsableCores() {
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof(set), &set) == 0) {
    return std::max(1, CPU_COUNT(&set));
  }
  return std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
}

// Bytes this process has allocated with malloc/new (every arena), or its
// resident memory where glibc's mallinfo2 is missing. The allocator's count,
// not the RSS: memory freed by an earlier pool and reused would not show in
// the RSS.
inline double AllocatedBytes() {
#if defined(__GLIBC__) && \
    (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
  const struct mallinfo2 m = mallinfo2();
  return static_cast<double>(m.uordblks) + static_cast<double>(m.hblkhd);
#else
  std::FILE* f = std::fopen("/proc/self/statm", "r");
  if (f == nullptr) return 0;
  long size = 0, resident = 0;
  const int read = std::fscanf(f, "%ld %ld", &size, &resident);
  std::fclose(f);
  return read == 2 ? static_cast<double>(resident) * sysconf(_SC_PAGESIZE) : 0;
#endif
}

inline double TotalMemoryBytes() {
  const long pages = sysconf(_SC_PHYS_PAGES);
  return pages > 0 ? static_cast<double>(pages) * sysconf(_SC_PAGESIZE) : 0;
}

// MemAvailable from /proc/meminfo, else 0 (unknown).
inline double AvailableMemoryBytes() {
  std::FILE* f = std::fopen("/proc/meminfo", "r");
  if (f == nullptr) return 0;
  char line[256];
  double kb = 0;
  while (std::fgets(line, sizeof(line), f) != nullptr) {
    if (std::sscanf(line, "MemAvailable: %lf kB", &kb) == 1) break;
  }
  std::fclose(f);
  return kb * 1024.0;
}

// "12.3 MiB" below a GiB, else "1.23 GiB".
inline std::string FormatBytes(double bytes) {
  char buf[32];
  if (bytes < 1024.0 * 1024 * 1024) {
    std::snprintf(buf, sizeof(buf), "%.1f MiB", bytes / (1024.0 * 1024));
  } else {
    std::snprintf(buf, sizeof(buf), "%.2f GiB", bytes / (1024.0 * 1024 * 1024));
  }
  return buf;
}

}  // namespace envpool_lite::system
