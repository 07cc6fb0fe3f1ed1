// Whether an env's steps are heavy, from the steps recv()'s thread runs
// itself (EnvPool::Wait): heavy once kHeavyAfter of them in a row took over
// kMaxHelpStepNs. One slow step is not enough: it may be that thread
// preempted mid-step on a full machine, and the answer holds for the pool's
// life (a heavy pool's recv() stops stepping envs when no core is spare, so
// it would never measure again). A single outlier once put 16 HalfCheetah
// envs on 2 threads into a mode 25% slower for the whole run.
#pragma once

#include <cstdint>

namespace envpool_lite {

class StepWeight {
 public:
  static constexpr int64_t kMaxHelpStepNs = 200'000;
  static constexpr int kHeavyAfter = 3;

  void Observe(int64_t step_ns) {
    if (step_ns > kMaxHelpStepNs) {
      if (++slow_in_a_row_ >= kHeavyAfter) heavy_ = true;
    } else {
      slow_in_a_row_ = 0;
    }
  }

  bool Heavy() const { return heavy_; }
  // Heavy, or the last step observed was slow (recv() then polls for
  // Ctrl-C before it takes another).
  bool MayBeSlow() const { return heavy_ || slow_in_a_row_ > 0; }

 private:
  bool heavy_ = false;
  int slow_in_a_row_ = 0;
};

}  // namespace envpool_lite
