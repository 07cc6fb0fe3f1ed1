// CarRacing (continuous and discrete), bit-exact with gymnasium 1.4.0's
// gymnasium/envs/box2d/car_racing.py (CarRacing-v3) on the box2d==2.3.10
// wheel, including its 96x96 pixel observation: the same Box2D 2.3 C++
// (third_party/box2d.cmake) driven in the same order with the float32 values
// pybox2d passes it, gymnasium's float64 arithmetic around it, and the
// picture drawn here, in the worker thread, with pygame-ce's arithmetic
// (refkit/pygame/draw.h, refkit/pygame/math.h). The car is
// car_dynamics.h.
//
// The Box2D world lives as long as the env, as gymnasium's (created in
// __init__): a reset destroys the previous track and car in gymnasium's
// order before building new ones, so that Box2D's internal allocation (its
// broad-phase proxies, hence the order of its contacts) evolves identically.
//
// Randomness: gymnasium's np_random (NumpyRandom), drawn in gymnasium's
// order at reset: with domain_randomize, the colors (_reinit_colors: road
// and background, three uniform(0, 210) each, then integers(3)); then, per
// attempt of _create_track (repeated until one succeeds), the 12
// checkpoints' noise and radius.
//
// The reward counter text: gymnasium draws f"{self.reward:04.0f}" with
// pygame.font (SDL_ttf, FreeType and HarfBuzz) into every frame. The glyph
// bitmaps and pen advances are captured from pygame-ce at make() by
// envpool_lite/families/box2d.py into the internal option reward_font; the
// line is laid out here as SDL_ttf's TTF_Size_Internal / Render_Line do it
// (pens in 1/64 pixels, each glyph at FT_FLOOR(pen), coverages OR-ed into an
// 8-bit line), see RewardFont below.
//
// get_state / set_state by replay (replay.h): the generator's state at the
// episode's start, the world's node pool then (the world outlives episodes,
// see above) and the actions since; LoadState empties the world, puts that
// pool back, resets and steps the actions again (drawing only the last
// observation), so loading costs as much as the episode so far (up to 1000
// steps). Render() changes nothing.
#pragma once

#include <Box2D/Box2D.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/env.h"
#include "envs/box2d/car_dynamics.h"
#include "envs/box2d/envpool_alignment_state.h"
#include "envs/box2d/replay.h"
#include "refkit/numpy/random.h"
#include "refkit/pygame/draw.h"
#include "refkit/pygame/math.h"

namespace envpool_lite {

namespace car_racing {

// car_racing.py's constants, computed as Python computes them.
inline constexpr int kStateW = 96;
inline constexpr int kStateH = 96;
inline constexpr int kVideoW = 600;
inline constexpr int kVideoH = 400;
inline constexpr int kWindowW = 1000;
inline constexpr int kWindowH = 800;
inline constexpr double kScale = 6.0;
inline constexpr double kTrackRad = 900 / kScale;
inline constexpr double kPlayfield = 2000 / kScale;
inline constexpr int kFps = 50;
inline constexpr double kZoom = 2.7;
inline constexpr double kTrackDetailStep = 21 / kScale;
inline constexpr double kTrackTurnRate = 0.31;
inline constexpr double kTrackWidth = 40 / kScale;
inline constexpr double kBorder = 8 / kScale;
inline constexpr int kBorderMinCount = 4;
inline constexpr double kGrassDim = kPlayfield / 20.0;
// max(GRASS_DIM, TRACK_WIDTH, TRACK_DETAIL_STEP) * math.sqrt(2) * ZOOM * SCALE
inline constexpr double kMaxShapeDim =
    std::max(std::max(kGrassDim, kTrackWidth), kTrackDetailStep) * M_SQRT2 *
    kZoom * kScale;
inline constexpr double kPi = M_PI;  // math.pi

// The reward counter's font, as box2d.py captures it (see the header
// comment). reward_font is a NumberList laid out as
//   [height,
//    width of each glyph (11),            glyphs in the order "-0123456789"
//    advance of each glyph alone (11),    in 1/64 px: the last glyph's
//    advance from glyph a to b (11 x 11), in 1/64 px, a row per a
//    each glyph's coverage, height x width, row-major]
// A glyph's bitmap is its whole pygame render, one glyph alone on a line
// (bearing included), so it lands at the pen's pixel.
class RewardFont {
 public:
  static constexpr int kGlyphs = 11;
  static constexpr const char* kChars = "-0123456789";

  explicit RewardFont(const NumberList& data) {
    const char* what =
        "option 'reward_font' (internal: envpool_lite.make() fills it from "
        "pygame's font) is malformed";
    const std::size_t header = 1 + 2 * kGlyphs + kGlyphs * kGlyphs;
    if (data.size() < header) throw std::invalid_argument(what);
    height_ = static_cast<int>(data[0]);
    std::size_t offset = header;
    for (int g = 0; g < kGlyphs; ++g) {
      width_[g] = static_cast<int>(data[1 + g]);
      advance_[g] = static_cast<int64_t>(data[1 + kGlyphs + g]);
      for (int b = 0; b < kGlyphs; ++b) {
        pair_advance_[g][b] =
            static_cast<int64_t>(data[1 + 2 * kGlyphs + g * kGlyphs + b]);
      }
      if (height_ <= 0 || height_ > 200 || width_[g] <= 0 || width_[g] > 200) {
        throw std::invalid_argument(what);
      }
      pixel_offset_[g] = offset;
      offset += static_cast<std::size_t>(height_) * width_[g];
    }
    if (data.size() != offset) throw std::invalid_argument(what);
    pixels_.resize(offset - header);
    for (std::size_t i = header; i < offset; ++i) {
      pixels_[i - header] = static_cast<uint8_t>(data[i]);
    }
    for (int g = 0; g < kGlyphs; ++g) pixel_offset_[g] -= header;
  }

