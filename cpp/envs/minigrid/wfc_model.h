// The wave function collapse of MiniGrid-WFC-* (minigrid/envs/wfc/config.py
// and wfclogic/ of minigrid 3.2.0, after ikarth/wfc_2019f): the presets'
// pattern images, the patterns learnt from them (with their weights and
// adjacencies), and the solver with its "entropy" location heuristic and
// "weighted" pattern heuristic, drawing from the env's np_random.
//
// The pattern images: minigrid's config.py names PNG files under
// minigrid/envs/wfc/patterns/, which the minigrid 3.2.0 wheel and sdist do
// not ship (gymnasium.make of a WFC id then fails at reset with
// FileNotFoundError); they live in minigrid's git repository. They are tiny
// (at most 17x17 pixels, black and white), so they are written here as
// rows of text: '#' a black pixel (0, 0, 0), '.' a white one (255, 255,
// 255), ',' a near-white one (254, 254, 254) that Fabric.png has (a tile of
// its own for the WFC, an empty cell in the level).
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <limits>
#include <map>
#include <mutex>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "refkit/numpy/random.h"

namespace envpool_lite {
namespace minigrid {

struct WfcPreset {
  const char* name;
  std::vector<const char*> rows;
  int pattern_width;
  bool output_periodic;  // (input_periodic: the input wraps either way)
};

// WFC_PRESETS, the presets minigrid registers (all: tile_size 1,
// rotations 8, loc_heuristic "entropy", choice_heuristic "weighted",
// no backtracking).
inline const std::vector<WfcPreset>& WfcPresets() {
  static const std::vector<WfcPreset> presets = {
      {"MazeSimple",  // SimpleMaze.png
       {"....", ".###", ".#.#", ".###"},
       2,
       false},
      {"DungeonMazeScaled",  // ScaledMaze.png
       {"........", "........", "..######", "..######", "..##..##", "..##..##",
        "..######", "..######"},
       2,
       true},
      {"RoomsFabric",  // Fabric.png
       {"..#..", "..,..", "#####", "..,..", "..#.."},
       3,
       false},
      {"ObstaclesBlackdots",  // Blackdots.png
       {"...", ".#.", "..."},
       2,
       false},
      {"ObstaclesAngular",  // Angular.png
       {"...........", ".....#####.", ".....#####.", ".....#####.",
        ".....#####.", ".#########.", ".#########.", ".#########.",
        ".#########.", ".#########.", "..........."},
       3,
       true},
      {"ObstaclesHogs3",  // Hogs.png
       {".................", ".......#....#....", "..#...###..###...",
        ".###...#....#....", "..#..............", ".........#.......",
        "....#...###...#..", "...###...#...###.", "....#.........#..",
        ".................", ".......#....#....", "..#...###..###...",
        ".###...#....#....", "..#..#...#....#..", "....###.###..###.",
        ".....#...#....#..", "................."},
       3,
       true},
  };
  return presets;
}

inline const WfcPreset* FindWfcPreset(const std::string& name) {
  for (const WfcPreset& p : WfcPresets()) {
    if (name == p.name) return &p;
  }
  return nullptr;
}

// utilities.hash_downto's vector: np.random.RandomState(0).randint(1 - 2**63,
// 2**63, n, dtype=np.int64); the first n of these for n = 3 (a tile's RGB),
// 4 or 9 (a 2x2 or 3x3 pattern's tiles). Hashes are inner products with it,
// wrapping in int64.
constexpr int64_t kWfcHashVector[9] = {
    900450186894289456,   3969543146641149121,  1895649597198586620,
    827948490035658088,   -1408320422220276012, 2691271404617651955,
    -1151312763198686632, 7226936298635050457,  8553068346248842637};

inline int64_t WfcHash(const std::vector<int64_t>& values) {
  uint64_t acc = 0;
  for (std::size_t i = 0; i < values.size(); ++i) {
    acc += static_cast<uint64_t>(values[i]) *
           static_cast<uint64_t>(kWfcHashVector[i]);
  }
  return static_cast<int64_t>(acc);
}

// What execute_wfc learns from a pattern image before solving.
struct WfcModel {
  int k = 2;  // pattern_width
  bool periodic = false;
  int num_patterns = 0;
  int words = 1;                       // 64-bit words of a set of patterns
  std::vector<double> weights;         // encoded_weights
  std::vector<bool> top_left_is_wall;  // the pattern's tile [0][0], decoded
  // compat[d][p]: the patterns q that may sit at a cell whose neighbour in
  // direction d holds p (adjacency_list[d][q] contains p), as a bit set.
  std::vector<std::vector<uint64_t>> compat[4];
  // border[d]: the patterns q with any neighbour at all in direction d (what
  // a cell next to the edge keeps when the output does not wrap).
  std::vector<uint64_t> border[4];
};

// direction_offsets: (dx, dy) with dx along the wave's first axis.
constexpr int kWfcDx[4] = {0, 1, 0, -1};
constexpr int kWfcDy[4] = {-1, 0, 1, 0};

inline WfcModel BuildWfcModel(const WfcPreset& preset) {
  WfcModel m;
  m.k = preset.pattern_width;
  m.periodic = preset.output_periodic;
  const int k = m.k;
  // make_tile_catalog: each pixel's hash (tile_size 1).
  const int rows = static_cast<int>(preset.rows.size());
  const int cols = static_cast<int>(std::string(preset.rows[0]).size());
  std::map<int64_t, bool> tile_is_wall;  // by tile hash: its red is 0
  std::vector<std::vector<int64_t>> grid(rows, std::vector<int64_t>(cols));
  for (int r = 0; r < rows; ++r) {
    for (int c = 0; c < cols; ++c) {
      const char ch = preset.rows[r][c];
      const int64_t v = ch == '#' ? 0 : ch == ',' ? 254 : 255;
      grid[r][c] = WfcHash({v, v, v});
      tile_is_wall[grid[r][c]] = ch == '#';
    }
  }
  // make_pattern_catalog_with_rotations: the grid under identity, then
  // alternately fliplr and rot90(axes=(1, 0)), cumulatively (8 grids); the
  // k x k patches at every position (wrapping); a pattern's weight is the
  // number of these grids it occurs in.
  std::map<int64_t, std::vector<int64_t>> contents;  // pattern hash -> tiles
  std::map<int64_t, int> weight;
  for (int op = 0; op < 8; ++op) {
    if (op % 2 == 1) {  // fliplr
      for (auto& row : grid) std::reverse(row.begin(), row.end());
    } else if (op > 0) {  // rot90 clockwise: out[i][j] = in[h - 1 - j][i]
      const int h = static_cast<int>(grid.size());
      const int w = static_cast<int>(grid[0].size());
      std::vector<std::vector<int64_t>> out(w, std::vector<int64_t>(h));
      for (int i = 0; i < w; ++i) {
        for (int j = 0; j < h; ++j) out[i][j] = grid[h - 1 - j][i];
      }
      grid = std::move(out);
    }
    const int h = static_cast<int>(grid.size());
    const int w = static_cast<int>(grid[0].size());
    std::map<int64_t, std::vector<int64_t>> seen;
    for (int r = 0; r < h; ++r) {
      for (int c = 0; c < w; ++c) {
        std::vector<int64_t> patch;
        for (int a = 0; a < k; ++a) {
          for (int b = 0; b < k; ++b) {
            patch.push_back(grid[(r + a) % h][(c + b) % w]);
          }
        }
        seen.emplace(WfcHash(patch), patch);
      }
    }
    for (auto& [hash, patch] : seen) {
      contents[hash] = patch;
      ++weight[hash];
    }
  }
  // Patterns numbered in the order of their hashes (np.unique).
  std::vector<std::vector<int64_t>> pats;
  for (auto& [hash, patch] : contents) {
    pats.push_back(patch);
    m.weights.push_back(static_cast<double>(weight[hash]));
    m.top_left_is_wall.push_back(tile_is_wall.at(patch[0]));
  }
  const int n = static_cast<int>(pats.size());
  m.num_patterns = n;
  m.words = (n + 63) / 64;
  // adjacency_extraction: q then p in direction (dx, dy) agree where they
  // overlap: q[r][c] == p[r - dy][c - dx] (rows r, columns c of a pattern).
  for (int d = 0; d < 4; ++d) {
    const int dx = kWfcDx[d];
    const int dy = kWfcDy[d];
    m.compat[d].assign(n, std::vector<uint64_t>(m.words, 0));
    m.border[d].assign(m.words, 0);
    for (int q = 0; q < n; ++q) {
      for (int p = 0; p < n; ++p) {
        bool ok = true;
        for (int r = std::max(0, dy); ok && r < std::min(k, k + dy); ++r) {
          for (int c = std::max(0, dx); c < std::min(k, k + dx); ++c) {
            if (pats[q][r * k + c] != pats[p][(r - dy) * k + (c - dx)]) {
              ok = false;
              break;
            }
          }
        }
        if (ok) {
          m.compat[d][p][q / 64] |= uint64_t{1} << (q % 64);
          m.border[d][q / 64] |= uint64_t{1} << (q % 64);
        }
      }
    }
  }
  return m;
}

// The model of a preset, built once.
inline const WfcModel& GetWfcModel(const WfcPreset& preset) {
  static std::map<std::string, WfcModel> models;
  static std::mutex mu;
  std::lock_guard<std::mutex> lock(mu);
  auto it = models.find(preset.name);
  if (it == models.end()) {
    it = models.emplace(preset.name, BuildWfcModel(preset)).first;
  }
  return it->second;
}

// solver.run with the heuristics execute_wfc builds: the wave, a set of
// still possible patterns per cell of the rows x cols output.
class WfcSolver {
 public:
  WfcSolver(const WfcModel& model, int rows, int cols)
      : m_(model), rows_(rows), cols_(cols) {}

