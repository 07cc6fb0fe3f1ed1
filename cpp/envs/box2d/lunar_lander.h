// LunarLander (discrete and continuous), bit-exact with gymnasium 1.4.0's
// gymnasium/envs/box2d/lunar_lander.py (LunarLander-v3) on the box2d==2.3.10
// wheel: the same Box2D 2.3 C++ (third_party/box2d.cmake), called in the
// order and with the float32 values that pybox2d's Python wrappers pass it,
// and gymnasium's float64 arithmetic around it (Python floats are doubles;
// a float32 read from Box2D becomes a double; a double handed to Box2D is
// rounded to float32).
//
// Randomness: gymnasium's np_random (NumpyRandom), drawn in gymnasium's
// order: at reset the 12 terrain heights, the two components of the initial
// force, then (enable_wind) wind_idx and torque_idx; at every step (the one
// reset() runs included) two dispersion draws, whether an engine fires or
// not.
//
// Particles: gymnasium creates a Box2D body per engine firing only when the
// env has a render_mode ("particles are just a decoration"), and they
// collide with the terrain only (category/mask bits). They are created here
// once the env has been drawn (Render()), from then on in the same order as
// gymnasium's, with the same bodies, so that the world (and the picture)
// matches gymnasium's env made with render_mode="rgb_array" and drawn after
// each reset; an env never drawn has none, as gymnasium's with
// render_mode=None. The lander's physics does not depend on them (they are
// in other Box2D islands; tests/test_box2d_lunar_lander.py checks the
// trajectories are the same with and without).
//
// get_state / set_state by replay (replay.h): each reset makes a new
// b2World, so an episode is decided by the generator's state at its reset
// and the actions since, and by the particles' ageing at each Render()
// (which destroys bodies): the steps taken before each such Render() are
// logged too. LoadState resets and replays them all, so loading costs as
// much as the episode so far (up to 1000 steps).
#pragma once

#include <Box2D/Box2D.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <deque>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/env.h"
#include "envs/box2d/envpool_alignment_state.h"
#include "envs/box2d/replay.h"
#include "refkit/numpy/random.h"
#include "refkit/pygame/draw.h"

namespace envpool_lite {

class LunarLanderEnv : public Env {
 public:
  static Config DefaultConfig() {
    // gymnasium's LunarLander.__init__ defaults; LunarLander-v3's time limit.
    return {{"max_episode_steps", int64_t{1000}},
            {"continuous", false},
            {"gravity", -10.0},
            {"enable_wind", false},
            {"wind_power", 15.0},
            {"turbulence_power", 1.5}};
  }

  static EnvSpec MakeSpec(const Config& config) {
    // gymnasium asserts -12.0 < gravity < 0.0.
    const double gravity = config.GetFloat("gravity");
    if (!(gravity > -12.0 && gravity < 0.0)) {
      std::ostringstream msg;
      msg << "option 'gravity' must be in (-12, 0) (gymnasium asserts "
             "-12.0 < gravity < 0.0), got "
          << gravity;
      throw std::invalid_argument(msg.str());
    }
    // gymnasium only warns about these two; we refuse them.
    CheckRecommended(config, "wind_power", 20.0, "[0.0, 20.0]");
    CheckRecommended(config, "turbulence_power", 2.0, "[0.0, 2.0]");
    config.GetBool("enable_wind");  // type check
    const bool continuous = config.GetBool("continuous");

    EnvSpec spec;
    // gymnasium's observation_space bounds, as float32.
    const double two_pi = static_cast<float>(2 * M_PI);
    spec.obs = MakeBox<float>(
        "obs", {8}, {-2.5, -2.5, -10.0, -10.0, -two_pi, -10.0, -0.0, -0.0},
        {2.5, 2.5, 10.0, 10.0, two_pi, 10.0, 1.0, 1.0});
    if (continuous) {
      spec.action = MakeBox<float>("action", {2}, {-1.0}, {1.0});
    } else {
      spec.action = MakeDiscrete("action", 4);
    }
    spec.max_episode_steps = config.GetInt("max_episode_steps");
    spec.reward_float64 = true;  // gymnasium's rewards are Python floats
    spec.render_height = kViewportH;
    spec.render_width = kViewportW;
    return spec;
  }