  static int GlyphOf(char c) { return c == '-' ? 0 : 1 + (c - '0'); }

  int height() const { return height_; }

  // font.render(text, True, (255, 255, 255), (0, 0, 0)) blitted with its
  // rect centred at (center_x, center_y): SDL_ttf's shaded rendering, an
  // 8-bit line whose palette index i is the color (i, i, i).
  void Draw(pygame_draw::Surface& surface, const char* text, int center_x,
            int center_y) const {
    // TTF_Size_Internal: the pens (x, 1/64 px) and the width, max of every
    // glyph's right edge and of FT_FLOOR of the final pen.
    const int n = static_cast<int>(std::strlen(text));
    for (int k = 0; k < n; ++k) {
      // A finite reward prints only these ("inf" or "nan" never occur).
      if (text[k] != '-' && (text[k] < '0' || text[k] > '9')) return;
    }
    int pen_px[kMaxChars];
    int64_t x = 0;
    int width = 0;
    for (int k = 0; k < n; ++k) {
      const int g = GlyphOf(text[k]);
      pen_px[k] = static_cast<int>(x >> 6);  // FT_FLOOR
      width = std::max(width, pen_px[k] + width_[g]);
      x += k + 1 < n ? pair_advance_[g][GlyphOf(text[k + 1])] : advance_[g];
    }
    width = std::max(width, static_cast<int>(x >> 6));
    // Rect.center = (cx, cy): x = cx - w / 2, y = cy - h / 2 (C division).
    const int left = center_x - width / 2;
    const int top = center_y - height_ / 2;
    // The line: black where no glyph is (the background color), each pixel
    // the OR of the glyphs' coverages there (Render_Line's BG: *dst |= *src).
    for (int row = 0; row < height_; ++row) {
      const int sy = top + row;
      if (sy < 0 || sy >= surface.height()) continue;
      for (int col = 0; col < width; ++col) {
        const int sx = left + col;
        if (sx < 0 || sx >= surface.width()) continue;
        uint8_t value = 0;
        for (int k = 0; k < n; ++k) {
          const int g = GlyphOf(text[k]);
          const int gx = col - pen_px[k];
          if (gx < 0 || gx >= width_[g]) continue;
          value |= pixels_[pixel_offset_[g] +
                           static_cast<std::size_t>(row) * width_[g] + gx];
        }
        uint8_t* p = surface.Pixel(sx, sy);
        p[0] = p[1] = p[2] = value;
      }
    }
  }

  static constexpr int kMaxChars = 32;

 private:
  int height_ = 0;
  int width_[kGlyphs] = {};
  int64_t advance_[kGlyphs] = {};
  int64_t pair_advance_[kGlyphs][kGlyphs] = {};
  std::size_t pixel_offset_[kGlyphs] = {};
  std::vector<uint8_t> pixels_;
};

}  // namespace car_racing

class CarRacingEnv : public Env {
 public:
  static Config DefaultConfig() {
    // gymnasium's CarRacing.__init__ defaults; CarRacing-v3's time limit.
    return {{"max_episode_steps", int64_t{1000}},
            {"continuous", true},
            {"domain_randomize", false},
            {"lap_complete_percent", 0.95},
            // Internal: filled by envpool_lite.make() (families/box2d.py).
            {"reward_font", NumberList{}}};
  }

  static EnvSpec MakeSpec(const Config& config) {
    const double lap = config.GetFloat("lap_complete_percent");
    if (!(lap > 0.0 && lap <= 1.0)) {
      throw std::invalid_argument(
          "option 'lap_complete_percent' must be in (0, 1] (the fraction of "
          "the track's tiles that completes a lap), got " +
          std::to_string(lap));
    }
    config.GetBool("domain_randomize");   // type check
    config.GetNumberList("reward_font");  // type check
    const bool continuous = config.GetBool("continuous");

    EnvSpec spec;
    spec.obs = MakeBox<uint8_t>(
        "obs", {car_racing::kStateH, car_racing::kStateW, 3}, {0.0}, {255.0});
    if (continuous) {
      // steer, gas, brake
      spec.action =
          MakeBox<float>("action", {3}, {-1.0, 0.0, 0.0}, {1.0, 1.0, 1.0});
    } else {
      // do nothing, right, left, gas, brake
      spec.action = MakeDiscrete("action", 5);
    }
    // gymnasium's info["lap_finished"], present when an episode terminates;
    // False on every other step.
    spec.info.push_back(MakeScalar<bool>("lap_finished"));
    spec.max_episode_steps = config.GetInt("max_episode_steps");
    spec.render_height = car_racing::kVideoH;
    spec.render_width = car_racing::kVideoW;
    spec.reward_float64 = true;  // gymnasium's rewards are Python floats
    return spec;
  }