  // execute_wfc (attempt_limit attempts): true with the chosen pattern of
  // every cell (row-major), false when every attempt met a contradiction.
  bool Execute(NumpyRandom& rng, int attempt_limit, std::vector<int>* out) {
    const int cells = rows_ * cols_;
    // choice_random_weighting = np_random.random(wave.shape[1:]) * 0.1
    std::vector<double> preference(cells);
    for (double& v : preference) v = rng.NextDouble() * 0.1;
    for (int attempt = 0; attempt < attempt_limit; ++attempt) {
      if (Solve(rng, preference)) {
        out->resize(cells);
        for (int c = 0; c < cells; ++c) out->at(c) = First(c);
        return true;
      }
    }
    return false;
  }

 private:
  uint64_t* Cell(int c) { return &wave_[static_cast<std::size_t>(c) * W()]; }
  int W() const { return m_.words; }
  int Count(int c) {
    int n = 0;
    for (int w = 0; w < W(); ++w) n += std::popcount(Cell(c)[w]);
    return n;
  }
  int First(int c) {
    for (int w = 0; w < W(); ++w) {
      if (Cell(c)[w]) return w * 64 + std::countr_zero(Cell(c)[w]);
    }
    return -1;
  }

  // One attempt of Solver.solve_next until solved; false on a contradiction.
  bool Solve(NumpyRandom& rng, const std::vector<double>& preference) {
    const int cells = rows_ * cols_;
    wave_.assign(static_cast<std::size_t>(cells) * W(), 0);
    for (int c = 0; c < cells; ++c) {
      for (int p = 0; p < m_.num_patterns; ++p) {
        Cell(c)[p / 64] |= uint64_t{1} << (p % 64);
      }
    }
    std::vector<int> all(cells);
    for (int c = 0; c < cells; ++c) all[c] = c;
    if (!Propagate(all)) return false;
    std::vector<double> cdf(m_.num_patterns);
    while (true) {
      // entropyLocationHeuristic: argmin of preference + count over the
      // unresolved cells (the first one on ties).
      int best = -1;
      double best_w = std::numeric_limits<double>::infinity();
      for (int c = 0; c < cells; ++c) {
        const int n = Count(c);
        if (n <= 1) continue;
        const double w = preference[c] + static_cast<double>(n);
        if (w < best_w) {
          best_w = w;
          best = c;
        }
      }
      if (best < 0) return true;  // solved
      // weightedPatternHeuristic: np_random.choice(n, p=weights * wave /
      // sum): the cdf of p, divided by its last value, searched (right) for
      // one random().
      double sum = 0.0;  // integer weights: the sum is exact in any order
      for (int p = 0; p < m_.num_patterns; ++p) {
        if (Has(best, p)) sum += m_.weights[p];
      }
      double acc = 0.0;
      for (int p = 0; p < m_.num_patterns; ++p) {
        acc += (Has(best, p) ? m_.weights[p] : 0.0) / sum;
        cdf[p] = acc;
      }
      const double last = cdf.back();
      for (double& v : cdf) v /= last;
      const double u = rng.NextDouble();
      const int chosen = static_cast<int>(
          std::upper_bound(cdf.begin(), cdf.end(), u) - cdf.begin());
      for (int w = 0; w < W(); ++w) Cell(best)[w] = 0;
      Cell(best)[chosen / 64] |= uint64_t{1} << (chosen % 64);
      if (!Propagate({best})) return false;
    }
  }

