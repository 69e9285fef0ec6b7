// SPDX-License-Identifier: MIT
// Optional geometric description of a model made of free rigid bodies (mdl_rigid.h layout: q = 7
// per body (centre, unit quaternion w x y z body → world), v = 6 per body (world linear,
// body-frame angular velocity)) on the plane z = 0: identical spheres with optional walls (the
// stack, the pile), or one box standing on four spherical feet at its bottom corners with gravity
// tilted by the ramp angle (the incline, which works in the ramp frame). No stabcon method reads
// it: it lets a peer that builds its own model from geometry (MuJoCo) simulate the same
// scene.
#ifndef MDL_MDL_SCENE_H
#define MDL_MDL_SCENE_H

typedef enum mdl_scene_kind {
  MDL_SCENE_SPHERES = 0,  // nbodies identical solid spheres
  MDL_SCENE_BOX_ON_FEET,  // one box (nbodies = 1) on four feet of the given radius
} mdl_scene_kind;

typedef struct mdl_scene {
  mdl_scene_kind kind;
  int nbodies;       // bodies 0 … nbodies−1 of the model
  double radius;     // sphere (or foot) radius [m]
  double mass;       // [kg] (spheres: inertia 2/5 m r², uniform density)
  double mu;         // Coulomb friction of every contact
  double gravity;    // g [m/s²], along −z (box: tilted by ramp_angle, see below)
  double wall_half;  // walls at x, y = ±wall_half [m]; 0: none
  double half[3];  // box: half extents along its body axes [m]; feet centred at (±, ±, −half_z)
  double inertia[3];  // box: principal moments about its centre [kg·m²]
  double ramp_angle;  // box: gravity g (sin a, 0, −cos a) (the plane is the ramp) [rad]
  // the model's own contact law, for peers that set theirs from it: Hertz force E*√(r_eff) d^{3/2}
  // at overlap d (r_eff = radius against a plane, radius/2 for a pair of spheres) and a normal
  // damping B [N·s/m] (0: none given)
  double estar;    // E* [Pa] (0: not given)
  double damping;  // B [N·s/m]
  double hc_alpha;  // Hunt–Crossley α [s/m] of a force E*√r_eff d^{3/2}(1 + α ḋ) (0: another law)
} mdl_scene;

#endif
