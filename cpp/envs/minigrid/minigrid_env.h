// MiniGridEnv: what every MiniGrid task shares (minigrid/minigrid_env.py of
// minigrid 3.2.0): the grid and its objects, the agent, the seven actions,
// the agent's partial view and its encoding, the reward
// 1 - 0.9 * step_count / max_steps, and the random draws of level
// generation (_rand_int, place_obj, ...), from the env's np_random
// (numpy's Generator(PCG64(seed)), refkit/numpy/random.h) in minigrid's order.
//
// A task derives from it and writes GenGrid(), its _gen_grid.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "core/env.h"
#include "core/registry.h"
#include "envs/minigrid/render.h"
#include "envs/minigrid/world.h"
#include "refkit/numpy/random.h"

namespace envpool_lite {
namespace minigrid {

// The mission string's bytes in the observation (UTF-8, zero-padded), as
// EnvPool's MiniGrid tasks (BabyAI's longer instructions: 512).
constexpr int kMissionBytes = 96;
constexpr int kBabyAIMissionBytes = 512;
constexpr int kNumActions =
    7;  // left, right, forward, pickup, drop, toggle, done
constexpr int kDirX[4] = {1, 0, -1, 0};  // DIR_TO_VEC: right, down, left, up
constexpr int kDirY[4] = {0, 1, 0, -1};

// The options every task takes, with their limits checked at make().
inline void CheckCommonOptions(const Config& config) {
  const int64_t view = config.GetInt("agent_view_size", 3, 255);
  if (view % 2 == 0) {
    throw std::invalid_argument(
        "option 'agent_view_size' must be odd (the agent sits in the middle "
        "of its view's bottom row), got " +
        std::to_string(view));
  }
  config.GetInt("max_steps", -1, std::numeric_limits<int32_t>::max());
  if (config.GetInt("max_steps") == 0) {
    throw std::invalid_argument(
        "option 'max_steps' must be >= 1 (or -1: the task's default)");
  }
}

// The arrays of a task: the observation dict (gymnasium's Dict sorts
// minigrid's keys: direction, image, mission) and the agent's position.
inline EnvSpec MakeMiniGridSpec(const Config& config,
                                int mission_bytes = kMissionBytes) {
  CheckCommonOptions(config);
  const int64_t view = config.GetInt("agent_view_size");
  EnvSpec spec;
  spec.obs_dict = {
      MakeDiscrete("direction", 4),
      MakeBox<uint8_t>("image", {view, view, 3}, {0.0}, {255.0}),
      MakeBox<uint8_t>("mission", {mission_bytes}, {0.0}, {255.0})};
  spec.action = MakeDiscrete("action", kNumActions);
  spec.info = {MakeBox<int32_t>("agent_pos", {2}, {0.0}, {255.0})};
  spec.max_episode_steps = 0;  // minigrid's own max_steps (truncated)
  spec.reward_float64 = true;  // 1 - 0.9 * step_count / max_steps, exactly
  return spec;
}

// The observation and rendering options every task takes: minigrid's
// observation wrappers (minigrid/wrappers.py) and MiniGridEnv's rendering
// arguments. docs/families/minigrid.md maps each wrapper to them.
struct ViewOptions {
  // The image: the agent's view encoded (gen_obs), the whole grid encoded
  // (FullyObsWrapper), the agent's view drawn (RGBImgPartialObsWrapper) or
  // the whole grid drawn (RGBImgObsWrapper).
  bool fully_obs = false;
  bool rgb_img = false;
  int rgb_tile_size = kObsTileSize;  // the RGB wrappers' tile_size
  bool image_only = false;  // ImgObsWrapper: the observation is the image
  // MiniGridEnv(tile_size=, highlight=, agent_pov=): render()'s picture
  // (highlight also shades what the agent sees in RGBImgObsWrapper's).
  int tile_size = kRenderTileSize;
  bool highlight = true;
  bool agent_pov = false;

  static Config Defaults() {
    return {{"fully_obs", false},
            {"rgb_img", false},
            {"rgb_tile_size", int64_t{kObsTileSize}},
            {"image_only", false},
            {"tile_size", int64_t{kRenderTileSize}},
            {"highlight", true},
            {"agent_pov", false}};
  }