  bool Has(int c, int p) { return (Cell(c)[p / 64] >> (p % 64)) & 1; }

  // propagate: removes the patterns some direction does not support until
  // nothing changes (its fixed point is unique, so any order reaches it);
  // false when a cell has no pattern left.
  bool Propagate(std::vector<int> queue) {
    const int cells = rows_ * cols_;
    std::vector<char> queued(cells, 0);
    for (int c : queue) queued[c] = 1;
    std::vector<uint64_t> support(W());
    std::vector<uint64_t> keep(W());
    while (!queue.empty()) {
      const int c = queue.back();
      queue.pop_back();
      queued[c] = 0;
      // Every neighbour of c re-checks its support (and c itself: the
      // first call, where the edges may prune).
      for (int d = -1; d < 4; ++d) {
        int target = c;
        if (d >= 0) {
          int i = c / cols_ - kWfcDx[d];
          int j = c % cols_ - kWfcDy[d];
          if (m_.periodic) {
            i = (i + rows_) % rows_;
            j = (j + cols_) % cols_;
          } else if (i < 0 || i >= rows_ || j < 0 || j >= cols_) {
            continue;
          }
          target = i * cols_ + j;
        }
        if (Restrict(target, &support, &keep)) {
          if (Count(target) == 0) return false;
          if (!queued[target]) {
            queued[target] = 1;
            queue.push_back(target);
          }
        }
      }
    }
    return true;
  }

