// SPDX-License-Identifier: MIT
// Simbody's side of the simbody peer (sim_simbody.h): the one C++ file of the project, a C
// interface over a MultibodySystem with a GeneralContactSubsystem and a HuntCrossleyForce.
// Simbody's free mobiliser has q = (quaternion w x y z, position) and u = (angular velocity in
// the ground frame, linear velocity): stabcon's body-frame angular velocity is rotated on the way
// in and out. Every Simbody exception becomes a message.
#include "sim/sim_simbody.h"

#include <Simbody.h>

#include <cmath>
#include <cstdio>
#include <vector>

using namespace SimTK;

struct sim_simbody {
  MultibodySystem system;
  SimbodyMatterSubsystem matter;
  GeneralForceSubsystem forces;
  GeneralContactSubsystem contacts;
  std::vector<MobilizedBody::Free> bodies;
  RungeKuttaMersonIntegrator *integ = nullptr;
  char text[400] = "";
  sim_simbody() : matter(system), forces(system), contacts(system) {}
  ~sim_simbody() { delete integ; }
};

extern "C" int sim_simbody_available(void) { return 1; }

// the half space of the ground (z < 0) or a wall: Simbody's half space fills x > 0 of its frame
static void add_planes(sim_simbody *sb, ContactSetIndex set, double wall) {
  MobilizedBody &ground = sb->matter.updGround();
  sb->contacts.addBody(set, ground, ContactGeometry::HalfSpace(),
                       Transform(Rotation(Pi / 2, YAxis), Vec3(0)));
  if (!(wall > 0)) return;
  sb->contacts.addBody(set, ground, ContactGeometry::HalfSpace(), Transform(Vec3(wall, 0, 0)));
  sb->contacts.addBody(set, ground, ContactGeometry::HalfSpace(),
                       Transform(Rotation(Pi, ZAxis), Vec3(-wall, 0, 0)));
  sb->contacts.addBody(set, ground, ContactGeometry::HalfSpace(),
                       Transform(Rotation(Pi / 2, ZAxis), Vec3(0, wall, 0)));
  sb->contacts.addBody(set, ground, ContactGeometry::HalfSpace(),
                       Transform(Rotation(-Pi / 2, ZAxis), Vec3(0, -wall, 0)));
}

static void set_body_state(const MobilizedBody::Free &b, State &s, const double *q,
                           const double *v) {
  const Rotation R(Quaternion(q[3], q[4], q[5], q[6]));
  b.setQToFitTransform(s, Transform(R, Vec3(q[0], q[1], q[2])));
  b.setUToFitVelocity(s, SpatialVec(R * Vec3(v[3], v[4], v[5]), Vec3(v[0], v[1], v[2])));
}

static void get_body_state(const MobilizedBody::Free &b, const State &s, double *q, double *v) {
  const Transform &X = b.getBodyTransform(s);
  const Quaternion e = X.R().convertRotationToQuaternion();
  const SpatialVec &V = b.getBodyVelocity(s);
  const Vec3 w = ~X.R() * V[0];
  for (int k = 0; k < 3; k++) q[k] = X.p()[k], v[k] = V[1][k], v[3 + k] = w[k];
  for (int k = 0; k < 4; k++) q[3 + k] = e[k];
}