  CarRacingEnv(const Config& config, uint64_t seed)
      : continuous_(config.GetBool("continuous")),
        domain_randomize_(config.GetBool("domain_randomize")),
        lap_complete_percent_(config.GetFloat("lap_complete_percent")),
        font_(config.GetNumberList("reward_font")),
        rng_(seed),
        world_(b2Vec2(0.0f, 0.0f)),
        listener_(this),
        state_(car_racing::kStateW, car_racing::kStateH) {
    // b2World((0, 0), contactListener=...); pybox2d sets allowSleeping =
    // doSleep = True, Box2D's default.
    world_.SetAllowSleeping(true);
    world_.SetContactListener(&listener_);
    InitColors();
  }

  CarRacingEnv(const CarRacingEnv&) = delete;  // the listener points here
  CarRacingEnv& operator=(const CarRacingEnv&) = delete;

  ~CarRacingEnv() override {
    // The listener must not see the bodies' destruction with a half-dead
    // env; the world destroys everything itself.
    world_.SetContactListener(nullptr);
  }

  void Seed(uint64_t seed) override { rng_.Seed(seed); }

  // CarRacing.reset().
  void Reset() override {
    DestroyTrackAndCar();
    world_history_ = box2d_replay::WorldHistory::Take(world_);
    log_.Begin(rng_);
    reward_ = 0.0;
    prev_reward_ = 0.0;
    tile_visited_count_ = 0;
    t_ = 0.0;
    new_lap_ = false;
    road_poly_.clear();
    lap_finished_ = false;
    if (domain_randomize_) ReinitColors();
    while (!CreateTrack()) {
      // "retry to generate track (normal if there are not many instances
      // of this message)"
    }
    car_.Create(&world_, track_[0].beta, track_[0].x, track_[0].y,
                wheel_tags_.data());
    has_road_ = true;
    // return self.step(None)[0]: the physics and the picture, no control,
    // no reward bookkeeping.
    Advance();
  }

  // CarRacing.step(action).
  StepResult Step(const void* action) override {
    log_.Add(action, ActionBytes());
    if (continuous_) {
      // action.astype(np.float64); steer(-action[0]), gas(action[1]),
      // brake(action[2]).
      const float* a = static_cast<const float*>(action);
      car_.Steer(-static_cast<double>(a[0]));
      car_.Gas(static_cast<double>(a[1]));
      car_.Brake(static_cast<double>(a[2]));
    } else {
      const int32_t a = *static_cast<const int32_t*>(action);
      car_.Steer(-0.6 * static_cast<double>(a == 1) +
                 0.6 * static_cast<double>(a == 2));
      car_.Gas(0.2 * static_cast<double>(a == 3));
      car_.Brake(0.8 * static_cast<double>(a == 4));
    }
    Advance();

    StepResult result;
    reward_ -= 0.1;
    double step_reward = reward_ - prev_reward_;
    prev_reward_ = reward_;
    lap_finished_ = false;
    if (tile_visited_count_ == static_cast<int64_t>(track_.size()) ||
        new_lap_) {
      // Termination due to finishing lap.
      result.terminated = true;
      lap_finished_ = true;
    }
    const b2Vec2& position = car_.hull()->GetPosition();
    const double x = position.x, y = position.y;
    if (std::abs(x) > car_racing::kPlayfield ||
        std::abs(y) > car_racing::kPlayfield) {
      result.terminated = true;
      lap_finished_ = false;
      step_reward = -100;
    }
    result.reward = step_reward;
    return result;
  }

  void WriteObs(const Row& row) override {
    state_.CopyTo(row.Obs<uint8_t>());
    *row.Info<bool>(0) = lap_finished_;
  }

  // render() with render_mode="rgb_array": _render("rgb_array"), the
  // 600x400 frame, skid marks included.
  void Render(uint8_t* rgb) override {
    if (!car_.exists()) {  // before the first reset (gymnasium draws nothing)
      std::memset(rgb, 0,
                  static_cast<std::size_t>(car_racing::kVideoH) *
                      car_racing::kVideoW * 3);
      return;
    }
    if (video_.width() == 0) {
      video_ = pygame_draw::Surface(car_racing::kVideoW, car_racing::kVideoH);
    }
    DrawFrame(/*draw_particles=*/true, video_);
    video_.CopyTo(rgb);
  }

  void SaveState(StateWriter& out) const override { out(log_, world_history_); }

  // The episode again: the world emptied and given back its node pool, the
  // reset with the episode's first generator state, then its actions.
  void LoadState(StateReader& in) override {
    box2d_replay::EpisodeLog log;
    box2d_replay::WorldHistory history;
    in(log, history);
    DestroyTrackAndCar();
    history.Restore(world_);
    rng_ = log.start_rng;
    // Only the last step's observation is drawn (it shows the state of its
    // Advance(), before the step's reward: as the step drew it).
    const std::size_t steps = log.Steps(ActionBytes());
    replaying_ = steps > 0;
    try {
      Reset();
      for (std::size_t i = 0; i < steps; ++i) {
        if (i + 1 == steps) replaying_ = false;
        Step(log.Action(i, ActionBytes()));
      }
    } catch (...) {
      replaying_ = false;
      throw;
    }
  }

