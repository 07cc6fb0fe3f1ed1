// The envelope of one env's saved state, what get_state() hands out: an
// opaque byte string that says which build, task and options made it, and
// ends with a digest of everything before it, so that set_state() refuses a
// state of another task, other options or another version, and truncated
// or corrupted bytes, before it changes any env.
//
//   "EPLSTATE"  u32 format  str version  str task_id  u64 options
//   u64 length  payload (length bytes)  u64 digest
//
// (str: u16 length, then the bytes; numbers in the machine's byte order: a
// state moves between machines of the same build.)
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "config.h"

#ifndef ENVPOOL_LITE_VERSION
#define ENVPOOL_LITE_VERSION "unknown"
#endif

namespace envpool_lite {

// What a state must match to be loaded: the build, the task, its options.
struct StateStamp {
  std::string task_id;
  uint64_t options = 0;  // OptionsFingerprint
};

namespace state_blob {

inline constexpr char kMagic[8] = {'E', 'P', 'L', 'S', 'T', 'A', 'T', 'E'};
// Raised whenever the envelope or the pool's part of a state changes.
inline constexpr uint32_t kFormat = 1;

// A 64-bit digest: one bijective mixing step per 8-byte word, so a change
// confined to one word always changes the result; fast enough to cost
// little beside a copy of the bytes.
inline uint64_t Digest(const char* data, std::size_t n) {
  constexpr uint64_t kMul = 0x9E3779B97F4A7C15ull;
  constexpr uint64_t kPrime = 0x100000001B3ull * 0xFF51AFD7ED558CCDull | 1;
  uint64_t h = 0xCBF29CE484222325ull ^ (n * kMul);
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t w;
    std::memcpy(&w, data + i, 8);
    h = (h ^ (w * kMul)) * kPrime;
  }
  uint64_t tail = 0;
  std::memcpy(&tail, data + i, n - i);
  h = (h ^ (tail * kMul)) * kPrime;
  h ^= h >> 33;
  h *= 0xC4CEB9FE1A85EC53ull;
  h ^= h >> 29;
  return h;
}

class Hasher {
 public:
  void Add(const void* data, std::size_t n) {
    bytes_.append(static_cast<const char*>(data), n);
  }
  template <typename T>
  void Add(const T& v) {
    Add(&v, sizeof(T));
  }
  void Add(const std::string& s) {
    Add(static_cast<uint64_t>(s.size()));
    Add(s.data(), s.size());
  }
  uint64_t Value() const { return Digest(bytes_.data(), bytes_.size()); }

 private:
  std::string bytes_;
};

}  // namespace state_blob

// The options a state depends on: every env option (by name, type and
// value) and the pool's choices that change what an env does (same-step
// auto-reset, rendering); not num_envs, batch_size or threads, so a state
// moves between pools of any size.
inline uint64_t OptionsFingerprint(const Config& config, bool same_step,
                                   bool render) {
  state_blob::Hasher h;
  for (const auto& [name, value] : config.Values()) {
    h.Add(name);
    h.Add(static_cast<uint64_t>(value.index()));
    std::visit(
        [&h](const auto& v) {
          using T = std::decay_t<decltype(v)>;
          if constexpr (std::is_same_v<T, std::string>) {
            h.Add(v);
          } else if constexpr (std::is_same_v<T, NumberList>) {
            h.Add(static_cast<uint64_t>(v.size()));
            for (double d : v) h.Add(d);
          } else if constexpr (std::is_same_v<T, StringList>) {
            h.Add(static_cast<uint64_t>(v.size()));
            for (const std::string& s : v) h.Add(s);
          } else if constexpr (std::is_same_v<T, NamedNumbers>) {
            h.Add(static_cast<uint64_t>(v.size()));
            for (const auto& [k, ds] : v) {
              h.Add(k);
              h.Add(static_cast<uint64_t>(ds.size()));
              for (double d : ds) h.Add(d);
            }
          } else if constexpr (std::is_same_v<T, IntKeyedNumbers>) {
            h.Add(static_cast<uint64_t>(v.size()));
            for (const auto& [k, d] : v) {
              h.Add(k);
              h.Add(d);
            }
          } else {
            h.Add(v);
          }
        },
        value);
  }
  h.Add(static_cast<uint8_t>(same_step));
  h.Add(static_cast<uint8_t>(render));
  return h.Value();
}