  ViewOptions() = default;
  // From a task's config, checked (std::invalid_argument names the option).
  // A config without them (a task not registered through MiniGridTask)
  // keeps the defaults.
  explicit ViewOptions(const Config& config) {
    if (!config.Has("fully_obs")) return;
    fully_obs = config.GetBool("fully_obs");
    rgb_img = config.GetBool("rgb_img");
    rgb_tile_size =
        static_cast<int>(config.GetInt("rgb_tile_size", 1, kMaxTileSize));
    image_only = config.GetBool("image_only");
    tile_size = static_cast<int>(config.GetInt("tile_size", 1, kMaxTileSize));
    highlight = config.GetBool("highlight");
    agent_pov = config.GetBool("agent_pov");
  }
};

// The arrays the view options change, for a width x height grid: the image
// (and with image_only the observation is the image alone, a Box), and
// render()'s picture.
inline void ApplyViewOptions(const Config& config, int64_t width,
                             int64_t height, EnvSpec* spec) {
  const ViewOptions o(config);
  const int64_t view = config.GetInt("agent_view_size");
  std::vector<int64_t> shape = {view, view, 3};  // gen_obs's encoding
  if (o.rgb_img && o.fully_obs) {  // get_frame(highlight, tile_size)
    shape = {height * o.rgb_tile_size, width * o.rgb_tile_size, 3};
  } else if (o.rgb_img) {  // get_pov_render(tile_size)
    shape = {view * o.rgb_tile_size, view * o.rgb_tile_size, 3};
  } else if (o.fully_obs) {  // grid.encode(), image[x, y]
    shape = {width, height, 3};
  }
  for (ArraySpec& a : spec->obs_dict) {
    if (a.name != "image") continue;
    a.shape = shape;
    if (o.image_only) spec->obs = a;
  }
  if (o.image_only) spec->obs_dict.clear();
  // render(): get_frame(highlight, tile_size, agent_pov)
  spec->render_height = (o.agent_pov ? view : height) * o.tile_size;
  spec->render_width = (o.agent_pov ? view : width) * o.tile_size;
}

class MiniGridEnv : public Env {
 public:
  MiniGridEnv(const Config& config, uint64_t seed, int width, int height,
              int64_t default_max_steps, bool see_through_walls)
      : rng_(seed),
        width_(width),
        height_(height),
        view_(static_cast<int>(config.GetInt("agent_view_size"))),
        see_through_walls_(see_through_walls) {
    const int64_t max_steps = config.GetInt("max_steps");
    max_steps_ = max_steps < 0 ? default_max_steps : max_steps;
    view_cells_.resize(static_cast<std::size_t>(view_) * view_);
    visible_.resize(view_cells_.size());
    view_options_ = ViewOptions(config);
  }

  void Seed(uint64_t seed) override { rng_.Seed(seed); }

  void Reset() override {
    objs_.assign(1, Obj{});  // objs_[0]: the wall every wall cell shares
    grid_.Resize(width_, height_);
    agent_x_ = agent_y_ = -1;
    agent_dir_ = -1;
    carrying_ = kNone;
    GenGrid();
    if (agent_x_ < 0 || agent_y_ < 0 || agent_dir_ < 0) {
      throw std::logic_error("MiniGrid: the task placed no agent");
    }
    step_count_ = 0;
  }

  StepResult Step(const void* action) override {
    ++step_count_;
    StepResult result;
    const int fx = agent_x_ + kDirX[agent_dir_];
    const int fy = agent_y_ + kDirY[agent_dir_];
    const int fwd = grid_.Get(fx, fy);
    switch (*static_cast<const int32_t*>(action)) {
      case 0:  // left
        agent_dir_ = (agent_dir_ + 3) % 4;
        break;
      case 1:  // right
        agent_dir_ = (agent_dir_ + 1) % 4;
        break;
      case 2:  // forward
        if (fwd == kNone || objs_[fwd].CanOverlap()) {
          agent_x_ = fx;
          agent_y_ = fy;
        }
        if (fwd != kNone && objs_[fwd].type == kGoal) {
          result.terminated = true;
          result.reward = Reward();
        }
        if (fwd != kNone && objs_[fwd].type == kLava) {
          result.terminated = true;
        }
        break;
      case 3:  // pickup
        if (fwd != kNone && objs_[fwd].CanPickup() && carrying_ == kNone) {
          carrying_ = fwd;
          objs_[fwd].cur_x = objs_[fwd].cur_y = -1;
          grid_.Set(fx, fy, kNone);
        }
        break;
      case 4:  // drop
        if (fwd == kNone && carrying_ != kNone) {
          grid_.Set(fx, fy, carrying_);
          objs_[carrying_].cur_x = fx;
          objs_[carrying_].cur_y = fy;
          carrying_ = kNone;
        }
        break;
      case 5:  // toggle
        if (fwd != kNone) Toggle(fwd, fx, fy);
        break;
      default:  // done: nothing
        break;
    }
    result.truncated = step_count_ >= max_steps_;
    return result;
  }

