// BipedalWalker-v3 and BipedalWalkerHardcore-v3, bit-exact with gymnasium
// 1.4.0's gymnasium/envs/box2d/bipedal_walker.py on the box2d==2.3.10 wheel
// (pybox2d), whose Box2D C++ we build (third_party/box2d.cmake).
//
// What "the same arithmetic" takes, beyond running the same Box2D:
// - The Python side computes in float64 (terrain, clouds, the observation,
//   the shaping) and hands Box2D float32 values (pybox2d rounds each Python
//   float to the nearest float32): done here in double, cast where pybox2d
//   casts.
// - One b2World per env for its whole life, as gymnasium's (created in
//   __init__, emptied by _destroy() at each reset): the broad-phase tree
//   reuses its freed nodes, so proxy ids, hence contact order, hence the
//   solver's order, depend on every body created and destroyed before. The
//   bodies are created and destroyed in gymnasium's order.
// - numpy 2's scalar rules (NEP 50): with float32 actions the motor torques
//   and the torque cost are float32 products, and the reward becomes a float32
//   at its first `reward -= ...` (a Python float meeting an np.float32).
// - Every np_random draw, in order: terrain, clouds, the hull's push.
//
// get_state / set_state by replay (replay.h): the generator's state at the
// episode's start, the world's node pool then (the world outlives episodes,
// see above) and the actions since; LoadState empties the world, puts that
// pool back, resets and steps the actions again, so loading costs as much
// as the episode so far (up to 1600 steps, 2000 hardcore). Render()'s lidar
// counter is saved as it is.
#pragma once

#include <Box2D/Box2D.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <vector>

#include "core/env.h"
#include "envs/box2d/envpool_alignment_state.h"
#include "envs/box2d/replay.h"
#include "refkit/numpy/random.h"
#include "refkit/pygame/draw.h"

namespace envpool_lite {

namespace bipedal_walker {

// gymnasium's module constants, derived with the same float64 roundings.
constexpr int kFps = 50;
constexpr double kScale = 30.0;
constexpr int kMotorsTorque = 80;
constexpr int kSpeedHip = 4;
constexpr int kSpeedKnee = 6;
constexpr double kLidarRange = 160 / kScale;
constexpr int kInitialRandom = 5;
constexpr double kLegDown = -8 / kScale;
constexpr double kLegW = 8 / kScale;
constexpr double kLegH = 34 / kScale;
constexpr int kViewportW = 600;
constexpr int kViewportH = 400;
constexpr double kTerrainStep = 14 / kScale;
constexpr int kTerrainLength = 200;
constexpr double kTerrainHeight = kViewportH / kScale / 4;
constexpr int kTerrainGrass = 10;
constexpr int kTerrainStartpad = 20;
constexpr double kFriction = 2.5;
constexpr int kNumClouds = kTerrainLength / 20;
constexpr int kNumLidar = 10;
constexpr double kPi = 3.141592653589793;  // math.pi

// HULL_POLY, in pixels (divided by SCALE when the shape is made).
constexpr double kHullPoly[5][2] = {
    {-30, +9}, {+6, +9}, {+34, +1}, {+34, -8}, {-30, -8}};

using pygame_draw::Color;
using pygame_draw::Point;

}  // namespace bipedal_walker

class BipedalWalkerEnv : public Env {
 public:
  static Config DefaultConfig() {
    // render_lidar (internal): false for the envpool module, whose render()
    // is EnvPool's: no lidar ray, so the same state draws the same picture
    // (gymnasium's render() draws the next ray at every call).
    return {{"max_episode_steps", int64_t{1600}},
            {"hardcore", false},
            {"render_lidar", true}};
  }

  static EnvSpec MakeSpec(const Config& config) {
    using namespace bipedal_walker;
    config.GetBool("hardcore");  // type check
    // gymnasium's observation_space bounds (float32 arrays).
    const double pi = static_cast<float>(kPi);
    std::vector<double> low = {-pi,  -5.0, -5.0, -5.0, -pi, -5.0, -pi,
                               -5.0, -0.0, -pi,  -5.0, -pi, -5.0, -0.0};
    std::vector<double> high = {pi,  5.0, 5.0, 5.0, pi, 5.0, pi,
                                5.0, 5.0, pi,  5.0, pi, 5.0, 5.0};
    for (int i = 0; i < kNumLidar; ++i) {
      low.push_back(-1.0);
      high.push_back(1.0);
    }
    EnvSpec spec;
    spec.obs = MakeBox<float>("obs", {24}, low, high);
    spec.action = MakeBox<float>("action", {4}, {-1.0}, {1.0});
    spec.max_episode_steps = config.GetInt("max_episode_steps", 1,
                                           std::numeric_limits<int32_t>::max());
    // gymnasium's rewards with float32 actions are np.float32 values (and
    // -100); delivered as float64, the dtype of gymnasium's vector envs.
    spec.reward_float64 = true;
    spec.render_height = kViewportH;
    spec.render_width = kViewportW;
    return spec;
  }