  LunarLanderEnv(const Config& config, uint64_t seed)
      : continuous_(config.GetBool("continuous")),
        gravity_(config.GetFloat("gravity")),
        enable_wind_(config.GetBool("enable_wind")),
        wind_power_(config.GetFloat("wind_power")),
        turbulence_power_(config.GetFloat("turbulence_power")),
        rng_(seed),
        listener_(this) {}

  ~LunarLanderEnv() override {
    if (world_) world_->SetContactListener(nullptr);
  }

  void Seed(uint64_t seed) override { rng_.Seed(seed); }

  // LunarLander.reset.
  void Reset() override {
    log_.Begin(rng_);
    render_steps_.clear();
    // _destroy() then a new b2World (gymnasium's fix of its issue 728): the
    // old world, its particles included, goes away whole.
    if (world_) world_->SetContactListener(nullptr);
    particles_.clear();
    world_.reset(new b2World(b2Vec2(0.0f, static_cast<float>(gravity_))));
    world_->SetContactListener(&listener_);  // allowSleeping: true
    game_over_ = false;
    has_prev_shaping_ = false;

    // Terrain: np_random.uniform(0, H / 2, size=(CHUNKS + 1,)).
    double height[kChunks + 1];
    for (double& h : height) h = rng_.Uniform(0.0, kH / 2);
    double chunk_x[kChunks];
    for (int i = 0; i < kChunks; ++i) chunk_x[i] = kW / (kChunks - 1) * i;
    helipad_x1_ = chunk_x[kChunks / 2 - 1];
    helipad_x2_ = chunk_x[kChunks / 2 + 1];
    helipad_y_ = kH / 4;
    for (int i = kChunks / 2 - 2; i <= kChunks / 2 + 2; ++i) {
      height[i] = helipad_y_;
    }
    double smooth_y[kChunks];
    for (int i = 0; i < kChunks; ++i) {
      // height[i - 1] at i = 0 is Python's height[-1], the last one.
      const double prev = height[i == 0 ? kChunks : i - 1];
      smooth_y[i] = 0.33 * (prev + height[i] + height[i + 1]);
    }

    // self.moon = CreateStaticBody(shapes=edgeShape(vertices=[(0, 0),
    // (W, 0)])): a default b2FixtureDef (friction 0.2, density 0).
    b2BodyDef moon_def;
    moon_def.type = b2_staticBody;
    moon_ = world_->CreateBody(&moon_def);
    {
      b2EdgeShape edge;
      edge.m_vertex1.Set(0.0f, 0.0f);
      edge.m_vertex2.Set(static_cast<float>(kW), 0.0f);
      b2FixtureDef fd;
      fd.shape = &edge;
      moon_->CreateFixture(&fd);
    }
    for (int i = 0; i < kChunks - 1; ++i) {
      // moon.CreateEdgeFixture(vertices=[p1, p2], density=0, friction=0.1)
      b2EdgeShape edge;
      edge.m_vertex1.Set(static_cast<float>(chunk_x[i]),
                         static_cast<float>(smooth_y[i]));
      edge.m_vertex2.Set(static_cast<float>(chunk_x[i + 1]),
                         static_cast<float>(smooth_y[i + 1]));
      b2FixtureDef fd;
      fd.shape = &edge;
      fd.density = 0.0f;
      fd.friction = 0.1f;
      moon_->CreateFixture(&fd);
      // self.sky_polys (float64, for render()).
      SkyPoly& poly = sky_polys_[i];
      poly[0] = {chunk_x[i], smooth_y[i]};
      poly[1] = {chunk_x[i + 1], smooth_y[i + 1]};
      poly[2] = {chunk_x[i + 1], kH};
      poly[3] = {chunk_x[i], kH};
    }

    // The lander: CreateDynamicBody(position=, angle=0.0,
    // fixtures=fixtureDef(shape=polygonShape(vertices=LANDER_POLY / SCALE),
    // density=5.0, friction=0.1, categoryBits=0x0010, maskBits=0x001,
    // restitution=0.0)).
    const double initial_y = kViewportH / kScale;
    const double initial_x = kViewportW / kScale / 2;
    {
      b2BodyDef bd;
      bd.type = b2_dynamicBody;
      bd.position.Set(static_cast<float>(initial_x),
                      static_cast<float>(initial_y));
      bd.angle = 0.0f;
      lander_ = world_->CreateBody(&bd);
      static constexpr int kLanderPoly[6][2] = {{-14, 17}, {-17, 0}, {-17, -10},
                                                {17, -10}, {17, 0},  {14, 17}};
      b2Vec2 vertices[6];
      for (int i = 0; i < 6; ++i) {
        vertices[i].Set(static_cast<float>(kLanderPoly[i][0] / kScale),
                        static_cast<float>(kLanderPoly[i][1] / kScale));
      }
      b2PolygonShape shape;
      shape.Set(vertices, 6);
      b2FixtureDef fd;
      fd.shape = &shape;
      fd.density = 5.0f;
      fd.friction = 0.1f;
      fd.filter.categoryBits = 0x0010;
      fd.filter.maskBits = 0x001;
      fd.restitution = 0.0f;
      lander_->CreateFixture(&fd);
    }

    // The initial random force:
    // ApplyForceToCenter((uniform(-1000, 1000), uniform(-1000, 1000)), True).
    const double fx = rng_.Uniform(-kInitialRandom, kInitialRandom);
    const double fy = rng_.Uniform(-kInitialRandom, kInitialRandom);
    initial_force_[0] = fx;
    initial_force_[1] = fy;
    lander_->ApplyForceToCenter(
        b2Vec2(static_cast<float>(fx), static_cast<float>(fy)), true);

    // v3: the wind's offsets are drawn at every reset.
    if (enable_wind_) {
      wind_idx_ = rng_.Integers(-9999, 9999);
      torque_idx_ = rng_.Integers(-9999, 9999);
    }

    // The legs, i = -1 then +1, each with its revolute joint.
    for (int k = 0; k < 2; ++k) {
      const int i = k == 0 ? -1 : 1;
      b2BodyDef bd;
      bd.type = b2_dynamicBody;
      bd.position.Set(static_cast<float>(initial_x - i * kLegAway / kScale),
                      static_cast<float>(initial_y));
      bd.angle = static_cast<float>(i * 0.05);
      b2Body* leg = world_->CreateBody(&bd);
      b2PolygonShape shape;  // polygonShape(box=(LEG_W / SCALE, ...))
      shape.SetAsBox(static_cast<float>(kLegW / kScale),
                     static_cast<float>(kLegH / kScale));
      b2FixtureDef fd;
      fd.shape = &shape;
      fd.density = 1.0f;
      fd.restitution = 0.0f;
      fd.filter.categoryBits = 0x0020;
      fd.filter.maskBits = 0x001;
      leg->CreateFixture(&fd);
      legs_[k] = leg;
      leg_contact_[k] = false;

      b2RevoluteJointDef rjd;
      rjd.bodyA = lander_;
      rjd.bodyB = leg;
      // pybox2d's revoluteJointDef(bodyA=, bodyB=, ...) sets referenceAngle
      // = bodyB.angle - bodyA.angle (Python floats) when not given.
      rjd.referenceAngle =
          static_cast<float>(static_cast<double>(leg->GetAngle()) -
                             static_cast<double>(lander_->GetAngle()));
      rjd.localAnchorA.Set(0.0f, 0.0f);
      rjd.localAnchorB.Set(static_cast<float>(i * kLegAway / kScale),
                           static_cast<float>(kLegDown / kScale));
      rjd.enableMotor = true;
      rjd.enableLimit = true;
      rjd.maxMotorTorque = static_cast<float>(kLegSpringTorque);
      rjd.motorSpeed = static_cast<float>(+0.3 * i);
      if (i == -1) {
        rjd.lowerAngle = static_cast<float>(+0.9 - 0.5);
        rjd.upperAngle = static_cast<float>(+0.9);
      } else {
        rjd.lowerAngle = static_cast<float>(-0.9);
        rjd.upperAngle = static_cast<float>(-0.9 + 0.5);
      }
      world_->CreateJoint(&rjd);
    }

    // return self.step(np.array([0, 0]) if self.continuous else 0)[0]
    DoStep(0.0, 0.0, 0);
  }

