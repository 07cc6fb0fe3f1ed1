// Atari 2600 games through ALE (the Arcade Learning Environment), with
// EnvPool's preprocessing done in C++: frame skip (rewards summed), max-pool
// over the last two frames of the skip, grayscale (or RGB) through ALE's
// palette, resize (INTER_AREA, or bilinear), frame stack, no-op and FIRE
// resets, episodic life, reward clipping. Options, defaults and semantics are
// EnvPool's (envpool/atari/atari_env.h); the differences are listed in
// README.md (noop_max=0 means no no-ops; frame_skip=1 does not pool; after a
// game over that comes before the last two frames of a skip the observation
// is the game's last frame).
//
// The ROM is read from rom_path, which envpool_lite.make() fills from the
// installed ale-py package (ale_py.roms); `game` names it. Both are set by
// the registration and make(), not by users.
#pragma once

#include <algorithm>
#include <cctype>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#if defined(__x86_64__) && !defined(ENVPOOL_LITE_NO_SIMD)
#include <immintrin.h>
#endif

#include "ale/ale_interface.hpp"
#include "ale/emucore/MD5.hxx"
#include "ale/games/Roms.hpp"
#include "core/env.h"
#include "refkit/cv2/image.h"
#include "refkit/private_member.h"

namespace envpool_lite {

// Every single-player game that ale-py registers as ALE/<Game>-v5: its ROM
// ids (ale_py.roms.get_all_rom_ids()) less the two-player-only combat, joust,
// maze_craze and warlords.
inline constexpr const char* kAtariGames[] = {
    "adventure",
    "air_raid",
    "alien",
    "amidar",
    "assault",
    "asterix",
    "asteroids",
    "atlantis",
    "atlantis2",
    "backgammon",
    "bank_heist",
    "basic_math",
    "battle_zone",
    "beam_rider",
    "berzerk",
    "blackjack",
    "bowling",
    "boxing",
    "breakout",
    "carnival",
    "casino",
    "centipede",
    "chopper_command",
    "crazy_climber",
    "crossbow",
    "darkchambers",
    "defender",
    "demon_attack",
    "donkey_kong",
    "double_dunk",
    "earthworld",
    "elevator_action",
    "enduro",
    "entombed",
    "et",
    "fishing_derby",
    "flag_capture",
    "freeway",
    "frogger",
    "frostbite",
    "galaxian",
    "gopher",
    "gravitar",
    "hangman",
    "haunted_house",
    "hero",
    "human_cannonball",
    "ice_hockey",
    "jamesbond",
    "journey_escape",
    "kaboom",
    "kangaroo",
    "keystone_kapers",
    "king_kong",
    "klax",
    "koolaid",
    "krull",
    "kung_fu_master",
    "laser_gates",
    "lost_luggage",
    "mario_bros",
    "miniature_golf",
    "montezuma_revenge",
    "mr_do",
    "ms_pacman",
    "name_this_game",
    "othello",
    "pacman",
    "phoenix",
    "pitfall",
    "pitfall2",
    "pong",
    "pooyan",
    "private_eye",
    "qbert",
    "riverraid",
    "road_runner",
    "robotank",
    "seaquest",
    "sir_lancelot",
    "skiing",
    "solaris",
    "space_invaders",
    "space_war",
    "star_gunner",
    "superman",
    "surround",
    "tennis",
    "tetris",
    "tic_tac_toe_3d",
    "time_pilot",
    "trondead",
    "turmoil",
    "tutankham",
    "up_n_down",
    "venture",
    "video_checkers",
    "video_chess",
    "video_cube",
    "video_pinball",
    "wizard_of_wor",
    "word_zapper",
    "yars_revenge",
    "zaxxon",
};

// EnvPool's task id: each snake_case word capitalized, "-v5"
// (montezuma_revenge -> MontezumaRevenge-v5, tic_tac_toe_3d -> TicTacToe3d-v5).
inline std::string AtariTaskId(const std::string& game) {
  std::string id;
  bool start = true;
  for (char c : game) {
    if (c == '_') {
      start = true;
      continue;
    }
    id += start ? static_cast<char>(std::toupper(static_cast<unsigned char>(c)))
                : c;
    start = false;
  }
  return id + "-v5";
}

namespace atari_detail {

// ALE's log goes to stderr; only errors, as EnvPool and ale-py do.
inline std::unique_ptr<ale::ALEInterface> NewAle() {
  static const bool quiet = [] {
    ale::Logger::setMode(ale::Logger::Error);
    return true;
  }();
  (void)quiet;
  return std::make_unique<ale::ALEInterface>();
}

// What MakeSpec and the envs need to know about a ROM, read once per ROM
// file from ALE's table of games (no emulator: loading a ROM into ALE takes
// a good fraction of a second).
struct RomInfo {
  int64_t screen_height = 0;  // 210, or 250 for PAL games (ALE detects it)
  int64_t screen_width = 0;
  int64_t minimal_actions = 0;
  int64_t legal_actions = 0;
  std::vector<int64_t> modes;
  std::vector<int64_t> difficulties;
};

inline const RomInfo& GetRomInfo(const std::string& game,
                                 const std::string& rom_path) {
  static std::mutex mutex;
  static std::map<std::string, RomInfo> cache;
  std::lock_guard<std::mutex> lock(mutex);
  auto it = cache.find(rom_path);
  if (it != cache.end()) return it->second;
  const std::string what = "Atari game '" + game + "': ";
  if (rom_path.empty()) {
    throw std::invalid_argument(
        what +
        "no ROM path (envpool_lite.make() fills rom_path from the "
        "installed ale-py package)");
  }
  std::ifstream file(rom_path, std::ios::binary);
  if (!file) {
    throw std::invalid_argument(what + "ROM file '" + rom_path + "' not found");
  }
  std::vector<uint8_t> rom((std::istreambuf_iterator<char>(file)),
                           std::istreambuf_iterator<char>());
  const std::string md5 =
      ale::stella::MD5(rom.data(), static_cast<uint32_t>(rom.size()));
  // ALE's own lookup (by checksum, else by file name). ALE exits the process
  // on a ROM it cannot find there: this is checked first.
  std::unique_ptr<ale::RomSettings> settings(
      ale::buildRomRLWrapper(rom_path, md5));
  if (!settings) {
    throw std::invalid_argument(what + "'" + rom_path +
                                "' is not a ROM that ALE supports");
  }
  RomInfo info;
  info.minimal_actions =
      static_cast<int64_t>(settings->getMinimalActionSet().size());
  info.legal_actions = static_cast<int64_t>(settings->getAllActions().size());
  for (auto m : settings->getAvailableModes()) info.modes.push_back(m);
  for (auto d : settings->getAvailableDifficulties()) {
    info.difficulties.push_back(d);
  }
  // The screen size is only known once the emulator has run the ROM (ALE
  // detects PAL games, 250 rows, by emulating a few frames): once per ROM.
  {
    auto ale = NewAle();
    ale->loadROM(rom_path);
    info.screen_height = static_cast<int64_t>(ale->getScreen().height());
    info.screen_width = static_cast<int64_t>(ale->getScreen().width());
  }
  return cache.emplace(rom_path, std::move(info)).first->second;
}

// dst[p] = lut[src[p]] for n pixels: the palette lookup of every captured
// frame, the largest cost of the preprocessing. Atari colours are even (the
// TIA drops bit 0), so with AVX2 (chosen at run time) the 128 even entries
// are looked up 32 pixels at a time with byte shuffles (about 3x faster);
// a block holding an odd value, and the tail, take the plain loop.
using PaletteLookupFn = void (*)(const uint8_t* src, uint8_t* dst,
                                 std::size_t n, const uint8_t* lut);

inline void PaletteLookupScalar(const uint8_t* src, uint8_t* dst, std::size_t n,
                                const uint8_t* lut) {
  for (std::size_t p = 0; p < n; ++p) dst[p] = lut[src[p]];
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && \
    !defined(ENVPOOL_LITE_NO_SIMD)
#define ENVPOOL_LITE_ATARI_AVX2 1
__attribute__((target("avx2"))) inline void PaletteLookupAvx2(
    const uint8_t* src, uint8_t* dst, std::size_t n, const uint8_t* lut) {
  // The 128 even entries as 8 tables of 16, stored as differences:
  // diff[k][j] = lut[2 (16 k + j)] ^ lut[2 (16 (k - 1) + j)] (k > 0). For a
  // pixel in table K, x = v / 2 - 16 k is in [0, 127] for k <= K and
  // negative (bit 7 set: the shuffle gives 0) for k > K, so the XOR of the
  // shuffles telescopes to lut[v].
  __m256i diff[8];
  for (int k = 0; k < 8; ++k) {
    alignas(16) uint8_t t[16];
    for (int j = 0; j < 16; ++j) {
      t[j] = lut[2 * (16 * k + j)] ^ (k > 0 ? lut[2 * (16 * (k - 1) + j)] : 0);
    }
    diff[k] = _mm256_broadcastsi128_si256(
        _mm_load_si128(reinterpret_cast<const __m128i*>(t)));
  }
  const __m256i low7 = _mm256_set1_epi8(0x7f);
  const __m256i sixteen = _mm256_set1_epi8(16);
  std::size_t p = 0;
  for (; p + 32 <= n; p += 32) {
    const __m256i v =
        _mm256_loadu_si256(reinterpret_cast<const __m256i*>(src + p));
    if (_mm256_movemask_epi8(_mm256_slli_epi16(v, 7)) != 0) {  // odd values
      PaletteLookupScalar(src + p, dst + p, 32, lut);
      continue;
    }
    __m256i x = _mm256_and_si256(_mm256_srli_epi16(v, 1), low7);
    __m256i out = _mm256_shuffle_epi8(diff[0], x);
    for (int k = 1; k < 8; ++k) {
      x = _mm256_sub_epi8(x, sixteen);
      out = _mm256_xor_si256(out, _mm256_shuffle_epi8(diff[k], x));
    }
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(dst + p), out);
  }
  PaletteLookupScalar(src + p, dst + p, n - p, lut);
}
#endif

inline PaletteLookupFn PaletteLookup() {
#ifdef ENVPOOL_LITE_ATARI_AVX2
  static const PaletteLookupFn fn =
      __builtin_cpu_supports("avx2") ? PaletteLookupAvx2 : PaletteLookupScalar;
  return fn;
#else
  return PaletteLookupScalar;
#endif
}

// ALE keeps the action that a sticky action repeats (and its paddle
// strength) in private members of StellaEnvironment, outside the ALEState
// that cloneState() returns (refkit/private_member.h).
ENVPOOL_LITE_PRIVATE_MEMBER(StickyAction, ale::StellaEnvironment, ale::Action,
                            m_player_a_action)
ENVPOOL_LITE_PRIVATE_MEMBER(StickyStrength, ale::StellaEnvironment, float,
                            m_paddle_a_strength)

inline std::string JoinInts(const std::vector<int64_t>& values) {
  std::string s;
  for (int64_t v : values) s += (s.empty() ? "" : ", ") + std::to_string(v);
  return s;
}

}  // namespace atari_detail

class AtariEnv : public Env {
 public:
  // The 2600's RAM.
  static constexpr int64_t kRamSize = 128;
  // Option limits (see MakeSpec).
  static constexpr int64_t kMaxStackNum = 64;
  static constexpr int64_t kMaxFrameSkip = 1000;
  static constexpr int64_t kMaxNoopMax = 10000;
  static constexpr int64_t kMaxImageSide = 2048;

