// A multi-threaded EnvPool test on Dummy-v0 (no Python): every action reaches
// its env exactly once, batches hold each env at most once, episodes advance
// as sent, env exceptions surface at Recv, and Close() is prompt while envs
// are still stepping. Runs under the sanitizers too.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "check.h"
#include "core/env_pool.h"
#include "core/registry.h"
#include "envs/testing/dummy.h"

using namespace envpool_lite;

EnvDescriptor Dummy() {
  Registry r;
  r.AddFamily("testing", [](Registry& t) { t.Add<DummyEnv>("Dummy-v0"); });
  return r.Get("Dummy-v0");
}

PoolOptions Options(int num_envs, int batch_size, int threads) {
  PoolOptions o;
  o.num_envs = num_envs;
  o.batch_size = batch_size;
  o.num_threads = threads;
  for (int i = 0; i < num_envs; ++i) o.seeds.push_back(100 + i);
  return o;
}

const int64_t* Obs(const Batch& b, int row) {
  return reinterpret_cast<const int64_t*>(b.block->At(EnvPool::kObs, row));
}
int32_t EnvId(const Batch& b, int row) {
  return *reinterpret_cast<const int32_t*>(b.block->At(EnvPool::kEnvId, row));
}

void TestAsyncEveryActionOnce(int num_envs, int batch_size, int threads,
                              int sleep_us) {
  EnvDescriptor d = Dummy();
  Config c = d.defaults;
  c.Set("step_sleep_us", int64_t{sleep_us});
  EnvPool pool(d, c, Options(num_envs, batch_size, threads));
  std::vector<int32_t> all(num_envs);
  for (int i = 0; i < num_envs; ++i) all[i] = i;
  pool.SendReset(all.data(), num_envs, nullptr);
  std::vector<int64_t> expect_step(num_envs, 0);
  std::vector<int32_t> last_action(num_envs, -1);
  std::vector<int> in_flight(num_envs, 1);
  const int iterations = sleep_us > 0 ? 300 : 20000;
  for (int it = 0; it < iterations; ++it) {
    Batch b = pool.Recv(-1, [] {});
    CHECK(b.rows == batch_size);
    std::vector<int32_t> ids;
    std::vector<int32_t> actions;
    for (int r = 0; r < b.rows; ++r) {
      int32_t id = EnvId(b, r);
      CHECK(id >= 0 && id < num_envs);
      CHECK(in_flight[id] == 1);
      in_flight[id] = 0;
      const int64_t* obs = Obs(b, r);
      CHECK(obs[0] == 100 + id);  // the env's own seed
      CHECK(obs[2] == expect_step[id]);
      CHECK(obs[3] == (obs[2] == 0 ? -1 : last_action[id]));
      bool terminated =
          *reinterpret_cast<const bool*>(b.block->At(EnvPool::kTerminated, r));
      expect_step[id] = terminated ? 0 : obs[2] + 1;
      int32_t a = (it + id) % 6;
      last_action[id] = a;
      ids.push_back(id);
      actions.push_back(a);
    }
    b.pool->Put(std::move(b.block));
    for (int32_t id : ids) in_flight[id] = 1;
    pool.Send(ids.data(), static_cast<int>(ids.size()),
              reinterpret_cast<const char*>(actions.data()));
  }
  pool.Close();
}

void TestAsyncConfigs() {
  TestAsyncEveryActionOnce(16, 4, 3, 0);
  TestAsyncEveryActionOnce(7, 3, 2, 0);
  TestAsyncEveryActionOnce(8, 8, 4, 0);
  TestAsyncEveryActionOnce(12, 5, 3, 200);
}

void TestSyncOrder() {
  EnvDescriptor d = Dummy();
  EnvPool pool(d, d.defaults, Options(9, 9, 3));
  std::vector<int32_t> all(9);
  for (int i = 0; i < 9; ++i) all[i] = i;
  std::vector<int32_t> actions(9, 1);
  pool.SendReset(all.data(), 9, nullptr);
  for (int it = 0; it < 2000; ++it) {
    Batch b = pool.Recv(-1, [] {});
    CHECK(b.rows == 9);
    for (int r = 0; r < 9; ++r) CHECK(EnvId(b, r) == r);
    pool.Send(all.data(), 9, reinterpret_cast<const char*>(actions.data()));
  }
}