  // EnvPool's state (envpool_alignment_state.h): the track (alpha, beta, x, y),
  // the road polygons with their colors (the tiles' current ones), the car's
  // bodies (hull, wheels) and wheels (gas, brake, steer, phase, omega),
  // fuel (always 0), rewards, time, the lap flag and the visited tiles.
  DebugState Debug() const override {
    namespace bs = box2d_state;
    DebugState d;
    if (!car_.exists()) return d;  // not reset yet
    std::vector<double> track, polys, colors, bodies, wheels;
    for (const TrackPoint& p : track_) {
      track.insert(track.end(), {p.alpha, p.beta, p.x, p.y});
    }
    for (const RoadPoly& poly : road_poly_) {
      for (int k = 0; k < 4; ++k)
        polys.insert(polys.end(), {poly.x[k], poly.y[k]});
      if (poly.tile >= 0) {
        const double* c = tiles_[poly.tile].color;
        colors.insert(colors.end(), c, c + 3);
      } else {
        colors.insert(colors.end(), {static_cast<double>(poly.color.r),
                                     static_cast<double>(poly.color.g),
                                     static_cast<double>(poly.color.b)});
      }
    }
    bodies = bs::BodyState(car_.hull());
    std::vector<double> gas, steer, brake;
    for (int i = 0; i < 4; ++i) {
      const car_racing::Car::Wheel& w = car_.wheel(i);
      bs::Append(bodies, bs::BodyState(w.body));
      wheels.insert(wheels.end(), {w.gas, w.brake, w.steer, w.phase, w.omega});
      if (i >= 2) gas.push_back(w.gas);
      if (i < 2) steer.push_back(w.steer);
      brake.push_back(w.brake);
    }
    const auto n_track = static_cast<int64_t>(track_.size());
    const auto n_polys = static_cast<int64_t>(road_poly_.size());
    d.Real("track", {n_track, 4}, std::move(track));
    d.Real("road_poly", {n_polys, 4, 2}, std::move(polys));
    d.Real("road_color", {n_polys, 3}, std::move(colors));
    d.Real("car_body_states", {5, 7}, std::move(bodies));
    d.Real("car_wheel_states", {4, 5}, std::move(wheels));
    d.Real("car_gas", {2}, std::move(gas));
    d.Real("car_steer", {2}, std::move(steer));
    d.Real("car_brake", {4}, std::move(brake));
    // gymnasium zeroes self.car.fuel_spent after every step, and the
    // reset's step(None) runs with no gas: it is 0 wherever it can be read.
    d.Real("car_fuel_spent", 0.0);
    d.Real("car_reward", reward_);
    d.Real("car_prev_reward", prev_reward_);
    d.Real("car_time", t_);
    d.Real("new_lap", new_lap_ ? 1.0 : 0.0);
    d.Real("tile_visited_count", static_cast<double>(tile_visited_count_));
    return d;
  }

 private:
  using Surface = pygame_draw::Surface;
  using Color = pygame_draw::Color;
  using Point = pygame_draw::Point;

  struct TrackPoint {
    double alpha, beta, x, y;
  };

  // A polygon of self.road_poly: a tile (its color is the tile's, which
  // contacts change) or a border piece (white or red).
  struct RoadPoly {
    double x[4], y[4];
    int tile;     // the tile's index, or -1 for a border piece
    Color color;  // a border piece's color
  };

  struct Tile {
    b2Body* body;
    double color[3];  // t.color, a float64 array
    bool road_visited;
  };

  // FrictionDetector: counts visited tiles and the wheels' road contacts.
  class FrictionDetector : public b2ContactListener {
   public:
    explicit FrictionDetector(CarRacingEnv* env) : env_(env) {}
    void BeginContact(b2Contact* contact) override {
      env_->OnContact(contact, true);
    }
    void EndContact(b2Contact* contact) override {
      env_->OnContact(contact, false);
    }

   private:
    CarRacingEnv* env_;
  };

  // FrictionDetector._contact(contact, begin).
  void OnContact(b2Contact* contact, bool begin) {
    using car_racing::BodyTag;
    const auto* u1 = static_cast<const BodyTag*>(
        contact->GetFixtureA()->GetBody()->GetUserData());
    const auto* u2 = static_cast<const BodyTag*>(
        contact->GetFixtureB()->GetBody()->GetUserData());
    const BodyTag* tile = nullptr;
    const BodyTag* obj = nullptr;
    if (u1 != nullptr && u1->kind == BodyTag::kTile) {
      tile = u1;
      obj = u2;
    }
    if (u2 != nullptr && u2->kind == BodyTag::kTile) {
      tile = u2;
      obj = u1;
    }
    if (tile == nullptr) return;

    // "inherit tile color from env": tile.color[:] = self.env.road_color
    Tile& t = tiles_[tile->index];
    for (int c = 0; c < 3; ++c) t.color[c] = road_color_[c];
    if (obj == nullptr || obj->kind != BodyTag::kWheel) return;
    car_racing::Car::Wheel& wheel = car_.wheel(obj->index);
    if (begin) {
      ++wheel.tiles;  // obj.tiles.add(tile)
      if (!t.road_visited) {
        t.road_visited = true;
        const double n = static_cast<double>(track_.size());
        reward_ += 1000.0 / n;
        tile_visited_count_ += 1;
        // Lap is considered completed if enough % of the track was covered.
        if (tile->index == 0 && static_cast<double>(tile_visited_count_) / n >
                                    lap_complete_percent_) {
          new_lap_ = true;
        }
      }
    } else {
      --wheel.tiles;  // obj.tiles.remove(tile)
    }
  }

