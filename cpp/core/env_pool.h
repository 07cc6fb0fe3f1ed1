// EnvPool: num_envs envs stepped by a ThreadPool. send() queues actions in
// the ActionBufferQueue; workers step envs and write results into the
// StateBufferQueue; recv() returns the first batch_size results as one block.
//
// The pool owns what every env shares: episode step counting, time-limit
// truncation, auto-reset (NEXT_STEP: the action after a done resets the env;
// SAME_STEP: the env resets inside the step that ended the episode, and the
// final observation goes to the final_obs field), error capture, and saving
// and restoring envs (GetState/SetState: the env's own state, core/env_state.h,
// plus the pool's part of it, PoolPart).
//
// Threading contract: send(), recv(), render() are called by one thread at a
// time, and the EntryGate enforces it (a second caller gets
// ConcurrentUseError). close() may come from any thread: it wakes a blocked
// recv(), waits for it to leave, then frees the envs. Workers only touch
// their env, its action row and the output rows they claim.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#include "action_buffer_queue.h"
#include "entry_gate.h"
#include "env.h"
#include "pool_options.h"
#include "registry.h"
#include "state_blob.h"
#include "state_buffer_queue.h"
#include "step_weight.h"
#include "system_info.h"
#include "thread_pool.h"

namespace envpool_lite {

class TimeoutError : public std::runtime_error {
  using std::runtime_error::runtime_error;
};

// An env raised inside Reset/Step; the batch that held it is dropped.
class EnvStepError : public std::runtime_error {
 public:
  EnvStepError(const std::string& what, std::vector<int32_t> env_ids,
               std::vector<int32_t> dropped_env_ids = {})
      : std::runtime_error(what),
        env_ids(std::move(env_ids)),
        dropped_env_ids(std::move(dropped_env_ids)) {}
  std::vector<int32_t> env_ids;          // the envs that failed
  std::vector<int32_t> dropped_env_ids;  // every env of the dropped batch
};

// A batch handed to Python: the block plus the pool it returns to.
struct Batch {
  std::unique_ptr<StateBlock> block;
  std::shared_ptr<BlockPool> pool;
  int rows = 0;
};

class EnvPool {
 public:
  // Field indices of every batch. Env-specific info fields follow, then a
  // dict observation's other keys, then (with SAME_STEP) final_obs,
  // final_elapsed_step, the final info fields and the final other keys.
  enum StandardField {
    kObs = 0,
    kReward,
    kTerminated,
    kTruncated,
    kDiscount,
    kEnvId,
    kElapsedStep,
    kNumStandardFields
  };
  static constexpr int kMaxInfoFields = 64;
  static constexpr int kMaxObsKeys = 64;
  static constexpr int kMaxChunk = 32;
  static constexpr std::size_t kMaxRank = 7;  // per env; numpy adds the batch

  EnvPool(const EnvDescriptor& descriptor, const Config& config,
          const PoolOptions& options)
      : EnvPool(descriptor, config, descriptor.make_spec(config), options) {}

  // With the task's spec already built from `config` (the bindings build it
  // once, for Python's spec and for the pool).
  EnvPool(const EnvDescriptor& descriptor, const Config& config, EnvSpec spec,
          const PoolOptions& options)
      : EnvPool(descriptor, config, std::move(spec),
                Checked{CheckPoolOptions(options)}) {}

 private:
  // PoolOptions after CheckPoolOptions (batch_size resolved).
  struct Checked {
    PoolOptions options;
  };

  EnvPool(const EnvDescriptor& descriptor, const Config& config, EnvSpec spec,
          const Checked& checked)
      : spec_(std::move(spec)),
        family_(descriptor.family),
        stamp_(StampOf(descriptor.task_id, config, checked.options)),
        num_envs_(static_cast<int>(checked.options.num_envs)),
        batch_size_(static_cast<int>(checked.options.batch_size)),
        same_step_(checked.options.same_step_autoreset),
        action_bytes_(spec_.action.NumBytes()),
        max_episode_steps_(spec_.max_episode_steps) {
    const PoolOptions& options = checked.options;
    if (static_cast<int>(spec_.info.size()) > kMaxInfoFields) {
      throw std::invalid_argument("too many info fields");
    }
    for (const ArraySpec& s : spec_.info) CheckRank(s);
    if (static_cast<int>(spec_.obs_dict.size()) > kMaxObsKeys) {
      throw std::invalid_argument("too many observation keys");
    }
    for (const ArraySpec& s : ObsSpecs()) CheckRank(s);
    if (spec_.num_players < 1 || spec_.num_players > kMaxPlayers) {
      throw std::invalid_argument("a task has 1 to " +
                                  std::to_string(kMaxPlayers) + " players");
    }
    if (static_cast<int>(options.seeds.size()) != num_envs_) {
      throw std::invalid_argument("need one seed per env (" +
                                  std::to_string(num_envs_) + "), got " +
                                  std::to_string(options.seeds.size()));
    }
    const int cores = system::UsableCores();
    // Default: a thread per core, at most batch_size. Envs whose step waits
    // on another process (ViZDoom's engine) keep a worker blocked for most
    // of a step, so they get a thread per env: every engine can run at once.
    num_threads_ = options.num_threads > 0
                       ? static_cast<int>(options.num_threads)
                   : spec_.step_waits_on_process
                       ? std::min(num_envs_, kMaxDefaultWaitingThreads)
                       : std::min(batch_size_, cores);
    spare_core_ = !options.shares_cores && num_threads_ < cores;

    fields_ = BuildFields();
    CheckStateMemory();
    std::unique_ptr<Env> first =
        BuildFirstEnv(descriptor, config, options.seeds[0],
                      static_cast<int>(options.first_env_id));
    state_queue_ =
        std::make_unique<StateBufferQueue>(fields_, batch_size_, num_envs_);
    action_queue_ = std::make_unique<ActionBufferQueue>(num_envs_);
    actions_.assign(static_cast<std::size_t>(num_envs_) * action_bytes_, 0);
    in_flight_.assign(num_envs_, 0);
    seen_.assign(num_envs_, 0);
    envs_ = std::vector<EnvState>(num_envs_);
    envs_[0].env = std::move(first);
    BuildEnvs(descriptor, config, options.seeds,
              static_cast<int>(options.first_env_id));
    if (options.render) {
      for (EnvState& e : envs_) e.env->EnableRendering();
    }
    threads_ = std::make_unique<ThreadPool>(
        num_threads_, static_cast<int>(options.thread_affinity_offset),
        [this](int) { WorkerLoop(); }, [this] { action_queue_->Stop(); });
  }

