// Stress tests of ActionBufferQueue and StateBufferQueue under concurrency:
// every item is delivered exactly once, nothing is lost or duplicated when
// the rings wrap, and Stop() wakes every sleeping consumer.
#include <atomic>
#include <cstring>
#include <thread>
#include <vector>

#include "check.h"
#include "core/action_buffer_queue.h"
#include "core/state_buffer_queue.h"

using namespace envpool_lite;

// One producer pushes in bursts of varying size; consumers pop in chunks.
// The producer never has more than `capacity` items outstanding, as send()
// guarantees (one pending action per env).
void TestActionQueueExactlyOnce() {
  for (int consumers : {1, 2, 4, 8}) {
    const int kEnvs = 37;
    const int kTotal = 200000;
    ActionBufferQueue queue(kEnvs);
    std::vector<std::atomic<int>> seen(kTotal);
    std::atomic<int> outstanding{0};
    std::atomic<int> popped{0};
    std::vector<std::thread> threads;
    for (int c = 0; c < consumers; ++c) {
      threads.emplace_back([&, c] {
        ActionItem items[8];
        while (int n = queue.Pop(items, 1 + c % 8)) {
          for (int i = 0; i < n; ++i) {
            CHECK(items[i].seed < static_cast<uint64_t>(kTotal));
            CHECK(items[i].env_id == static_cast<int>(items[i].seed % kEnvs));
            seen[items[i].seed].fetch_add(1);
          }
          popped.fetch_add(n);
          outstanding.fetch_sub(n);
        }
      });
    }
    std::vector<ActionItem> burst;
    int pushed = 0;
    while (pushed < kTotal) {
      int room = kEnvs - outstanding.load();
      if (room <= 0) {
        std::this_thread::yield();
        continue;
      }
      int n = std::min({room, 1 + pushed % 13, kTotal - pushed});
      burst.resize(n);
      for (int i = 0; i < n; ++i) {
        burst[i].seed = pushed + i;
        burst[i].env_id = (pushed + i) % kEnvs;
      }
      outstanding.fetch_add(n);
      queue.Push(burst.data(), n);
      pushed += n;
    }
    while (popped.load() < kTotal) std::this_thread::yield();
    queue.Stop();
    for (auto& t : threads) t.join();
    for (int i = 0; i < kTotal; ++i) CHECK(seen[i].load() == 1);
  }
}

// Consumers asleep on an empty queue all wake up and exit on Stop().
void TestActionQueueStopWakesSleepers() {
  ActionBufferQueue queue(4);
  std::atomic<int> exited{0};
  std::vector<std::thread> threads;
  for (int i = 0; i < 6; ++i) {
    threads.emplace_back([&] {
      ActionItem item;
      while (queue.Pop(&item, 1)) {
      }
      exited.fetch_add(1);
    });
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  CHECK(exited.load() == 0);
  queue.Stop();
  for (auto& t : threads) t.join();
  CHECK(exited.load() == 6);
  ActionItem item;
  CHECK(queue.TryPop(&item, 1) == 0);
}

std::vector<FieldLayout> OneIntField() {
  ArraySpec s;
  s.name = "value";
  s.dtype = DType::kInt64;
  return {FieldLayout{s, 0, 0}};
}

// Writers claim positions and write values; the reader takes whole blocks
// and sees every value exactly once, never a block before it is complete.
// Like the pool, each of `num_envs` tokens is written once per round and
// only re-issued after the reader received it.
void TestStateQueueAsync(int num_envs, int batch_size, int writers) {
  StateBufferQueue queue(OneIntField(), batch_size, num_envs);
  ActionBufferQueue work(num_envs);
  const int64_t kTotal = 100000;
  std::vector<std::thread> threads;
  for (int w = 0; w < writers; ++w) {
    threads.emplace_back([&] {
      ActionItem item;
      while (work.Pop(&item, 1)) {
        Slot slot = queue.SlotAt(queue.ClaimPosition());
        std::memcpy(slot.block->At(0, slot.row), &item.seed, 8);
        queue.Commit(slot);
      }
    });
  }
  std::vector<ActionItem> items(num_envs);
  for (int i = 0; i < num_envs; ++i) items[i].seed = i;
  work.Push(items.data(), num_envs);
  int64_t next = num_envs;
  int64_t received = 0;
  int64_t in_flight = num_envs;
  std::vector<int> seen(kTotal + num_envs, 0);
  while (received < kTotal) {
    int target = static_cast<int>(std::min<int64_t>(batch_size, in_flight));
    queue.SetHeadTarget(target);
    while (!queue.HeadReady()) queue.WaitHead(1000000);
    auto block = queue.TakeHead(target);
    std::vector<ActionItem> resend;
    for (int r = 0; r < target; ++r) {
      int64_t v;
      std::memcpy(&v, block->At(0, r), 8);
      CHECK(v >= 0 && v < next);
      CHECK(seen[v]++ == 0);
      if (next < kTotal) {
        ActionItem item;
        item.seed = next++;
        resend.push_back(item);
      }
    }
    queue.Pool()->Put(std::move(block));
    received += target;
    in_flight -= target;
    in_flight += static_cast<int64_t>(resend.size());
    if (!resend.empty())
      work.Push(resend.data(), static_cast<int>(resend.size()));
  }
  CHECK(in_flight == 0);
  work.Stop();
  for (auto& t : threads) t.join();
  for (int64_t v = 0; v < kTotal; ++v) CHECK(seen[v] == 1);
  // Steady state recycles blocks instead of allocating.
  CHECK(queue.Pool()->Allocated() <=
        (num_envs + batch_size - 1) / batch_size + 2);
}

void TestStateQueueAsyncConfigs() {
  TestStateQueueAsync(8, 8, 2);  // sync sizes, claimed in finish order
  TestStateQueueAsync(16, 4, 3);
  TestStateQueueAsync(10, 3, 4);  // batch_size does not divide num_envs
  TestStateQueueAsync(64, 7, 8);
  TestStateQueueAsync(5, 1, 2);
}

int main() {
  RUN(TestActionQueueExactlyOnce);
  RUN(TestActionQueueStopWakesSleepers);
  RUN(TestStateQueueAsyncConfigs);
  std::printf("all queue tests passed\n");
  return 0;
}