  // _init_colors(): the default colors (domain_randomize draws its own at
  // every reset, _reinit_colors, before anything reads them).
  void InitColors() {
    const double road[3] = {102, 102, 102};
    const double bg[3] = {102, 204, 102};
    const double grass[3] = {102, 230, 102};
    for (int c = 0; c < 3; ++c) {
      road_color_[c] = road[c];
      bg_color_[c] = bg[c];
      grass_color_[c] = grass[c];
    }
  }

  // _reinit_colors(randomize=True).
  void ReinitColors() {
    for (double& c : road_color_) c = rng_.Uniform(0, 210);
    for (double& c : bg_color_) c = rng_.Uniform(0, 210);
    for (int c = 0; c < 3; ++c) grass_color_[c] = bg_color_[c];
    const int64_t idx = rng_.Integers(0, 3);
    grass_color_[idx] += 20;
  }

  std::size_t ActionBytes() const {
    return continuous_ ? 3 * sizeof(float) : sizeof(int32_t);
  }

  // _destroy(): the tiles in road order, then the car (hull, then wheels).
  void DestroyTrackAndCar() {
    if (!has_road_) return;  // "if not self.road: return"
    for (Tile& t : tiles_) world_.DestroyBody(t.body);
    car_.Destroy();
    tiles_.clear();
    tile_tags_.clear();
    has_road_ = false;
  }

