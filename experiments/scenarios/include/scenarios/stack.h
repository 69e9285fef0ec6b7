// SPDX-License-Identifier: MIT
// Stack of spheres (paper A §6.5, Fig 10; SPEC §5 `stack`): N rigid spheres in a vertical column
// released at rest in mid-air above a ground plane, Hertz contact with friction between neighbours
// and with the ground.
#ifndef SCENARIOS_STACK_H
#define SCENARIOS_STACK_H

#include "mdl/mdl_model.h"
#include "mdl/mdl_rigid.h"
#include "mdl/mdl_scene.h"
#include "scenarios/hertz.h"
#include "xp/xp_param_list.h"

// The parameters shared by the stack, the pile and the stack study, declared once (kinds in
// xp/xp_param_list.h): X(KIND, field, key, …). The list generates stack_params' fields, their
// defaults, the declarations (STACK_PARAM_DEFS) and the reader (stack_params_read). N is not in
// it: the study sweeps a list of N, the scenarios take one (with different defaults).
#define STACK_PARAM_LIST(X)                                                        \
  X(REAL, r, r, 0.1, XP_POSITIVE, "m", "sphere radius (default)")                  \
  X(REAL, m, m, 1, XP_POSITIVE, "kg", "sphere mass (default); I = 2/5 m r^2")      \
  X(REAL, gap, gap, 0.01, XP_NONNEGATIVE, "m",                                     \
    "initial vertical gap between neighbours and above the ground (default)")      \
  X(REAL, E, E, 1e11, XP_POSITIVE, "Pa",                                           \
    "Hertz modulus, used as E* (paper A); r_eff = r (ground), r/2 (sphere pairs)") \
  X(REAL, b, B, 1, XP_NONNEGATIVE, "N*s/m", "normal damping (paper A)")            \
  X(REAL, bt, Bt, 0, XP_NONNEGATIVE, "N*s/m",                                      \
    "tangential damping; 0 means 1e6/h (paper A §6.4); K_t = 0")                   \
  X(REAL, mu, mu, 0.5, XP_NONNEGATIVE, "",                                         \
    "friction coefficient (default; the paper does not give it)")                  \
  X(REAL, g, g, 9.81, XP_NONNEGATIVE, "m/s^2", "gravity (default)")                \
  HERTZ_CONTACT_PARAM_LIST(X)

// the declarations, for a parameter table (xp_param_def[])
#define STACK_PARAM_DEFS STACK_PARAM_LIST(XP_PARAM_DEF)

// Parameters (defaults from stack_params_default): N and the listed ones. bt holds the tangential
// damping actually used [N·s/m] (the reader derives it from Bt and h).
typedef struct stack_params {
  int n;  // number of spheres N (10)
  STACK_PARAM_LIST(XP_PARAM_FIELD)
} stack_params;

// The listed defaults, N = 10 and B_t = 1e8 (= 1e6/h at h = 0.01 s, paper A §6.4).
stack_params stack_params_default(void);

struct xp_params;
struct sc_error;
// Reads the STACK_PARAM_DEFS keys of validated parameters into *out (other fields untouched),
// with B_t = 1e6/h by default for the step h actually used; 0, or an XP_ERR_* code with a
// message (a dissipation law other than paper with hertz = paper).
int stack_params_read(const struct xp_params *prm, double h, stack_params *out,
                      struct sc_error *err);

// Contacts beyond the column's N (any other pair of spheres, sphere i ≥ 1 and the ground) are
// reported while closer than STACK_EXTRA_REACH·r, at most STACK_CONTACTS_PER_SPHERE·N in all.
#define STACK_EXTRA_REACH 0.5
#define STACK_CONTACTS_PER_SPHERE 4
// the most spheres a stack may have: its sizes (36·4·N nonzeros) stay far inside an int
#define STACK_MAX_SPHERES 1000000