  StepResult Step(const void* action) override {
    log_.Add(action, ActionBytes());
    if (continuous_) {
      const float* a = static_cast<const float*>(action);
      // np.clip(action, -1, +1).astype(np.float64): clipped in float32.
      return DoStep(static_cast<double>(ClipF(a[0])),
                    static_cast<double>(ClipF(a[1])), 0);
    }
    return DoStep(0.0, 0.0, *static_cast<const int32_t*>(action));
  }

  void WriteObs(const Row& row) override {
    float* obs = row.Obs<float>();
    for (int i = 0; i < 8; ++i) obs[i] = static_cast<float>(state_[i]);
  }

  // EnvPool's state (envpool_alignment_state.h): sky_polys, the lander's and
  // legs' body states, the legs' ground contact, game_over, prev_shaping, the
  // initial force and the last step's two dispersion draws (before / SCALE).
  DebugState Debug() const override {
    namespace bs = box2d_state;
    DebugState d;
    std::vector<double> sky;
    for (const SkyPoly& poly : sky_polys_) {
      for (const auto& p : poly) {
        sky.push_back(p.x);
        sky.push_back(p.y);
      }
    }
    d.Real("sky_polys", {kChunks - 1, 4, 2}, std::move(sky));
    if (lander_ == nullptr) return d;  // not reset yet
    d.Real("lander_state", {7}, bs::BodyState(lander_));
    std::vector<double> legs = bs::BodyState(legs_[0]);
    bs::Append(legs, bs::BodyState(legs_[1]));
    d.Real("leg_states", {2, 7}, std::move(legs));
    d.Real("ground_contact", {2},
           {leg_contact_[0] ? 1.0 : 0.0, leg_contact_[1] ? 1.0 : 0.0});
    d.Real("game_over", game_over_ ? 1.0 : 0.0);
    d.Real("prev_shaping", prev_shaping_);
    d.Real("last_dispersion", {2}, {last_dispersion_[0], last_dispersion_[1]});
    d.Real("initial_force", {2}, {initial_force_[0], initial_force_[1]});
    return d;
  }

