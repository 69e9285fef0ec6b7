// SPDX-License-Identifier: MIT
// The per-body history of a case (its `bodies` group, layout in xp_results.c): reading it with
// every shape checked, the XDMF description ParaView/VisIt open as an animation, and the
// snapshot tables `stabcon plot` draws scenes from.
#ifndef XP_XP_BODIES_H
#define XP_XP_BODIES_H

#include <stddef.h>
#include <stdio.h>

#include "xp/xp.h"

// Frames and bodies of a case's history, the scene, and (when read) the arrays, frame-major:
// t[nf], pos[nf][nb][3], rot[nf][nb][4] (NULL when not stored), vel[nf][nb][3], force[nf][nb],
// radius[nb].
typedef struct xp_bodies {
  size_t nf, nb;
  char kind[32];  // "spheres" or "box_on_feet"
  double wall_half, foot_radius, half[3], ramp_angle;
  double *t, *pos, *rot, *vel, *force, *radius;
} xp_bodies;

// Opens case `case_name` of results file `path` and checks its history (hard links, double
// arrays of consistent shapes, at most XP_BODIES_MAX_FRAMES frames); reads the arrays when
// read_data. XP_OK, or XP_ERR_USAGE with a message naming the file and case (a case without
// history says so).
int xp_bodies_read(const char *path, const char *case_name, int read_data, xp_bodies *b,
                   xp_error *err);
void xp_bodies_free(xp_bodies *b);
// The cases of results file `path` that hold a per-body history (checked as xp_bodies_read does;
// the file is checked and opened once, whatever its case count): their names into
// names[0..cap) and scene kinds into kinds; the count, or −1 with the error in err.
long xp_bodies_list(const char *path, char (*names)[256], char (*kinds)[32], size_t cap,
                    xp_error *err);
#define XP_BODIES_MAX_FRAMES 100000

// Writes "<dir>/<stem>.<case>.xdmf" next to results file `path` (stem: its name without .h5;
// the case name made file-safe): an XDMF 2 temporal collection, one grid per frame, whose data
// items point into the results file (no copy). Refuses an output that is not a regular file or
// is the input; the file is written under a temporary name and renamed. The path written goes
// to out. XP_OK, XP_ERR_USAGE, XP_ERR_RUN.
int xp_xdmf_export(const char *path, const char *case_name, char *out, size_t len, xp_error *err);

// For `stabcon plot`: for every case of results file `path` whose history is of spheres or planar
// cylinders, writes <datadir>/<case>.snap.dat (gnuplot indexes 0–3: the bodies at the start, the
// first contact, the middle of the landing and the end, "x y z r speed force turn" a line, force
// −1 where none was reported; index 4: every frame's time, largest speed and force) and
// <case>.snap.gp (datablock lines), and runs <plotsdir>/snapshot.gp, which draws
// <outdir>/<stem>_snap_<case>.png and .svg. XP_OK, XP_ERR_USAGE, XP_ERR_RUN.
int xp_snapshot_plot(const char *path, const char *datadir, const char *outdir, const char *stem,
                     const char *plotsdir, xp_error *err);

// REPORT.md: a "Scene snapshots" section linking each snapshot figure of `path` found in
// `figures` (linked as <link_dir>/<stem>_snap_<case>.png); nothing when there is none.
void xp_snapshot_report(FILE *md, const char *path, const char *figures, const char *link_dir,
                        const char *stem);

#endif  // XP_XP_BODIES_H