static void build(sim_simbody *sb, const mdl_scene *sc, const double *q, const double *v,
                  double rtol) {
  const int box = sc->kind == MDL_SCENE_BOX_ON_FEET;
  const double a = box ? sc->ramp_angle : 0;
  Force::UniformGravity(sb->forces, sb->matter,
                        Vec3(sc->gravity * std::sin(a), 0, -sc->gravity * std::cos(a)));
  const ContactSetIndex set = sb->contacts.createContactSet();
  HuntCrossleyForce hc(sb->forces, sb->contacts, set);
  hc.setTransitionVelocity(1e-3);
  add_planes(sb, set, box ? 0 : sc->wall_half);
  const double I = 0.4 * sc->mass * sc->radius * sc->radius;
  const Inertia inertia =
      box ? Inertia(sc->inertia[0], sc->inertia[1], sc->inertia[2]) : Inertia(I);
  for (int i = 0; i < sc->nbodies; i++) {
    sb->bodies.emplace_back(sb->matter.updGround(), Transform(),
                            Body::Rigid(MassProperties(sc->mass, Vec3(0), inertia)), Transform());
    if (!box) {
      sb->contacts.addBody(set, sb->bodies.back(), ContactGeometry::Sphere(sc->radius),
                           Transform());
      continue;
    }
    for (int k = 0; k < 4; k++)
      sb->contacts.addBody(set, sb->bodies.back(), ContactGeometry::Sphere(sc->radius),
                           Transform(Vec3((k & 1 ? 1 : -1) * sc->half[0],
                                          (k & 2 ? 1 : -1) * sc->half[1], -sc->half[2])));
  }
  // Simbody combines the surfaces' plane-strain moduli E_i as E = (s₁ E₁^{2/3})^{3/2}, s₁ =
  // E₂^{2/3}/(E₁^{2/3} + E₂^{2/3}), and pushes with (4/3) E √R d^{3/2}: two equal surfaces give
  // E = E_i/2^{3/2}, so E_i = (3/4) 2^{3/2} E* makes it E*√R d^{3/2}; equal c_i give c = c_i
  const double ki = 0.75 * std::pow(2.0, 1.5) * sc->estar, c = sc->hc_alpha / 1.5;
  for (int s = 0; s < sb->contacts.getNumBodies(set); s++)
    hc.setBodyParameters(ContactSurfaceIndex(s), ki, c, sc->mu, sc->mu, 0);
  State state = sb->system.realizeTopology();
  sb->system.realizeModel(state);
  for (int i = 0; i < sc->nbodies; i++) set_body_state(sb->bodies[i], state, q + 7 * i, v + 6 * i);
  sb->integ = new RungeKuttaMersonIntegrator(sb->system);
  sb->integ->setAccuracy(rtol);
  sb->integ->setAllowInterpolation(false);  // outputs are its own steps, under its error control
  sb->integ->initialize(state);
  std::snprintf(sb->text, sizeof sb->text,
                "Simbody %s, Runge-Kutta-Merson at accuracy %g, HuntCrossleyForce: force "
                "E* sqrt(R) d^1.5 (1 + alpha ddot), E* %g Pa, alpha %g s/m, friction mu %g "
                "(regularised, transition 1e-3 m/s)",
                STABCON_SIMBODY_VERSION, rtol, sc->estar, sc->hc_alpha, sc->mu);
}

extern "C" sim_simbody *sim_simbody_create(const mdl_scene *sc, const double *q, const double *v,
                                           double rtol, sc_error *err) {
  if (!sc || sc->nbodies < 1 || !(sc->estar > 0) ||
      (sc->kind == MDL_SCENE_BOX_ON_FEET && sc->nbodies != 1)) {
    sc_error_set(err, SC_ERR_INPUT,
                 "simbody: the model has no scene (mdl_scene.h) with a Hertz modulus");
    return nullptr;
  }
  sim_simbody *sb = nullptr;
  try {
    sb = new sim_simbody();
    build(sb, sc, q, v, rtol);
    return sb;
  } catch (const std::exception &e) {
    sc_error_set(err, SC_ERR_SOLVER, "simbody: %s", e.what());
  }
  delete sb;
  return nullptr;
}

extern "C" int sim_simbody_advance(sim_simbody *sb, double t_next, double *q, double *v,
                                   sc_error *err) {
  try {
    while (sb->integ->getTime() < t_next) {
      const Integrator::SuccessfulStepStatus st = sb->integ->stepTo(t_next);
      if (st == Integrator::EndOfSimulation) {
        return sc_error_set(
            err, SC_ERR_SOLVER, "simbody: %s",
            sb->integ->getTerminationReasonString(sb->integ->getTerminationReason()).c_str());
      }
    }
    const State &s = sb->integ->getState();
    sb->system.realize(s, Stage::Velocity);
    for (size_t i = 0; i < sb->bodies.size(); i++)
      get_body_state(sb->bodies[i], s, q + 7 * i, v + 6 * i);
    return 0;
  } catch (const std::exception &e) {
    return sc_error_set(err, SC_ERR_SOLVER, "simbody: %s", e.what());
  }
}

extern "C" long sim_simbody_steps(const sim_simbody *sb, long *attempted) {
  if (attempted) *attempted = sb->integ->getNumStepsAttempted();
  return sb->integ->getNumStepsTaken();
}

extern "C" const char *sim_simbody_describe(const sim_simbody *sb) { return sb->text; }

extern "C" void sim_simbody_free(sim_simbody *sb) { delete sb; }