  // _create_track(): false when the attempt fails (no body created then).
  bool CreateTrack() {
    using namespace car_racing;  // NOLINT: the constants
    constexpr int kCheckpoints = 12;

    // Create checkpoints.
    double cp_alpha[kCheckpoints], cp_x[kCheckpoints], cp_y[kCheckpoints];
    for (int c = 0; c < kCheckpoints; ++c) {
      const double noise = rng_.Uniform(0, 2 * kPi * 1 / kCheckpoints);
      double alpha = 2 * kPi * c / kCheckpoints + noise;
      double rad = rng_.Uniform(kTrackRad / 3, kTrackRad);
      if (c == 0) {
        alpha = 0;
        rad = 1.5 * kTrackRad;
      }
      if (c == kCheckpoints - 1) {
        alpha = 2 * kPi * c / kCheckpoints;
        start_alpha_ = 2 * kPi * (-0.5) / kCheckpoints;
        rad = 1.5 * kTrackRad;
      }
      cp_alpha[c] = alpha;
      cp_x[c] = rad * std::cos(alpha);
      cp_y[c] = rad * std::sin(alpha);
    }

    // Go from one checkpoint to another to create the track.
    double x = 1.5 * kTrackRad, y = 0, beta = 0;
    int dest_i = 0;
    int laps = 0;
    std::vector<TrackPoint>& track = track_;
    track.clear();
    int no_freeze = 2500;
    bool visited_other_side = false;
    while (true) {
      double alpha = std::atan2(y, x);
      if (visited_other_side && alpha > 0) {
        laps += 1;
        visited_other_side = false;
      }
      if (alpha < 0) {
        visited_other_side = true;
        alpha += 2 * kPi;
      }

      double dest_x = 0, dest_y = 0;
      while (true) {  // Find destination from checkpoints
        bool failed = true;
        while (true) {
          const int d = dest_i % kCheckpoints;
          const double dest_alpha = cp_alpha[d];
          dest_x = cp_x[d];
          dest_y = cp_y[d];
          if (alpha <= dest_alpha) {
            failed = false;
            break;
          }
          dest_i += 1;
          if (dest_i % kCheckpoints == 0) break;
        }
        if (!failed) break;
        alpha -= 2 * kPi;
      }

      const double r1x = std::cos(beta);
      const double r1y = std::sin(beta);
      const double p1x = -r1y;
      const double p1y = r1x;
      const double dest_dx = dest_x - x;  // vector towards destination
      const double dest_dy = dest_y - y;
      // destination vector projected on rad:
      double proj = r1x * dest_dx + r1y * dest_dy;
      while (beta - alpha > 1.5 * kPi) beta -= 2 * kPi;
      while (beta - alpha < -1.5 * kPi) beta += 2 * kPi;
      const double prev_beta = beta;
      proj *= kScale;
      if (proj > 0.3) beta -= std::min(kTrackTurnRate, std::abs(0.001 * proj));
      if (proj < -0.3) beta += std::min(kTrackTurnRate, std::abs(0.001 * proj));
      x += p1x * kTrackDetailStep;
      y += p1y * kTrackDetailStep;
      track.push_back({alpha, prev_beta * 0.5 + beta * 0.5, x, y});
      if (laps > 4) break;
      no_freeze -= 1;
      if (no_freeze == 0) break;
    }

    // Find closed loop range i1..i2, first loop should be ignored, second
    // is OK.
    int i1 = -1, i2 = -1;
    int i = static_cast<int>(track.size());
    while (true) {
      i -= 1;
      if (i == 0) return false;  // Failed
      const bool pass_through_start =
          track[i].alpha > start_alpha_ && track[i - 1].alpha <= start_alpha_;
      if (pass_through_start && i2 == -1) {
        i2 = i;
      } else if (pass_through_start && i1 == -1) {
        i1 = i;
        break;
      }
    }
    // track = track[i1 : i2 - 1]
    const int n = std::max(0, i2 - 1 - i1);
    track.erase(track.begin() + i1 + n, track.end());
    track.erase(track.begin(), track.begin() + i1);
    if (n == 0) {
      // Python raises IndexError on track[0]; no track is this short.
      throw std::runtime_error("CarRacing: empty track");
    }

    const double first_beta = track[0].beta;
    const double first_perp_x = std::cos(first_beta);
    const double first_perp_y = std::sin(first_beta);
    // Length of perpendicular jump to put together head and tail.
    const double gx = first_perp_x * (track[0].x - track[n - 1].x);
    const double gy = first_perp_y * (track[0].y - track[n - 1].y);
    const double well_glued_together = std::sqrt(gx * gx + gy * gy);
    if (well_glued_together > kTrackDetailStep) return false;

    // Python's negative indices: track[i - k] for i - k >= -n.
    auto at = [n](int k) { return k < 0 ? k + n : k; };

    // Red-white border on hard turns.
    border_.assign(n, 0);
    for (int j = 0; j < n; ++j) {
      bool good = true;
      double oneside = 0;
      for (int neg = 0; neg < kBorderMinCount; ++neg) {
        const double beta1 = track[at(j - neg - 0)].beta;
        const double beta2 = track[at(j - neg - 1)].beta;
        good &= std::abs(beta1 - beta2) > kTrackTurnRate * 0.2;
        oneside += car_racing::Sign(beta1 - beta2);
      }
      good &= std::abs(oneside) == kBorderMinCount;
      border_[j] = good;
    }
    for (int j = 0; j < n; ++j) {
      for (int neg = 0; neg < kBorderMinCount; ++neg) {
        border_[at(j - neg)] |= border_[j];
      }
    }

    // Create tiles.
    tiles_.resize(n);
    tile_tags_.resize(n);
    for (int j = 0; j < n; ++j) {
      const TrackPoint& p1 = track[j];
      const TrackPoint& p2 = track[at(j - 1)];
      const double beta1 = p1.beta, x1 = p1.x, y1 = p1.y;
      const double beta2 = p2.beta, x2 = p2.x, y2 = p2.y;
      const double road1_l[2] = {x1 - kTrackWidth * std::cos(beta1),
                                 y1 - kTrackWidth * std::sin(beta1)};
      const double road1_r[2] = {x1 + kTrackWidth * std::cos(beta1),
                                 y1 + kTrackWidth * std::sin(beta1)};
      const double road2_l[2] = {x2 - kTrackWidth * std::cos(beta2),
                                 y2 - kTrackWidth * std::sin(beta2)};
      const double road2_r[2] = {x2 + kTrackWidth * std::cos(beta2),
                                 y2 + kTrackWidth * std::sin(beta2)};
      const double* vertices[4] = {road1_l, road1_r, road2_r, road2_l};

      // self.fd_tile.shape.vertices = vertices (b2PolygonShape::Set on the
      // float32 points); t = CreateStaticBody(fixtures=self.fd_tile).
      b2Vec2 points[4];
      for (int k = 0; k < 4; ++k) {
        points[k].Set(static_cast<float>(vertices[k][0]),
                      static_cast<float>(vertices[k][1]));
      }
      b2PolygonShape shape;
      shape.Set(points, 4);
      b2FixtureDef fixture;  // fixtureDef(shape=...): Box2D's defaults
      fixture.shape = &shape;
      b2BodyDef body_def;
      body_def.type = b2_staticBody;
      Tile& t = tiles_[j];
      t.body = world_.CreateBody(&body_def);
      b2Fixture* f = t.body->CreateFixture(&fixture);
      tile_tags_[j] = {car_racing::BodyTag::kTile, j};
      t.body->SetUserData(&tile_tags_[j]);
      const double c = 0.01 * (j % 3) * 255;
      for (int k = 0; k < 3; ++k) t.color[k] = road_color_[k] + c;
      t.road_visited = false;
      f->SetSensor(true);  // t.fixtures[0].sensor = True

      RoadPoly poly{};
      for (int k = 0; k < 4; ++k) {
        poly.x[k] = vertices[k][0];
        poly.y[k] = vertices[k][1];
      }
      poly.tile = j;
      road_poly_.push_back(poly);

      if (border_[j]) {
        const double side = car_racing::Sign(beta2 - beta1);
        RoadPoly b{};
        // b1_l, b1_r, b2_r, b2_l
        b.x[0] = x1 + side * kTrackWidth * std::cos(beta1);
        b.y[0] = y1 + side * kTrackWidth * std::sin(beta1);
        b.x[1] = x1 + side * (kTrackWidth + kBorder) * std::cos(beta1);
        b.y[1] = y1 + side * (kTrackWidth + kBorder) * std::sin(beta1);
        b.x[2] = x2 + side * (kTrackWidth + kBorder) * std::cos(beta2);
        b.y[2] = y2 + side * (kTrackWidth + kBorder) * std::sin(beta2);
        b.x[3] = x2 + side * kTrackWidth * std::cos(beta2);
        b.y[3] = y2 + side * kTrackWidth * std::sin(beta2);
        b.tile = -1;
        b.color = j % 2 == 0 ? Color{255, 255, 255} : Color{255, 0, 0};
        road_poly_.push_back(b);
      }
    }
    return true;
  }