  static Config DefaultConfig() {
    return {{"max_episode_steps", int64_t{27000}},
            {"stack_num", int64_t{4}},
            {"frame_skip", int64_t{4}},
            {"noop_max", int64_t{30}},
            {"episodic_life", false},
            {"zero_discount_on_life_loss", false},
            {"reward_clip", false},
            {"use_fire_reset", true},
            {"img_height", int64_t{84}},
            {"img_width", int64_t{84}},
            {"gray_scale", true},
            {"repeat_action_probability", 0.0},
            {"full_action_space", false},
            {"use_inter_area_resize", true},
            {"mode", int64_t{-1}},        // -1: the game's default
            {"difficulty", int64_t{-1}},  // -1: the game's default
            // Set by the registration and by make(), not by users:
            {"game", std::string("pong")},
            {"rom_path", std::string()}};
  }

  static EnvSpec MakeSpec(const Config& config) {
    // Upper limits: beyond them a value is a slip (a unit, a typo) that would
    // cost minutes or all the memory before failing; each bounds how long one
    // step or reset (and so close()) can take.
    const int64_t stack_num = config.GetInt("stack_num", 1, kMaxStackNum);
    config.GetInt("frame_skip", 1, kMaxFrameSkip);
    config.GetInt("noop_max", 0, kMaxNoopMax);
    const int64_t height = config.GetInt("img_height", 1, kMaxImageSide);
    const int64_t width = config.GetInt("img_width", 1, kMaxImageSide);
    config.GetInt("max_episode_steps", 1, std::numeric_limits<int32_t>::max());
    config.GetFloat("repeat_action_probability", 0.0, 1.0);
    for (const char* name : {"episodic_life", "zero_discount_on_life_loss",
                             "reward_clip", "use_fire_reset", "gray_scale",
                             "full_action_space", "use_inter_area_resize"}) {
      config.GetBool(name);  // type check
    }
    const std::string& game = config.GetString("game");
    const auto& rom =
        atari_detail::GetRomInfo(game, config.GetString("rom_path"));
    const int64_t mode = config.GetInt("mode");
    if (mode != -1 && std::find(rom.modes.begin(), rom.modes.end(), mode) ==
                          rom.modes.end()) {
      throw std::invalid_argument("mode " + std::to_string(mode) +
                                  " is not a mode of " + game +
                                  " (-1 for the default, or one of " +
                                  atari_detail::JoinInts(rom.modes) + ")");
    }
    const int64_t difficulty = config.GetInt("difficulty");
    if (difficulty != -1 &&
        std::find(rom.difficulties.begin(), rom.difficulties.end(),
                  difficulty) == rom.difficulties.end()) {
      throw std::invalid_argument("difficulty " + std::to_string(difficulty) +
                                  " is not a difficulty of " + game +
                                  " (-1 for the default, or one of " +
                                  atari_detail::JoinInts(rom.difficulties) +
                                  ")");
    }

    const int64_t channels = config.GetBool("gray_scale") ? 1 : 3;
    EnvSpec spec;
    spec.obs = MakeBox<uint8_t>("obs", {stack_num * channels, height, width},
                                {0.0}, {255.0});
    spec.action = MakeDiscrete("action", config.GetBool("full_action_space")
                                             ? rom.legal_actions
                                             : rom.minimal_actions);
    // EnvPool's info: terminated (the game is over) is an int32 0/1 there,
    // and ram the console's 128 bytes (a copy per step, 0.1 us).
    spec.info = {MakeScalar<int32_t>("lives"), MakeScalar<float>("reward"),
                 MakeBox<int32_t>("terminated", {}, {0.0}, {1.0}),
                 MakeBox<uint8_t>("ram", {kRamSize}, {0.0}, {255.0})};
    spec.max_episode_steps = config.GetInt("max_episode_steps");
    // render(): the full-resolution screen in colour, as ale-py's render().
    spec.render_height = rom.screen_height;
    spec.render_width = rom.screen_width;
    return spec;
  }