void TestStepErrorSurfaces() {
  EnvDescriptor d = Dummy();
  Config c = d.defaults;
  c.Set("fail_on_step", int64_t{3});
  EnvPool pool(d, c, Options(4, 4, 2));
  std::vector<int32_t> all = {0, 1, 2, 3};
  std::vector<int32_t> actions(4, 0);
  pool.SendReset(all.data(), 4, nullptr);
  pool.Recv(-1, [] {});
  bool raised = false;
  for (int it = 0; it < 5 && !raised; ++it) {
    pool.Send(all.data(), 4, reinterpret_cast<const char*>(actions.data()));
    try {
      pool.Recv(-1, [] {});
    } catch (const EnvStepError& e) {
      raised = true;
      CHECK(e.env_ids.size() == 4);
      CHECK(std::strstr(e.what(), "failed on step 3") != nullptr);
    }
  }
  CHECK(raised);
  // The pool keeps serving: the failed envs reset on their next action.
  pool.Send(all.data(), 4, reinterpret_cast<const char*>(actions.data()));
  Batch b = pool.Recv(-1, [] {});
  for (int r = 0; r < 4; ++r) CHECK(Obs(b, r)[2] == 0);
}

void TestTimeoutAndNothingInFlight() {
  EnvDescriptor d = Dummy();
  Config c = d.defaults;
  c.Set("step_sleep_us", int64_t{200000});
  EnvPool pool(d, c, Options(2, 2, 2));
  std::vector<int32_t> all = {0, 1};
  std::vector<int32_t> actions = {0, 0};
  bool threw = false;
  try {
    pool.Recv(-1, [] {});
  } catch (const std::logic_error&) {
    threw = true;
  }
  CHECK(threw);
  pool.SendReset(all.data(), 2, nullptr);
  pool.Recv(-1, [] {});
  pool.Send(all.data(), 2, reinterpret_cast<const char*>(actions.data()));
  threw = false;
  try {
    pool.Recv(10'000'000, [] {});
  } catch (const TimeoutError&) {
    threw = true;
  }
  CHECK(threw);
  Batch b = pool.Recv(-1, [] {});  // still arrives after the timeout
  CHECK(b.rows == 2);
}

void TestCloseWhileStepping() {
  EnvDescriptor d = Dummy();
  Config c = d.defaults;
  c.Set("step_sleep_us", int64_t{20000});
  EnvPool pool(d, c, Options(32, 8, 4));
  std::vector<int32_t> all(32);
  for (int i = 0; i < 32; ++i) all[i] = i;
  pool.SendReset(all.data(), 32, nullptr);
  pool.Recv(-1, [] {});
  std::vector<int32_t> actions(32, 2);
  Batch b = pool.Recv(-1, [] {});
  std::vector<int32_t> ids;
  for (int r = 0; r < b.rows; ++r) ids.push_back(EnvId(b, r));
  pool.Send(ids.data(), static_cast<int>(ids.size()),
            reinterpret_cast<const char*>(actions.data()));
  auto start = std::chrono::steady_clock::now();
  pool.Close();
  double secs =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  CHECK(secs < 1.0);
}

// close() on another thread while recv() is blocked (and while recv()'s
// thread may be stepping an env itself): recv() ends with an error, nothing
// is freed under it, close() returns after at most a step or so.
void TestCloseFromAnotherThreadDuringRecv() {
  for (int trial = 0; trial < 20; ++trial) {
    EnvDescriptor d = Dummy();
    Config c = d.defaults;
    c.Set("step_sleep_us", int64_t{trial % 2 == 0 ? 0 : 3000});
    EnvPool pool(d, c, Options(8, 8, 2));
    std::vector<int32_t> all(8);
    for (int i = 0; i < 8; ++i) all[i] = i;
    std::vector<int32_t> actions(8, 1);
    std::atomic<bool> ended{false};
    std::thread stepper([&] {
      try {
        pool.SendReset(all.data(), 8, nullptr);
        pool.Recv(-1, [] {});
        for (;;) {
          pool.Send(all.data(), 8,
                    reinterpret_cast<const char*>(actions.data()));
          pool.Recv(-1, [] {});
        }
      } catch (const std::logic_error&) {
        ended = true;  // closed: "closed while waiting" or "pool is closed"
      }
    });
    std::this_thread::sleep_for(std::chrono::microseconds(500 + 300 * trial));
    pool.Close();
    stepper.join();
    CHECK(ended);
    CHECK(pool.Closed());
  }
}