  // gymnasium creates the exhaust particles (Box2D bodies that touch only the
  // moon: they never move the lander) only when the env has a render_mode.
  void EnableRendering() override { particles_enabled_ = true; }

  // LunarLander.render() for render_mode="rgb_array". Like gymnasium's, it
  // ages the particles (ttl -= 0.15) and destroys the dead ones.
  void Render(uint8_t* rgb) override {
    namespace pd = pygame_draw;
    if (surf_.width() == 0) surf_ = pd::Surface(kViewportW, kViewportH);
    pd::DrawRect(surf_, {255, 255, 255}, 0, 0, kViewportW, kViewportH);
    if (!world_) {  // not reset yet: a blank picture
      surf_.CopyTo(rgb);
      return;
    }

    AgeParticles();

    for (const SkyPoly& poly : sky_polys_) {
      pd::Point scaled[4];
      for (int i = 0; i < 4; ++i) {
        scaled[i] = {poly[i].x * kScale, poly[i].y * kScale};
      }
      pd::DrawPolygon(surf_, {0, 0, 0}, scaled, 4);
      pd::GfxAapolygon(surf_, scaled, 4, {0, 0, 0});
    }

    // for obj in self.particles + self.drawlist (lander, legs).
    const std::size_t n = particles_.size() + 3;
    for (std::size_t k = 0; k < n; ++k) {
      b2Body* body;
      pd::Color color1, color2;
      if (k < particles_.size()) {
        const double ttl = particles_[k].ttl;
        const auto c = [](double v) {
          return static_cast<uint8_t>(
              static_cast<int>((v > 0.2 ? v : 0.2) * 255));
        };
        body = particles_[k].body;
        color1 = color2 = {c(0.15 + ttl), c(0.5 * ttl), c(0.5 * ttl)};
      } else {
        const std::size_t j = k - particles_.size();
        body = j == 0 ? lander_ : legs_[j - 1];
        color1 = {128, 102, 230};
        color2 = {77, 77, 128};
      }
      for (b2Fixture* f = body->GetFixtureList(); f; f = f->GetNext()) {
        const b2Transform& trans = body->GetTransform();
        const float scale = static_cast<float>(kScale);
        if (f->GetType() == b2Shape::e_circle) {
          const auto* circle = static_cast<const b2CircleShape*>(f->GetShape());
          // trans * f.shape.pos * SCALE: float32, in pybox2d's C++.
          const b2Vec2 c = scale * b2Mul(trans, circle->m_p);
          const double radius = static_cast<double>(circle->m_radius) * kScale;
          pd::DrawCircle(surf_, color1, {c.x, c.y}, radius);
          pd::DrawCircle(surf_, color2, {c.x, c.y}, radius);
        } else {
          const auto* poly = static_cast<const b2PolygonShape*>(f->GetShape());
          pd::Point path[b2_maxPolygonVertices];
          for (int i = 0; i < poly->m_count; ++i) {
            const b2Vec2 v = scale * b2Mul(trans, poly->m_vertices[i]);
            path[i] = {v.x, v.y};
          }
          pd::DrawPolygon(surf_, color1, path, poly->m_count);
          pd::GfxAapolygon(surf_, path, poly->m_count, color1);
          pd::DrawAalines(surf_, color2, true, path, poly->m_count);
        }
        // The helipad's flags, drawn after every fixture (as gymnasium's
        // loop does; the antialiased edges blend again each time).
        for (double x : {helipad_x1_, helipad_x2_}) {
          x = x * kScale;
          const double flagy1 = helipad_y_ * kScale;
          const double flagy2 = flagy1 + 50;
          pd::DrawLine(surf_, {255, 255, 255}, {x, flagy1}, {x, flagy2}, 1);
          const pd::Point flag[3] = {
              {x, flagy2}, {x, flagy2 - 10}, {x + 25, flagy2 - 5}};
          pd::DrawPolygon(surf_, {204, 204, 0}, flag, 3);
          pd::GfxAapolygon(surf_, flag, 3, {204, 204, 0});
        }
      }
    }

    pd::FlipVertical(surf_);
    surf_.CopyTo(rgb);
  }

