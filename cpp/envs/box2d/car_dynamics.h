// The car of CarRacing: gymnasium 1.4.0's gymnasium/envs/box2d/car_dynamics.py
// (class Car), bit-exact on the box2d==2.3.10 wheel: the same Box2D 2.3 C++
// bodies, fixtures and joints, created in the same order with the float32
// values pybox2d passes, and car_dynamics.py's float64 (Python float and
// numpy float64) arithmetic around them.
//
// Conventions of the port: a Python float read from Box2D (body.position,
// joint.angle, ...) is a float32 widened to double; a double handed to Box2D
// (vertices, forces, motorSpeed) is rounded to float32, as SWIG's conversion
// does. `w.tiles` (a set of the road tiles a wheel touches) only ever serves
// "is it on the road", so a count of touched tiles stands for it (every tile
// has road_friction 1.0, so the friction limit is the same).
//
// Skid marks (Car.particles): car_dynamics.py's Particle objects are plain
// Python data, not Box2D bodies, and only the rgb_array picture draws them
// (draw_particles is False for the state_pixels observation); they are kept
// here the same way, in a fixed-size buffer (the deque's maxlen is 30, a
// mark has at most 30 points). Note that `w.skid_start = w.position` holds
// pybox2d's live reference to the body's position, so a new mark's two first
// points are both the wheel's position at the step it is created.
#pragma once

#include <Box2D/Box2D.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>

#include "refkit/pygame/draw.h"
#include "refkit/pygame/math.h"

namespace envpool_lite::car_racing {

namespace pd = pygame_draw;

// car_dynamics.py's constants, computed as Python computes them (left to
// right, in float64).
inline constexpr double kSize = 0.02;
inline constexpr double kEnginePower = 100000000 * kSize * kSize;
inline constexpr double kWheelMomentOfInertia = 4000 * kSize * kSize;
inline constexpr double kFrictionLimit = 1000000 * kSize * kSize;
inline constexpr int kWheelR = 27;
inline constexpr int kWheelW = 14;
inline constexpr int kWheelPos[4][2] = {
    {-55, +80}, {+55, +80}, {-55, -82}, {+55, -82}};
inline constexpr pd::Color kWheelColor{0, 0, 0};
inline constexpr pd::Color kWheelWhite{77, 77, 77};
inline constexpr pd::Color kMudColor{102, 102, 0};
// self.hull.color = (0.8, 0.0, 0.0), drawn as [int(c * 255) for c in color].
inline constexpr pd::Color kHullColor{204, 0, 0};

// What the contact listener (car_racing.py's FrictionDetector) needs to tell
// bodies apart: pybox2d's body.userData (a tile, a wheel, or None: the hull).
struct BodyTag {
  enum Kind { kTile, kWheel } kind;
  int index;  // the tile's idx, or the wheel's index in Car.wheels
};

// numpy's np.sign of a float64 (0.0 for zeros; NaN never occurs here).
inline double Sign(double x) { return x > 0 ? 1.0 : (x < 0 ? -1.0 : 0.0); }

// A screen point of car_dynamics.py's draw(): pygame.math.Vector2(c)
// .rotate_rad(angle), then (x * zoom + translation[0], y * zoom + ...).
inline pd::Point ToScreen(double x, double y, double zoom,
                          const pd::Point& translation,
                          const pygame_math::Rotation& rotation) {
  const pygame_math::Vector2 r = rotation.Apply({x, y});
  return {r.x * zoom + translation.x, r.y * zoom + translation.y};
}

class Car {
 public:
  static constexpr int kMaxParticles = 30;       // deque(maxlen=30)
  static constexpr int kMaxParticlePoints = 30;  // len(poly) < 30 to extend

  struct Wheel {
    b2Body* body = nullptr;
    b2RevoluteJoint* joint = nullptr;
    double wheel_rad = 0.0;
    double gas = 0.0;
    double brake = 0.0;
    double steer = 0.0;
    double phase = 0.0;
    double omega = 0.0;
    int tiles = 0;  // len(w.tiles)
    // w.skid_start is not None (it is the live w.position when set).
    bool skid_start = false;
    // w.skid_particle: the mark this wheel extends (its serial number, see
    // Particles), with its grass flag and length mirrored here because an
    // old mark the deque dropped still decides whether to extend or start one.
    bool has_particle = false;
    int64_t particle_serial = 0;
    bool particle_grass = false;
    int particle_len = 0;
  };

