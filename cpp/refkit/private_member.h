// Reaching an upstream library's private member, for the state an env must
// save that the library keeps out of its own API: ALE's sticky action and
// its paddle strength (StellaEnvironment), Box2D's broad-phase free list
// (b2DynamicTree, b2World). An explicit template instantiation may name a
// private member (C++17 [temp.explicit]/14), so
//
//   ENVPOOL_LITE_PRIVATE_MEMBER(StickyAction, ale::StellaEnvironment,
//                               ale::Action, m_player_a_action)
//
// defines a tag StickyAction and MemberOf(StickyAction{}), the pointer to
// that member (`env.*MemberOf(StickyAction{})` reads and writes it). Use it
// at namespace scope, in one translation unit per tag (an explicit
// instantiation is defined once in a program).
#pragma once

#define ENVPOOL_LITE_PRIVATE_MEMBER(Name, Class, MemberType, member) \
  struct Name {                                                      \
    using Type = MemberType Class::*;                                \
    friend Type MemberOf(Name);                                      \
  };                                                                 \
  template <typename Tag, typename Tag::Type kMember>                \
  struct Name##Access {                                              \
    friend typename Tag::Type MemberOf(Tag) { return kMember; }      \
  };                                                                 \
  template struct Name##Access<Name, &Class::member>;