// Buffers of the caller's for StepDirect: one per field in `which` (others
// null), batch_size rows each.
struct DirectBuffers {
  std::vector<std::unique_ptr<char[]>> memory;
  std::vector<char*> pointers;
  DirectBuffers(const EnvPool& pool, const std::vector<int>& which) {
    const auto& fields = pool.Fields();
    memory.resize(fields.size());
    pointers.assign(fields.size(), nullptr);
    for (int f : which) {
      memory[f] = std::make_unique<char[]>(fields[f].spec.NumBytes() *
                                           pool.BatchSize());
      pointers[f] = memory[f].get();
    }
  }
};

// xla()'s StepDirect: the workers write the chosen fields straight into the
// caller's buffers. Alternated with Send/Recv on one pool, it gives the
// batches a Send/Recv-only pool gives, and the block it used goes back to
// the spares restored (the Send/Recv steps after it land in the block).
void TestStepDirect() {
  EnvDescriptor d = Dummy();
  EnvPool pool(d, d.defaults, Options(9, 9, 3));
  EnvPool ref(d, d.defaults, Options(9, 9, 3));
  std::vector<int32_t> all(9);
  for (int i = 0; i < 9; ++i) all[i] = i;
  std::vector<int32_t> actions(9, 1);
  const auto* act = reinterpret_cast<const char*>(actions.data());
  pool.SendReset(all.data(), 9, nullptr);
  pool.Recv(-1, [] {});
  ref.SendReset(all.data(), 9, nullptr);
  ref.Recv(-1, [] {});
  const std::size_t obs_bytes = pool.Fields()[EnvPool::kObs].spec.NumBytes();
  for (int it = 0; it < 300; ++it) {
    ref.Send(all.data(), 9, act);
    Batch want = ref.Recv(-1, [] {});
    if (it % 3 == 0) {
      CHECK(pool.CanStepDirect());
      DirectBuffers out(pool, {EnvPool::kObs, EnvPool::kEnvId});
      Batch got = pool.StepDirect(all.data(), act, out.pointers.data());
      CHECK(got.rows == 9);
      for (int r = 0; r < 9; ++r) {
        CHECK(std::memcmp(out.pointers[EnvPool::kObs] + r * obs_bytes,
                          want.block->At(EnvPool::kObs, r), obs_bytes) == 0);
        CHECK(reinterpret_cast<int32_t*>(out.pointers[EnvPool::kEnvId])[r] ==
              r);
        // A field left in the block is read from the block.
        CHECK(std::memcmp(got.block->At(EnvPool::kElapsedStep, r),
                          want.block->At(EnvPool::kElapsedStep, r),
                          sizeof(int32_t)) == 0);
      }
      got.pool->Put(std::move(got.block));
    } else {
      pool.Send(all.data(), 9, act);
      Batch got = pool.Recv(-1, [] {});
      for (int r = 0; r < 9; ++r) {
        CHECK(std::memcmp(got.block->At(EnvPool::kObs, r),
                          want.block->At(EnvPool::kObs, r), obs_bytes) == 0);
      }
      got.pool->Put(std::move(got.block));
    }
    want.pool->Put(std::move(want.block));
  }
  // Not with an env in flight (the caller falls back to Send/Recv).
  pool.Send(all.data(), 9, act);
  CHECK(!pool.CanStepDirect());
  pool.Recv(-1, [] {});
}