 public:
  ~EnvPool() { Close(); }
  EnvPool(const EnvPool&) = delete;
  EnvPool& operator=(const EnvPool&) = delete;

  const EnvSpec& Spec() const { return spec_; }
  const std::vector<FieldLayout>& Fields() const { return fields_; }
  int NumEnvs() const { return num_envs_; }
  int BatchSize() const { return batch_size_; }
  int NumThreads() const { return num_threads_; }
  bool IsSync() const { return batch_size_ == num_envs_; }
  bool Closed() const { return closing_.load(std::memory_order_relaxed); }
  int InFlight() const { return in_flight_count_; }
  int64_t BlocksAllocated() const { return state_queue_->Pool()->Allocated(); }

  // Queue a step for each env in env_ids with the matching row of `actions`
  // (n rows of the action spec's dtype and shape, already validated).
  void Send(const int32_t* env_ids, int n, const char* actions) {
    Entry entry(*this, "send");
    CheckIds(env_ids, n);
    for (int i = 0; i < n; ++i) {
      std::memcpy(
          &actions_[static_cast<std::size_t>(env_ids[i]) * action_bytes_],
          actions + static_cast<std::size_t>(i) * action_bytes_, action_bytes_);
    }
    Enqueue(env_ids, n, /*reset=*/false, nullptr);
  }

  // Queue a reset for each env in env_ids; with seeds, re-seed each first.
  void SendReset(const int32_t* env_ids, int n, const uint64_t* seeds) {
    Entry entry(*this, "reset");
    CheckIds(env_ids, n);
    Enqueue(env_ids, n, /*reset=*/true, seeds);
  }

  // Wait for min(batch_size, in-flight) results. `poll` runs every ~20 ms of
  // sleep (the binding checks for Ctrl-C there; it may throw).
  Batch Recv(int64_t timeout_ns, const std::function<void()>& poll) {
    Entry entry(*this, "recv");
    if (in_flight_count_ == 0) {
      throw std::logic_error(
          "recv() with no env in flight: call send() or async_reset() first");
    }
    int target = std::min(batch_size_, in_flight_count_);
    state_queue_->SetHeadTarget(target);
    if (!state_queue_->HeadReady()) Wait(timeout_ns, poll);

    Batch batch;
    batch.rows = target;
    batch.pool = state_queue_->Pool();
    bool has_error = state_queue_->HeadHasError();
    batch.block = state_queue_->TakeHead(target);
    const int32_t* ids =
        reinterpret_cast<const int32_t*>(batch.block->Field(kEnvId));
    for (int i = 0; i < target; ++i) in_flight_[ids[i]] = 0;
    in_flight_count_ -= target;
    if (has_error) ThrowEnvErrors(ids, target, std::move(batch));
    return batch;
  }

  // xla()'s step in a sync pool: every env sent at once, each field whose
  // `direct[f]` is set written by the workers straight into it (XLA's
  // result buffer of batch_size rows), which saves the copy out of the
  // batch's block that recv() needs; the other fields stay in the block.
  // Needs nothing in flight (CanStepDirect); the caller's buffers must
  // outlive the call, and do: on close() it returns (throws) only once no
  // worker can write a row.
  bool CanStepDirect() {
    return IsSync() && in_flight_count_ == 0 && !Closed() &&
           state_queue_->NextBlockIfFresh() != nullptr;
  }
  Batch StepDirect(const int32_t* env_ids, const char* actions,
                   char* const* direct) {
    StateBlock* block = state_queue_->NextBlockIfFresh();
    if (!IsSync() || in_flight_count_ != 0 || block == nullptr) {
      throw std::logic_error(
          "StepDirect: the pool is not idle and in sync mode");
    }
    for (std::size_t f = 0; f < fields_.size(); ++f) {
      if (direct[f] != nullptr) block->Redirect(static_cast<int>(f), direct[f]);
    }
    try {
      Send(env_ids, batch_size_, actions);
    } catch (...) {
      block->Restore();  // nothing was queued
      throw;
    }
    try {
      return Recv(-1, [] {});
    } catch (...) {
      if (Closed() && fork_generation_ == ForkGeneration()) {
        // Closed meanwhile: rows may still be in a worker's hands, and they
        // go to the caller's memory, gone once this throws. close() stops
        // the queue first; wait until no worker is left to write one. (A
        // forked child has no workers.)
        while (!action_queue_->Stopped() ||
               workers_running_.load(std::memory_order_acquire) != 0) {
          std::this_thread::yield();
        }
      }
      throw;
    }
  }