  // Car.__init__(world, init_angle, init_x, init_y).
  void Create(b2World* world, double init_angle, double init_x, double init_y,
              BodyTag wheel_tags[4]) {
    world_ = world;
    // self.hull: one dynamic body, four fixtures (HULL_POLY1..4, density 1).
    static constexpr int kPoly1[4][2] = {
        {-60, +130}, {+60, +130}, {+60, +110}, {-60, +110}};
    static constexpr int kPoly2[4][2] = {
        {-15, +120}, {+15, +120}, {+20, +20}, {-20, 20}};
    static constexpr int kPoly3[8][2] = {{+25, +20}, {+50, -10}, {+50, -40},
                                         {+20, -90}, {-20, -90}, {-50, -40},
                                         {-50, -10}, {-25, +20}};
    static constexpr int kPoly4[4][2] = {
        {-50, -120}, {+50, -120}, {+50, -90}, {-50, -90}};
    b2BodyDef hull_def;
    hull_def.type = b2_dynamicBody;
    hull_def.position.Set(static_cast<float>(init_x),
                          static_cast<float>(init_y));
    hull_def.angle = static_cast<float>(init_angle);
    hull_ = world->CreateBody(&hull_def);
    AddHullFixture(kPoly1, 4);
    AddHullFixture(kPoly2, 4);
    AddHullFixture(kPoly3, 8);
    AddHullFixture(kPoly4, 4);

    // The wheels, each followed by its revolute joint to the hull.
    for (int i = 0; i < 4; ++i) {
      const int wx = kWheelPos[i][0], wy = kWheelPos[i][1];
      const double front_k = 1.0;  // "1.0 if wy > 0 else 1.0"
      Wheel& w = wheels_[i];
      w = Wheel{};
      b2BodyDef def;
      def.type = b2_dynamicBody;
      def.position.Set(static_cast<float>(init_x + wx * kSize),
                       static_cast<float>(init_y + wy * kSize));
      def.angle = static_cast<float>(init_angle);
      w.body = world->CreateBody(&def);
      // WHEEL_POLY = [(-W, +R), (+W, +R), (+W, -R), (-W, -R)], scaled by
      // front_k * SIZE.
      const int poly[4][2] = {{-kWheelW, +kWheelR},
                              {+kWheelW, +kWheelR},
                              {+kWheelW, -kWheelR},
                              {-kWheelW, -kWheelR}};
      b2Vec2 vertices[4];
      for (int k = 0; k < 4; ++k) {
        vertices[k].Set(static_cast<float>(poly[k][0] * front_k * kSize),
                        static_cast<float>(poly[k][1] * front_k * kSize));
      }
      b2PolygonShape shape;
      shape.Set(vertices, 4);
      b2FixtureDef fixture;
      fixture.shape = &shape;
      fixture.density = 0.1f;
      fixture.filter.categoryBits = 0x0020;
      fixture.filter.maskBits = 0x001;
      fixture.restitution = 0.0f;
      w.body->CreateFixture(&fixture);
      w.wheel_rad = front_k * kWheelR * kSize;
      w.body->SetUserData(&wheel_tags[i]);

      b2RevoluteJointDef rjd;
      rjd.bodyA = hull_;
      rjd.bodyB = w.body;
      rjd.localAnchorA.Set(static_cast<float>(wx * kSize),
                           static_cast<float>(wy * kSize));
      rjd.localAnchorB.Set(0.0f, 0.0f);
      rjd.enableMotor = true;
      rjd.enableLimit = true;
      rjd.maxMotorTorque = static_cast<float>(180 * 900 * kSize * kSize);
      rjd.motorSpeed = 0.0f;
      rjd.lowerAngle = -0.4f;
      rjd.upperAngle = +0.4f;
      w.joint = static_cast<b2RevoluteJoint*>(world->CreateJoint(&rjd));
    }
    particles_first_ = particles_next_ = 0;
  }

  // Car.destroy(): the hull (and with it the joints), then the wheels.
  void Destroy() {
    if (hull_ == nullptr) return;
    world_->DestroyBody(hull_);
    hull_ = nullptr;
    for (Wheel& w : wheels_) {
      world_->DestroyBody(w.body);
      w.body = nullptr;
      w.joint = nullptr;
    }
  }

  bool exists() const { return hull_ != nullptr; }
  b2Body* hull() const { return hull_; }
  Wheel& wheel(int i) { return wheels_[i]; }
  const Wheel& wheel(int i) const { return wheels_[i]; }

  // Car.gas(gas): rear-wheel drive, rising by at most 0.1 a step.
  void Gas(double gas) {
    gas = std::clamp(gas, 0.0, 1.0);  // np.clip(gas, 0, 1)
    for (int i = 2; i < 4; ++i) {
      Wheel& w = wheels_[i];
      double diff = gas - w.gas;
      if (diff > 0.1) diff = 0.1;
      w.gas += diff;
    }
  }