  void WriteObs(const Row& row) override {
    if (view_options_.image_only) {
      WriteImage(row.Obs<uint8_t>(0));
    } else {
      *row.Obs<int32_t>(0) = agent_dir_;
      WriteImage(row.Obs<uint8_t>(1));
      uint8_t* mission = row.Obs<uint8_t>(2);
      std::memset(mission, 0, mission_bytes_);
      std::memcpy(mission, mission_.data(), mission_.size());
    }
    int32_t* pos = row.Info<int32_t>(0);
    pos[0] = agent_x_;
    pos[1] = agent_y_;
  }

  // The state EnvPool's MiniGrid and BabyAI alignment tests rebuild their
  // reference from (its _debug_states(): the grid column by column as
  // (type, color, state), what boxes hold, the agent, what it carries, the
  // mission), plus the task's own (DebugTask: env_name and its targets, as
  // EnvPool names them).
  DebugState Debug() const override {
    DebugState s;
    s.String("env_name", DebugName());
    s.String("mission", mission_);
    s.Int("width", {width_});
    s.Int("height", {height_});
    s.Int("max_steps", {max_steps_});
    std::vector<int64_t> grid, contains;
    for (int x = 0; x < grid_.width(); ++x) {  // none before the first reset
      for (int y = 0; y < grid_.height(); ++y) {
        const int o = grid_.Get(x, y);
        Encode(o, &grid);
        Encode(o == kNone ? kNone : objs_[o].contains, &contains);
      }
    }
    s.Int("grid", std::move(grid));
    s.Int("grid_contains", std::move(contains));
    s.Int("agent_pos", {agent_x_, agent_y_});
    s.Int("agent_dir", {agent_dir_});
    const bool carrying = carrying_ != kNone;
    std::vector<int64_t> held, inside;
    Encode(carrying_, &held);
    Encode(carrying ? objs_[carrying_].contains : kNone, &inside);
    s.Int("has_carrying", {carrying ? 1 : 0});
    s.Int("carrying_type", {held[0]});
    s.Int("carrying_color", {held[1]});
    s.Int("carrying_state", {held[2]});
    s.Int("carrying_has_contains", {carrying && inside[0] != kEmpty ? 1 : 0});
    s.Int("carrying_contains_type", {inside[0]});
    s.Int("carrying_contains_color", {inside[1]});
    s.Int("carrying_contains_state", {inside[2]});
    DebugTask(&s);
    return s;
  }

  // get_state: the random generator, the grid and its object table (the
  // grid, boxes and the agent's hand hold indices into it, so no pointer
  // needs rebuilding), the agent, the step count and the mission (and
  // max_steps, which BabyAI sets at each reset). The view and the pictures
  // are worked out from these on every WriteObs/Render.
  ENVPOOL_LITE_STATE(rng_, max_steps_, grid_, objs_, agent_x_, agent_y_,
                     agent_dir_, carrying_, step_count_, mission_)

  // render(): get_frame(highlight, tile_size, agent_pov) of MiniGridEnv's
  // arguments (black before the first reset).
  void Render(uint8_t* rgb) override {
    const ViewOptions& o = view_options_;
    if (agent_dir_ < 0) {
      const std::size_t side_w = o.agent_pov ? view_ : width_;
      const std::size_t side_h = o.agent_pov ? view_ : height_;
      std::memset(rgb, 0, side_w * side_h * o.tile_size * o.tile_size * 3);
      return;
    }
    if (!render_tiles_) {
      render_tiles_ = std::make_unique<TileRenderer>(o.tile_size);
    }
    if (o.agent_pov) {
      RenderPov(*render_tiles_, rgb);
    } else {
      RenderFull(*render_tiles_, o.highlight, rgb);
    }
  }

 protected:
  // minigrid's _gen_grid: the walls, the objects, the agent and the mission.
  virtual void GenGrid() = 0;

