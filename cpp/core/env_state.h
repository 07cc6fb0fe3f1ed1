// Saving and restoring an env's state (get_state / set_state): StateWriter
// appends an env's fields to a byte string, StateReader reads them back in
// the same order. An env lists its fields once, with ENVPOOL_LITE_STATE:
//
//   ENVPOOL_LITE_STATE(rng_, state_, steps_beyond_terminated_)
//
// which defines Env::SaveState and Env::LoadState from that one list, so the
// two cannot disagree. What a field may be:
//  - anything trivially copyable but a pointer (numbers, enums, bools, plain
//    structs and arrays of them): its bytes, padding included (a struct
//    with padding lists its fields with ENVPOOL_LITE_STATE_FIELDS instead,
//    as the refkit random generators do, so that equal states are equal
//    bytes);
//  - std::string, std::vector, std::deque, std::array, std::pair,
//    std::optional, std::map, std::unique_ptr (a flag, then the pointee) of
//    fields;
//  - a type with a member `template <class A> void StateFields(A& a)` that
//    calls a(its fields...) (a struct holding vectors, say);
//  - a type with its own `void SaveState(StateWriter&) const` and
//    `void LoadState(StateReader&)` (an upstream simulator's state).
// A state moves only between pools of the same build, task and options (the
// pool checks that: core/env_pool.h), so the format is the build's memory
// layout, not a portable one.
#pragma once

#include <array>
#include <cstdint>
#include <cstring>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace envpool_lite {

// A state that does not fit the env it is loaded into (cannot happen for a
// state the pool verified; a bug otherwise).
class StateError : public std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

// An env that cannot save its state: the pool turns it into Python's
// NotImplementedError, naming the task's family and this reason.
class StateUnsupported : public std::logic_error {
  using std::logic_error::logic_error;
};

class StateWriter;
class StateReader;

namespace state_detail {

template <typename T, typename = void>
struct HasStateFields : std::false_type {};
template <typename T>
struct HasStateFields<T, std::void_t<decltype(std::declval<T&>().StateFields(
                             std::declval<StateWriter&>()))>> : std::true_type {
};

template <typename T, typename = void>
struct HasSaveState : std::false_type {};
template <typename T>
struct HasSaveState<T, std::void_t<decltype(std::declval<const T&>().SaveState(
                           std::declval<StateWriter&>()))>> : std::true_type {};

template <typename T>
struct IsVectorLike : std::false_type {};
template <typename T, typename A>
struct IsVectorLike<std::vector<T, A>> : std::true_type {};
template <typename T, typename A>
struct IsVectorLike<std::deque<T, A>> : std::true_type {};

template <typename T>
inline constexpr bool kRaw =
    std::is_trivially_copyable_v<T> && !std::is_pointer_v<T> &&
    !HasStateFields<T>::value && !HasSaveState<T>::value;

}  // namespace state_detail

class StateWriter {
 public:
  template <typename... T>
  void operator()(const T&... values) {
    (Put(values), ...);
  }

  void Bytes(const void* data, std::size_t n) {
    out_.append(static_cast<const char*>(data), n);
  }
  std::string& Out() { return out_; }

 private:
  template <typename T>
  void Put(const T& v) {
    using state_detail::HasSaveState;
    using state_detail::HasStateFields;
    using state_detail::IsVectorLike;
    static_assert(!std::is_pointer_v<T>,
                  "a pointer is not state: save what it points at");
    if constexpr (HasSaveState<T>::value) {
      v.SaveState(*this);
    } else if constexpr (HasStateFields<T>::value) {
      const_cast<T&>(v).StateFields(*this);
    } else if constexpr (state_detail::kRaw<T>) {
      Bytes(&v, sizeof(T));
    } else if constexpr (std::is_same_v<T, std::string>) {
      Size(v.size());
      Bytes(v.data(), v.size());
    } else if constexpr (std::is_same_v<T, std::vector<bool>>) {
      Size(v.size());
      for (bool b : v) Put(static_cast<uint8_t>(b));
    } else if constexpr (IsVectorLike<T>::value) {
      Size(v.size());
      using E = typename T::value_type;
      if constexpr (state_detail::kRaw<E> &&
                    std::is_same_v<T, std::vector<E>>) {
        Bytes(v.data(), v.size() * sizeof(E));
      } else {
        for (const E& e : v) Put(e);
      }
    } else if constexpr (std::is_array_v<T>) {
      for (const auto& e : v) Put(e);
    } else {
      PutOther(v);
    }
  }
  template <typename E, std::size_t N>
  void PutOther(const std::array<E, N>& v) {
    for (const E& e : v) Put(e);
  }
  template <typename A, typename B>
  void PutOther(const std::pair<A, B>& v) {
    Put(v.first);
    Put(v.second);
  }
  template <typename E>
  void PutOther(const std::optional<E>& v) {
    Put(static_cast<uint8_t>(v.has_value()));
    if (v) Put(*v);
  }
  template <typename E, typename D>
  void PutOther(const std::unique_ptr<E, D>& v) {
    Put(static_cast<uint8_t>(v != nullptr));
    if (v) Put(*v);
  }
  template <typename K, typename V, typename C, typename A>
  void PutOther(const std::map<K, V, C, A>& v) {
    Size(v.size());
    for (const auto& [k, e] : v) {
      Put(k);
      Put(e);
    }
  }
  void Size(std::size_t n) { Put(static_cast<uint64_t>(n)); }

