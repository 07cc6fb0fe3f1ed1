// StateBufferQueue: where workers write results and recv() collects them.
//
// A ring of blocks; each block holds `batch_size` rows of every output array
// (obs, reward, ...), one contiguous C-order array per field, so a batch is
// handed to numpy without a copy. Output positions are a single increasing
// counter: position p is row p % batch_size of block p / batch_size. A worker
// claims a position with one fetch_add (async: first to finish, first served)
// or uses the one send() fixed for it (sync: rows in the order sent), writes
// its row, then bumps the block's `done` count.
//
// recv() takes the head block out of the ring once `done` reaches its target
// and puts a spare block in its place. The taken block goes back to the
// spares only when the last numpy view of it is released, so arrays a user
// still holds are never overwritten, and steady-state stepping allocates
// nothing.
#pragma once

#include <algorithm>
#include <atomic>
#include <climits>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <new>
#include <string>
#include <vector>

#include "array_spec.h"
#include "semaphore.h"

namespace envpool_lite {

struct FieldLayout {
  ArraySpec spec;
  std::size_t offset = 0;     // of row 0 within the block's memory
  std::size_t row_bytes = 0;  // bytes of one env's value
};

// One batch worth of memory for every output field. A field can be
// redirected to memory of the caller's for one batch (xla()'s step writes
// straight into XLA's result buffers); the pool restores it (Put).
class StateBlock {
 public:
  StateBlock(const std::vector<FieldLayout>* fields, std::size_t bytes)
      : fields_(fields),
        data_(static_cast<char*>(std::aligned_alloc(64, RoundUp(bytes)))) {
    if (data_ == nullptr) throw std::bad_alloc();
    std::memset(data_, 0, RoundUp(bytes));
    bases_.resize(fields_->size());
    Restore();
  }
  ~StateBlock() { std::free(data_); }
  StateBlock(const StateBlock&) = delete;
  StateBlock& operator=(const StateBlock&) = delete;

  char* Field(int field) const { return bases_[field]; }
  char* At(int field, int row) const {
    return bases_[field] +
           static_cast<std::size_t>(row) * (*fields_)[field].row_bytes;
  }

  // Rows of `field` go to `to` (batch_size rows, C order) until Restore().
  void Redirect(int field, char* to) { bases_[field] = to; }
  void Restore() {
    for (std::size_t f = 0; f < bases_.size(); ++f) {
      bases_[f] = data_ + (*fields_)[f].offset;
    }
  }

 private:
  static std::size_t RoundUp(std::size_t n) { return (n + 63) / 64 * 64; }
  const std::vector<FieldLayout>* fields_;
  char* data_;
  std::vector<char*> bases_;  // each field's row 0
};

// Spare blocks. Shared (by shared_ptr) between the queue and every batch that
// is out with the user, so a batch can outlive its pool.
class BlockPool {
 public:
  BlockPool(std::vector<FieldLayout> fields, int batch_size, int max_spares)
      : fields_(std::move(fields)), max_spares_(max_spares) {
    for (FieldLayout& f : fields_) {
      f.row_bytes = f.spec.NumBytes();
      f.offset = bytes_;
      bytes_ += (f.row_bytes * batch_size + 63) / 64 * 64;
    }
  }

  std::unique_ptr<StateBlock> Get() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (!spares_.empty()) {
        auto block = std::move(spares_.back());
        spares_.pop_back();
        return block;
      }
    }
    allocated_.fetch_add(1, std::memory_order_relaxed);
    return std::make_unique<StateBlock>(&fields_, bytes_);
  }

  void Put(std::unique_ptr<StateBlock> block) {
    block->Restore();
    std::lock_guard<std::mutex> lock(mu_);
    if (static_cast<int>(spares_.size()) < max_spares_) {
      spares_.push_back(std::move(block));
    }
  }

  const std::vector<FieldLayout>& Fields() const { return fields_; }
  // How many blocks were ever allocated: flat in steady state.
  int64_t Allocated() const { return allocated_.load(); }

 private:
  std::vector<FieldLayout> fields_;
  std::size_t bytes_ = 0;
  int max_spares_;
  std::mutex mu_;  // taken once per recv() and per released batch only
  std::vector<std::unique_ptr<StateBlock>> spares_;
  std::atomic<int64_t> allocated_{0};
};

// A row a worker writes into.
struct Slot {
  StateBlock* block;
  int ring_index;
  int row;
};

class StateBufferQueue {
 public:
  StateBufferQueue(std::vector<FieldLayout> fields, int batch_size,
                   int num_envs)
      : batch_size_(batch_size),
        // Positions claimed but not yet received never exceed num_envs (one
        // pending output per env), so this many blocks never wrap onto one
        // that recv() has not taken yet.
        num_blocks_((num_envs + batch_size - 1) / batch_size),
        pool_(std::make_shared<BlockPool>(std::move(fields), batch_size,
                                          num_blocks_ + 2)),
        ring_(static_cast<std::size_t>(num_blocks_)) {
    for (RingEntry& e : ring_) {
      e.block = pool_->Get();
      e.target.store(batch_size_);
    }
  }