  double Reward() const {
    return 1.0 - 0.9 * (static_cast<double>(step_count_) /
                        static_cast<double>(max_steps_));
  }

  // A new object (its index); walls share objs_[0].
  int NewObj(Type type, Color color = kGrey) {
    if (type == kWall) return 0;
    Obj o;
    o.type = type;
    o.color = color;
    objs_.push_back(o);
    return static_cast<int>(objs_.size()) - 1;
  }
  int NewDoor(Color color, bool is_open = false, bool is_locked = false) {
    int d = NewObj(kDoor, color);
    objs_[d].is_open = is_open;
    objs_[d].is_locked = is_locked;
    return d;
  }

  void SetMission(std::string mission) {
    if (mission.size() > static_cast<std::size_t>(mission_bytes_)) {
      throw std::logic_error("MiniGrid: mission longer than " +
                             std::to_string(mission_bytes_) + " bytes");
    }
    mission_ = std::move(mission);
  }

  // Grid.horz_wall / vert_wall / wall_rect (length -1: to the edge).
  void HorzWall(int x, int y, int length = -1) {
    if (length < 0) length = grid_.width() - x;
    for (int i = 0; i < length; ++i) grid_.Set(x + i, y, 0);
  }
  void VertWall(int x, int y, int length = -1) {
    if (length < 0) length = grid_.height() - y;
    for (int j = 0; j < length; ++j) grid_.Set(x, y + j, 0);
  }
  void WallRect(int x, int y, int w, int h) {
    HorzWall(x, y, w);
    HorzWall(x, y + h - 1, w);
    VertWall(x, y, h);
    VertWall(x + w - 1, y, h);
  }

  // _rand_int(low, high): np_random.integers(low, high), in [low, high).
  int RandInt(int low, int high) {
    return static_cast<int>(rng_.Integers(low, high));
  }
  // _rand_bool: np_random.integers(0, 2) == 0.
  bool RandBool() { return rng_.Integers(0, 2) == 0; }
  // _rand_color: _rand_elem(COLOR_NAMES).
  Color RandColor() { return kColorNames[RandInt(0, 6)]; }

  // put_obj
  void PutObj(int obj, int i, int j) {
    grid_.Set(i, j, obj);
    if (obj > 0) {
      objs_[obj].init_x = objs_[obj].cur_x = i;
      objs_[obj].init_y = objs_[obj].cur_y = j;
    }
  }

  // place_obj: rejection sampling of an empty cell of the rectangle (top,
  // size), not the agent's, that `reject` (if any) accepts. Returns it.
  template <typename Reject>
  std::pair<int, int> PlaceObj(int obj, int top_x, int top_y, int size_x,
                               int size_y, Reject reject) {
    // max_tries=math.inf: tries until a cell fits
    return TryPlaceObj(obj, top_x, top_y, size_x, size_y,
                       std::numeric_limits<int>::max() - 1, reject)
        .value();
  }
  // place_obj(..., max_tries): nullopt where minigrid raises (after
  // max_tries + 1 rejected draws), the object not placed.
  std::optional<std::pair<int, int>> TryPlaceObj(int obj, int top_x, int top_y,
                                                 int size_x, int size_y,
                                                 int max_tries) {
    return TryPlaceObj(obj, top_x, top_y, size_x, size_y, max_tries,
                       [](int, int) { return false; });
  }
  template <typename Reject>
  std::optional<std::pair<int, int>> TryPlaceObj(int obj, int top_x, int top_y,
                                                 int size_x, int size_y,
                                                 int max_tries, Reject reject) {
    top_x = std::max(top_x, 0);
    top_y = std::max(top_y, 0);
    for (int tries = 0;; ++tries) {
      if (tries > max_tries) return std::nullopt;
      const int x = RandInt(top_x, std::min(top_x + size_x, grid_.width()));
      const int y = RandInt(top_y, std::min(top_y + size_y, grid_.height()));
      if (grid_.Get(x, y) != kNone) continue;
      if (x == agent_x_ && y == agent_y_) continue;
      if (reject(x, y)) continue;
      grid_.Set(x, y, obj);
      if (obj > 0) {
        objs_[obj].init_x = objs_[obj].cur_x = x;
        objs_[obj].init_y = objs_[obj].cur_y = y;
      }
      return std::make_pair(x, y);
    }
  }
  std::pair<int, int> PlaceObj(int obj, int top_x = 0, int top_y = 0,
                               int size_x = -1, int size_y = -1) {
    if (size_x < 0) size_x = grid_.width();
    if (size_y < 0) size_y = grid_.height();
    return PlaceObj(obj, top_x, top_y, size_x, size_y,
                    [](int, int) { return false; });
  }