  AtariEnv(const Config& config, uint64_t seed)
      : stack_num_(static_cast<int>(config.GetInt("stack_num"))),
        frame_skip_(static_cast<int>(config.GetInt("frame_skip"))),
        noop_max_(static_cast<int>(config.GetInt("noop_max"))),
        episodic_life_(config.GetBool("episodic_life")),
        zero_discount_on_life_loss_(
            config.GetBool("zero_discount_on_life_loss")),
        reward_clip_(config.GetBool("reward_clip")),
        gray_scale_(config.GetBool("gray_scale")),
        full_action_space_(config.GetBool("full_action_space")),
        channels_(gray_scale_ ? 1 : 3),
        height_(static_cast<int>(config.GetInt("img_height"))),
        width_(static_cast<int>(config.GetInt("img_width"))),
        mode_(config.GetInt("mode")),
        difficulty_(config.GetInt("difficulty")),
        repeat_action_probability_(
            static_cast<float>(config.GetFloat("repeat_action_probability"))),
        game_(config.GetString("game")),
        rom_path_(config.GetString("rom_path")),
        seed_(seed) {
    atari_detail::GetRomInfo(game_, rom_path_);  // a clear error, not exit()
    ale_ = atari_detail::NewAle();
    LoadRom();
    action_set_ = full_action_space_ ? ale_->getLegalActionSet()
                                     : ale_->getMinimalActionSet();
    // EnvPool's rule: FIRE at reset when the action set has FIRE.
    fire_reset_ = config.GetBool("use_fire_reset") &&
                  std::find(action_set_.begin(), action_set_.end(),
                            ale::PLAYER_A_FIRE) != action_set_.end();

    const auto& screen = ale_->getScreen();
    raw_h_ = static_cast<int>(screen.height());
    raw_w_ = static_cast<int>(screen.width());
    const std::size_t raw_size = static_cast<std::size_t>(raw_h_) * raw_w_;
    for (auto& f : frames_) f.resize(raw_size * channels_);
    resizer_ = std::make_unique<image::Resizer>(
        raw_h_, raw_w_, height_, width_, channels_,
        config.GetBool("use_inter_area_resize")
            ? image::Resizer::Method::kArea
            : image::Resizer::Method::kBilinear);
    frame_bytes_ = static_cast<std::size_t>(channels_) * height_ * width_;
    if (!gray_scale_) resized_hwc_.resize(frame_bytes_);
    stack_.assign(frame_bytes_ * stack_num_, 0);
  }