  void SaveState(StateWriter& out) const override {
    out(log_, render_steps_, particles_enabled_);
  }

  // The episode again: the reset with its first generator state, then its
  // actions, with the particles aged where Render() aged them.
  void LoadState(StateReader& in) override {
    box2d_replay::EpisodeLog log;
    std::vector<int64_t> render_steps;
    in(log, render_steps, particles_enabled_);
    rng_ = log.start_rng;
    Reset();
    const std::size_t steps = log.Steps(ActionBytes());
    std::size_t r = 0;
    for (std::size_t i = 0; i <= steps; ++i) {
      for (; r < render_steps.size() &&
             render_steps[r] == static_cast<int64_t>(i);
           ++r) {
        AgeParticles();
      }
      if (i < steps) Step(log.Action(i, ActionBytes()));
    }
  }

 protected:
  // wind_power / turbulence_power outside gymnasium's recommended range
  // [0, high] (`range` spells it).
  static void CheckRecommended(const Config& config, const std::string& name,
                               double high, const char* range) {
    const double v = config.GetFloat(name);
    if (!(v >= 0.0 && v <= high)) {
      std::ostringstream msg;
      msg << "option '" << name << "' must be in " << range
          << " (gymnasium warns and goes on; envpool_lite refuses), got " << v;
      throw std::invalid_argument(msg.str());
    }
  }