  // place_agent
  void PlaceAgent(int top_x = 0, int top_y = 0, int size_x = -1,
                  int size_y = -1, bool rand_dir = true) {
    agent_x_ = agent_y_ = -1;
    auto [x, y] = PlaceObj(kNone, top_x, top_y, size_x, size_y);
    agent_x_ = x;
    agent_y_ = y;
    if (rand_dir) agent_dir_ = RandInt(0, 4);
  }

  NumpyRandom rng_;
  int width_, height_;
  int view_;
  bool see_through_walls_;
  int64_t max_steps_ = 0;
  Grid grid_;
  std::vector<Obj> objs_;
  int agent_x_ = -1, agent_y_ = -1, agent_dir_ = -1;
  int carrying_ = kNone;
  int64_t step_count_ = 0;
  std::string mission_;
  int mission_bytes_ = kMissionBytes;  // the observation's mission bytes

  // A task's part of Debug(): its env_name as EnvPool names it (where
  // EnvPool's tests look for one), and the fields its step reads beyond the
  // grid and the agent.
  virtual const char* DebugName() const { return "minigrid"; }
  virtual void DebugTask(DebugState* s) const { (void)s; }
  // An object (or kNone: an empty cell) as (type, color, state).
  void Encode(int obj, std::vector<int64_t>* out) const {
    if (obj == kNone) {
      out->insert(out->end(), {kEmpty, 0, 0});
    } else {
      const Obj& o = objs_[obj];
      out->insert(out->end(),
                  {static_cast<int64_t>(o.type), static_cast<int64_t>(o.color),
                   static_cast<int64_t>(o.State())});
    }
  }
  // The object at (x, y) now (or an empty cell) and that position.
  void DebugTargetAt(DebugState* s, int x, int y) const {
    std::vector<int64_t> e;
    Encode(grid_.InBounds(x, y) ? grid_.Get(x, y) : kNone, &e);
    s->Int("target_type", {e[0]});
    s->Int("target_color", {e[1]});
    s->Int("target_pos", {x, y});
  }
  // An object's type, color and position (the target fields of Debug()).
  void DebugTarget(DebugState* s, int obj) const {
    std::vector<int64_t> e;
    Encode(obj, &e);
    s->Int("target_type", {e[0]});
    s->Int("target_color", {e[1]});
    const bool placed = obj != kNone && obj != carrying_;
    s->Int("target_pos",
           {placed ? objs_[obj].cur_x : -1, placed ? objs_[obj].cur_y : -1});
  }

 private:
  // WorldObj.toggle: a door opens and closes (a locked one opens with the
  // key of its colour carried); a box turns into what it holds.
  void Toggle(int obj, int x, int y) {
    Obj& o = objs_[obj];
    if (o.type == kDoor) {
      if (o.is_locked) {
        if (carrying_ != kNone && objs_[carrying_].type == kKey &&
            objs_[carrying_].color == o.color) {
          o.is_locked = false;
          o.is_open = true;
        }
        return;
      }
      o.is_open = !o.is_open;
    } else if (o.type == kBox) {
      grid_.Set(x, y, o.contains);
    }
  }

  // The observation's image, as the view options ask.
  void WriteImage(uint8_t* image) {
    const ViewOptions& o = view_options_;
    if (!o.rgb_img) {
      if (o.fully_obs) {
        EncodeFullGrid(image);
      } else {
        GenObs(image);
      }
      return;
    }
    if (!obs_tiles_)
      obs_tiles_ = std::make_unique<TileRenderer>(o.rgb_tile_size);
    if (o.fully_obs) {
      // RGBImgObsWrapper: get_frame(env.highlight, tile_size)
      RenderFull(*obs_tiles_, o.highlight, image);
    } else {
      RenderPov(*obs_tiles_, image);  // RGBImgPartialObsWrapper
    }
  }