  void Seed(uint64_t seed) override {
    seed_ = seed;
    reseed_ = true;
  }

  void Reset() override {
    if (reseed_) {
      LoadRom();  // ALE takes its seed when it loads a ROM
      reseed_ = false;
    }
    ale_->reset_game();
    StartEpisode(/*new_game=*/true);
  }

  // Episodic life: the episode ended on a lost life, the game goes on.
  bool CanContinueGame() const override {
    return episodic_life_ && !ale_->game_over();
  }
  void ContinueGame() override { StartEpisode(/*new_game=*/false); }

  StepResult Step(const void* action) override {
    const ale::Action a = action_set_[*static_cast<const int32_t*>(action)];
    float reward = 0.0f;
    bool game_over = false;
    // Frames frame_skip - 2 and frame_skip - 1 go to frames_[0] and
    // frames_[1]; a game over before those ends the skip on frames_[1].
    int captured = 0;
    for (int i = 0; i < frame_skip_; ++i) {
      reward += static_cast<float>(ale_->act(a));
      game_over = ale_->game_over();
      if (i == frame_skip_ - 1 || game_over) {
        Capture(1);
        ++captured;
        break;
      }
      if (i == frame_skip_ - 2) {
        Capture(0);
        ++captured;
      }
    }
    const uint8_t* frame = frames_[1].data();
    if (captured == 2) {  // max-pool the last two frames
      image::MaxPool(frames_[0].data(), frames_[1].data(), frames_[0].data(),
                     frames_[0].size());
      frame = frames_[0].data();
    }
    Push(frame, /*fill=*/false);

    const int lives = ale_->lives();
    StepResult result;
    result.terminated =
        game_over || (episodic_life_ && 0 < lives && lives < lives_);
    // (EnvPool zeroes it on any change of lives, bonus lives included.)
    if (zero_discount_on_life_loss_ && lives < lives_) result.discount = 0.0f;
    last_reward_ = reward;
    game_over_ = game_over;
    lives_ = lives;
    if (reward_clip_) {
      reward = reward > 0.0f ? 1.0f : (reward < 0.0f ? -1.0f : 0.0f);
    }
    result.reward = reward;
    return result;
  }