// A stack instance; `model` is ready for a step after stack_init succeeds (ctx points at the
// instance, which must not move while the model is in use).
typedef struct stack {
  stack_params p;
  mdl_model model;
  int *block_size;  // n entries of 6 (heap, owned)
  double *reff;     // effective radius per contact id (max_contacts, heap, owned)
  int max_contacts;
  double inertia[3];
  mdl_scene scene;  // the column's geometry (model.scene), for peers
} stack;

// Fills s from p (copied): n rigid bodies (mdl_rigid.h), contact c = 0 sphere 0–ground, c = i
// sphere i−1–sphere i, each a normal row and two tangent rows, always reported; contacts c ≥ n
// for any other pair or sphere–ground within reach (above). Returns 0, or −1 if n < 1 or out of
// memory.
int stack_init(stack *s, const stack_params *p);
// Frees what stack_init allocated; s may be zeroed.
void stack_free(stack *s);

// Initial state: sphere i centred at (0, 0, r + gap + i (2r + gap)), identity orientation, at
// rest (q 7n, v 6n).
void stack_initial_state(const stack *s, double *q, double *v);

// Resting state: every contact at its static Hertz overlap, (F²/(E² r_eff))^{1/3} with F = (n − c)
// m g the weight above contact c, centres on the z axis, at rest (q 7n, v 6n; HERTZ_DEFAULT rows).
void stack_resting_state(const stack *s, double *q, double *v);

// Appends contact c's rows (normal, two tangents; Hertz with r_eff = reff, B, B_t, μ of p) between
// sphere a (−1: a fixed plane) and sphere b of radius p->r, unit normal nrm from a towards b,
// overlap d [m]; the contact points are the centres ∓ r n̂. 0, or −1 if the rows do not fit.
// Shared by the stack and the pile (pile.h).
int stack_contact_rows(mdl_rows *rows, int c, int a, int b, const double *q, const double *nrm,
                       double d, double reff, const stack_params *p);

// The tangent rows' law of a contact: stiffness K_t [N/m], damping B_t [N·s/m] and value φ_t
// [m] per tangent (t1, t2 of stack_contact_tangents): paper A's rows are K_t = 0, φ_t = 0,
// B_t = p->bt; a stick spring (mdl/mdl_stick.h) gives its anchor as φ_t.
typedef struct stack_tangent_law {
  double K, B, phi[2];
} stack_tangent_law;
// As stack_contact_rows, with the tangent rows' law (NULL: paper A's).
int stack_contact_rows_law(mdl_rows *rows, int c, int a, int b, const double *q, const double *nrm,
                           double d, double reff, const stack_params *p,
                           const stack_tangent_law *law);
// The contact's unit tangents for the unit normal nrm: t1 = e_x projected off n̂ (e_y when n̂ is
// along e_x), t2 = n̂ × t1.
void stack_contact_tangents(const double *nrm, double t1[3], double t2[3]);

// Total energy [J] at (q, v): kinetic (translation and rotation) + gravity (z above the ground
// plane) + the Hertz potential of every overlapping contact: (2/5) E*√r_eff d^{5/2} for the
// default row's F = E*√r_eff d^{3/2}, ½ E*√r_eff d³ for hertz=paper's F = (3/2) E*√r_eff d².
// With B ≥ 0 paper A's implicit step cannot raise it.
double stack_energy(const stack *s, const double *q, const double *v);

// Geometry of a contact between sphere b and sphere a (a = −1: the ground): unit normal nrm from a
// towards b (e_z for the ground) and overlap d [m] (< 0: apart). Returns 1 if the two centres
// coincide (no normal: recoverable with a smaller step), else 0. Shared by the stack and the pile.
int stack_contact_geometry(const stack *s, const double *q, int a, int b, double nrm[3], double *d);

// Overlap [m] of contact c (0: ground–sphere 0, c ≥ 1: sphere c−1 – sphere c) at q.
double stack_contact_depth(const stack *s, const double *q, int c);

#endif  // SCENARIOS_STACK_H
