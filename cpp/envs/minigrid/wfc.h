// MiniGrid-WFC-*: a level drawn by wave function collapse from a preset's
// pattern image (minigrid/envs/wfc/wfcenv.py and graphtransforms.py of
// minigrid 3.2.0; the solver and the presets in wfc_model.h).
//
// _gen_grid: the WFC fills the (size - 2)^2 inside, black pixels walls; with
// ensure_connected only the largest navigable component stays open (the
// rest walls); two of its cells, drawn by np_random.permutation, are the
// agent's start and the goal; then _rand_int(0, 4) the direction.
//
// networkx decides which cell a permutation index names: the component's
// nodes come in the graph's row-major order, except when the component has
// fewer than half the navigable cells, where networkx's subgraph views
// iterate the Python set of its nodes instead. PySetOrder below reproduces
// CPython 3.11's set (tuple hashes, open addressing, resizes) for that.
#pragma once

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "envs/minigrid/minigrid_env.h"
#include "envs/minigrid/wfc_model.h"

namespace envpool_lite {
namespace minigrid {

// CPython's hash of the tuple (i, j) of small non-negative ints (xxHash
// lanes, Objects/tupleobject.c).
inline uint64_t PyTupleHash(int64_t i, int64_t j) {
  constexpr uint64_t kPrime1 = 11400714785074694791ULL;
  constexpr uint64_t kPrime2 = 14029467366897019727ULL;
  constexpr uint64_t kPrime5 = 2870177450012600261ULL;
  uint64_t acc = kPrime5;
  for (int64_t lane : {i, j}) {
    acc += static_cast<uint64_t>(lane) * kPrime2;
    acc = (acc << 31) | (acc >> 33);
    acc *= kPrime1;
  }
  acc += 2 ^ (kPrime5 ^ 3527539ULL);
  if (acc == ~uint64_t{0}) return 1546275796;
  return acc;
}

// A CPython 3.11 set (Objects/setobject.c) that is only added to: the order
// its iteration gives for keys added in a given order.
class PySetOrder {
 public:
  void Add(int key, uint64_t hash) {
    const std::size_t mask = table_.size() - 1;
    std::size_t i = hash & mask;
    uint64_t perturb = hash;
    while (true) {
      std::size_t probes = i + kLinearProbes <= mask ? kLinearProbes : 0;
      std::size_t e = i;
      while (true) {
        if (table_[e].key < 0) {
          table_[e] = {key, hash};
          ++used_;
          if (used_ * 5 >= mask * 3)
            Resize(used_ > 50000 ? used_ * 2 : used_ * 4);
          return;
        }
        if (table_[e].hash == hash && table_[e].key == key) return;
        ++e;
        if (probes-- == 0) break;
      }
      perturb >>= 5;
      i = (i * 5 + 1 + perturb) & mask;
    }
  }

  std::vector<int> Keys() const {
    std::vector<int> keys;
    for (const Entry& e : table_) {
      if (e.key >= 0) keys.push_back(e.key);
    }
    return keys;
  }

 private:
  static constexpr std::size_t kLinearProbes = 9;
  struct Entry {
    int key = -1;
    uint64_t hash = 0;
  };

  void Resize(std::size_t min_used) {
    std::size_t size = 8;
    while (size <= min_used) size <<= 1;
    std::vector<Entry> old = std::move(table_);
    table_.assign(size, Entry{});
    const std::size_t mask = size - 1;
    for (const Entry& entry : old) {
      if (entry.key < 0) continue;
      std::size_t i = entry.hash & mask;
      uint64_t perturb = entry.hash;
      while (true) {
        if (table_[i].key < 0) break;
        bool found = false;
        if (i + kLinearProbes <= mask) {
          for (std::size_t j = 1; j <= kLinearProbes; ++j) {
            if (table_[i + j].key < 0) {
              i += j;
              found = true;
              break;
            }
          }
        }
        if (found) break;
        perturb >>= 5;
        i = (i * 5 + 1 + perturb) & mask;
      }
      table_[i] = entry;
    }
  }

  std::vector<Entry> table_ = std::vector<Entry>(8);
  std::size_t used_ = 0;
};

class WFCEnv : public MiniGridEnv {
 public:
  static Config DefaultConfig() {
    return {{"wfc_config", std::string("MazeSimple")},
            {"size", int64_t{25}},
            {"ensure_connected", true},
            {"max_steps", int64_t{-1}},  // -1: 20 * size
            {"agent_view_size", int64_t{7}}};
  }

  static EnvSpec MakeSpec(const Config& config) {
    Preset(config);
    config.GetInt("size", 3, 255);
    config.GetBool("ensure_connected");
    return MakeMiniGridSpec(config);
  }

  WFCEnv(const Config& config, uint64_t seed)
      : MiniGridEnv(config, seed, Size(config), Size(config),
                    20 * int64_t{Size(config)},
                    /*see_through_walls=*/false),
        model_(GetWfcModel(Preset(config))),
        ensure_connected_(config.GetBool("ensure_connected")) {}