  // Draw envs that await an action (render()): `rgb` has n pictures of
  // spec.render_height x render_width x 3. Called on the send/recv thread,
  // which owns the in-flight flags, so no worker touches these envs now.
  void Render(const int32_t* env_ids, int n, uint8_t* rgb) {
    Entry entry(*this, "render");
    CheckRenderable(env_ids, n);
    const std::size_t frame =
        static_cast<std::size_t>(spec_.render_height) * spec_.render_width * 3;
    for (int i = 0; i < n; ++i) {
      envs_[env_ids[i]].env->Render(rgb + static_cast<std::size_t>(i) * frame);
    }
  }

  // The physical state a Python renderer draws env_id from.
  std::vector<double> RenderState(int32_t env_id) {
    Entry entry(*this, "render");
    CheckRenderable(&env_id, 1);
    return envs_[env_id].env->RenderState();
  }

  // The state a test rebuilds its reference from (Env::Debug), of an env
  // that awaits an action.
  DebugState Debug(int32_t env_id) {
    Entry entry(*this, "debug_states");
    CheckRenderable(&env_id, 1);
    return envs_[env_id].env->Debug();
  }

  // get_state(): one opaque state per env (core/state_blob.h's envelope
  // around the pool's part and the env's own), of envs that await an action.
  std::vector<std::string> GetState(const int32_t* env_ids, int n) {
    Entry entry(*this, "get_state");
    CheckIdle(env_ids, n, "get the state of");
    std::vector<std::string> out;
    out.reserve(n);
    for (int i = 0; i < n; ++i) {
      EnvState& s = envs_[env_ids[i]];
      StateWriter w;
      w(s.pool);
      try {
        s.env->SaveState(w);
      } catch (const StateUnsupported& e) {
        throw StateUnsupported("the " + family_ + " family (task '" +
                               stamp_.task_id +
                               "') cannot save an env's state: " + e.what());
      }
      out.push_back(state_blob::Seal(stamp_, w.Out()));
    }
    return out;
  }

  // set_state(): puts each env of env_ids back where states[i] was taken;
  // the next recv() returns the row it had produced then. Every state is
  // checked (task, options, version, digest) before any env changes.
  void SetState(const int32_t* env_ids, int n,
                const std::vector<std::string_view>& states) {
    Entry entry(*this, "set_state");
    const std::vector<std::string_view> payloads =
        state_blob::OpenStates(stamp_, env_ids, n, states);
    CheckIds(env_ids, n);
    for (int i = 0; i < n; ++i) {
      EnvState& s = envs_[env_ids[i]];
      StateReader r(payloads[i].data(), payloads[i].size());
      PoolPart part;
      r(part);
      try {
        s.env->LoadState(r);
        if (r.Left() != 0) throw StateError("it has bytes left over");
      } catch (const std::exception& e) {
        // Only a state this build did not make gets here (the digest
        // matched): the env is in an unknown state, so it resets next.
        s.pool.needs_reset = true;
        throw StateError("env " + std::to_string(env_ids[i]) +
                         " could not load its state (" + e.what() +
                         "); it resets on its next action");
      }
      s.pool = std::move(part);
    }
    Enqueue(env_ids, n, /*reset=*/false, nullptr, /*restored=*/true);
  }

  // What a state must match to load into a pool of this task, config and
  // options (a pool over Ray checks states with it before sending them).
  static StateStamp StampOf(const std::string& task_id, const Config& config,
                            const PoolOptions& options) {
    return {task_id, OptionsFingerprint(config, options.same_step_autoreset,
                                        options.render)};
  }

  // Any thread, any time, idempotent. Returns once the envs are freed, except
  // when called from inside this pool's own recv() (a signal handler): then
  // that recv() frees them as it returns (see EntryGate).
  void Close() {
    if (fork_generation_ != ForkGeneration()) {
      Abandon();
      return;
    }
    if (!closing_.exchange(true)) {
      action_queue_->Stop();    // workers finish their step and exit
      state_queue_->WakeAll();  // a recv() asleep on a batch wakes up
    }
    if (!gate_.EnterForClose()) {
      teardown_pending_ = true;  // this thread is inside recv(): it will
      return;
    }
    Teardown();
    gate_.Leave();
  }

  // Limits checked before anything is allocated.
  static constexpr int kMaxEnvs = static_cast<int>(PoolOptions::kMaxEnvs);
  static constexpr int kMaxThreads = static_cast<int>(PoolOptions::kMaxThreads);
  static constexpr int kMaxDefaultWaitingThreads = 256;