  BipedalWalkerEnv(const Config& config, uint64_t seed)
      : hardcore_(config.GetBool("hardcore")),
        render_lidar_(config.GetBool("render_lidar")),
        rng_(seed),
        // __init__: self.world = Box2D.b2World() (gravity (0, -10), sleep
        // allowed: Box2D's defaults).
        world_(std::make_unique<b2World>(b2Vec2(0.0f, -10.0f))),
        contacts_(this) {
    using namespace bipedal_walker;
    world_->SetAllowSleeping(true);
    for (int i = 0; i < kNumLidar; ++i) {
      lidar_sin_[i] = std::sin(1.5 * i / 10.0);
      lidar_cos_[i] = std::cos(1.5 * i / 10.0);
    }
  }

  ~BipedalWalkerEnv() override {
    // The world owns every body; stop callbacks before it goes.
    world_->SetContactListener(nullptr);
  }

  void Seed(uint64_t seed) override { rng_.Seed(seed); }

  // reset(): _destroy(), the terrain, the clouds, the walker, then
  // self.step(np.array([0, 0, 0, 0])) for the first observation.
  void Reset() override {
    Destroy();
    world_history_ = box2d_replay::WorldHistory::Take(*world_);
    log_.Begin(rng_);
    world_->SetContactListener(&contacts_);
    game_over_ = false;
    has_prev_shaping_ = false;
    scroll_ = 0.0;
    lidar_render_ = 0;
    GenerateTerrain();
    GenerateClouds();
    CreateWalker();
    const float zeros[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    SetMotors(zeros);
    // That step's reward is discarded, its shaping kept.
    prev_shaping_ = Advance();
    has_prev_shaping_ = true;
  }

  StepResult Step(const void* action) override {
    using namespace bipedal_walker;
    const float* a = static_cast<const float*>(action);
    log_.Add(action, kActionBytes);
    SetMotors(a);
    const double shaping = Advance();
    // reward = 0 or shaping - self.prev_shaping (float64); then
    // `reward -= 0.00035 * MOTORS_TORQUE * np.clip(np.abs(a), 0, 1)` for
    // each np.float32 a: the product is float32 (0.028 taken as float32),
    // and so is every difference from the first on (NEP 50).
    float reward =
        has_prev_shaping_ ? static_cast<float>(shaping - prev_shaping_) : 0.0f;
    prev_shaping_ = shaping;
    has_prev_shaping_ = true;
    const float torque_cost = static_cast<float>(0.00035 * kMotorsTorque);
    for (int i = 0; i < 4; ++i) reward -= torque_cost * Clip01(std::fabs(a[i]));

    StepResult result;
    result.reward = reward;
    const double x = hull_->GetPosition().x;
    if (game_over_ || x < 0) {
      result.reward = -100;
      result.terminated = true;
    }
    if (x > (kTerrainLength - kTerrainGrass) * kTerrainStep) {
      result.terminated = true;
    }
    return result;
  }

  void WriteObs(const Row& row) override {
    float* obs = row.Obs<float>();
    std::copy(obs_, obs_ + 24, obs);
  }

  void Render(uint8_t* rgb) override;

  void SaveState(StateWriter& out) const override {
    out(log_, world_history_, lidar_render_);
  }

  // The episode again: the world emptied and given back its node pool, the
  // reset with the episode's first generator state, then its actions.
  void LoadState(StateReader& in) override {
    box2d_replay::EpisodeLog log;
    box2d_replay::WorldHistory history;
    int lidar_render = 0;
    in(log, history, lidar_render);
    Destroy();
    history.Restore(*world_);
    rng_ = log.start_rng;
    Reset();
    for (std::size_t i = 0; i < log.Steps(kActionBytes); ++i) {
      Step(log.Action(i, kActionBytes));
    }
    lidar_render_ = lidar_render;
  }

  // EnvPool's state (envpool_alignment_state.h), its layout: self.terrain's
  // edges (path2) and polygons then the four legs (path4), the hull (path5), in
  // pixels; the clouds (world units); the hull's, legs' and joints' states;
  // ground contact, prev_shaping, game_over, the initial force, scroll.
  DebugState Debug() const override {
    namespace bs = box2d_state;
    using bipedal_walker::kScale;
    DebugState d;
    if (hull_ == nullptr) return d;  // not reset yet
    const float scale = static_cast<float>(kScale);
    std::vector<double> path2, path4, path5;
    for (const TerrainBody& t : terrain_) {
      const b2Fixture* f = t.body->GetFixtureList();
      if (f->GetType() == b2Shape::e_edge) {
        const auto* edge = static_cast<const b2EdgeShape*>(f->GetShape());
        bs::AppendWorldPoint(path2, t.body, edge->m_vertex1, scale);
        bs::AppendWorldPoint(path2, t.body, edge->m_vertex2, scale);
      } else {
        const auto* poly = static_cast<const b2PolygonShape*>(f->GetShape());
        for (int k = 0; k < poly->m_count; ++k) {
          bs::AppendWorldPoint(path4, t.body, poly->m_vertices[k], scale);
        }
      }
    }
    std::vector<double> legs, joints;
    for (int i = 0; i < 4; ++i) {
      const auto* poly = static_cast<const b2PolygonShape*>(
          legs_[i]->GetFixtureList()->GetShape());
      for (int k = 0; k < poly->m_count; ++k) {
        bs::AppendWorldPoint(path4, legs_[i], poly->m_vertices[k], scale);
      }
      bs::Append(legs, bs::BodyState(legs_[i]));
      joints.insert(
          joints.end(),
          {joints_[i]->GetJointAngle(), joints_[i]->GetJointSpeed(),
           joints_[i]->GetMotorSpeed(), joints_[i]->GetMaxMotorTorque()});
    }
    const auto* hull =
        static_cast<const b2PolygonShape*>(hull_->GetFixtureList()->GetShape());
    for (int k = 0; k < hull->m_count; ++k) {
      bs::AppendWorldPoint(path5, hull_, hull->m_vertices[k], scale);
    }
    std::vector<double> clouds;
    for (const Cloud& cloud : clouds_) {
      for (const auto& point : cloud.poly)
        clouds.insert(clouds.end(), point, point + 2);
    }
    const auto n2 = static_cast<int64_t>(path2.size() / 4);
    const auto n4 = static_cast<int64_t>(path4.size() / 8);
    d.Real("path2", {n2, 2, 2}, std::move(path2));
    d.Real("path4", {n4, 4, 2}, std::move(path4));
    d.Real("path5", {1, hull->m_count, 2}, std::move(path5));
    d.Real("cloud_poly", {bipedal_walker::kNumClouds, 5, 2}, std::move(clouds));
    d.Real("hull_state", {7}, bs::BodyState(hull_));
    d.Real("leg_states", {4, 7}, std::move(legs));
    d.Real("joint_states", {4, 4}, std::move(joints));
    std::vector<double> contact;
    for (bool c : ground_contact_) contact.push_back(c ? 1.0 : 0.0);
    d.Real("ground_contact", {4}, std::move(contact));
    d.Real("prev_shaping", prev_shaping_);
    d.Real("game_over", game_over_ ? 1.0 : 0.0);
    d.Real("initial_force", initial_force_);
    d.Real("scroll", scroll_);
    return d;
  }

 private:
  using Color = bipedal_walker::Color;
  using Point = bipedal_walker::Point;

  // ContactDetector: the hull touching anything ends the game; the lower
  // legs' ground_contact follows their contacts' begin and end.
  class ContactDetector : public b2ContactListener {
   public:
    explicit ContactDetector(BipedalWalkerEnv* env) : env_(env) {}
    void BeginContact(b2Contact* contact) override {
      const b2Body* a = contact->GetFixtureA()->GetBody();
      const b2Body* b = contact->GetFixtureB()->GetBody();
      if (env_->hull_ == a || env_->hull_ == b) env_->game_over_ = true;
      for (int leg : {1, 3}) {
        if (env_->legs_[leg] == a || env_->legs_[leg] == b) {
          env_->ground_contact_[leg] = true;
        }
      }
    }
    void EndContact(b2Contact* contact) override {
      const b2Body* a = contact->GetFixtureA()->GetBody();
      const b2Body* b = contact->GetFixtureB()->GetBody();
      for (int leg : {1, 3}) {
        if (env_->legs_[leg] == a || env_->legs_[leg] == b) {
          env_->ground_contact_[leg] = false;
        }
      }
    }

   private:
    BipedalWalkerEnv* env_;
  };

  // LidarCallback.ReportFixture: skip fixtures without category bit 1 (the
  // walker's own), else keep the hit and clip the ray to it.
  // p1 and p2 are kept for render(): p1 the hull's position (float32), p2
  // the ray's end (float64, as step() computes it) until a hit replaces it
  // with the hit point (float32).
  struct LidarCallback : public b2RayCastCallback {
    float fraction = 1.0f;
    b2Vec2 p1{0.0f, 0.0f};
    double p2[2] = {0.0, 0.0};
    float32 ReportFixture(b2Fixture* fixture, const b2Vec2& point,
                          const b2Vec2& normal, float32 fraction_in) override {
      if ((fixture->GetFilterData().categoryBits & 1) == 0) return -1;
      p2[0] = point.x;
      p2[1] = point.y;
      fraction = fraction_in;
      return fraction_in;
    }
  };

  // A terrain body with its colors (t.color1, t.color2).
  struct TerrainBody {
    b2Body* body;
    Color color1;
    Color color2;
  };

  static constexpr std::size_t kActionBytes = 4 * sizeof(float);

  static float Clip01(float v) { return std::min(std::max(v, 0.0f), 1.0f); }

  // _destroy(): the listener off, then the terrain (in self.terrain's
  // order), the hull (its joints with it), the legs.
  void Destroy() {
    if (terrain_.empty()) return;
    world_->SetContactListener(nullptr);
    for (const TerrainBody& t : terrain_) world_->DestroyBody(t.body);
    terrain_.clear();
    world_->DestroyBody(hull_);
    hull_ = nullptr;
    for (b2Body*& leg : legs_) {
      world_->DestroyBody(leg);
      leg = nullptr;
    }
    for (b2RevoluteJoint*& joint : joints_) joint = nullptr;
  }

  // world.CreateStaticBody(fixtures=self.fd_polygon) after
  // self.fd_polygon.shape.vertices = poly (pybox2d: float32 vertices, then
  // b2PolygonShape::Set); friction FRICTION, default filter.
  void AddTerrainPolygon(const double (&poly)[4][2]) {
    b2Vec2 vertices[4];
    for (int i = 0; i < 4; ++i) {
      vertices[i].Set(static_cast<float>(poly[i][0]),
                      static_cast<float>(poly[i][1]));
    }
    b2PolygonShape shape;
    shape.Set(vertices, 4);
    b2FixtureDef fd;
    fd.shape = &shape;
    fd.friction = static_cast<float>(bipedal_walker::kFriction);
    b2BodyDef bd;
    bd.type = b2_staticBody;
    b2Body* body = world_->CreateBody(&bd);
    body->CreateFixture(&fd);
    terrain_.push_back({body, {255, 255, 255}, {153, 153, 153}});
  }

  // _generate_terrain(hardcore).
  void GenerateTerrain() {
    using namespace bipedal_walker;
    enum { kGrass = 0, kStump, kStairs, kPit, kStates };
    int64_t state = kGrass;
    double velocity = 0.0;
    double y = kTerrainHeight;
    int64_t counter = kTerrainStartpad;
    bool oneshot = false;
    int64_t stair_steps = 0, stair_width = 0, stair_height = 0;
    double original_y = 0;
    for (int i = 0; i < kTerrainLength; ++i) {
      const double x = i * kTerrainStep;
      terrain_x_[i] = x;
      if (state == kGrass && !oneshot) {
        // np.sign(TERRAIN_HEIGHT - y)
        const double d = kTerrainHeight - y;
        const double sign = d > 0 ? 1.0 : (d < 0 ? -1.0 : 0.0);
        velocity = 0.8 * velocity + 0.01 * sign;
        if (i > kTerrainStartpad) velocity += rng_.Uniform(-1, 1) / kScale;
        y += velocity;
      } else if (state == kPit && oneshot) {
        counter = rng_.Integers(3, 5);
        const double poly[4][2] = {{x, y},
                                   {x + kTerrainStep, y},
                                   {x + kTerrainStep, y - 4 * kTerrainStep},
                                   {x, y - 4 * kTerrainStep}};
        AddTerrainPolygon(poly);
        double moved[4][2];
        for (int k = 0; k < 4; ++k) {
          moved[k][0] =
              poly[k][0] + kTerrainStep * static_cast<double>(counter);
          moved[k][1] = poly[k][1];
        }
        AddTerrainPolygon(moved);
        counter += 2;
        original_y = y;
      } else if (state == kPit && !oneshot) {
        y = original_y;
        if (counter > 1) y -= 4 * kTerrainStep;
      } else if (state == kStump && oneshot) {
        counter = rng_.Integers(1, 3);
        const double size = static_cast<double>(counter) * kTerrainStep;
        const double poly[4][2] = {
            {x, y}, {x + size, y}, {x + size, y + size}, {x, y + size}};
        AddTerrainPolygon(poly);
      } else if (state == kStairs && oneshot) {
        stair_height = rng_.NextDouble() > 0.5 ? +1 : -1;
        stair_width = rng_.Integers(4, 5);
        stair_steps = rng_.Integers(3, 5);
        original_y = y;
        for (int64_t s = 0; s < stair_steps; ++s) {
          const double x0 =
              x + static_cast<double>(s * stair_width) * kTerrainStep;
          const double x1 =
              x + static_cast<double>((1 + s) * stair_width) * kTerrainStep;
          const double y0 =
              y + static_cast<double>(s * stair_height) * kTerrainStep;
          const double y1 =
              y + static_cast<double>(-1 + s * stair_height) * kTerrainStep;
          const double poly[4][2] = {{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}};
          AddTerrainPolygon(poly);
        }
        counter = stair_steps * stair_width;
      } else if (state == kStairs && !oneshot) {
        const int64_t s = stair_steps * stair_width - counter - stair_height;
        const double n =
            static_cast<double>(s) / static_cast<double>(stair_width);
        y = original_y + (n * static_cast<double>(stair_height)) * kTerrainStep;
      }
      oneshot = false;
      terrain_y_[i] = y;
      counter -= 1;
      if (counter == 0) {
        counter = rng_.Integers(kTerrainGrass / 2, kTerrainGrass);
        if (state == kGrass && hardcore_) {
          state = rng_.Integers(1, kStates);
        } else {
          state = kGrass;
        }
        oneshot = true;
      }
    }
    // The grass edges, one static body each (fd_edge: friction FRICTION,
    // categoryBits 1; pybox2d sets the edge's two vertices as float32).
    for (int i = 0; i < kTerrainLength - 1; ++i) {
      b2EdgeShape shape;
      shape.m_vertex1.Set(static_cast<float>(terrain_x_[i]),
                          static_cast<float>(terrain_y_[i]));
      shape.m_vertex2.Set(static_cast<float>(terrain_x_[i + 1]),
                          static_cast<float>(terrain_y_[i + 1]));
      b2FixtureDef fd;
      fd.shape = &shape;
      fd.friction = static_cast<float>(kFriction);
      fd.filter.categoryBits = 0x0001;
      b2BodyDef bd;
      bd.type = b2_staticBody;
      b2Body* body = world_->CreateBody(&bd);
      body->CreateFixture(&fd);
      const Color color{76, static_cast<uint8_t>(i % 2 == 0 ? 255 : 204), 76};
      terrain_.push_back({body, color, color});
    }
    std::reverse(terrain_.begin(), terrain_.end());  // self.terrain.reverse()
  }

  // _generate_clouds(): drawn only, but their draws come between the
  // terrain's and the hull's.
  void GenerateClouds() {
    using namespace bipedal_walker;
    for (int c = 0; c < kNumClouds; ++c) {
      const double x = rng_.Uniform(0, kTerrainLength) * kTerrainStep;
      const double y = kViewportH / kScale * 3 / 4;
      Cloud& cloud = clouds_[c];
      for (int a = 0; a < 5; ++a) {
        const double angle = 3.14 * 2 * a / 5;
        // The tuple's x (with its draw) before its y (with its draw).
        cloud.poly[a][0] = x + 15 * kTerrainStep * std::sin(angle) +
                           rng_.Uniform(0, 5 * kTerrainStep);
        cloud.poly[a][1] = y + 5 * kTerrainStep * std::cos(angle) +
                           rng_.Uniform(0, 5 * kTerrainStep);
      }
      cloud.x1 = cloud.x2 = cloud.poly[0][0];
      for (int a = 1; a < 5; ++a) {
        cloud.x1 = std::min(cloud.x1, cloud.poly[a][0]);
        cloud.x2 = std::max(cloud.x2, cloud.poly[a][0]);
      }
    }
  }

  // world.CreateDynamicBody(position=..., angle=..., fixtures=fd): the
  // position and angle as float32, then the fixture (mass from density).
  b2Body* CreateDynamicBody(double x, double y, double angle,
                            const b2FixtureDef& fd) {
    b2BodyDef bd;
    bd.type = b2_dynamicBody;
    bd.position.Set(static_cast<float>(x), static_cast<float>(y));
    bd.angle = static_cast<float>(angle);
    b2Body* body = world_->CreateBody(&bd);
    body->CreateFixture(&fd);
    return body;
  }

  // revoluteJointDef(bodyA=..., bodyB=..., ...): pybox2d sets
  // referenceAngle = bodyB.angle - bodyA.angle (float64, then float32).
  b2RevoluteJoint* CreateJoint(b2Body* a, b2Body* b, double anchor_a_y,
                               double anchor_b_y, double motor_speed,
                               double lower, double upper) {
    b2RevoluteJointDef rjd;
    rjd.bodyA = a;
    rjd.bodyB = b;
    rjd.localAnchorA.Set(0.0f, static_cast<float>(anchor_a_y));
    rjd.localAnchorB.Set(0.0f, static_cast<float>(anchor_b_y));
    rjd.enableMotor = true;
    rjd.enableLimit = true;
    rjd.maxMotorTorque = static_cast<float>(bipedal_walker::kMotorsTorque);
    rjd.motorSpeed = static_cast<float>(motor_speed);
    rjd.lowerAngle = static_cast<float>(lower);
    rjd.upperAngle = static_cast<float>(upper);
    rjd.referenceAngle = static_cast<float>(static_cast<double>(b->GetAngle()) -
                                            static_cast<double>(a->GetAngle()));
    return static_cast<b2RevoluteJoint*>(world_->CreateJoint(&rjd));
  }

  // reset()'s walker: the hull (pushed by a random force), then for each
  // side -1, +1 the upper leg and its hip joint, the lower leg and its knee.
  void CreateWalker() {
    using namespace bipedal_walker;
    const double init_x = kTerrainStep * kTerrainStartpad / 2;
    const double init_y = kTerrainHeight + 2 * kLegH;

    // HULL_FD, LEG_FD, LOWER_FD.
    b2Vec2 hull_vertices[5];
    for (int i = 0; i < 5; ++i) {
      hull_vertices[i].Set(static_cast<float>(kHullPoly[i][0] / kScale),
                           static_cast<float>(kHullPoly[i][1] / kScale));
    }
    b2PolygonShape hull_shape;
    hull_shape.Set(hull_vertices, 5);
    b2FixtureDef hull_fd;
    hull_fd.shape = &hull_shape;
    hull_fd.density = 5.0f;
    hull_fd.friction = 0.1f;
    hull_fd.filter.categoryBits = 0x0020;
    hull_fd.filter.maskBits = 0x001;
    hull_fd.restitution = 0.0f;
    b2PolygonShape leg_shape;
    leg_shape.SetAsBox(static_cast<float>(kLegW / 2),
                       static_cast<float>(kLegH / 2));
    b2FixtureDef leg_fd;
    leg_fd.shape = &leg_shape;
    leg_fd.density = 1.0f;
    leg_fd.restitution = 0.0f;
    leg_fd.filter.categoryBits = 0x0020;
    leg_fd.filter.maskBits = 0x001;
    b2PolygonShape lower_shape;
    lower_shape.SetAsBox(static_cast<float>(0.8 * kLegW / 2),
                         static_cast<float>(kLegH / 2));
    b2FixtureDef lower_fd = leg_fd;
    lower_fd.shape = &lower_shape;

    hull_ = CreateDynamicBody(init_x, init_y, 0.0, hull_fd);
    initial_force_ = rng_.Uniform(-kInitialRandom, kInitialRandom);
    hull_->ApplyForceToCenter(b2Vec2(static_cast<float>(initial_force_), 0.0f),
                              true);

    int k = 0;
    for (int i : {-1, +1}) {
      b2Body* leg = CreateDynamicBody(init_x, init_y - kLegH / 2 - kLegDown,
                                      i * 0.05, leg_fd);
      legs_[k] = leg;
      joints_[k] = CreateJoint(hull_, leg, kLegDown, kLegH / 2, i, -0.8, 1.1);
      ground_contact_[k] = false;
      b2Body* lower = CreateDynamicBody(
          init_x, init_y - kLegH * 3 / 2 - kLegDown, i * 0.05, lower_fd);
      ground_contact_[k + 1] = false;
      legs_[k + 1] = lower;
      joints_[k + 1] =
          CreateJoint(leg, lower, -kLegH / 2, kLegH / 2, 1, -1.6, -0.1);
      leg_colors_[k / 2][0] = Color{static_cast<uint8_t>(153 - i * 25),
                                    static_cast<uint8_t>(76 - i * 25),
                                    static_cast<uint8_t>(127 - i * 25)};
      leg_colors_[k / 2][1] = Color{static_cast<uint8_t>(102 - i * 25),
                                    static_cast<uint8_t>(51 - i * 25),
                                    static_cast<uint8_t>(76 - i * 25)};
      k += 2;
    }
  }

  // step()'s motor settings: motorSpeed = float(SPEED * np.sign(a)),
  // maxMotorTorque = float(MOTORS_TORQUE * np.clip(np.abs(a), 0, 1)), the
  // product in float32; speed then torque, joint by joint (each wakes its
  // bodies).
  void SetMotors(const float* a) {
    using namespace bipedal_walker;
    for (int j = 0; j < 4; ++j) {
      const float sign = a[j] > 0 ? 1.0f : (a[j] < 0 ? -1.0f : 0.0f);
      const float speed =
          static_cast<float>(j % 2 == 0 ? kSpeedHip : kSpeedKnee);
      joints_[j]->SetMotorSpeed(speed * sign);
      joints_[j]->SetMaxMotorTorque(static_cast<float>(kMotorsTorque) *
                                    Clip01(std::fabs(a[j])));
    }
  }

  // step() after the motors: world.Step, the 10 lidar rays, the state
  // vector (float64 arithmetic on Box2D's float32 values, then float32),
  // self.scroll; returns this step's shaping.
  double Advance() {
    using namespace bipedal_walker;
    world_->Step(static_cast<float>(1.0 / kFps), 6 * 30, 2 * 30);
    const b2Vec2 pos = hull_->GetPosition();
    const b2Vec2 vel = hull_->GetLinearVelocity();
    for (int i = 0; i < kNumLidar; ++i) {
      LidarCallback& l = lidar_[i];
      l.fraction = 1.0f;
      l.p1 = pos;
      l.p2[0] = static_cast<double>(pos.x) + lidar_sin_[i] * kLidarRange;
      l.p2[1] = static_cast<double>(pos.y) - lidar_cos_[i] * kLidarRange;
      world_->RayCast(
          &l, l.p1,
          b2Vec2(static_cast<float>(l.p2[0]), static_cast<float>(l.p2[1])));
    }
    double state[24];
    state[0] = hull_->GetAngle();
    state[1] = 2.0 * static_cast<double>(hull_->GetAngularVelocity()) / kFps;
    state[2] = 0.3 * static_cast<double>(vel.x) * (kViewportW / kScale) / kFps;
    state[3] = 0.3 * static_cast<double>(vel.y) * (kViewportH / kScale) / kFps;
    for (int side = 0; side < 2; ++side) {
      b2RevoluteJoint* hip = joints_[2 * side];
      b2RevoluteJoint* knee = joints_[2 * side + 1];
      double* s = state + 4 + 5 * side;
      s[0] = hip->GetJointAngle();
      s[1] = static_cast<double>(hip->GetJointSpeed()) / kSpeedHip;
      s[2] = static_cast<double>(knee->GetJointAngle()) + 1.0;
      s[3] = static_cast<double>(knee->GetJointSpeed()) / kSpeedKnee;
      s[4] = ground_contact_[2 * side + 1] ? 1.0 : 0.0;
    }
    for (int i = 0; i < kNumLidar; ++i) state[14 + i] = lidar_[i].fraction;
    for (int i = 0; i < 24; ++i) obs_[i] = static_cast<float>(state[i]);

    scroll_ = static_cast<double>(pos.x) - kViewportW / kScale / 5;
    double shaping = 130 * static_cast<double>(pos.x) / kScale;
    shaping -= 5.0 * std::fabs(state[0]);
    return shaping;
  }

  struct Cloud {
    double poly[5][2];
    double x1, x2;
  };

  bool hardcore_;
  bool render_lidar_;
  NumpyRandom rng_;
  std::unique_ptr<b2World> world_;
  ContactDetector contacts_;

  // self.terrain (after its reverse()), the walker.
  std::vector<TerrainBody> terrain_;
  b2Body* hull_ = nullptr;
  b2Body* legs_[4] = {nullptr, nullptr, nullptr, nullptr};
  b2RevoluteJoint* joints_[4] = {nullptr, nullptr, nullptr, nullptr};
  bool ground_contact_[4] = {false, false, false, false};
  Color leg_colors_[2][2] = {};  // [side][color1, color2]

  double terrain_x_[bipedal_walker::kTerrainLength] = {};
  double terrain_y_[bipedal_walker::kTerrainLength] = {};
  Cloud clouds_[bipedal_walker::kNumClouds] = {};

  LidarCallback lidar_[bipedal_walker::kNumLidar];
  double lidar_sin_[bipedal_walker::kNumLidar] = {};
  double lidar_cos_[bipedal_walker::kNumLidar] = {};

  bool game_over_ = false;
  bool has_prev_shaping_ = false;  // self.prev_shaping is not None
  double prev_shaping_ = 0.0;
  double scroll_ = 0.0;
  double initial_force_ = 0.0;  // the reset's (x), for Debug()
  int lidar_render_ = 0;
  float obs_[24] = {};

  // For get_state (replay.h): the episode so far, the world before it.
  box2d_replay::EpisodeLog log_;
  box2d_replay::WorldHistory world_history_;
};

// render() in rgb_array mode: gymnasium draws on a surface
// VIEWPORT_W + max(0, scroll) * SCALE pixels wide (pygame truncates the
// width), in world pixels, flips it and returns its last VIEWPORT_W columns.
// Every coordinate is computed as the Python code computes it (float64, or
// float32 where pybox2d's b2Vec2 arithmetic runs).
inline void BipedalWalkerEnv::Render(uint8_t* rgb) {
  using namespace bipedal_walker;
  namespace draw = pygame_draw;
  const int width =
      static_cast<int>(kViewportW + std::max(0.0, scroll_) * kScale);
  draw::Surface surf(width, kViewportH);

  const double left = scroll_ * kScale;
  const Point sky[4] = {{left, 0},
                        {left + kViewportW, 0},
                        {left + kViewportW, kViewportH},
                        {left, kViewportH}};
  draw::DrawPolygon(surf, Color{215, 215, 255}, sky, 4);

  for (const Cloud& cloud : clouds_) {
    if (cloud.x2 < scroll_ / 2) continue;
    if (cloud.x1 > scroll_ / 2 + kViewportW / kScale) continue;
    Point pts[5];
    for (int a = 0; a < 5; ++a) {
      pts[a] = {cloud.poly[a][0] * kScale + scroll_ * kScale / 2,
                cloud.poly[a][1] * kScale};
    }
    draw::DrawPolygon(surf, Color{255, 255, 255}, pts, 5);
    draw::GfxAapolygon(surf, pts, 5, Color{255, 255, 255});
  }

  // self.terrain_poly: each grass segment down to y = 0.
  const Color grass{102, 153, 76};
  for (int i = 0; i < kTerrainLength - 1; ++i) {
    if (terrain_x_[i + 1] < scroll_) continue;
    if (terrain_x_[i] > scroll_ + kViewportW / kScale) continue;
    const Point pts[4] = {
        {terrain_x_[i] * kScale, terrain_y_[i] * kScale},
        {terrain_x_[i + 1] * kScale, terrain_y_[i + 1] * kScale},
        {terrain_x_[i + 1] * kScale, 0 * kScale},
        {terrain_x_[i] * kScale, 0 * kScale}};
    draw::DrawPolygon(surf, grass, pts, 4);
    draw::GfxAapolygon(surf, pts, 4, grass);
  }

  // One lidar ray per frame, sweeping out and back over 20 frames of 100.
  if (render_lidar_) lidar_render_ = (lidar_render_ + 1) % 100;
  const int i = lidar_render_;
  if (render_lidar_ && i < 2 * kNumLidar) {
    const LidarCallback& l =
        lidar_[i < kNumLidar ? i : kNumLidar + (kNumLidar - i - 1)];
    draw::DrawLine(surf, Color{255, 0, 0},
                   Point{static_cast<double>(l.p1.x) * kScale,
                         static_cast<double>(l.p1.y) * kScale},
                   Point{l.p2[0] * kScale, l.p2[1] * kScale}, 1);
  }

  // self.drawlist = self.terrain + self.legs + [self.hull]; each vertex is
  // pybox2d's `trans * v * SCALE`, float32 b2Vec2 arithmetic.
  auto draw_body = [&](const b2Body* body, Color color1, Color color2) {
    for (const b2Fixture* f = body->GetFixtureList(); f; f = f->GetNext()) {
      const b2Transform& t = body->GetTransform();
      auto to_screen = [&](const b2Vec2& v) {
        const float x = (t.q.c * v.x - t.q.s * v.y) + t.p.x;
        const float y = (t.q.s * v.x + t.q.c * v.y) + t.p.y;
        const float scale = static_cast<float>(kScale);
        return Point{static_cast<double>(x * scale),
                     static_cast<double>(y * scale)};
      };
      if (f->GetType() == b2Shape::e_edge) {
        const auto* edge = static_cast<const b2EdgeShape*>(f->GetShape());
        draw::DrawAaline(surf, color1, to_screen(edge->m_vertex1),
                         to_screen(edge->m_vertex2));
      } else {
        const auto* poly = static_cast<const b2PolygonShape*>(f->GetShape());
        Point path[b2_maxPolygonVertices + 1];
        const int n = poly->m_count;
        for (int k = 0; k < n; ++k) path[k] = to_screen(poly->m_vertices[k]);
        draw::DrawPolygon(surf, color1, path, n);
        draw::GfxAapolygon(surf, path, n, color1);
        path[n] = path[0];  // path.append(path[0])
        draw::DrawPolygon(surf, color2, path, n + 1, 1);
        draw::GfxAapolygon(surf, path, n + 1, color2);
      }
    }
  };
  for (const TerrainBody& t : terrain_) draw_body(t.body, t.color1, t.color2);
  for (int k = 0; k < 4; ++k) {
    draw_body(legs_[k], leg_colors_[k / 2][0], leg_colors_[k / 2][1]);
  }
  draw_body(hull_, Color{127, 51, 229}, Color{76, 76, 127});

  // The flag at the start.
  const double flagy1 = kTerrainHeight * kScale;
  const double flagy2 = flagy1 + 50;
  const double x = kTerrainStep * 3 * kScale;
  draw::DrawAaline(surf, Color{0, 0, 0}, Point{x, flagy1}, Point{x, flagy2});
  const Point flag[4] = {
      {x, flagy2}, {x, flagy2 - 10}, {x + 25, flagy2 - 5}, {x, flagy2}};
  draw::DrawPolygon(surf, Color{230, 51, 0}, flag, 3);
  draw::DrawLines(surf, Color{0, 0, 0}, false, flag, 4, 1);

  draw::FlipVertical(surf);
  // [:, -VIEWPORT_W:]
  const int x0 = width - kViewportW;
  for (int row = 0; row < kViewportH; ++row) {
    const uint8_t* src = surf.Pixel(x0, row);
    std::copy(src, src + kViewportW * 3,
              rgb + static_cast<std::size_t>(row) * kViewportW * 3);
  }
}

}  // namespace envpool_lite
