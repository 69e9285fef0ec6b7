// SPDX-License-Identifier: MIT
// Optional geometric description of a model made of identical free spheres (mbs_rigid.h layout:
// q = 7 per body (centre, unit quaternion w x y z body → world), v = 6 per body (world linear,
// body-frame angular velocity)) resting on the ground plane z = 0, with optional walls. No
// stabcon method reads it: it lets a peer that builds its own model from geometry (MuJoCo, issue
// 16) simulate the same scene (the stack, the pile).
#ifndef MBS_MBS_SCENE_H
#define MBS_MBS_SCENE_H

typedef struct mbs_scene {
  int nbodies;       // identical solid spheres, bodies 0 … nbodies−1 of the model
  double radius;     // [m]
  double mass;       // [kg] (inertia 2/5 m r², uniform density)
  double mu;         // Coulomb friction of every contact
  double gravity;    // g [m/s²], along −z
  double wall_half;  // walls at x, y = ±wall_half [m]; 0: none
} mbs_scene;

#endif