 private:
  // Holds the EntryGate for one call of a public entry point.
  class Entry {
   public:
    Entry(EnvPool& pool, const char* call) : pool_(pool) {
      if (pool_.fork_generation_ != ForkGeneration()) {
        throw std::logic_error(
            std::string(call) +
            "(): this pool was made before fork(); its worker threads do not "
            "exist in this child process. Make a new pool in the child "
            "(envpool_lite.make(...)); the parent's pool is unaffected");
      }
      pool_.gate_.Enter(call);
      if (pool_.closing_.load(std::memory_order_acquire)) {
        pool_.gate_.Leave();
        throw std::logic_error("the env pool is closed");
      }
    }
    ~Entry() {
      if (pool_.teardown_pending_) pool_.Teardown();
      pool_.gate_.Leave();
    }
    Entry(const Entry&) = delete;
    Entry& operator=(const Entry&) = delete;

   private:
    EnvPool& pool_;
  };

  // With the gate held and the queue stopped: join the workers (each ends
  // after at most the step it is in) and free the envs.
  void Teardown() noexcept {
    teardown_pending_ = false;
    if (torn_down_) return;
    torn_down_ = true;
    threads_.reset();
    envs_.clear();
  }

  // A forked child: the workers do not exist here, and the envs' resources
  // (an engine process, for ViZDoom) belong to the parent. Joining or
  // freeing them would hang or break the parent's pool, so they are let go.
  void Abandon() noexcept {
    closing_.store(true);
    if (torn_down_) return;
    torn_down_ = true;
    (void)threads_.release();
    for (EnvState& s : envs_) (void)s.env.release();
  }

  // Env 0 is built first, alone, before any buffer is allocated, to measure
  // what one env costs: num_envs that cannot fit in memory fail now, not
  // after minutes of building (or at the kernel's OOM killer).
  std::unique_ptr<Env> BuildFirstEnv(const EnvDescriptor& descriptor,
                                     const Config& config, uint64_t seed,
                                     int env_id) {
    const double before = system::AllocatedBytes();
    std::unique_ptr<Env> env;
    try {
      env = descriptor.make_env(config, seed, env_id);
    } catch (const std::exception& e) {
      throw std::runtime_error(std::string("failed to create env: ") +
                               e.what());
    }
    const double one_env =
        std::max(0.0, system::AllocatedBytes() - before -
                          static_cast<double>(spec_.lazy_bytes_per_env)) +
        static_cast<double>(spec_.external_bytes_per_env);
    CheckFitsInMemory(one_env * (num_envs_ - 1),
                      "for its envs (" + system::FormatBytes(one_env) +
                          " each, measured on the first)",
                      "lower num_envs");
    return env;
  }

  // Envs 1.. are built in parallel (emulators and engines are slow to
  // start); the first failure stops the rest (an engine that does not start
  // would otherwise cost its timeout once per env).
  void BuildEnvs(const EnvDescriptor& descriptor, const Config& config,
                 const std::vector<uint64_t>& seeds, int first_env_id) {
    std::atomic<int> next{1};
    std::string error;
    std::atomic<bool> failed{false};
    // A backstop for envs the first one misrepresents: building stops while
    // the machine still has 5% of its memory (checked every 64 envs).
    const double total = system::TotalMemoryBytes();
    auto build = [&] {
      for (int i = next++; i < num_envs_ && !failed.load(); i = next++) {
        try {
          if (i % 64 == 0 && total > 0 &&
              system::AvailableMemoryBytes() < 0.05 * total) {
            throw std::runtime_error(
                "memory ran out while building env " + std::to_string(i) +
                " of num_envs=" + std::to_string(num_envs_) +
                " (less than 5% of the machine's memory is left): lower "
                "num_envs");
          }
          envs_[i].env =
              descriptor.make_env(config, seeds[i], first_env_id + i);
        } catch (const std::exception& e) {
          if (!failed.exchange(true)) error = e.what();
        }
      }
    };
    std::vector<std::thread> builders;
    try {
      for (int t = 1; t < std::min(num_threads_, num_envs_); ++t) {
        builders.emplace_back(build);
      }
    } catch (const std::system_error& e) {
      failed.store(true);  // the builders already started stop early
      for (auto& b : builders) b.join();
      throw std::runtime_error(
          std::string("could not start a thread to build envs (") + e.what() +
          "): the system's thread or memory limit is reached; use fewer "
          "num_threads");
    }
    build();  // this thread builds too
    for (auto& b : builders) b.join();
    if (failed) throw std::runtime_error("failed to create env: " + error);
  }

  // The state blocks (every output row of every env, plus a few spare
  // batches) must fit in memory: a huge num_envs or image size fails here,
  // in microseconds, rather than after minutes of building envs.
  void CheckStateMemory() const {
    double row = 0;
    for (const FieldLayout& f : fields_)
      row += static_cast<double>(f.spec.NumBytes());
    // The ring holds num_envs rows; a batch the user holds and a spare are
    // the rest of steady state.
    CheckFitsInMemory(
        row * (num_envs_ + 2.0 * batch_size_),
        "for its output buffers at batch_size=" + std::to_string(batch_size_) +
            " (" + std::to_string(static_cast<int64_t>(row)) +
            " bytes per env, observation size included)",
        "lower num_envs or the observation size (img_height, "
        "img_width, stack_num)");
  }