 private:
  // gymnasium's module constants.
  static constexpr int kFps = 50;
  static constexpr double kScale = 30.0;
  static constexpr double kMainEnginePower = 13.0;
  static constexpr double kSideEnginePower = 0.6;
  static constexpr double kInitialRandom = 1000.0;
  static constexpr int kLegAway = 20;
  static constexpr int kLegDown = 18;
  static constexpr int kLegW = 2;
  static constexpr int kLegH = 8;
  static constexpr int kLegSpringTorque = 40;
  static constexpr int kSideEngineHeight = 14;
  static constexpr int kSideEngineAway = 12;
  static constexpr int kMainEngineYLocation = 4;
  static constexpr int kViewportW = 600;
  static constexpr int kViewportH = 400;
  static constexpr int kChunks = 11;
  static constexpr double kW = kViewportW / kScale;
  static constexpr double kH = kViewportH / kScale;

  // gymnasium's ContactDetector.
  class ContactDetector : public b2ContactListener {
   public:
    explicit ContactDetector(LunarLanderEnv* env) : env_(env) {}
    void BeginContact(b2Contact* contact) override {
      b2Body* a = contact->GetFixtureA()->GetBody();
      b2Body* b = contact->GetFixtureB()->GetBody();
      if (env_->lander_ == a || env_->lander_ == b) env_->game_over_ = true;
      for (int i = 0; i < 2; ++i) {
        if (env_->legs_[i] == a || env_->legs_[i] == b) {
          env_->leg_contact_[i] = true;
        }
      }
    }
    void EndContact(b2Contact* contact) override {
      b2Body* a = contact->GetFixtureA()->GetBody();
      b2Body* b = contact->GetFixtureB()->GetBody();
      for (int i = 0; i < 2; ++i) {
        if (env_->legs_[i] == a || env_->legs_[i] == b) {
          env_->leg_contact_[i] = false;
        }
      }
    }

   private:
    LunarLanderEnv* env_;
  };

  struct Particle {
    b2Body* body;
    double ttl;
  };
  struct SkyPoint {
    double x, y;
  };
  using SkyPoly = SkyPoint[4];

  static float ClipF(float v) {
    return v < -1.0f ? -1.0f : (v > 1.0f ? 1.0f : v);
  }

  // _create_particle(mass, x, y, ttl).
  b2Body* CreateParticle(double mass, double x, double y, double ttl) {
    b2BodyDef bd;
    bd.type = b2_dynamicBody;
    bd.position.Set(static_cast<float>(x), static_cast<float>(y));
    bd.angle = 0.0f;
    b2Body* p = world_->CreateBody(&bd);
    b2CircleShape shape;  // circleShape(radius=2 / SCALE, pos=(0, 0))
    shape.m_radius = static_cast<float>(2 / kScale);
    shape.m_p.Set(0.0f, 0.0f);
    b2FixtureDef fd;
    fd.shape = &shape;
    fd.density = static_cast<float>(mass);
    fd.friction = 0.1f;
    fd.filter.categoryBits = 0x0100;
    fd.filter.maskBits = 0x001;
    fd.restitution = 0.3f;
    p->CreateFixture(&fd);
    particles_.push_back({p, ttl});
    CleanParticles(false);
    return p;
  }

  std::size_t ActionBytes() const {
    return continuous_ ? 2 * sizeof(float) : sizeof(int32_t);
  }

  // render()'s particle ageing (ttl -= 0.15, then the dead ones go), logged
  // for get_state when there is any particle to age.
  void AgeParticles() {
    if (particles_.empty()) return;
    render_steps_.push_back(static_cast<int64_t>(log_.Steps(ActionBytes())));
    for (Particle& p : particles_) p.ttl -= 0.15;
    CleanParticles(false);
  }

  // _clean_particles(all): destroys from the oldest while ttl < 0.
  void CleanParticles(bool all) {
    while (!particles_.empty() && (all || particles_.front().ttl < 0)) {
      world_->DestroyBody(particles_.front().body);
      particles_.pop_front();
    }
  }

