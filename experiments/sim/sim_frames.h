// SPDX-License-Identifier: MIT
// Per-body history of a run for scene models (sim_frames.c); internal to the simulate loop.
#ifndef SIM_SIM_FRAMES_H
#define SIM_SIM_FRAMES_H

#include "sim/sim.h"

typedef struct sim_frames sim_frames;

// A recorder of at most `frames` frames over a run of `steps` steps of the instance; NULL (with
// *oom 0) when it has no bodies (sim_bodies or a scene) or frames is 0, NULL with *oom 1 when
// out of memory.
sim_frames *sim_frames_create(const sim_instance *inst, size_t steps, size_t frames, int *oom);
void sim_frames_free(sim_frames *fr);
// Step `step` ended at (t, q, v) with report rep (NULL at step 0: forces unknown); kept when on
// the stride, the run's last step, or final (the run stops here).
void sim_frames_record(sim_frames *fr, size_t step, double t, const double *q, const double *v,
                       const sim_step_report *rep, int final);
// Writes the recorded frames as the case's `bodies` group (nothing when none were taken).
void sim_frames_write(const sim_frames *fr, xp_case *c);

#endif  // SIM_SIM_FRAMES_H