  // `bytes` (what num_envs needs, `what` says for what) must fit in 80% of
  // the memory available; unknown availability passes.
  void CheckFitsInMemory(double bytes, const std::string& what,
                         const char* remedy) const {
    const double available = system::AvailableMemoryBytes();
    if (available > 0 && bytes > 0.8 * available) {
      throw std::invalid_argument(
          "num_envs=" + std::to_string(num_envs_) + " needs about " +
          system::FormatBytes(bytes) + " " + what + ", more than 80% of the " +
          system::FormatBytes(available) + " of memory available: " + remedy);
    }
  }

  // The pool's part of an env's state, saved with it by GetState.
  struct PoolPart {
    int32_t elapsed = 0;
    bool needs_reset = true;    // the first action of an env resets it
    bool can_continue = false;  // the episode ended by termination
    bool started = false;       // it has produced a row
    // The row it produced last (its observation and info fields are the
    // env's to write again): the step's result and truncation, and with
    // SAME_STEP, when that step ended an episode, the row's final fields.
    StepResult result;
    bool truncated = false;
    bool has_final = false;
    std::string final_fields;
    // Field by field (StepResult has padding, whose bytes are not state):
    // equal states are equal bytes.
    ENVPOOL_LITE_STATE_FIELDS(elapsed, needs_reset, can_continue, started,
                              result.reward, result.terminated,
                              result.truncated, result.discount,
                              result.player_rewards, truncated, has_final,
                              final_fields)
  };

  struct alignas(64) EnvState {
    std::unique_ptr<Env> env;
    PoolPart pool;
    std::string error;  // set by a worker when the env threw
  };

  static void CheckRank(const ArraySpec& s) {
    if (s.shape.size() > kMaxRank) {
      throw std::invalid_argument("array '" + s.name + "' has more than " +
                                  std::to_string(kMaxRank) + " dimensions");
    }
  }

  // The observation's arrays: `obs`, or the dict's, each named "obs:<key>".
  std::vector<ArraySpec> ObsSpecs() const {
    if (spec_.obs_dict.empty()) return {spec_.obs};
    std::vector<ArraySpec> out = spec_.obs_dict;
    for (ArraySpec& s : out) s.name = "obs:" + s.name;
    return out;
  }
  int NumObsKeys() const {
    return spec_.obs_dict.empty() ? 1 : static_cast<int>(spec_.obs_dict.size());
  }

  std::vector<FieldLayout> BuildFields() const {
    auto scalar = [](const char* name, DType dtype) {
      ArraySpec s;
      s.name = name;
      s.dtype = dtype;
      return FieldLayout{s, 0, 0};
    };
    const std::vector<ArraySpec> obs = ObsSpecs();
    std::vector<FieldLayout> f;
    f.push_back(FieldLayout{obs[0], 0, 0});
    f.push_back(scalar(
        "reward", spec_.reward_float64 ? DType::kFloat64 : DType::kFloat32));
    if (spec_.num_players > 1) {
      f.back().spec.shape = {spec_.num_players};  // one per player, float32
    }
    f.push_back(scalar("terminated", DType::kBool));
    f.push_back(scalar("truncated", DType::kBool));
    f.push_back(scalar("discount", DType::kFloat32));
    f.push_back(scalar("env_id", DType::kInt32));
    f.push_back(scalar("elapsed_step", DType::kInt32));
    for (const ArraySpec& s : spec_.info) f.push_back(FieldLayout{s, 0, 0});
    for (std::size_t k = 1; k < obs.size(); ++k) {
      f.push_back(FieldLayout{obs[k], 0, 0});
    }
    if (same_step_) {
      FieldLayout final_obs{obs[0], 0, 0};
      final_obs.spec.name = "final_" + obs[0].name;
      f.push_back(final_obs);
      f.push_back(scalar("final_elapsed_step", DType::kInt32));
      for (const ArraySpec& s : spec_.info) {
        FieldLayout fi{s, 0, 0};
        fi.spec.name = "final_" + s.name;
        f.push_back(fi);
      }
      for (std::size_t k = 1; k < obs.size(); ++k) {
        FieldLayout fo{obs[k], 0, 0};
        fo.spec.name = "final_" + obs[k].name;
        f.push_back(fo);
      }
    }
    return f;
  }

  void CheckRenderable(const int32_t* env_ids, int n) const {
    for (int i = 0; i < n; ++i) {
      const int32_t id = env_ids[i];
      CheckInRange(id);
      if (in_flight_[id]) {
        throw std::logic_error(
            "cannot render env " + std::to_string(id) +
            ": it is being stepped (sent and not yet received); render it "
            "after recv() returns it");
      }
    }
  }

  void CheckInRange(int32_t id) const {
    if (id < 0 || id >= num_envs_) {
      throw std::out_of_range("env_id " + std::to_string(id) +
                              " out of range [0, " + std::to_string(num_envs_) +
                              ")");
    }
  }