  // gen_obs's image: the agent's view (ComputeView) encoded as (type, color,
  // state) per cell, image[i, j] = view cell (i, j), 0 where it cannot see.
  void GenObs(uint8_t* image) {
    ComputeView();
    const int sz = view_;
    for (int i = 0; i < sz; ++i) {
      for (int j = 0; j < sz; ++j) {
        uint8_t* p = image + (static_cast<std::size_t>(i) * sz + j) * 3;
        if (!visible_[Cell(i, j)]) {
          p[0] = p[1] = p[2] = 0;
          continue;
        }
        const int cell = view_cells_[Cell(i, j)];
        if (cell == kNone) {
          p[0] = kEmpty, p[1] = 0, p[2] = 0;
        } else if (cell == kOutside) {
          p[0] = kWall, p[1] = kGrey, p[2] = 0;
        } else {
          const Obj& o = objs_[cell];
          p[0] = o.type, p[1] = o.color, p[2] = o.State();
        }
      }
    }
  }

  // FullyObsWrapper's image: grid.encode() of the whole grid, image[x, y],
  // the agent's cell (agent, red, direction).
  void EncodeFullGrid(uint8_t* image) const {
    for (int x = 0; x < width_; ++x) {
      for (int y = 0; y < height_; ++y) {
        uint8_t* p = image + (static_cast<std::size_t>(x) * height_ + y) * 3;
        const int cell = grid_.Get(x, y);
        if (x == agent_x_ && y == agent_y_) {
          p[0] = kAgent, p[1] = kRed, p[2] = static_cast<uint8_t>(agent_dir_);
        } else if (cell == kNone) {
          p[0] = kEmpty, p[1] = 0, p[2] = 0;
        } else {
          const Obj& o = objs_[cell];
          p[0] = o.type, p[1] = o.color, p[2] = o.State();
        }
      }
    }
  }

  // get_full_render(highlight, tile_size): the whole grid, the agent drawn
  // in its cell, the cells it sees highlighted (if highlight). (H, W, 3).
  void RenderFull(TileRenderer& tiles, bool highlight, uint8_t* rgb) {
    seen_.assign(static_cast<std::size_t>(width_) * height_, 0);
    if (highlight) {
      ComputeView();
      const int sz = view_;
      const int fx = kDirX[agent_dir_], fy = kDirY[agent_dir_];
      const int rx = -fy, ry = fx;  // right_vec
      for (int j = 0; j < sz; ++j) {
        for (int i = 0; i < sz; ++i) {
          const int x = agent_x_ + fx * (sz - 1 - j) + rx * (i - sz / 2);
          const int y = agent_y_ + fy * (sz - 1 - j) + ry * (i - sz / 2);
          if (visible_[Cell(i, j)] && grid_.InBounds(x, y)) {
            seen_[static_cast<std::size_t>(y) * width_ + x] = 1;
          }
        }
      }
    }
    const std::size_t width_px =
        static_cast<std::size_t>(width_) * tiles.tile_size();
    for (int y = 0; y < height_; ++y) {
      for (int x = 0; x < width_; ++x) {
        const int cell = grid_.Get(x, y);
        const bool agent_here = x == agent_x_ && y == agent_y_;
        tiles.Draw(cell == kNone ? nullptr : &objs_[cell],
                   agent_here ? agent_dir_ : -1,
                   seen_[static_cast<std::size_t>(y) * width_ + x] != 0, x, y,
                   rgb, width_px);
      }
    }
  }

  // get_pov_render(tile_size): the agent's view (with what it carries in its
  // cell; process_vis empties the cells it cannot see), the agent at the
  // middle of the bottom row facing up, the cells it sees highlighted.
  // (view * tile_size) square.
  void RenderPov(TileRenderer& tiles, uint8_t* rgb) {
    static const Obj kGreyWall;  // Wall(): beyond the grid
    ComputeView();
    const int sz = view_;
    const std::size_t width_px =
        static_cast<std::size_t>(sz) * tiles.tile_size();
    for (int j = 0; j < sz; ++j) {
      for (int i = 0; i < sz; ++i) {
        const bool seen = visible_[Cell(i, j)] != 0;
        const int cell = seen ? view_cells_[Cell(i, j)] : kNone;
        const Obj* obj = cell == kNone      ? nullptr
                         : cell == kOutside ? &kGreyWall
                                            : &objs_[cell];
        const bool agent_here = i == sz / 2 && j == sz - 1;
        tiles.Draw(obj, agent_here ? 3 : -1, seen, i, j, rgb, width_px);
      }
    }
  }