  // The part of step() that reset()'s step(None) shares: car.step(1 / FPS),
  // world.Step(1 / FPS, 6 * 30, 2 * 30), t += 1 / FPS, and the observation,
  // self.state = self._render("state_pixels").
  void Advance() {
    car_.Step(1.0 / car_racing::kFps);
    world_.Step(static_cast<float>(1.0 / car_racing::kFps), 6 * 30, 2 * 30);
    t_ += 1.0 / car_racing::kFps;
    if (!replaying_) DrawFrame(/*draw_particles=*/false, state_);
  }

  // _render(mode) into `out` (state_pixels: 96x96, no skid marks;
  // rgb_array: 600x400, with them): the 1000x800 window, then
  // transform.smoothscale to out's size.
  void DrawFrame(bool draw_particles, Surface& out) {
    using namespace car_racing;  // NOLINT: the constants
    // self.surf: redrawn whole each frame, so one per worker thread rather
    // than per env (16 envs' 2.4 MB windows would not stay in the cache).
    thread_local Surface thread_window(kWindowW, kWindowH);
    window_ = &thread_window;
    Surface& surf = thread_window;

    // computing transformations
    const double angle = -static_cast<double>(car_.hull()->GetAngle());
    const pygame_math::Rotation rotation(angle);  // Vector2.rotate_rad(angle)
    // Animating first second zoom.
    const double zoom = 0.1 * kScale * std::max(1 - t_, 0.0) +
                        kZoom * kScale * std::min(t_, 1.0);
    const b2Vec2& position = car_.hull()->GetPosition();
    const double scroll_x = -static_cast<double>(position.x) * zoom;
    const double scroll_y = -static_cast<double>(position.y) * zoom;
    const pygame_math::Vector2 trans = rotation.Apply({scroll_x, scroll_y});
    const Point translation{kWindowW / 2.0 + trans.x, kWindowH / 4.0 + trans.y};

    RenderRoad(zoom, translation, rotation);
    car_.Draw(surf, zoom, translation, rotation, draw_particles);

    pygame_draw::FlipVertical(surf);

    // showing stats
    RenderIndicators(kWindowW, kWindowH);

    char text[RewardFont::kMaxChars];
    std::snprintf(text, sizeof(text), "%04.0f", reward_);
    font_.Draw(surf, text, 60,
               static_cast<int>(kWindowH - kWindowH * 2.5 / 40.0));

    pygame_draw::Smoothscale(surf, out);
  }

  // _render_road(zoom, translation, rotation).
  void RenderRoad(double zoom, const Point& translation,
                  const pygame_math::Rotation& rotation) {
    using namespace car_racing;  // NOLINT: the constants
    const double bounds = kPlayfield;
    const double field[4][2] = {{bounds, bounds},
                                {bounds, -bounds},
                                {-bounds, -bounds},
                                {-bounds, bounds}};
    // draw background, on a new (black) pygame.Surface. Once the field
    // covers the window (after the first second's zoom), that is one fill.
    Point corners[4];
    for (int k = 0; k < 4; ++k) {
      corners[k] =
          ToScreen(field[k][0], field[k][1], zoom, translation, rotation);
    }
    if (pygame_draw::GfxPolygonCovers(*window_, corners, 4)) {
      pygame_draw::Fill(*window_, ToColor(bg_color_));
    } else {
      pygame_draw::Fill(*window_, Color{0, 0, 0});
      DrawColoredPolygon(field, ToColor(bg_color_), zoom, translation, rotation,
                         /*clip=*/false);
    }

    // draw grass patches
    const Color grass_color = ToColor(grass_color_);
    for (int x = -20; x < 20; x += 2) {
      for (int y = -20; y < 20; y += 2) {
        const double poly[4][2] = {
            {kGrassDim * x + kGrassDim, kGrassDim * y + 0},
            {kGrassDim * x + 0, kGrassDim * y + 0},
            {kGrassDim * x + 0, kGrassDim * y + kGrassDim},
            {kGrassDim * x + kGrassDim, kGrassDim * y + kGrassDim}};
        DrawColoredPolygon(poly, grass_color, zoom, translation, rotation,
                           /*clip=*/true);
      }
    }

    // draw road
    for (const RoadPoly& rp : road_poly_) {
      const double poly[4][2] = {{rp.x[0], rp.y[0]},
                                 {rp.x[1], rp.y[1]},
                                 {rp.x[2], rp.y[2]},
                                 {rp.x[3], rp.y[3]}};
      // color = [int(c) for c in color]
      const Color color =
          rp.tile >= 0 ? ToColor(tiles_[rp.tile].color) : rp.color;
      DrawColoredPolygon(poly, color, zoom, translation, rotation,
                         /*clip=*/true);
    }
  }

  // A float64 color (a numpy array) as pygame reads it: int(c), truncation.
  static Color ToColor(const double c[3]) {
    return Color{static_cast<uint8_t>(static_cast<int>(c[0])),
                 static_cast<uint8_t>(static_cast<int>(c[1])),
                 static_cast<uint8_t>(static_cast<int>(c[2]))};
  }