  int BatchSize() const { return batch_size_; }
  const std::shared_ptr<BlockPool>& Pool() const { return pool_; }

  // --- producer (worker) side -------------------------------------------
  // Async: the next free position.
  int64_t ClaimPosition() {
    // acq_rel: the claim chain orders this worker after the recv() that
    // recycled the block it is about to write (see TakeHead).
    return next_position_.fetch_add(1, std::memory_order_acq_rel);
  }
  // Sync: send() fixes n consecutive positions (only the send/recv thread
  // touches the counter in sync mode).
  int64_t ReservePositions(int n) {
    return next_position_.fetch_add(n, std::memory_order_relaxed);
  }

  Slot SlotAt(int64_t position) {
    int64_t block_index = position / batch_size_;
    int ring_index = static_cast<int>(block_index % num_blocks_);
    return Slot{ring_[ring_index].block.get(), ring_index,
                static_cast<int>(position % batch_size_)};
  }

  void MarkError(const Slot& slot) {
    ring_[slot.ring_index].has_error.store(true, std::memory_order_relaxed);
  }

  // The row is written: publish it.
  void Commit(const Slot& slot) {
    RingEntry& e = ring_[slot.ring_index];
    int done = e.done.fetch_add(1, std::memory_order_seq_cst) + 1;
    // seq_cst against recv's store of waiting then load of done.
    if (done >= e.target.load(std::memory_order_seq_cst) &&
        e.waiting.load(std::memory_order_seq_cst)) {
      FutexWake(&e.done, 1);
    }
  }

  // --- consumer (recv) side ---------------------------------------------
  // The head block will be returned once `target` rows are done.
  void SetHeadTarget(int target) {
    ring_[head_].target.store(target, std::memory_order_seq_cst);
  }
  bool HeadReady() const {
    const RingEntry& e = ring_[head_];
    return e.done.load(std::memory_order_acquire) >=
           e.target.load(std::memory_order_relaxed);
  }
  // Sleep until the head block is ready or timeout_ns passes (may return
  // early; callers re-check HeadReady()).
  void WaitHead(int64_t timeout_ns) {
    RingEntry& e = ring_[head_];
    e.waiting.store(true, std::memory_order_seq_cst);
    int done = e.done.load(std::memory_order_seq_cst);
    if (done < e.target.load(std::memory_order_relaxed)) {
      FutexWait(&e.done, done, timeout_ns);
    }
    e.waiting.store(false, std::memory_order_relaxed);
  }
  // close(): wake a recv() asleep in WaitHead (it re-checks and sees the
  // pool closing). Touches no consumer state, so any thread may call it.
  void WakeAll() {
    for (RingEntry& e : ring_) FutexWake(&e.done, INT_MAX);
  }
  // The block the next send()'s rows go to, when nothing is in flight and
  // the head block is untouched (sync mode): see EnvPool::StepDirect.
  StateBlock* NextBlockIfFresh() {
    if (next_position_.load(std::memory_order_relaxed) !=
        head_block_ * batch_size_) {
      return nullptr;
    }
    return ring_[head_].block.get();
  }
  bool HeadHasError() const {
    return ring_[head_].has_error.load(std::memory_order_relaxed);
  }

  // Takes the ready head block (its first `rows` rows are valid) and puts a
  // spare in its place.
  std::unique_ptr<StateBlock> TakeHead(int rows) {
    RingEntry& e = ring_[head_];
    std::unique_ptr<StateBlock> block = std::move(e.block);
    e.block = pool_->Get();
    e.done.store(0, std::memory_order_relaxed);
    e.target.store(batch_size_, std::memory_order_relaxed);
    e.has_error.store(false, std::memory_order_relaxed);
    ++head_block_;
    head_ = static_cast<int>(head_block_ % num_blocks_);
    if (rows < batch_size_) {
      // A partial batch (fewer envs in flight than batch_size): nothing else
      // is in flight, so skip the rest of this block's positions.
      next_position_.store(head_block_ * batch_size_,
                           std::memory_order_relaxed);
    }
    return block;
  }

 private:
  struct alignas(64) RingEntry {
    std::unique_ptr<StateBlock> block;
    alignas(64) std::atomic<int> done{0};
    std::atomic<int> target{0};
    std::atomic<bool> waiting{false};
    std::atomic<bool> has_error{false};
  };

  int batch_size_;
  int num_blocks_;
  std::shared_ptr<BlockPool> pool_;
  std::vector<RingEntry> ring_;
  alignas(64) std::atomic<int64_t> next_position_{0};
  int64_t head_block_ = 0;  // consumer only
  int head_ = 0;            // head_block_ % num_blocks_
};

}  // namespace envpool_lite