 protected:
  void GenGrid() override {
    const int n = width_ - 2;  // the WFC output, without the padding
    std::vector<int> patterns;
    WfcSolver solver(model_, n, n);
    if (!solver.Execute(rng_, kMaxAttempts, &patterns)) {
      throw std::runtime_error(
          "MiniGrid-WFC: could not generate a valid pattern within 1000 "
          "attempts");
    }
    // Cell (i, j) of the output (i along its first axis) is grid cell
    // (i + 1, j + 1); open where the pattern's pixel is not black.
    std::vector<char> open(static_cast<std::size_t>(n) * n);
    for (int c = 0; c < n * n; ++c) {
      open[c] = !model_.top_left_is_wall[patterns[c]];
    }
    std::vector<int> nodes;  // the open cells, in networkx's node order
    if (ensure_connected_) {
      nodes = LargestComponent(open, n);
    } else {
      for (int c = 0; c < n * n; ++c) {
        if (open[c]) nodes.push_back(c);
      }
    }
    std::vector<char> keep(open.size(), 0);
    for (int c : nodes) keep[c] = 1;
    if (nodes.size() < 2) {  // minigrid: an IndexError
      throw std::runtime_error(
          "MiniGrid-WFC: fewer than two open cells for the start and the goal");
    }
    // _place_start_and_goal_random: permutation(len(nodes))[:2].
    std::vector<int> perm(nodes.size());
    for (std::size_t i = 0; i < perm.size(); ++i) perm[i] = static_cast<int>(i);
    rng_.Shuffle(&perm);
    const int start = nodes[perm[0]];
    const int goal = nodes[perm[1]];
    WallRect(0, 0, width_, height_);
    for (int c = 0; c < n * n; ++c) {
      if (!keep[c]) grid_.Set(c / n + 1, c % n + 1, 0);
    }
    PutObj(NewObj(kGoal, kGreen), goal / n + 1, goal % n + 1);
    agent_x_ = start / n + 1;
    agent_y_ = start % n + 1;
    agent_dir_ = RandInt(0, 4);
    SetMission("traverse the maze to get to the goal");
  }

 private:
  static constexpr int kMaxAttempts = 1000;

  static const WfcPreset& Preset(const Config& config) {
    const std::string& name = config.GetString("wfc_config");
    const WfcPreset* preset = FindWfcPreset(name);
    if (preset == nullptr) {
      std::string names;
      for (const WfcPreset& p : WfcPresets()) {
        names += std::string(names.empty() ? "" : ", ") + p.name;
      }
      throw std::invalid_argument("option 'wfc_config' must be one of " +
                                  names + ", got '" + name + "'");
    }
    return *preset;
  }
  static int Size(const Config& config) {
    return static_cast<int>(config.GetInt("size"));
  }

  // _get_largest_component's nodes, in the order networkx then gives them.
  static std::vector<int> LargestComponent(const std::vector<char>& open,
                                           int n) {
    auto hash = [n](int c) { return PyTupleHash(c / n, c % n); };
    int num_open = 0;
    for (char o : open) num_open += o;
    // nx.connected_components: a BFS (neighbours up, left, down, right:
    // the order the graph's edges were added) from each unseen node in
    // row-major order; each component a set, in order of discovery.
    std::vector<char> seen(open.size(), 0);
    std::vector<int> best_bfs;  // the largest (the first on ties)
    for (int s = 0; s < n * n; ++s) {
      if (!open[s] || seen[s]) continue;
      std::vector<int> bfs = {s};
      seen[s] = 1;
      for (std::size_t h = 0; h < bfs.size(); ++h) {
        const int i = bfs[h] / n;
        const int j = bfs[h] % n;
        const int nb[4][2] = {{i - 1, j}, {i, j - 1}, {i + 1, j}, {i, j + 1}};
        for (const auto& q : nb) {
          if (q[0] < 0 || q[0] >= n || q[1] < 0 || q[1] >= n) continue;
          const int c = q[0] * n + q[1];
          if (open[c] && !seen[c]) {
            seen[c] = 1;
            bfs.push_back(c);
          }
        }
      }
      if (bfs.size() > best_bfs.size()) best_bfs = std::move(bfs);
    }
    if (best_bfs.size() <= 1) {
      throw std::runtime_error(
          "MiniGrid-WFC: no navigable component of two or more cells");
    }
    const bool set_order =
        2 * best_bfs.size() < static_cast<std::size_t>(num_open);
    std::vector<int> row_major = best_bfs;
    std::sort(row_major.begin(), row_major.end());
    if (!set_order) return row_major;
    // The component set c, then show_nodes(c) (its copy), then
    // show_nodes(component graph): each a set built in the previous one's
    // iteration order.
    std::vector<int> order = best_bfs;
    for (int round = 0; round < 3; ++round) {
      PySetOrder set;
      for (int c : order) set.Add(c, hash(c));
      order = set.Keys();
    }
    return order;
  }

  const WfcModel& model_;
  bool ensure_connected_;
};

}  // namespace minigrid
}  // namespace envpool_lite