  // _draw_colored_polygon(surface, poly, color, zoom, translation, rotation,
  // clip).
  void DrawColoredPolygon(const double (&poly)[4][2], Color color, double zoom,
                          const Point& translation,
                          const pygame_math::Rotation& rotation, bool clip) {
    using namespace car_racing;  // NOLINT: the constants
    Point points[4];
    bool visible = !clip;
    for (int k = 0; k < 4; ++k) {
      points[k] = ToScreen(poly[k][0], poly[k][1], zoom, translation, rotation);
      // Skip polygons outside the screen grown by MAX_SHAPE_DIM.
      if (-kMaxShapeDim <= points[k].x &&
          points[k].x <= kWindowW + kMaxShapeDim &&
          -kMaxShapeDim <= points[k].y &&
          points[k].y <= kWindowH + kMaxShapeDim) {
        visible = true;
      }
    }
    if (!visible) return;
    pygame_draw::GfxAapolygon(*window_, points, 4, color);
    pygame_draw::GfxFilledPolygon(*window_, points, 4, color);
  }

  // _render_indicators(W, H).
  void RenderIndicators(int W, int H) {  // NOLINT: gymnasium's names
    const double s = W / 40.0;
    const double h = H / 40.0;
    const Point polygon[4] = {{static_cast<double>(W), static_cast<double>(H)},
                              {static_cast<double>(W), H - 5 * h},
                              {0.0, H - 5 * h},
                              {0.0, static_cast<double>(H)}};
    pygame_draw::DrawPolygon(*window_, Color{0, 0, 0}, polygon, 4);

    auto vertical_ind = [&](int place, double val, Point out[4]) {
      out[0] = {place * s, H - (h + h * val)};
      out[1] = {(place + 1) * s, H - (h + h * val)};
      out[2] = {(place + 1) * s, H - h};
      out[3] = {(place + 0) * s, H - h};
    };
    auto horiz_ind = [&](int place, double val, Point out[4]) {
      out[0] = {(place + 0) * s, H - 4 * h};
      out[1] = {(place + val) * s, H - 4 * h};
      out[2] = {(place + val) * s, H - 2 * h};
      out[3] = {(place + 0) * s, H - 2 * h};
    };
    // render if the indicator value is above a threshold
    auto render_if_min = [&](double value, const Point points[4], Color color) {
      if (std::abs(value) > 1e-4) {
        pygame_draw::DrawPolygon(*window_, color, points, 4);
      }
    };

    const b2Vec2& v = car_.hull()->GetLinearVelocity();
    const double vx = v.x, vy = v.y;
    const double true_speed = std::sqrt(vx * vx + vy * vy);
    Point p[4];
    vertical_ind(5, 0.02 * true_speed, p);
    render_if_min(true_speed, p, Color{255, 255, 255});
    // ABS sensors
    const Color abs_colors[4] = {
        {0, 0, 255}, {0, 0, 255}, {51, 0, 255}, {51, 0, 255}};
    for (int i = 0; i < 4; ++i) {
      const double omega = car_.wheel(i).omega;
      vertical_ind(7 + i, 0.01 * omega, p);
      render_if_min(omega, p, abs_colors[i]);
    }
    const double steer_angle = car_.wheel(0).joint->GetJointAngle();
    horiz_ind(20, -10.0 * steer_angle, p);
    render_if_min(steer_angle, p, Color{0, 255, 0});
    const double angular_velocity = car_.hull()->GetAngularVelocity();
    horiz_ind(30, -0.8 * angular_velocity, p);
    render_if_min(angular_velocity, p, Color{255, 0, 0});
  }

  using RewardFont = car_racing::RewardFont;

  const bool continuous_;
  const bool domain_randomize_;
  const double lap_complete_percent_;
  const RewardFont font_;
  NumpyRandom rng_;
  b2World world_;
  FrictionDetector listener_;

  car_racing::Car car_;
  std::array<car_racing::BodyTag, 4> wheel_tags_{
      {{car_racing::BodyTag::kWheel, 0},
       {car_racing::BodyTag::kWheel, 1},
       {car_racing::BodyTag::kWheel, 2},
       {car_racing::BodyTag::kWheel, 3}}};
  std::vector<Tile> tiles_;                     // self.road
  std::vector<car_racing::BodyTag> tile_tags_;  // the tiles' userData
  std::vector<TrackPoint> track_;               // self.track
  std::vector<RoadPoly> road_poly_;             // self.road_poly
  std::vector<char> border_;
  bool has_road_ = false;

  double road_color_[3];
  double bg_color_[3];
  double grass_color_[3];
  double start_alpha_ = 0.0;

  double reward_ = 0.0;
  double prev_reward_ = 0.0;
  int64_t tile_visited_count_ = 0;
  double t_ = 0.0;
  bool new_lap_ = false;
  bool lap_finished_ = false;  // info["lap_finished"] of the last step

  Surface* window_ = nullptr;  // self.surf while DrawFrame draws
  Surface state_;              // the observation, STATE_W x STATE_H
  Surface video_;  // render()'s frame, VIDEO_W x VIDEO_H (on first use)

  // For get_state (replay.h): the episode so far, the world before it.
  box2d_replay::EpisodeLog log_;
  box2d_replay::WorldHistory world_history_;
  bool replaying_ = false;  // LoadState: Advance() skips the observation
};

}  // namespace envpool_lite