// Close() on another thread while StepDirect waits: it throws only once no
// worker can write into the caller's buffers, which are freed right after
// (AddressSanitizer reports any later write).
void TestCloseDuringStepDirect() {
  for (int trial = 0; trial < 20; ++trial) {
    EnvDescriptor d = Dummy();
    Config c = d.defaults;
    c.Set("step_sleep_us", int64_t{trial % 2 == 0 ? 200 : 3000});
    EnvPool pool(d, c, Options(8, 8, 2));
    std::vector<int32_t> all(8);
    for (int i = 0; i < 8; ++i) all[i] = i;
    std::vector<int32_t> actions(8, 1);
    std::atomic<bool> ended{false};
    std::thread stepper([&] {
      try {
        pool.SendReset(all.data(), 8, nullptr);
        pool.Recv(-1, [] {});
      } catch (const std::logic_error&) {
        // Closed before the first step: on a loaded machine this thread
        // can start after the main thread's sleep (it aborted the whole
        // test binary once, an uncaught throw here).
        ended = true;
        return;
      }
      for (;;) {
        auto out = std::make_unique<DirectBuffers>(
            pool, std::vector<int>{EnvPool::kObs, EnvPool::kReward});
        try {
          if (!pool.CanStepDirect()) break;
          Batch b = pool.StepDirect(
              all.data(), reinterpret_cast<const char*>(actions.data()),
              out->pointers.data());
          b.pool->Put(std::move(b.block));
        } catch (const std::logic_error&) {
          out.reset();  // freed at once: no worker may write here now
          break;
        }
      }
      ended = true;
    });
    std::this_thread::sleep_for(std::chrono::microseconds(500 + 300 * trial));
    pool.Close();
    stepper.join();
    CHECK(ended);
    CHECK(pool.Closed());
  }
}

// A sync pool of 2 Dummy envs (one worker) whose first step, of at least
// `sleep_us`, is in flight.
std::unique_ptr<EnvPool> TwoSlowEnvsInFlight(int64_t sleep_us) {
  EnvDescriptor d = Dummy();
  Config c = d.defaults;
  c.Set("step_sleep_us", sleep_us);
  auto pool = std::make_unique<EnvPool>(d, c, Options(2, 2, 1));
  std::vector<int32_t> all = {0, 1};
  std::vector<int32_t> actions(2, 1);
  pool->SendReset(all.data(), 2, nullptr);
  pool->Recv(-1, [] {});
  pool->Send(all.data(), 2, reinterpret_cast<const char*>(actions.data()));
  return pool;
}

// A second caller while recv() is blocked gets ConcurrentUseError and
// changes nothing; the blocked recv() then completes normally.
void TestConcurrentCallsRejected() {
  auto pool_ptr = TwoSlowEnvsInFlight(100000);
  EnvPool& pool = *pool_ptr;
  std::vector<int32_t> all = {0, 1};
  std::vector<int32_t> actions(2, 1);
  std::atomic<int> rows{0};
  std::thread receiver([&] { rows = pool.Recv(-1, [] {}).rows; });
  std::this_thread::sleep_for(std::chrono::milliseconds(30));
  CHECK_THROWS(pool.Recv(-1, [] {}), ConcurrentUseError);
  CHECK_THROWS(
      pool.Send(all.data(), 2, reinterpret_cast<const char*>(actions.data())),
      ConcurrentUseError);
  receiver.join();
  CHECK(rows == 2);
  CHECK(pool.InFlight() == 0);
}

// close() from inside recv() on the same thread (what a signal handler does
// through the binding's poll): recv() ends, the teardown runs as it leaves.
void TestCloseFromInsideRecv() {
  auto pool_ptr = TwoSlowEnvsInFlight(200000);
  EnvPool& pool = *pool_ptr;
  bool ended = false;
  bool reentry_rejected = false;
  try {
    pool.Recv(-1, [&] {
      try {
        pool.Recv(-1, [] {});
      } catch (const ConcurrentUseError&) {
        reentry_rejected = true;
      }
      pool.Close();
    });
  } catch (const std::logic_error&) {
    ended = true;
  }
  CHECK(reentry_rejected);
  CHECK(ended);
  CHECK(pool.Closed());
  pool.Close();  // idempotent
}