  // gen_obs_grid: the agent's view, view_cells_ (the cells in front of it,
  // walls beyond the grid, rotated so that it looks up from the middle of
  // the bottom row, what it carries in its own cell) and visible_, what
  // walls and closed doors do not hide (process_vis, unless
  // see_through_walls).
  void ComputeView() {
    const int sz = view_;
    const int fx = kDirX[agent_dir_], fy = kDirY[agent_dir_];
    const int rx = -fy, ry = fx;  // right_vec
    for (int j = 0; j < sz; ++j) {
      for (int i = 0; i < sz; ++i) {
        const int x = agent_x_ + fx * (sz - 1 - j) + rx * (i - sz / 2);
        const int y = agent_y_ + fy * (sz - 1 - j) + ry * (i - sz / 2);
        view_cells_[Cell(i, j)] =
            grid_.InBounds(x, y) ? grid_.Get(x, y) : kOutside;
      }
    }
    auto see_behind = [&](int cell) {
      if (cell == kNone) return true;
      if (cell == kOutside) return false;
      return objs_[cell].SeeBehind();
    };
    if (see_through_walls_) {
      std::fill(visible_.begin(), visible_.end(), 1);
    } else {
      std::fill(visible_.begin(), visible_.end(), 0);
      visible_[Cell(sz / 2, sz - 1)] = 1;
      for (int j = sz - 1; j >= 0; --j) {
        for (int i = 0; i < sz - 1; ++i) {
          if (!visible_[Cell(i, j)] || !see_behind(view_cells_[Cell(i, j)])) {
            continue;
          }
          visible_[Cell(i + 1, j)] = 1;
          if (j > 0) {
            visible_[Cell(i + 1, j - 1)] = 1;
            visible_[Cell(i, j - 1)] = 1;
          }
        }
        for (int i = sz - 1; i >= 1; --i) {
          if (!visible_[Cell(i, j)] || !see_behind(view_cells_[Cell(i, j)])) {
            continue;
          }
          visible_[Cell(i - 1, j)] = 1;
          if (j > 0) {
            visible_[Cell(i - 1, j - 1)] = 1;
            visible_[Cell(i, j - 1)] = 1;
          }
        }
      }
    }
    view_cells_[Cell(sz / 2, sz - 1)] = carrying_;
  }
  std::size_t Cell(int i, int j) const {
    return static_cast<std::size_t>(j) * view_ + i;
  }

  static constexpr int kOutside = -2;  // a view cell beyond the grid: a wall
  std::vector<int> view_cells_;
  std::vector<uint8_t> visible_;
  ViewOptions view_options_;
  std::unique_ptr<TileRenderer> obs_tiles_;     // rgb_tile_size, on first use
  std::unique_ptr<TileRenderer> render_tiles_;  // tile_size, on first use
  std::vector<uint8_t> seen_;  // RenderFull's highlight mask, [y][x]
};

// Every task is registered as MiniGridTask<Task> (MiniGridRegistry, in
// registration.cc): the task's options plus the view options, and its spec
// with the image and render() size they give.
template <typename Task>
class MiniGridTask : public Task {
 public:
  using Task::Task;

  static Config DefaultConfig() {
    Config config = Task::DefaultConfig();
    const Config view_options = ViewOptions::Defaults();
    for (const auto& [name, value] : view_options.Values()) {
      if (!config.Has(name)) config.Set(name, value);
    }
    return config;
  }

  static EnvSpec MakeSpec(const Config& config) {
    EnvSpec spec = Task::MakeSpec(config);
    // The grid's size, which the task's constructor works out from its
    // options (a constructor only sets fields; the level is made at reset).
    const MiniGridTask probe(config, 0);
    ApplyViewOptions(config, probe.width_, probe.height_, &spec);
    return spec;
  }
};

// registration.cc's registry: Add<Task>(id, overrides) registers
// MiniGridTask<Task>.
class MiniGridRegistry {
 public:
  explicit MiniGridRegistry(Registry& registry) : registry_(registry) {}
  template <typename Task>
  void Add(const std::string& task_id, const Config& overrides = {}) {
    registry_.Add<MiniGridTask<Task>>(task_id, overrides);
  }

 private:
  Registry& registry_;
};

}  // namespace minigrid
}  // namespace envpool_lite