  void WriteObs(const Row& row) override {
    uint8_t* obs = row.Obs<uint8_t>();
    // Oldest frame first: the slot after head_ is the oldest.
    for (int k = 0; k < stack_num_; ++k) {
      const int slot = (head_ + 1 + k) % stack_num_;
      std::memcpy(obs + k * frame_bytes_, &stack_[slot * frame_bytes_],
                  frame_bytes_);
    }
    *row.Info<int32_t>(0) = lives_;
    *row.Info<float>(1) = last_reward_;
    *row.Info<int32_t>(2) = game_over_ ? 1 : 0;
    std::memcpy(row.Info<uint8_t>(3), ale_->getRAM().array(), kRamSize);
  }

  // get_state: ALE's state, what ALE keeps outside it, then this env's own
  // fields. (A Seed() takes effect at the next Reset(), and the pool always
  // resets right after reseeding: no reseed is ever pending here.)
  void SaveState(StateWriter& out) const override {
    // The console (CPU, RAM, TIA, cartridge, the system's random
    // generator), the game's RomSettings (score, lives, terminal), ALE's
    // frame counters, paddles, mode and difficulty, and with include_rng
    // ALE's own random generator (sticky actions).
    out(ale_->cloneState(/*include_rng=*/true).serialize());
    // The action a sticky action repeats (player B's is always NOOP); with
    // repeat_action_probability 0 every frame takes the new action.
    if (repeat_action_probability_ > 0.0f) {
      const ale::StellaEnvironment& env = *ale_->environment;
      out(env.*MemberOf(atari_detail::StickyAction{}),
          env.*MemberOf(atari_detail::StickyStrength{}));
    }
    // The TIA's two frame buffers: a frame that ends early keeps the rest
    // of the older buffer's pixels. ALE's screen (getScreen(), what
    // Capture() and Render() read) is a copy of the current one.
    const auto& tia = ale_->theOSystem->console().mediaSource();
    out.Bytes(tia.currentFrameBuffer(), RawFrameSize());
    out.Bytes(tia.previousFrameBuffer(), RawFrameSize());
    // No-op starts' generator, the frame stack, and what WriteObs() reports.
    // (frames_ is scratch: every step captures it before reading it.)
    out(rng_, stack_, head_, lives_, last_reward_, game_over_);
  }