  // Every id in range, not repeated, and awaiting an action. Throws before
  // changing anything, so a bad call leaves the pool as it was.
  void CheckIds(const int32_t* env_ids, int n) {
    ++generation_;
    for (int i = 0; i < n; ++i) {
      int32_t id = env_ids[i];
      CheckInRange(id);
      if (seen_[id] == generation_) {
        throw std::invalid_argument("env_id " + std::to_string(id) +
                                    " appears twice");
      }
      if (in_flight_[id]) {
        throw std::invalid_argument(
            "env_id " + std::to_string(id) +
            " is not awaiting an action: it was sent and not yet received");
      }
      seen_[id] = generation_;
    }
  }

  // get_state(): ids in range, awaiting an action, and started.
  void CheckIdle(const int32_t* env_ids, int n, const char* what) const {
    for (int i = 0; i < n; ++i) {
      const int32_t id = env_ids[i];
      CheckInRange(id);
      if (in_flight_[id]) {
        throw std::invalid_argument(
            std::string("cannot ") + what + " env " + std::to_string(id) +
            ": it is being stepped (sent and not yet received); ask after "
            "recv() returns it");
      }
      if (!envs_[id].pool.started) {
        throw std::invalid_argument(
            std::string("cannot ") + what + " env " + std::to_string(id) +
            ": it has not been reset yet (reset() first)");
      }
    }
  }

  void Enqueue(const int32_t* env_ids, int n, bool reset, const uint64_t* seeds,
               bool restored = false) {
    if (n == 0) return;
    items_.resize(n);
    int64_t slot = IsSync() ? state_queue_->ReservePositions(n) : -1;
    for (int i = 0; i < n; ++i) {
      ActionItem& item = items_[i];
      item.env_id = env_ids[i];
      item.reset = reset;
      item.restored = restored;
      item.reseed = seeds != nullptr;
      item.seed = seeds != nullptr ? seeds[i] : 0;
      // Sync mode: rows in env id order when every env is sent at once
      // (whatever order the ids came in), else in the order sent.
      item.slot = slot < 0 ? -1 : slot + (n == num_envs_ ? env_ids[i] : i);
      in_flight_[env_ids[i]] = 1;
    }
    in_flight_count_ += n;
    // Sync mode with a core spare and heavy steps: recv()'s thread will run
    // one of these steps itself (see Wait), so one worker fewer is woken. A
    // woken worker racing recv() for a lone env costs more than an Atari
    // step's 4%; the step runs when recv() comes (with a timeout, recv()
    // wakes a worker for it).
    const bool recv_runs_one = IsSync() && spare_core_ && step_weight_.Heavy();
    action_queue_->Push(items_.data(), n, recv_runs_one ? n - 1 : n);
  }

  int ChunkSize() const {
    int queued = action_queue_->Size();
    return std::clamp(queued / (2 * num_threads_), 1, kMaxChunk);
  }

  void WorkerLoop() {
    workers_running_.fetch_add(1, std::memory_order_acq_rel);
    ActionItem items[kMaxChunk];
    while (int n = action_queue_->Pop(items, ChunkSize())) {
      // Close() drops the rest of a chunk: no one will receive it.
      for (int i = 0; i < n && !action_queue_->Stopped(); ++i) {
        Process(items[i]);
      }
    }
    workers_running_.fetch_sub(1, std::memory_order_acq_rel);
  }

  // recv()'s thread, while the head batch is not ready:
  //  - runs queued steps itself (it would idle otherwise), one at a time so
  //    that it notices the batch completing after at most one step. Light
  //    steps always. Heavy ones (core/step_weight.h) only when a core is spare
  //    (num_threads < cores, and the cores are not shared with other pools:
  //    PoolOptions::shares_cores): then it takes no core from a worker, and a
  //    lone env is stepped with no thread wake-up at all (a wake-up costs more
  //    than an Atari step). After a slow step it polls (Ctrl-C) before taking
  //    another, so an interrupt waits for one step at most. Never with a
  //    timeout (a step could outlast it).
  //  - then spins: up to kSpareSpinNs for heavy steps with a core spare
  //    (a wake-up from sleep costs more than an Atari step), a few thousand
  //    pauses for light steps (the batch is microseconds away), briefly for
  //    heavy steps on a full machine (spinning would take a worker's core
  //    for most of a step).
  //  - then sleeps until the batch is ready, polling every kPollIntervalNs.
  void Wait(int64_t timeout_ns, const std::function<void()>& poll) {
    using Clock = std::chrono::steady_clock;
    const auto start = Clock::now();
    ActionItem item;
    int spins = 0;
    Clock::time_point spin_start{};
    // A step send() left for this thread (see Enqueue) goes to a worker
    // when this thread will not run steps.
    if (timeout_ns >= 0) action_queue_->WakeOne();
    while (!state_queue_->HeadReady()) {
      ThrowIfClosing();
      const bool may_step =
          timeout_ns < 0 && (!step_weight_.Heavy() || spare_core_);
      if (may_step && action_queue_->TryPop(&item, 1)) {
        const auto t0 = Clock::now();
        Process(item);
        spin_start = Clock::time_point{};
        step_weight_.Observe(
            std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() -
                                                                 t0)
                .count());
        // Ctrl-C after every slow step, before taking another: an interrupt
        // waits for one step at most (the steps left go to the workers).
        if (step_weight_.MayBeSlow()) poll();
        continue;
      }
      if (step_weight_.Heavy() && spare_core_) {
        // The batch is a heavy step away and a core is spare: wait awake
        // for up to kSpareSpinNs (a recv() that sleeps costs a wake-up,
        // which can cost more than an Atari step).
        if (spin_start == Clock::time_point{}) spin_start = Clock::now();
        if (Clock::now() - spin_start <
            std::chrono::nanoseconds(kSpareSpinNs)) {
          CpuRelax();
          continue;
        }
      } else if (++spins <
                 (step_weight_.Heavy() ? kRecvSpinShort : kRecvSpin)) {
        CpuRelax();
        continue;
      }
      int64_t slice = kPollIntervalNs;
      if (timeout_ns >= 0) {
        int64_t elapsed = std::chrono::duration_cast<std::chrono::nanoseconds>(
                              Clock::now() - start)
                              .count();
        if (elapsed >= timeout_ns) {
          throw TimeoutError("recv() timed out after " +
                             std::to_string(timeout_ns / 1e9) + " s");
        }
        slice = std::min(slice, timeout_ns - elapsed);
      }
      state_queue_->WaitHead(slice);
      if (!state_queue_->HeadReady()) poll();
    }
    // A close() during the wait wins even if the batch completed meanwhile
    // (e.g. while this thread ran a step, or in the poll that closed it).
    ThrowIfClosing();
  }