namespace state_blob {

inline void PutString(std::string& out, std::string_view s) {
  const uint16_t n =
      static_cast<uint16_t>(std::min<std::size_t>(s.size(), 65535));
  out.append(reinterpret_cast<const char*>(&n), 2);
  out.append(s.data(), n);
}

template <typename T>
inline void PutNumber(std::string& out, T v) {
  out.append(reinterpret_cast<const char*>(&v), sizeof(T));
}

// The envelope around a payload.
inline std::string Seal(const StateStamp& stamp, const std::string& payload) {
  std::string out;
  out.reserve(payload.size() + 96);
  out.append(kMagic, sizeof(kMagic));
  PutNumber(out, kFormat);
  PutString(out, ENVPOOL_LITE_VERSION);
  PutString(out, stamp.task_id);
  PutNumber(out, stamp.options);
  PutNumber(out, static_cast<uint64_t>(payload.size()));
  out += payload;
  PutNumber(out, Digest(out.data(), out.size()));
  return out;
}

// Reads the envelope front to back; each refusal says why.
class Opener {
 public:
  Opener(const char* data, std::size_t size) : data_(data), size_(size) {}

  // The payload of a state that `stamp`'s pool may load; throws
  // std::invalid_argument otherwise (`what` names the state: "state 3").
  std::string_view Open(const StateStamp& stamp, const std::string& what) {
    what_ = what;
    if (size_ < sizeof(kMagic) ||
        std::memcmp(data_, kMagic, sizeof(kMagic)) != 0) {
      Fail("is not an envpool_lite env state (bytes from get_state())");
    }
    pos_ = sizeof(kMagic);
    // The magic, format and version keep their places in every format.
    const uint32_t format = Number<uint32_t>();
    const std::string version(String());
    auto other_version = [&] {
      Fail("was made by envpool_lite " + version + " (state format " +
           std::to_string(format) + "); this is envpool_lite " +
           ENVPOOL_LITE_VERSION + " (state format " + std::to_string(kFormat) +
           "): states move only between the same version");
    };
    if (format != kFormat) other_version();
    const std::string task_id(String());
    const uint64_t options = Number<uint64_t>();
    const uint64_t length = Number<uint64_t>();
    if (length > size_ - pos_ || size_ - pos_ - length < sizeof(uint64_t)) {
      Fail("is truncated (" + std::to_string(size_) +
           " bytes, shorter than it says)");
    }
    if (size_ - pos_ - length != sizeof(uint64_t)) {
      Fail("has " + std::to_string(size_ - pos_ - length - sizeof(uint64_t)) +
           " bytes too many after its end");
    }
    const char* payload = data_ + pos_;
    pos_ += length;
    const uint64_t digest = Number<uint64_t>();
    if (digest != Digest(data_, size_ - sizeof(uint64_t))) {
      Fail("is corrupted (its digest does not match its bytes)");
    }
    if (version != ENVPOOL_LITE_VERSION) other_version();
    if (task_id != stamp.task_id) {
      Fail("is of task '" + task_id + "'; this pool runs '" + stamp.task_id +
           "'");
    }
    if (options != stamp.options) {
      Fail("was made with other options of '" + task_id +
           "' (env options, same-step auto-reset or rendering) than this "
           "pool's");
    }
    return {payload, length};
  }

 private:
  [[noreturn]] void Fail(const std::string& why) const {
    throw std::invalid_argument(what_ + " " + why);
  }
  void Need(std::size_t n) const {
    if (n > size_ - pos_) {
      Fail("is truncated (" + std::to_string(size_) +
           " bytes, its header cut short)");
    }
  }
  template <typename T>
  T Number() {
    Need(sizeof(T));
    T v;
    std::memcpy(&v, data_ + pos_, sizeof(T));
    pos_ += sizeof(T);
    return v;
  }
  std::string_view String() {
    const uint16_t n = Number<uint16_t>();
    Need(n);
    std::string_view s(data_ + pos_, n);
    pos_ += n;
    return s;
  }

  const char* data_;
  std::size_t size_;
  std::size_t pos_ = 0;
  std::string what_;
};

// The payloads of states that stamp's pool may load, one per env id (for
// the messages); throws std::invalid_argument naming the first it may not.
inline std::vector<std::string_view> OpenStates(
    const StateStamp& stamp, const int32_t* env_ids, int n,
    const std::vector<std::string_view>& states) {
  if (static_cast<int>(states.size()) != n) {
    throw std::invalid_argument("set_state() needs one state per env id: got " +
                                std::to_string(n) + " env ids and " +
                                std::to_string(states.size()) + " states");
  }
  std::vector<std::string_view> payloads(n);
  for (int i = 0; i < n; ++i) {
    Opener opener(states[i].data(), states[i].size());
    payloads[i] =
        opener.Open(stamp, "state " + std::to_string(i) + " (for env " +
                               std::to_string(env_ids[i]) + ")");
  }
  return payloads;
}

}  // namespace state_blob
}  // namespace envpool_lite