  void LoadState(StateReader& in) override {
    std::string ale_state;
    in(ale_state);
    ale_->restoreState(ale::ALEState(ale_state));  // refreshes getRAM() too
    if (repeat_action_probability_ > 0.0f) {
      ale::StellaEnvironment& env = *ale_->environment;
      in(env.*MemberOf(atari_detail::StickyAction{}),
         env.*MemberOf(atari_detail::StickyStrength{}));
    }
    const auto& tia = ale_->theOSystem->console().mediaSource();
    in.Bytes(tia.currentFrameBuffer(), RawFrameSize());
    in.Bytes(tia.previousFrameBuffer(), RawFrameSize());
    std::memcpy(ale_->getScreen().getArray(), tia.currentFrameBuffer(),
                RawFrameSize());
    in(rng_, stack_, head_, lives_, last_reward_, game_over_);
  }

  // ALE's own RGB conversion of the current screen (what ale-py renders).
  void Render(uint8_t* rgb) override {
    ale_->getScreenRGB(render_buffer_);
    std::memcpy(rgb, render_buffer_.data(), render_buffer_.size());
  }

 private:
  void LoadRom() {
    ale_->setInt("random_seed",
                 static_cast<int32_t>(static_cast<uint32_t>(seed_)));
    ale_->setFloat("repeat_action_probability", repeat_action_probability_);
    ale_->loadROM(rom_path_);
    if (mode_ >= 0) ale_->setMode(static_cast<ale::game_mode_t>(mode_));
    if (difficulty_ >= 0) {
      ale_->setDifficulty(static_cast<ale::difficulty_t>(difficulty_));
    }
    rng_.seed(static_cast<std::mt19937::result_type>(seed_));
    // ALE's palette: grayscale is the low byte of the entry after a colour
    // (ColourPalette::applyPaletteGrayscale), RGB the entry itself.
    const auto& palette = ale_->theOSystem->colourPalette();
    for (int i = 0; i < 256; ++i) {
      const uint32_t rgb = palette.getRGB(i);
      gray_lut_[i] = static_cast<uint8_t>(palette.getRGB(std::min(i + 1, 255)));
      rgb_lut_[i][0] = static_cast<uint8_t>(rgb >> 16);
      rgb_lut_[i][1] = static_cast<uint8_t>(rgb >> 8);
      rgb_lut_[i][2] = static_cast<uint8_t>(rgb);
    }
  }