  void ThrowIfClosing() const {
    if (closing_.load(std::memory_order_relaxed)) {
      throw std::logic_error(
          "the env pool was closed (by close() on another thread or in a "
          "signal handler) while recv() was waiting");
    }
  }

  void Process(const ActionItem& item) {
    if (item.restored) {
      EmitRestored(item);
      return;
    }
    EnvState& es = envs_[item.env_id];
    PoolPart& s = es.pool;
    Env& env = *es.env;
    StepResult result;
    bool stepped = false;
    bool failed = false;
    try {
      if (item.reset || s.needs_reset) {
        if (item.reseed) env.Seed(item.seed);
        StartEpisode(es, /*explicit_reset=*/item.reset);
      } else {
        result = env.Step(
            &actions_[static_cast<std::size_t>(item.env_id) * action_bytes_]);
        ++s.elapsed;
        stepped = true;
      }
    } catch (const std::exception& e) {
      es.error = e.what();
      failed = true;
    }
    bool truncated =
        stepped && (result.truncated || (max_episode_steps_ > 0 &&
                                         s.elapsed >= max_episode_steps_));
    bool done = result.terminated || truncated;

    // Claim the output row only now: async batches go to whoever finished.
    Slot slot = state_queue_->SlotAt(
        item.slot >= 0 ? item.slot : state_queue_->ClaimPosition());
    StateBlock& b = *slot.block;
    const int r = slot.row;
    s.has_final = false;
    if (!failed) {
      try {
        if (done && same_step_) {
          WriteRow(env, b, r, final_obs_field(), final_info_begin());
          *reinterpret_cast<int32_t*>(b.At(final_info_begin() - 1, r)) =
              s.elapsed;
          KeepFinalFields(s, b, r);
          s.can_continue = !truncated;
          StartEpisode(es, /*explicit_reset=*/false);
          done = false;  // already reset
        }
        WriteRow(env, b, r, kObs, kNumStandardFields);
      } catch (const std::exception& e) {
        es.error = e.what();
        failed = true;
      }
    }
    s.needs_reset = done || failed;
    s.can_continue = !truncated && !failed;
    s.started = true;
    s.result = result;
    s.truncated = truncated;
    WriteScalars(b, r, result, truncated, item.env_id, s.elapsed);
    if (failed) state_queue_->MarkError(slot);
    state_queue_->Commit(slot);
  }

  // The reward, terminated, truncated, discount, env_id and elapsed_step of
  // a row.
  void WriteScalars(StateBlock& b, int r, const StepResult& result,
                    bool truncated, int32_t env_id, int32_t elapsed) const {
    if (spec_.num_players > 1) {
      std::copy_n(result.player_rewards.begin(), spec_.num_players,
                  reinterpret_cast<float*>(b.At(kReward, r)));
    } else if (spec_.reward_float64) {
      *reinterpret_cast<double*>(b.At(kReward, r)) = result.reward;
    } else {
      *reinterpret_cast<float*>(b.At(kReward, r)) =
          static_cast<float>(result.reward);
    }
    *reinterpret_cast<bool*>(b.At(kTerminated, r)) = result.terminated;
    *reinterpret_cast<bool*>(b.At(kTruncated, r)) = truncated;
    *reinterpret_cast<float*>(b.At(kDiscount, r)) =
        result.terminated ? 0.0f : result.discount;
    *reinterpret_cast<int32_t*>(b.At(kEnvId, r)) = env_id;
    *reinterpret_cast<int32_t*>(b.At(kElapsedStep, r)) = elapsed;
  }

  // SAME_STEP, a step that ended an episode: its final fields (the final
  // observation, elapsed step, info and other keys), which the env cannot
  // write again once reset, are kept for get_state (a copy per episode).
  void KeepFinalFields(PoolPart& s, const StateBlock& b, int r) const {
    s.has_final = true;
    s.final_fields.clear();
    for (std::size_t f = final_obs_field(); f < fields_.size(); ++f) {
      s.final_fields.append(b.At(static_cast<int>(f), r),
                            fields_[f].spec.NumBytes());
    }
  }

