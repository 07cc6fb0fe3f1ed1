// MuJoCo's part of an env's saved state (get_state / set_state):
//  - the mjData whole, as mj_copyData copies it: its scalars, its buffer
//    (positions, velocities, warm start, controls, and every quantity the
//    last step computed, which observations read), and the used part of its
//    arena (contacts and constraints); the loaded mjData keeps its own
//    pointers, the arena's rebased;
//  - the mjModel's options and numeric arrays, which envs change between
//    episodes (dm_control's target positions and colours, Meta-World's goal
//    sites); not its meshes, textures, flexes and names, which no env
//    changes (they are most of a model's bytes).
// Both need the mjModel the state was saved with to have the same sizes:
// states move only between pools of the same task and options.
#pragma once

#include <mujoco/mjxmacro.h>
#include <mujoco/mujoco.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "core/env_state.h"

namespace envpool_lite::mujoco_state {

inline void SaveData(const mjData* d, StateWriter& out) {
  out.Bytes(d, sizeof(mjData));
  out.Bytes(d->buffer, static_cast<std::size_t>(d->nbuffer));
  out(static_cast<uint64_t>(d->parena));
  out.Bytes(d->arena, d->parena);
}

inline void LoadData(mjData* d, StateReader& in) {
  mjData saved;
  in.Bytes(&saved, sizeof(mjData));
  if (saved.nbuffer != d->nbuffer || saved.narena != d->narena) {
    throw StateError("the MuJoCo data does not fit this env's model");
  }
  in.Bytes(d->buffer, static_cast<std::size_t>(d->nbuffer));
  uint64_t parena = 0;
  in(parena);
  if (parena > static_cast<uint64_t>(d->narena)) {
    throw StateError("the MuJoCo arena does not fit this env's model");
  }
  in.Bytes(d->arena, parena);
  const mjData keep = *d;
  *d = saved;
  d->buffer = keep.buffer;
  d->arena = keep.arena;
  d->threadpool = keep.threadpool;
#define X(type, name, nr, nc) d->name = keep.name;
#define XNV X
  MJDATA_POINTERS
#undef XNV
#undef X
  const char* const saved_arena = static_cast<const char*>(saved.arena);
  char* const arena = static_cast<char*>(keep.arena);
#define X(type, name, nr, nc)                                  \
  d->name = saved.name == nullptr                              \
                ? nullptr                                      \
                : reinterpret_cast<type*>(                     \
                      arena + (reinterpret_cast<const char*>(  \
                                   saved.name) -               \
                               saved_arena));
#define XNV X
  MJDATA_ARENA_POINTERS
#undef XNV
#undef X
}

namespace detail {

// The model's arrays that no env changes, left out of its state.
inline bool IsAsset(std::string_view name) {
  for (std::string_view prefix :
       {"mesh_", "skin_", "hfield_", "tex_", "flex", "bvh_", "oct_", "name",
        "paths"}) {
    if (name.substr(0, prefix.size()) == prefix) return true;
  }
  return false;
}

// Calls f(pointer, bytes) for every array of the model's state.
template <typename M, typename F>
void ForEachArray(M* m, F&& f) {
#define X(type, name, nr, nc)                                        \
  if (!IsAsset(#name)) {                                             \
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
  detail::ForEachArray(m, [&](const void* p, std::size_t n) {
    out.Bytes(p, n);
  });
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
