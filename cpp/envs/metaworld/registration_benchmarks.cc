// Meta-World's benchmarks as pools (benchmark.h), under metaworld's own ids:
// Meta-World/MT1 (env_name=...), MT10, MT25, MT50, and Meta-World/ML1-train
// (env_name=...), ML1-test, ML10-train, ML10-test, ... ML45-test, and the
// one-goal envs Meta-World/goal_observable and goal_hidden. Their tasks
// in metaworld 3.1.1's env_dict order (MT10_V3, MT25_V3, MT50_V3, ML10_V3,
// ML25_V3, ML45_V3), on which the goals each task draws depend.
#include "envs/metaworld/benchmark.h"
#include "envs/metaworld/registration.h"

namespace envpool_lite {
namespace metaworld {
namespace {

using Names = std::vector<std::string>;

const Names& Mt10() {
  static const Names n = {"reach-v3",
                          "push-v3",
                          "pick-place-v3",
                          "door-open-v3",
                          "drawer-open-v3",
                          "drawer-close-v3",
                          "button-press-topdown-v3",
                          "peg-insert-side-v3",
                          "window-open-v3",
                          "window-close-v3"};
  return n;
}

const Names& Mt25() {
  static const Names n = [] {
    Names v = Mt10();
    for (const char* t :
         {"coffee-pull-v3", "pick-out-of-hole-v3", "disassemble-v3",
          "pick-place-wall-v3", "basketball-v3", "stick-pull-v3",
          "button-press-wall-v3", "faucet-open-v3", "door-lock-v3",
          "lever-pull-v3", "sweep-into-v3", "faucet-close-v3",
          "coffee-button-v3", "button-press-topdown-wall-v3", "dial-turn-v3"})
      v.push_back(t);
    return v;
  }();
  return n;
}

const Names& Mt50() {
  static const Names n = {"assembly-v3",
                          "basketball-v3",
                          "bin-picking-v3",
                          "box-close-v3",
                          "button-press-topdown-v3",
                          "button-press-topdown-wall-v3",
                          "button-press-v3",
                          "button-press-wall-v3",
                          "coffee-button-v3",
                          "coffee-pull-v3",
                          "coffee-push-v3",
                          "dial-turn-v3",
                          "disassemble-v3",
                          "door-close-v3",
                          "door-lock-v3",
                          "door-open-v3",
                          "door-unlock-v3",
                          "hand-insert-v3",
                          "drawer-close-v3",
                          "drawer-open-v3",
                          "faucet-open-v3",
                          "faucet-close-v3",
                          "hammer-v3",
                          "handle-press-side-v3",
                          "handle-press-v3",
                          "handle-pull-side-v3",
                          "handle-pull-v3",
                          "lever-pull-v3",
                          "pick-place-wall-v3",
                          "pick-out-of-hole-v3",
                          "pick-place-v3",
                          "plate-slide-v3",
                          "plate-slide-side-v3",
                          "plate-slide-back-v3",
                          "plate-slide-back-side-v3",
                          "peg-insert-side-v3",
                          "peg-unplug-side-v3",
                          "soccer-v3",
                          "stick-push-v3",
                          "stick-pull-v3",
                          "push-v3",
                          "push-wall-v3",
                          "push-back-v3",
                          "reach-v3",
                          "reach-wall-v3",
                          "shelf-place-v3",
                          "sweep-into-v3",
                          "sweep-v3",
                          "window-open-v3",
                          "window-close-v3"};
  return n;
}

// ML45's train tasks: MT50's order, less the five test tasks, with
// pick-place and push moved as ML45_V3 lists them.
const Names& Ml45Train() {
  static const Names n = {"assembly-v3",
                          "basketball-v3",
                          "button-press-topdown-v3",
                          "button-press-topdown-wall-v3",
                          "button-press-v3",
                          "button-press-wall-v3",
                          "coffee-button-v3",
                          "coffee-pull-v3",
                          "coffee-push-v3",
                          "dial-turn-v3",
                          "disassemble-v3",
                          "door-close-v3",
                          "door-open-v3",
                          "drawer-close-v3",
                          "drawer-open-v3",
                          "faucet-open-v3",
                          "faucet-close-v3",
                          "hammer-v3",
                          "handle-press-side-v3",
                          "handle-press-v3",
                          "handle-pull-side-v3",
                          "handle-pull-v3",
                          "lever-pull-v3",
                          "pick-place-wall-v3",
                          "pick-out-of-hole-v3",
                          "push-back-v3",
                          "pick-place-v3",
                          "plate-slide-v3",
                          "plate-slide-side-v3",
                          "plate-slide-back-v3",
                          "plate-slide-back-side-v3",
                          "peg-insert-side-v3",
                          "peg-unplug-side-v3",
                          "soccer-v3",
                          "stick-push-v3",
                          "stick-pull-v3",
                          "push-wall-v3",
                          "push-v3",
                          "reach-wall-v3",
                          "reach-v3",
                          "shelf-place-v3",
                          "sweep-into-v3",
                          "sweep-v3",
                          "window-open-v3",
                          "window-close-v3"};
  return n;
}

template <bool kMl, bool kTest>
const BenchmarkDef& OneTask() {
  static const BenchmarkDef d{{}, kMl, kTest};
  return d;
}

template <bool kHidden>
const BenchmarkDef& OneGoal() {
  static const BenchmarkDef d{{}, false, false, true, kHidden};
  return d;
}
#define MW_BENCHMARK(Fn, ...)                    \
  const BenchmarkDef& Fn() {                     \
    static const BenchmarkDef d = {__VA_ARGS__}; \
    return d;                                    \
  }
MW_BENCHMARK(DefMt10, Mt10(), false, false)
MW_BENCHMARK(DefMt25, Mt25(), false, false)
MW_BENCHMARK(DefMt50, Mt50(), false, false)
MW_BENCHMARK(DefMl10Train,
             (Names{"reach-v3", "push-v3", "pick-place-v3", "door-open-v3",
                    "drawer-close-v3", "button-press-topdown-v3",
                    "peg-insert-side-v3", "window-open-v3", "sweep-v3",
                    "basketball-v3"}),
             true, false)
MW_BENCHMARK(DefMl10Test,
             (Names{"drawer-open-v3", "door-close-v3", "shelf-place-v3",
                    "sweep-into-v3", "lever-pull-v3"}),
             true, true)
MW_BENCHMARK(DefMl25Train, Mt25(), true, false)
MW_BENCHMARK(DefMl25Test,
             (Names{"basketball-v3", "door-close-v3", "shelf-place-v3",
                    "sweep-v3", "button-press-v3"}),
             true, true)
MW_BENCHMARK(DefMl45Train, Ml45Train(), true, false)
MW_BENCHMARK(DefMl45Test,
             (Names{"bin-picking-v3", "box-close-v3", "hand-insert-v3",
                    "door-lock-v3", "door-unlock-v3"}),
             true, true)
#undef MW_BENCHMARK

}  // namespace

void RegisterBenchmarks(Registry& registry) {
  registry.Add<Benchmark<&OneTask<false, false>>>("Meta-World/MT1");
  registry.Add<Benchmark<&DefMt10>>("Meta-World/MT10");
  registry.Add<Benchmark<&DefMt25>>("Meta-World/MT25");
  registry.Add<Benchmark<&DefMt50>>("Meta-World/MT50");
  registry.Add<Benchmark<&OneTask<true, false>>>("Meta-World/ML1-train");
  registry.Add<Benchmark<&OneTask<true, true>>>("Meta-World/ML1-test");
  registry.Add<Benchmark<&DefMl10Train>>("Meta-World/ML10-train");
  registry.Add<Benchmark<&DefMl10Test>>("Meta-World/ML10-test");
  registry.Add<Benchmark<&DefMl25Train>>("Meta-World/ML25-train");
  registry.Add<Benchmark<&DefMl25Test>>("Meta-World/ML25-test");
  registry.Add<Benchmark<&DefMl45Train>>("Meta-World/ML45-train");
  registry.Add<Benchmark<&DefMl45Test>>("Meta-World/ML45-test");
  registry.Add<Benchmark<&OneGoal<false>>>("Meta-World/goal_observable");
  registry.Add<Benchmark<&OneGoal<true>>>("Meta-World/goal_hidden");
}

}  // namespace metaworld
}  // namespace envpool_lite