  // Car.brake(b).
  void Brake(double b) {
    for (Wheel& w : wheels_) w.brake = b;
  }

  // Car.steer(s).
  void Steer(double s) {
    wheels_[0].steer = s;
    wheels_[1].steer = s;
  }

  // Car.step(dt).
  void Step(double dt) {
    for (Wheel& w : wheels_) {
      // Steer each wheel.
      const double angle = w.joint->GetJointAngle();
      const double dir = Sign(w.steer - angle);
      const double val = std::abs(w.steer - angle);
      w.joint->SetMotorSpeed(
          static_cast<float>(dir * std::min(50.0 * val, 3.0)));

      // Position => friction_limit.
      bool grass = true;
      double friction_limit = kFrictionLimit * 0.6;  // grass if no tile
      if (w.tiles > 0) {
        // max(friction_limit, FRICTION_LIMIT * tile.road_friction) over
        // the tiles, all of road_friction 1.0.
        friction_limit = std::max(friction_limit, kFrictionLimit * 1.0);
        grass = false;
      }

      // Force.
      const b2Vec2 forw = w.body->GetWorldVector(b2Vec2(0.0f, 1.0f));
      const b2Vec2 side = w.body->GetWorldVector(b2Vec2(1.0f, 0.0f));
      const b2Vec2 v = w.body->GetLinearVelocity();
      const double vf = static_cast<double>(forw.x) * v.x +
                        static_cast<double>(forw.y) * v.y;  // forward speed
      const double vs = static_cast<double>(side.x) * v.x +
                        static_cast<double>(side.y) * v.y;  // side speed

      w.omega += dt * kEnginePower * w.gas / kWheelMomentOfInertia /
                 (std::abs(w.omega) + 5.0);

      if (w.brake >= 0.9) {
        w.omega = 0;
      } else if (w.brake > 0) {
        const double kBrakeForce = 15;  // radians per second
        const double brake_dir = -Sign(w.omega);
        double brake_val = kBrakeForce * w.brake;
        if (std::abs(brake_val) > std::abs(w.omega)) {
          brake_val = std::abs(w.omega);  // low speed => same as = 0
        }
        w.omega += brake_dir * brake_val;
      }
      w.phase += w.omega * dt;

      const double vr = w.omega * w.wheel_rad;  // rotating wheel speed
      double f_force = -vf + vr;  // force direction: speed difference
      double p_force = -vs;
      // "Random coefficient to cut oscillations in few steps"
      f_force *= 205000 * kSize * kSize;
      p_force *= 205000 * kSize * kSize;
      double force = std::sqrt(f_force * f_force + p_force * p_force);

      // Skid trace.
      if (std::abs(force) > 2.0 * friction_limit) {
        if (w.has_particle && w.particle_grass == grass &&
            w.particle_len < kMaxParticlePoints) {
          const b2Vec2& p = w.body->GetPosition();
          ExtendParticle(w, p.x, p.y);
        } else if (!w.skid_start) {
          w.skid_start = true;
        } else {
          const b2Vec2& p = w.body->GetPosition();
          CreateParticle(w, p.x, p.y, grass);
          w.skid_start = false;
        }
      } else {
        w.skid_start = false;
        w.has_particle = false;
      }

      if (std::abs(force) > friction_limit) {
        f_force /= force;
        p_force /= force;
        force = friction_limit;  // "Correct physics here"
        f_force *= force;
        p_force *= force;
      }

      w.omega -= dt * f_force * w.wheel_rad / kWheelMomentOfInertia;

      w.body->ApplyForceToCenter(
          b2Vec2(static_cast<float>(p_force * side.x + f_force * forw.x),
                 static_cast<float>(p_force * side.y + f_force * forw.y)),
          true);
    }
  }