  // LunarLander.step. Continuous: the clipped action (a0, a1); discrete:
  // the action index.
  StepResult DoStep(double a0, double a1, int discrete) {
    // The wind, while neither leg touches the ground.
    if (enable_wind_ && !(leg_contact_[0] || leg_contact_[1])) {
      const double wind_mag =
          std::tanh(std::sin(0.02 * static_cast<double>(wind_idx_)) +
                    std::sin(M_PI * 0.01 * static_cast<double>(wind_idx_))) *
          wind_power_;
      wind_idx_ += 1;
      lander_->ApplyForceToCenter(b2Vec2(static_cast<float>(wind_mag), 0.0f),
                                  true);
      const double torque_mag =
          std::tanh(std::sin(0.02 * static_cast<double>(torque_idx_)) +
                    std::sin(M_PI * 0.01 * static_cast<double>(torque_idx_))) *
          turbulence_power_;
      torque_idx_ += 1;
      lander_->ApplyTorque(static_cast<float>(torque_mag), true);
    }

    // tip, side and the two dispersion draws (drawn at every step).
    const double angle = lander_->GetAngle();
    const double tip0 = std::sin(angle), tip1 = std::cos(angle);
    const double side0 = -tip1, side1 = tip0;
    last_dispersion_[0] = rng_.Uniform(-1.0, 1.0);
    last_dispersion_[1] = rng_.Uniform(-1.0, 1.0);
    const double d0 = last_dispersion_[0] / kScale;
    const double d1 = last_dispersion_[1] / kScale;

    double m_power = 0.0;
    if ((continuous_ && a0 > 0.0) || (!continuous_ && discrete == 2)) {
      // The main engine.
      if (continuous_) {
        m_power = (Clip(a0, 0.0, 1.0) + 1.0) * 0.5;  // 0.5..1.0
      } else {
        m_power = 1.0;
      }
      const double k =
          static_cast<double>(kMainEngineYLocation) / kScale + 2 * d0;
      const double ox = tip0 * k + side0 * d1;
      const double oy = -tip1 * k - side1 * d1;
      const b2Vec2 pos = lander_->GetPosition();
      const double px = static_cast<double>(pos.x) + ox;
      const double py = static_cast<double>(pos.y) + oy;
      const b2Vec2 impulse_pos(static_cast<float>(px), static_cast<float>(py));
      if (particles_enabled_) {
        b2Body* p = CreateParticle(3.5, px, py, m_power);
        p->ApplyLinearImpulse(
            b2Vec2(static_cast<float>(ox * kMainEnginePower * m_power),
                   static_cast<float>(oy * kMainEnginePower * m_power)),
            impulse_pos, true);
      }
      lander_->ApplyLinearImpulse(
          b2Vec2(static_cast<float>(-ox * kMainEnginePower * m_power),
                 static_cast<float>(-oy * kMainEnginePower * m_power)),
          impulse_pos, true);
    }

    double s_power = 0.0;
    if ((continuous_ && std::fabs(a1) > 0.5) ||
        (!continuous_ && (discrete == 1 || discrete == 3))) {
      // The orientation (side) engines.
      double direction;
      if (continuous_) {
        direction = a1 > 0.0 ? 1.0 : -1.0;  // np.sign; |a1| > 0.5 here
        s_power = Clip(std::fabs(a1), 0.5, 1.0);
      } else {
        direction = discrete - 2;  // 1: left (-1), 3: right (+1)
        s_power = 1.0;
      }
      const double k = 3 * d1 + direction * kSideEngineAway / kScale;
      const double ox = tip0 * d0 + side0 * k;
      const double oy = -tip1 * d0 - side1 * k;
      const b2Vec2 pos = lander_->GetPosition();
      // gymnasium's 17 where SIDE_ENGINE_HEIGHT (14) was meant, as upstream.
      const double px = static_cast<double>(pos.x) + ox - tip0 * 17 / kScale;
      const double py =
          static_cast<double>(pos.y) + oy + tip1 * kSideEngineHeight / kScale;
      const b2Vec2 impulse_pos(static_cast<float>(px), static_cast<float>(py));
      if (particles_enabled_) {
        b2Body* p = CreateParticle(0.7, px, py, s_power);
        p->ApplyLinearImpulse(
            b2Vec2(static_cast<float>(ox * kSideEnginePower * s_power),
                   static_cast<float>(oy * kSideEnginePower * s_power)),
            impulse_pos, true);
      }
      lander_->ApplyLinearImpulse(
          b2Vec2(static_cast<float>(-ox * kSideEnginePower * s_power),
                 static_cast<float>(-oy * kSideEnginePower * s_power)),
          impulse_pos, true);
    }

    world_->Step(static_cast<float>(1.0 / kFps), 6 * 30, 2 * 30);

    const b2Vec2 pos = lander_->GetPosition();
    const b2Vec2 vel = lander_->GetLinearVelocity();
    state_[0] = (static_cast<double>(pos.x) - kViewportW / kScale / 2) /
                (kViewportW / kScale / 2);
    state_[1] = (static_cast<double>(pos.y) -
                 (helipad_y_ + static_cast<double>(kLegDown) / kScale)) /
                (kViewportH / kScale / 2);
    state_[2] = static_cast<double>(vel.x) * (kViewportW / kScale / 2) / kFps;
    state_[3] = static_cast<double>(vel.y) * (kViewportH / kScale / 2) / kFps;
    state_[4] = static_cast<double>(lander_->GetAngle());
    state_[5] =
        20.0 * static_cast<double>(lander_->GetAngularVelocity()) / kFps;
    state_[6] = leg_contact_[0] ? 1.0 : 0.0;
    state_[7] = leg_contact_[1] ? 1.0 : 0.0;

    const double* s = state_;
    const double shaping = -100 * std::sqrt(s[0] * s[0] + s[1] * s[1]) -
                           100 * std::sqrt(s[2] * s[2] + s[3] * s[3]) -
                           100 * std::fabs(s[4]) + 10 * s[6] + 10 * s[7];
    double reward = 0.0;
    if (has_prev_shaping_) reward = shaping - prev_shaping_;
    prev_shaping_ = shaping;
    has_prev_shaping_ = true;
    reward -= m_power * 0.30;
    reward -= s_power * 0.03;

    StepResult result;
    if (game_over_ || std::fabs(s[0]) >= 1.0) {
      result.terminated = true;
      reward = -100;
    }
    if (!lander_->IsAwake()) {
      result.terminated = true;
      reward = +100;
    }
    result.reward = reward;
    return result;
  }