// A step is heavy after kHeavyAfter slow ones in a row, for good: a lone slow
// step (recv()'s thread preempted mid-step) does not flip the policy.
void TestStepWeight() {
  constexpr int64_t slow = StepWeight::kMaxHelpStepNs + 1;
  constexpr int64_t fast = StepWeight::kMaxHelpStepNs / 10;
  StepWeight w;
  CHECK(!w.Heavy() && !w.MayBeSlow());
  for (int i = 0; i < 100; ++i) {
    w.Observe(i % 5 == 0 ? slow : fast);  // one slow step in five
    CHECK(!w.Heavy());
    CHECK(w.MayBeSlow() == (i % 5 == 0));  // recv() polls after it
  }
  for (int i = 1; i < StepWeight::kHeavyAfter; ++i) w.Observe(slow);
  CHECK(!w.Heavy() && w.MayBeSlow());
  w.Observe(slow);
  CHECK(w.Heavy());
  w.Observe(fast);  // holds
  CHECK(w.Heavy() && w.MayBeSlow());
}

// Option values are range-checked for the C++ type they land in.
void TestConfigRanges() {
  Config c{
      {"n", int64_t{int64_t{1} << 32}}, {"x", 1.0 / 0.0}, {"k", int64_t{5}}};
  CHECK_THROWS(c.GetInt("n"), std::invalid_argument);
  CHECK_THROWS(c.GetFloat("x"), std::invalid_argument);
  CHECK_THROWS(c.GetInt("k", 0, 4), std::invalid_argument);
  CHECK(c.GetInt("k", 0, 5) == 5);
}

// get_state / set_state while the workers step other envs (async): each
// batch's envs are saved, restored from those states, and received again:
// the same rows come back (under the sanitizers' builds too).
void TestStateWhileOthersStep() {
  EnvDescriptor d = Dummy();
  Config c = d.defaults;
  c.Set("step_sleep_us", int64_t{50});
  EnvPool pool(d, c, Options(8, 3, 3));
  std::vector<int32_t> all(8);
  for (int i = 0; i < 8; ++i) all[i] = i;
  pool.SendReset(all.data(), 8, nullptr);
  int restored = 0;
  for (int it = 0; it < 300; ++it) {
    Batch b = pool.Recv(-1, [] {});
    std::vector<int32_t> ids;
    std::vector<std::vector<int64_t>> obs;
    for (int r = 0; r < b.rows; ++r) {
      ids.push_back(EnvId(b, r));
      obs.emplace_back(Obs(b, r), Obs(b, r) + 4);
    }
    const int n = static_cast<int>(ids.size());
    if (it % 5 == 0) {
      std::vector<std::string> states = pool.GetState(ids.data(), n);
      std::vector<std::string_view> views(states.begin(), states.end());
      pool.SetState(ids.data(), n, views);
      std::vector<int> seen(8, 0);
      // The restored envs come back with the rows they had; the envs still
      // in flight may come first.
      while (std::count(seen.begin(), seen.end(), 1) < n) {
        Batch again = pool.Recv(-1, [] {});
        for (int r = 0; r < again.rows; ++r) {
          const int32_t id = EnvId(again, r);
          auto at = std::find(ids.begin(), ids.end(), id);
          if (at == ids.end()) {
            std::vector<int32_t> one{id};
            std::vector<int32_t> action{1};
            pool.Send(one.data(), 1,
                      reinterpret_cast<const char*>(action.data()));
            continue;
          }
          const std::size_t k = static_cast<std::size_t>(at - ids.begin());
          CHECK(std::equal(obs[k].begin(), obs[k].end(), Obs(again, r)));
          seen[id] = 1;
          ++restored;
        }
      }
    }
    std::vector<int32_t> actions(n, it % 6);
    pool.Send(ids.data(), n, reinterpret_cast<const char*>(actions.data()));
  }
  CHECK(restored > 0);
}

int main() {
  RUN(TestAsyncConfigs);
  RUN(TestSyncOrder);
  RUN(TestStepErrorSurfaces);
  RUN(TestTimeoutAndNothingInFlight);
  RUN(TestCloseWhileStepping);
  RUN(TestCloseFromAnotherThreadDuringRecv);
  RUN(TestConcurrentCallsRejected);
  RUN(TestStepDirect);
  RUN(TestCloseDuringStepDirect);
  RUN(TestCloseFromInsideRecv);
  RUN(TestStepWeight);
  RUN(TestConfigRanges);
  RUN(TestStateWhileOthersStep);
  std::printf("all pool tests passed\n");
  return 0;
}