  // Car.draw(surface, zoom, translation, angle, draw_particles).
  void Draw(pd::Surface& surface, double zoom, const pd::Point& translation,
            const pygame_math::Rotation& rotation, bool draw_particles) const {
    if (draw_particles) {
      std::array<pd::Point, kMaxParticlePoints> poly;
      for (int64_t s = particles_first_; s < particles_next_; ++s) {
        const Particle& p = particles_[s % kMaxParticles];
        for (int k = 0; k < p.len; ++k) {
          poly[k] = ToScreen(p.x[k], p.y[k], zoom, translation, rotation);
        }
        pd::DrawLines(surface, p.grass ? kMudColor : kWheelColor,
                      /*closed=*/false, poly.data(), p.len, /*width=*/2);
      }
    }
    // self.drawlist = self.wheels + [self.hull]; each body's fixtures in
    // Box2D's list order (the last created first).
    for (int i = 0; i < 5; ++i) {
      const bool is_wheel = i < 4;
      const b2Body* body = is_wheel ? wheels_[i].body : hull_;
      const pd::Color color = is_wheel ? kWheelColor : kHullColor;
      const b2Transform& trans = body->GetTransform();
      for (const b2Fixture* f = body->GetFixtureList(); f != nullptr;
           f = f->GetNext()) {
        const auto* shape = static_cast<const b2PolygonShape*>(f->GetShape());
        std::array<pd::Point, b2_maxPolygonVertices> path;
        for (int k = 0; k < shape->m_count; ++k) {
          const b2Vec2 v = b2Mul(trans, shape->m_vertices[k]);  // trans * v
          path[k] = ToScreen(v.x, v.y, zoom, translation, rotation);
        }
        pd::DrawPolygon(surface, color, path.data(), shape->m_count);
        if (!is_wheel) continue;  // "phase" not in obj.__dict__
        DrawWheelStripe(surface, wheels_[i].phase, trans, zoom, translation,
                        rotation);
      }
    }
  }

 private:
  struct Particle {
    bool grass = false;
    int len = 0;
    double x[kMaxParticlePoints];
    double y[kMaxParticlePoints];
  };

  template <int N>
  void AddHullFixture(const int (&poly)[N][2], int n) {
    b2Vec2 vertices[N];
    for (int k = 0; k < n; ++k) {
      vertices[k].Set(static_cast<float>(poly[k][0] * kSize),
                      static_cast<float>(poly[k][1] * kSize));
    }
    b2PolygonShape shape;
    shape.Set(vertices, n);
    b2FixtureDef fixture;
    fixture.shape = &shape;
    fixture.density = 1.0f;
    hull_->CreateFixture(&fixture);
  }

  // Car._create_particle(point1, point2, grass), with point1 == point2 (see
  // the header comment); the deque drops its oldest mark beyond 30.
  void CreateParticle(Wheel& w, double x, double y, bool grass) {
    if (particles_next_ - particles_first_ == kMaxParticles) ++particles_first_;
    Particle& p = particles_[particles_next_ % kMaxParticles];
    p.grass = grass;
    p.len = 2;
    p.x[0] = p.x[1] = x;
    p.y[0] = p.y[1] = y;
    w.has_particle = true;
    w.particle_serial = particles_next_++;
    w.particle_grass = grass;
    w.particle_len = 2;
  }

  // w.skid_particle.poly.append((w.position[0], w.position[1])); a mark the
  // deque dropped grows unseen.
  void ExtendParticle(Wheel& w, double x, double y) {
    if (w.particle_serial >= particles_first_) {
      Particle& p = particles_[w.particle_serial % kMaxParticles];
      p.x[p.len] = x;
      p.y[p.len] = y;
      ++p.len;
    }
    ++w.particle_len;
  }

  // The lighter stripe on a wheel, from its phase (Car.draw).
  static void DrawWheelStripe(pd::Surface& surface, double phase,
                              const b2Transform& trans, double zoom,
                              const pd::Point& translation,
                              const pygame_math::Rotation& rotation) {
    const double a1 = phase;
    const double a2 = phase + 1.2;  // radians
    const double s1 = std::sin(a1);
    const double s2 = std::sin(a2);
    double c1 = std::cos(a1);
    double c2 = std::cos(a2);
    if (s1 > 0 && s2 > 0) return;
    if (s1 > 0) c1 = Sign(c1);
    if (s2 > 0) c2 = Sign(c2);
    const double w = kWheelW * kSize;
    const double white_poly[4][2] = {{-kWheelW * kSize, +kWheelR * c1 * kSize},
                                     {+w, +kWheelR * c1 * kSize},
                                     {+w, +kWheelR * c2 * kSize},
                                     {-kWheelW * kSize, +kWheelR * c2 * kSize}};
    pd::Point path[4];
    for (int k = 0; k < 4; ++k) {
      // trans * v: the tuple becomes a float32 b2Vec2 first.
      const b2Vec2 v =
          b2Mul(trans, b2Vec2(static_cast<float>(white_poly[k][0]),
                              static_cast<float>(white_poly[k][1])));
      path[k] = ToScreen(v.x, v.y, zoom, translation, rotation);
    }
    pd::DrawPolygon(surface, kWheelWhite, path, 4);
  }

  b2World* world_ = nullptr;
  b2Body* hull_ = nullptr;
  std::array<Wheel, 4> wheels_;
  // self.particles: serial numbers [particles_first_, particles_next_) are
  // in the deque, serial s in slot s % 30.
  std::array<Particle, kMaxParticles> particles_;
  int64_t particles_first_ = 0;
  int64_t particles_next_ = 0;
};

}  // namespace envpool_lite::car_racing