  // Intersects cell t with the support from its four neighbours; true when
  // it lost a pattern.
  bool Restrict(int t, std::vector<uint64_t>* support,
                std::vector<uint64_t>* keep) {
    const int i = t / cols_;
    const int j = t % cols_;
    for (int w = 0; w < W(); ++w) (*keep)[w] = Cell(t)[w];
    for (int d = 0; d < 4; ++d) {
      int ni = i + kWfcDx[d];
      int nj = j + kWfcDy[d];
      if (m_.periodic) {
        ni = (ni + rows_) % rows_;
        nj = (nj + cols_) % cols_;
      } else if (ni < 0 || ni >= rows_ || nj < 0 || nj >= cols_) {
        for (int w = 0; w < W(); ++w) (*keep)[w] &= m_.border[d][w];
        continue;
      }
      std::fill(support->begin(), support->end(), 0);
      const uint64_t* nb = Cell(ni * cols_ + nj);
      for (int w = 0; w < W(); ++w) {
        uint64_t bits = nb[w];
        while (bits) {
          const int p = w * 64 + std::countr_zero(bits);
          bits &= bits - 1;
          const std::vector<uint64_t>& s = m_.compat[d][p];
          for (int x = 0; x < W(); ++x) (*support)[x] |= s[x];
        }
      }
      for (int w = 0; w < W(); ++w) (*keep)[w] &= (*support)[w];
    }
    bool changed = false;
    for (int w = 0; w < W(); ++w) {
      if ((*keep)[w] != Cell(t)[w]) changed = true;
      Cell(t)[w] = (*keep)[w];
    }
    return changed;
  }

  const WfcModel& m_;
  int rows_;
  int cols_;
  std::vector<uint64_t> wave_;
};

}  // namespace minigrid
}  // namespace envpool_lite