  // A row of an env set_state() restored: the row it had produced when its
  // state was saved.
  void EmitRestored(const ActionItem& item) {
    EnvState& es = envs_[item.env_id];
    const PoolPart& s = es.pool;
    Slot slot = state_queue_->SlotAt(
        item.slot >= 0 ? item.slot : state_queue_->ClaimPosition());
    StateBlock& b = *slot.block;
    const int r = slot.row;
    bool failed = false;
    try {
      WriteRow(*es.env, b, r, kObs, kNumStandardFields);
    } catch (const std::exception& e) {
      es.error = e.what();
      failed = true;
    }
    if (s.has_final) {
      const char* from = s.final_fields.data();
      for (std::size_t f = final_obs_field(); f < fields_.size(); ++f) {
        std::memcpy(b.At(static_cast<int>(f), r), from,
                    fields_[f].spec.NumBytes());
        from += fields_[f].spec.NumBytes();
      }
    }
    WriteScalars(b, r, s.result, s.truncated, item.env_id, s.elapsed);
    if (failed) {
      es.pool.needs_reset = true;
      state_queue_->MarkError(slot);
    }
    state_queue_->Commit(slot);
  }

  // A new episode: a full Reset(), or (auto-reset after a termination the
  // env can play on from) ContinueGame(), which keeps the step count.
  void StartEpisode(EnvState& es, bool explicit_reset) {
    PoolPart& s = es.pool;
    if (!explicit_reset && s.can_continue && es.env->CanContinueGame()) {
      es.env->ContinueGame();
      return;
    }
    es.env->Reset();
    s.elapsed = 0;
  }

  // The row of the batch's fields from obs_field (the observation, or the
  // dict's first key) and info_begin (the info fields, then the dict's other
  // keys).
  void WriteRow(Env& env, StateBlock& b, int r, int obs_field,
                int info_begin) const {
    void* info[kMaxInfoFields];
    void* obs[kMaxObsKeys];
    const int num_info = static_cast<int>(spec_.info.size());
    for (int i = 0; i < num_info; ++i) info[i] = b.At(info_begin + i, r);
    obs[0] = b.At(obs_field, r);
    for (int k = 1; k < NumObsKeys(); ++k) {
      obs[k] = b.At(info_begin + num_info + k - 1, r);
    }
    env.WriteObs(Row(obs, info));
  }

  int final_obs_field() const {
    return kNumStandardFields + static_cast<int>(spec_.info.size()) +
           NumObsKeys() - 1;
  }
  int final_info_begin() const { return final_obs_field() + 2; }

  [[noreturn]] void ThrowEnvErrors(const int32_t* ids, int rows, Batch batch) {
    std::vector<int32_t> failed;
    std::string message;
    std::vector<int32_t> dropped(ids, ids + rows);
    for (int i = 0; i < rows; ++i) {
      EnvState& s = envs_[ids[i]];
      if (s.error.empty()) continue;
      failed.push_back(ids[i]);
      if (!message.empty()) message += "; ";
      message += "env " + std::to_string(ids[i]) + ": " + s.error;
      s.error.clear();
    }
    batch.pool->Put(std::move(batch.block));
    throw EnvStepError(
        message +
            " (the batch was dropped; its envs await an action, the "
            "failed ones reset on their next one)",
        std::move(failed), std::move(dropped));
  }

  static constexpr int kRecvSpin = 4000;
  static constexpr int kRecvSpinShort = 100;
  static constexpr int64_t kSpareSpinNs = 2'000'000;
  static constexpr int64_t kPollIntervalNs = 20'000'000;

  EnvSpec spec_;
  std::string family_;  // for the messages of get_state()
  StateStamp stamp_;    // what a state must match to be loaded here
  int num_envs_;
  int batch_size_;
  int num_threads_ = 1;
  std::atomic<int> workers_running_{0};  // threads inside WorkerLoop
  bool same_step_;
  std::size_t action_bytes_;
  int64_t max_episode_steps_;
  std::vector<FieldLayout> fields_;
  std::unique_ptr<StateBufferQueue> state_queue_;
  std::unique_ptr<ActionBufferQueue> action_queue_;
  std::vector<char> actions_;  // one action row per env
  std::vector<EnvState> envs_;
  std::unique_ptr<ThreadPool> threads_;
  // send/recv thread only:
  std::vector<uint8_t> in_flight_;
  std::vector<uint32_t> seen_;
  uint32_t generation_ = 0;
  int in_flight_count_ = 0;
  std::vector<ActionItem> items_;
  StepWeight step_weight_;   // of the steps recv() ran (see Wait)
  bool spare_core_ = false;  // num_threads < usable cores (see Wait)
  // close():
  EntryGate gate_;
  std::atomic<bool> closing_{false};
  bool teardown_pending_ = false;                 // with the gate held only
  bool torn_down_ = false;                        // with the gate held only
  const int fork_generation_ = ForkGeneration();  // the process it was made in
};

}  // namespace envpool_lite
