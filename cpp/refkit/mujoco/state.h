// MuJoCo's part of an env's saved state (get_state / set_state):
//  - the mjData whole, as mj_copyData copies it: its scalars, its buffer
//    (positions, velocities, warm start, controls, and every quantity the
//    last step computed, which observations read), and the used part of its
//    arena (contacts and constraints), with the arena arrays' offsets; the
//    loaded mjData keeps its own pointers (the arena's rebased), thread pool
//    and diagnostics (solver statistics, timers). Field by field, without
//    pointers or padding: a state loaded and saved again is the same bytes;
//  - the mjModel's options and numeric arrays, which envs change between
//    episodes (dm_control's target positions and colours, Meta-World's goal
//    sites); not its meshes, textures, flexes and names, which no env
//    changes (they are most of a model's bytes).
// Both need the mjModel the state was saved with to have the same sizes:
// states move only between pools of the same task and options.
#pragma once

#include <mujoco/mjxmacro.h>
#include <mujoco/mujoco.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/env_state.h"

namespace envpool_lite::mujoco_state {

namespace detail {

// The mjData fields outside its buffer and arena that are not state: the
// env's own thread pool, and diagnostics MuJoCo only writes (the solver's
// per-iteration statistics, 20 x 200 of them, most of the struct's bytes;
// the timers).
inline bool IsDataScratch(std::string_view name) {
  return name == "threadpool" || name == "solver" || name == "timer";
}

}  // namespace detail

// The data's scalars and statistics field by field (the struct has padding
// and pointers, which are not state), its buffer, the used part of its
// arena, and where in the arena each arena array starts (-1: none).
inline void SaveData(const mjData* d, StateWriter& out) {
#define X(type, name) \
  if (!detail::IsDataScratch(#name)) out(d->name);
  MJDATA_SCALAR
#undef X
#define X(type, name, nr, nc) \
  if (!detail::IsDataScratch(#name)) out(d->name);
  MJDATA_VECTOR
#undef X
  out.Bytes(d->buffer, static_cast<std::size_t>(d->nbuffer));
  out(static_cast<uint64_t>(d->parena));
  out.Bytes(d->arena, d->parena);
  const char* const arena = static_cast<const char*>(d->arena);
#define X(type, name, nr, nc)                                             \
  out(d->name == nullptr                                                  \
          ? int64_t{-1}                                                   \
          : static_cast<int64_t>(reinterpret_cast<const char*>(d->name) - \
                                 arena));
#define XNV X
  MJDATA_ARENA_POINTERS
#undef XNV
#undef X
}

// Loads what SaveData saved into a data of the same model: it keeps its own
// buffer, arena, pointers into them, thread pool and diagnostics.
inline void LoadData(mjData* d, StateReader& in) {
  // The fields into a copy first: the sizes are checked before d changes.
  auto saved = std::make_unique<mjData>(*d);
#define X(type, name) \
  if (!detail::IsDataScratch(#name)) in(saved->name);
  MJDATA_SCALAR
#undef X
#define X(type, name, nr, nc) \
  if (!detail::IsDataScratch(#name)) in(saved->name);
  MJDATA_VECTOR
#undef X
  if (saved->nbuffer != d->nbuffer || saved->narena != d->narena ||
      saved->nplugin != d->nplugin) {
    throw StateError("the MuJoCo data does not fit this env's model");
  }
  // The buffer holds the plugin instances' data pointers: this data's own
  // stay (a plugin's own memory is not state; no env here uses plugins).
  std::vector<uintptr_t> plugin_data(d->plugin_data,
                                     d->plugin_data + d->nplugin);
  in.Bytes(d->buffer, static_cast<std::size_t>(d->nbuffer));
  std::copy(plugin_data.begin(), plugin_data.end(), d->plugin_data);
  uint64_t parena = 0;
  in(parena);
  if (parena > static_cast<uint64_t>(d->narena)) {
    throw StateError("the MuJoCo arena does not fit this env's model");
  }
  in.Bytes(d->arena, parena);
  *d = *saved;
  char* const arena = static_cast<char*>(d->arena);
#define X(type, name, nr, nc)                                                 \
  {                                                                           \
    int64_t offset = -1;                                                      \
    in(offset);                                                               \
    if (offset > static_cast<int64_t>(d->narena)) {                           \
      throw StateError("the MuJoCo arena does not fit this env's model");     \
    }                                                                         \
    d->name = offset < 0 ? nullptr : reinterpret_cast<type*>(arena + offset); \
  }
#define XNV X
  MJDATA_ARENA_POINTERS
#undef XNV
#undef X
}

namespace detail {

// The model's arrays that no env changes, left out of its state.
inline bool IsAsset(std::string_view name) {
  for (std::string_view prefix : {"mesh_", "skin_", "hfield_", "tex_", "flex",
                                  "bvh_", "oct_", "name", "paths"}) {
    if (name.substr(0, prefix.size()) == prefix) return true;
  }
  return false;
}

// Calls f(pointer, bytes) for every array of the model's state.
template <typename M, typename F>
void ForEachArray(M* m, F&& f) {
  // The column counts some arrays take from the model (nq, nuser_body...).
  MJMODEL_POINTERS_PREAMBLE(m)
#define X(type, name, nr, nc)                                          \
  if (!IsAsset(#name)) {                                               \
    f(m->name, sizeof(type) * static_cast<std::size_t>(m->nr) * (nc)); \
  }
#define XNV X
  MJMODEL_POINTERS
#undef XNV
#undef X
}

}  // namespace detail

inline void SaveModel(const mjModel* m, StateWriter& out) {
  out(m->opt, m->vis, m->stat);
  uint64_t total = 0;
  detail::ForEachArray(m, [&](const void*, std::size_t n) { total += n; });
  out(total);
  detail::ForEachArray(m,
                       [&](const void* p, std::size_t n) { out.Bytes(p, n); });
}

inline void LoadModel(mjModel* m, StateReader& in) {
  in(m->opt, m->vis, m->stat);
  uint64_t total = 0, mine = 0;
  in(total);
  detail::ForEachArray(m, [&](const void*, std::size_t n) { mine += n; });
  if (total != mine) {
    throw StateError("the MuJoCo model does not fit this env's model");
  }
  detail::ForEachArray(m, [&](void* p, std::size_t n) { in.Bytes(p, n); });
}

}  // namespace envpool_lite::mujoco_state