  // EnvPool's reset: no-ops (uniform in [1, noop_max], one fewer with a FIRE
  // reset; none when noop_max is 0), a game over during them restarts the
  // game, then FIRE. A new game fills the whole stack with its first frame.
  void StartEpisode(bool new_game) {
    int noops = 0;
    if (noop_max_ > 0) {
      std::uniform_int_distribution<int> dist(0, noop_max_ - 1);
      noops = dist(rng_) + 1 - static_cast<int>(fire_reset_);
    }
    for (; noops > 0; --noops) {
      ale_->act(ale::PLAYER_A_NOOP);
      if (ale_->game_over()) {
        ale_->reset_game();
        new_game = true;
      }
    }
    if (fire_reset_) ale_->act(ale::PLAYER_A_FIRE);
    Capture(1);
    Push(frames_[1].data(), /*fill=*/new_game);
    lives_ = ale_->lives();
    last_reward_ = 0.0f;
    game_over_ = ale_->game_over();
  }

  // Pixels in one raw frame (a palette index each).
  std::size_t RawFrameSize() const {
    return static_cast<std::size_t>(raw_h_) * raw_w_;
  }

  // The current screen, through the palette, into frames_[i] (HWC).
  void Capture(int i) {
    const uint8_t* src = ale_->getScreen().getArray();
    uint8_t* dst = frames_[i].data();
    const std::size_t n = static_cast<std::size_t>(raw_h_) * raw_w_;
    if (gray_scale_) {
      palette_lookup_(src, dst, n, gray_lut_);
    } else {
      for (std::size_t p = 0; p < n; ++p) {
        std::memcpy(dst + 3 * p, rgb_lut_[src[p]], 3);
      }
    }
  }

  // Resize a raw frame into the next stack slot (CHW); `fill` copies it into
  // every slot.
  void Push(const uint8_t* frame, bool fill) {
    head_ = (head_ + 1) % stack_num_;
    uint8_t* slot = &stack_[head_ * frame_bytes_];
    if (gray_scale_) {
      resizer_->Run(frame, slot);
    } else {
      resizer_->Run(frame, resized_hwc_.data());
      image::HwcToChw(resized_hwc_.data(), slot, height_, width_, 3);
    }
    if (fill) {
      for (int k = 0; k < stack_num_; ++k) {
        if (k != head_)
          std::memcpy(&stack_[k * frame_bytes_], slot, frame_bytes_);
      }
    }
  }

  const int stack_num_;
  const int frame_skip_;
  const int noop_max_;
  const bool episodic_life_;
  const bool zero_discount_on_life_loss_;
  const bool reward_clip_;
  const bool gray_scale_;
  const bool full_action_space_;
  const int channels_;
  const int height_;
  const int width_;
  const int64_t mode_;
  const int64_t difficulty_;
  const float repeat_action_probability_;
  const std::string game_;
  const std::string rom_path_;
  uint64_t seed_;
  bool reseed_ = false;
  bool fire_reset_ = false;

  std::unique_ptr<ale::ALEInterface> ale_;
  ale::ActionVect action_set_;
  const atari_detail::PaletteLookupFn palette_lookup_ =
      atari_detail::PaletteLookup();
  std::mt19937 rng_;
  uint8_t gray_lut_[256];
  uint8_t rgb_lut_[256][3];
  int raw_h_ = 0;
  int raw_w_ = 0;
  std::vector<uint8_t> frames_[2];  // raw frames through the palette, HWC
  std::unique_ptr<image::Resizer> resizer_;
  std::vector<uint8_t> resized_hwc_;  // RGB only
  std::size_t frame_bytes_ = 0;       // one stacked frame, CHW
  std::vector<uint8_t> stack_;        // stack_num frames, a ring
  int head_ = 0;                      // the newest frame's slot

  std::vector<unsigned char> render_buffer_;  // render() only

  int lives_ = 0;
  float last_reward_ = 0.0f;  // before clipping, for info["reward"]
  bool game_over_ = false;
};

}  // namespace envpool_lite
