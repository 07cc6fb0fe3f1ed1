// get_state / set_state for the Box2D envs: a b2World cannot be saved
// directly (its bodies, contacts with their warm-start impulses and
// broad-phase proxies hold pointers and ids throughout), so an env saves
// what replaying its episode takes instead:
//  - EpisodeLog: the random generator's state when the episode began and
//    the actions since (LoadState resets with that generator and steps the
//    same actions again: the cost grows with the episode's length);
//  - WorldHistory: what an emptied b2World keeps from its past, for the
//    envs that keep one world for their whole life (BipedalWalker,
//    CarRacing, as gymnasium's): its broad-phase tree's node pool.
//
// Why the node pool: destroying a body frees its proxy's tree node and the
// parent node above it, so after a reset's _destroy() the tree's free list
// is an order of the node ids that depends on every episode before. The
// next bodies' proxies take their ids from that list, contacts are made in
// the order of their proxy ids (b2BroadPhase::UpdatePairs sorts its pairs),
// and the solver follows the contacts' order: two worlds with different
// pasts step the same bodies to different float32 results. The rest of an
// emptied world does not carry over (no body, joint, contact or buffered
// proxy move is left; b2World::m_inv_dt0, the warm-start ratio, only ever
// scales impulses that are still 0 in a new episode's first step; it is
// saved anyway, it costs 4 bytes). The allocators only hand out memory.
#pragma once

#include <Box2D/Box2D.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "core/env_state.h"
#include "refkit/numpy/random.h"

namespace envpool_lite::box2d_replay {

// An episode as a replay needs it: the generator before the reset's first
// draw, and each action since, as the raw bytes Step() was given.
struct EpisodeLog {
  NumpyRandom start_rng{0};
  std::string actions;  // action_bytes per step, in order

  void Begin(const NumpyRandom& rng) {
    start_rng = rng;
    actions.clear();
  }
  void Add(const void* action, std::size_t action_bytes) {
    actions.append(static_cast<const char*>(action), action_bytes);
  }
  std::size_t Steps(std::size_t action_bytes) const {
    return actions.size() / action_bytes;
  }
  const void* Action(std::size_t i, std::size_t action_bytes) const {
    return actions.data() + i * action_bytes;
  }
  ENVPOOL_LITE_STATE_FIELDS(start_rng, actions)
};

// What an emptied b2World (no body left) keeps from its past: its
// broad-phase tree's node pool (capacity, and the free list's order, which
// is the order the next proxies get their ids in), and m_inv_dt0.
struct WorldHistory {
  int32_t capacity = 0;
  std::vector<int32_t> free_list;  // every node id, the first to be taken first
  float inv_dt0 = 0.0f;

  // Reads `world`, which should have no body left (else the list misses
  // the nodes in use, and Restore refuses it).
  static WorldHistory Take(const b2World& world);
  // Puts it into `world`, which must have no body left.
  void Restore(b2World& world) const;

  ENVPOOL_LITE_STATE_FIELDS(capacity, free_list, inv_dt0)
};

}  // namespace envpool_lite::box2d_replay

// The definitions, in one translation unit (registration.cc): they reach
// Box2D's private members through explicit template instantiations, which
// C++ lets name them, and which a program may define only once.
#ifdef ENVPOOL_LITE_BOX2D_REPLAY_DEFINITIONS

#include "core/env_state.h"
#include "refkit/private_member.h"

namespace envpool_lite::box2d_replay {
namespace access {

// Box2D's private members (refkit/private_member.h).
ENVPOOL_LITE_PRIVATE_MEMBER(InvDt0, b2World, float32, m_inv_dt0)
ENVPOOL_LITE_PRIVATE_MEMBER(Tree, b2BroadPhase, b2DynamicTree, m_tree)
ENVPOOL_LITE_PRIVATE_MEMBER(Root, b2DynamicTree, int32, m_root)
ENVPOOL_LITE_PRIVATE_MEMBER(Nodes, b2DynamicTree, b2TreeNode*, m_nodes)
ENVPOOL_LITE_PRIVATE_MEMBER(NodeCount, b2DynamicTree, int32, m_nodeCount)
ENVPOOL_LITE_PRIVATE_MEMBER(NodeCapacity, b2DynamicTree, int32, m_nodeCapacity)
ENVPOOL_LITE_PRIVATE_MEMBER(FreeList, b2DynamicTree, int32, m_freeList)

inline b2DynamicTree& TreeOf(const b2World& world) {
  // GetContactManager() is const only to keep users from editing it.
  auto& manager = const_cast<b2ContactManager&>(world.GetContactManager());
  return manager.m_broadPhase.*MemberOf(Tree{});
}

inline void CheckEmpty(const b2World& world) {
  const b2DynamicTree& tree = TreeOf(world);
  if (world.GetBodyCount() != 0 || tree.*MemberOf(NodeCount{}) != 0 ||
      tree.*MemberOf(Root{}) != b2_nullNode) {
    throw StateError("box2d: the world still has bodies");
  }
}

}  // namespace access

WorldHistory WorldHistory::Take(const b2World& world) {
  using namespace access;
  const b2DynamicTree& tree = TreeOf(world);
  const b2TreeNode* nodes = tree.*MemberOf(Nodes{});
  WorldHistory h;
  h.capacity = tree.*MemberOf(NodeCapacity{});
  h.free_list.reserve(h.capacity);
  for (int32 id = tree.*MemberOf(FreeList{}); id != b2_nullNode;
       id = nodes[id].next) {
    h.free_list.push_back(id);
  }
  h.inv_dt0 = world.*MemberOf(InvDt0{});
  return h;
}

void WorldHistory::Restore(b2World& world) const {
  using namespace access;
  CheckEmpty(world);
  // An empty tree's nodes are all free: one list of `capacity` ids.
  if (capacity <= 0 || free_list.size() != static_cast<std::size_t>(capacity)) {
    throw StateError("box2d: a malformed world history");
  }
  std::vector<char> seen(capacity, 0);
  for (int32_t id : free_list) {
    if (id < 0 || id >= capacity || seen[id]) {
      throw StateError("box2d: a malformed world history");
    }
    seen[id] = 1;
  }
  b2DynamicTree& tree = TreeOf(world);
  b2TreeNode*& nodes = tree.*MemberOf(Nodes{});
  // As b2DynamicTree's constructor builds its pool, in the saved order.
  b2Free(nodes);
  nodes = static_cast<b2TreeNode*>(b2Alloc(capacity * sizeof(b2TreeNode)));
  std::memset(nodes, 0, capacity * sizeof(b2TreeNode));
  for (int32_t k = 0; k < capacity; ++k) {
    b2TreeNode& node = nodes[free_list[k]];
    node.next = k + 1 < capacity ? free_list[k + 1] : b2_nullNode;
    node.height = -1;
  }
  tree.*MemberOf(NodeCapacity{}) = capacity;
  tree.*MemberOf(FreeList{}) = free_list[0];
  world.*MemberOf(InvDt0{}) = inv_dt0;
}

}  // namespace envpool_lite::box2d_replay

#endif  // ENVPOOL_LITE_BOX2D_REPLAY_DEFINITIONS