  std::string out_;
};

class StateReader {
 public:
  StateReader(const char* data, std::size_t size) : data_(data), size_(size) {}

  template <typename... T>
  void operator()(T&... values) {
    (Get(values), ...);
  }

  void Bytes(void* to, std::size_t n) {
    if (n > size_ - pos_) {
      throw StateError("the state ends early (it does not fit this env)");
    }
    std::memcpy(to, data_ + pos_, n);
    pos_ += n;
  }
  // The next n bytes, read in place.
  const char* Take(std::size_t n) {
    if (n > size_ - pos_) {
      throw StateError("the state ends early (it does not fit this env)");
    }
    const char* p = data_ + pos_;
    pos_ += n;
    return p;
  }
  std::size_t Left() const { return size_ - pos_; }

 private:
  template <typename T>
  void Get(T& v) {
    using state_detail::HasSaveState;
    using state_detail::HasStateFields;
    using state_detail::IsVectorLike;
    static_assert(!std::is_pointer_v<T>,
                  "a pointer is not state: load what it points at");
    if constexpr (HasSaveState<T>::value) {
      v.LoadState(*this);
    } else if constexpr (HasStateFields<T>::value) {
      v.StateFields(*this);
    } else if constexpr (state_detail::kRaw<T>) {
      Bytes(&v, sizeof(T));
    } else if constexpr (std::is_same_v<T, std::string>) {
      const std::size_t n = Size(1);
      v.assign(Take(n), n);
    } else if constexpr (std::is_same_v<T, std::vector<bool>>) {
      v.resize(Size(1));
      for (std::size_t i = 0; i < v.size(); ++i) {
        uint8_t b = 0;
        Get(b);
        v[i] = b != 0;
      }
    } else if constexpr (IsVectorLike<T>::value) {
      using E = typename T::value_type;
      if constexpr (state_detail::kRaw<E> &&
                    std::is_same_v<T, std::vector<E>>) {
        v.resize(Size(sizeof(E)));
        Bytes(v.data(), v.size() * sizeof(E));
      } else {
        v.clear();
        v.resize(Size(1));
        for (E& e : v) Get(e);
      }
    } else if constexpr (std::is_array_v<T>) {
      for (auto& e : v) Get(e);
    } else {
      GetOther(v);
    }
  }
  template <typename E, std::size_t N>
  void GetOther(std::array<E, N>& v) {
    for (E& e : v) Get(e);
  }
  template <typename A, typename B>
  void GetOther(std::pair<A, B>& v) {
    Get(v.first);
    Get(v.second);
  }
  template <typename E>
  void GetOther(std::optional<E>& v) {
    if (Flag()) {
      if (!v) v.emplace();
      Get(*v);
    } else {
      v.reset();
    }
  }
  template <typename E, typename D>
  void GetOther(std::unique_ptr<E, D>& v) {
    if (Flag()) {
      if (!v) v = std::make_unique<E>();
      Get(*v);
    } else {
      v.reset();
    }
  }
  template <typename K, typename V, typename C, typename A>
  void GetOther(std::map<K, V, C, A>& v) {
    v.clear();
    const std::size_t n = Size(1);
    for (std::size_t i = 0; i < n; ++i) {
      K k{};
      Get(k);
      Get(v[k]);
    }
  }
  bool Flag() {
    uint8_t b = 0;
    Get(b);
    return b != 0;
  }
  // A count of elements of at least min_bytes each: one the rest of the
  // state cannot hold is refused before anything is allocated.
  std::size_t Size(std::size_t min_bytes) {
    uint64_t n = 0;
    Get(n);
    if (n > Left() / min_bytes) {
      throw StateError("the state ends early (it does not fit this env)");
    }
    return static_cast<std::size_t>(n);
  }

  const char* data_;
  std::size_t size_;
  std::size_t pos_ = 0;
};

}  // namespace envpool_lite

// In an Env subclass: SaveState and LoadState from one list of its fields.
#define ENVPOOL_LITE_STATE(...)                                     \
  void SaveState(::envpool_lite::StateWriter& out) const override { \
    out(__VA_ARGS__);                                               \
  }                                                                 \
  void LoadState(::envpool_lite::StateReader& in) override { in(__VA_ARGS__); }

// The same in a subclass of an env that saves its own fields first.
#define ENVPOOL_LITE_STATE_AFTER(Base, ...)                         \
  void SaveState(::envpool_lite::StateWriter& out) const override { \
    Base::SaveState(out);                                           \
    out(__VA_ARGS__);                                               \
  }                                                                 \
  void LoadState(::envpool_lite::StateReader& in) override {        \
    Base::LoadState(in);                                            \
    in(__VA_ARGS__);                                                \
  }

// In a plain struct: its fields, for StateWriter and StateReader.
#define ENVPOOL_LITE_STATE_FIELDS(...)       \
  template <class StateArchive>              \
  void StateFields(StateArchive& archive_) { \
    archive_(__VA_ARGS__);                   \
  }