  static double Clip(double v, double lo, double hi) {
    return v < lo ? lo : (v > hi ? hi : v);
  }

  // Options.
  bool continuous_;
  double gravity_;
  bool enable_wind_;
  double wind_power_;
  double turbulence_power_;

  NumpyRandom rng_;
  ContactDetector listener_;
  std::unique_ptr<b2World> world_;
  b2Body* moon_ = nullptr;
  b2Body* lander_ = nullptr;
  b2Body* legs_[2] = {nullptr, nullptr};
  bool leg_contact_[2] = {false, false};  // legs[i].ground_contact
  bool game_over_ = false;
  double prev_shaping_ = 0.0;
  bool has_prev_shaping_ = false;  // prev_shaping is not None
  int64_t wind_idx_ = 0;
  int64_t torque_idx_ = 0;
  double helipad_x1_ = 0.0, helipad_x2_ = 0.0, helipad_y_ = 0.0;
  SkyPoly sky_polys_[kChunks - 1] = {};
  double initial_force_[2] = {};    // the reset's, for Debug()
  double last_dispersion_[2] = {};  // the step's two uniform(-1, 1) draws
  double state_[8] = {};

  // Rendering.
  bool particles_enabled_ = false;  // a render_mode (EnableRendering)
  std::deque<Particle> particles_;
  pygame_draw::Surface surf_;

  // For get_state (replay.h): the episode so far, and the number of its
  // steps before each Render() that aged particles.
  box2d_replay::EpisodeLog log_;
  std::vector<int64_t> render_steps_;
};

// The Continuous ids: continuous must stay true.
class LunarLanderContinuousEnv : public LunarLanderEnv {
 public:
  using LunarLanderEnv::LunarLanderEnv;
  static EnvSpec MakeSpec(const Config& config) {
    if (!config.GetBool("continuous")) {
      throw std::invalid_argument(
          "option 'continuous' must be True for the LunarLanderContinuous "
          "ids (the id names the continuous task; use LunarLander-v3 for "
          "discrete actions)");
    }
    return LunarLanderEnv::MakeSpec(config);
  }
};

}  // namespace envpool_lite
