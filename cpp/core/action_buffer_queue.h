// ActionBufferQueue: the work queue between send() and the worker threads.
//
// A bounded ring of ActionItems. The producer is the thread calling send()
// (one at a time: the Python binding holds the GIL there); consumers are the
// workers, plus recv()'s caller when it helps. Each cell carries a sequence
// number (Vyukov's bounded queue) so a consumer never reads a half-written
// item and the producer never overwrites an unread one. The hot path is
// atomics only; the Semaphore is what lets idle workers sleep.
#pragma once

#include <atomic>
#include <cstdint>
#include <vector>

#include "semaphore.h"

namespace envpool_lite {

struct ActionItem {
  int32_t env_id = 0;
  bool reset = false;     // start a new episode instead of stepping
  bool reseed = false;    // Seed(seed) before that reset
  bool restored = false;  // set_state() restored the env: emit its row again
  int64_t slot = -1;      // output position fixed at send time (sync mode)
  uint64_t seed = 0;
};

class ActionBufferQueue {
 public:
  explicit ActionBufferQueue(int min_capacity) {
    int64_t cap = 1;
    while (cap < 2 * static_cast<int64_t>(min_capacity)) cap <<= 1;
    cells_ = std::vector<Cell>(static_cast<std::size_t>(cap));
    for (int64_t i = 0; i < cap; ++i) cells_[i].seq.store(i);
    mask_ = cap - 1;
  }

  // Producer side (one thread at a time). Wakes `wake` sleeping workers
  // (the items are there for any worker or TryPop either way).
  void Push(const ActionItem* items, int n, int wake = -1) {
    for (int i = 0; i < n; ++i) {
      Cell& cell = cells_[tail_ & mask_];
      while (cell.seq.load(std::memory_order_acquire) != tail_) CpuRelax();
      cell.item = items[i];
      cell.seq.store(tail_ + 1, std::memory_order_release);
      ++tail_;
    }
    available_.Release(n, wake);
  }

  // Consumer side: blocks for at least one item and takes up to max_n.
  // Returns 0 once Stop() was called.
  int Pop(ActionItem* out, int max_n) {
    int n = available_.AcquireUpTo(max_n);
    if (stopped_.load(std::memory_order_acquire)) {
      available_.Release(n);  // let the other workers see the stop too
      return 0;
    }
    Take(out, n);
    return n;
  }

  // Consumer side, never blocks: 0 if the queue is empty.
  int TryPop(ActionItem* out, int max_n) {
    if (stopped_.load(std::memory_order_acquire)) return 0;
    int n = available_.TryAcquireUpTo(max_n);
    // Stop() may have come between the check and the acquire: its units
    // are not items (Take would wait forever for them).
    if (n > 0 && stopped_.load(std::memory_order_acquire)) {
      available_.Release(n);
      return 0;
    }
    Take(out, n);
    return n;
  }

  // Wake a sleeping worker if items wait (see Push's `wake`).
  void WakeOne() {
    if (available_.Available() > 0) available_.Release(0, 1);
  }

  int Size() const { return available_.Available(); }
  bool Stopped() const { return stopped_.load(std::memory_order_relaxed); }

  void Stop() {
    stopped_.store(true, std::memory_order_release);
    available_.Release(1 << 20);
  }

 private:
  struct alignas(64) Cell {
    std::atomic<int64_t> seq{0};
    ActionItem item;
  };

  void Take(ActionItem* out, int n) {
    if (n == 0) return;
    int64_t pos = head_.fetch_add(n, std::memory_order_relaxed);
    for (int i = 0; i < n; ++i, ++pos) {
      Cell& cell = cells_[pos & mask_];
      while (cell.seq.load(std::memory_order_acquire) != pos + 1) CpuRelax();
      out[i] = cell.item;
      cell.seq.store(pos + mask_ + 1, std::memory_order_release);
    }
  }

  std::vector<Cell> cells_;
  int64_t mask_ = 0;
  int64_t tail_ = 0;  // producer only
  alignas(64) std::atomic<int64_t> head_{0};
  Semaphore available_;
  std::atomic<bool> stopped_{false};
};

}  // namespace envpool_lite
