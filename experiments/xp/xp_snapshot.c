// SPDX-License-Identifier: MIT
// Scene snapshots for `stabcon plot`: the spheres of a case's per-body history (xp_xdmf.c reads
// it) at four frames — the start, the first contact, the middle of the landing, the end — as a
// numbers-only table and a meta file of datablock lines for plots/snapshot.gp, which draws a side
// and a top view of each frame to scale, coloured by the largest contact force each sphere
// carries (by speed when the method reports no forces).
#include "xp/xp_bodies.h"
#include "xp/xp_file.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

enum { SNAP_FRAMES = 4 };

// spheres and planar cylinders are drawn as circles; a box on feet is not drawn
static int drawn_kind(const char *kind) {
  return strcmp(kind, "spheres") == 0 || strcmp(kind, "cylinders") == 0;
}

static double frame_max(const double *x, size_t nb, size_t j) {
  double m = 0;
  for (size_t b = 0; b < nb; b++)
    if (isfinite(x[j * nb + b])) m = fmax(m, x[j * nb + b]);
  return m;
}

// speed of every body at every frame, into sp (nf × nb)
static void speeds(const xp_bodies *b, double *sp) {
  for (size_t k = 0; k < b->nf * b->nb; k++) {
    const double *v = b->vel + 3 * k;
    sp[k] = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
  }
}

// the start, the first frame with a contact force, halfway from it to the frame after which
// every speed stays below 1 % of the run's largest, and the end
static void frames_pick(const xp_bodies *b, const double *sp, size_t pick[SNAP_FRAMES]) {
  const size_t nf = b->nf, last = nf - 1;
  size_t contact = 0, landed = last;
  for (size_t j = 1; j < nf && !contact; j++)
    if (frame_max(b->force, b->nb, j) > 0) contact = j;
  double peak = 0;
  for (size_t j = 0; j < nf; j++) peak = fmax(peak, frame_max(sp, b->nb, j));
  while (landed > contact && frame_max(sp, b->nb, landed - 1) < 0.01 * peak) landed--;
  if (!contact) contact = nf / 3, landed = 2 * nf / 3;  // no contact reported: evenly spaced
  pick[0] = 0, pick[1] = contact, pick[2] = (contact + landed) / 2, pick[3] = last;
}

static int write_table(const char *path, const xp_bodies *b, const double *sp,
                       const size_t pick[SNAP_FRAMES]) {
  FILE *out = fopen(path, "w");
  if (!out) return -1;
  for (int k = 0; k < SNAP_FRAMES; k++) {
    const size_t j = pick[k];
    for (size_t i = 0; i < b->nb; i++) {
      const double *x = b->pos + 3 * (j * b->nb + i), f = b->force[j * b->nb + i];
      // the turn about +y (a planar cylinder's rolling angle, drawn as a spoke)
      const double *r = b->rot ? b->rot + 4 * (j * b->nb + i) : NULL;
      const double turn = r ? 2 * atan2(r[2], r[0]) : 0;
      fprintf(out, "%.9g %.9g %.9g %.9g %.9g ", x[0], x[1], x[2], b->radius[i], sp[j * b->nb + i]);
      fprintf(out, "%.9g %.9g\n", isfinite(f) ? f : -1.0, turn);  // −1: no force reported
    }
    fputs("\n\n", out);  // gnuplot's index k
  }
  // index 4: every frame's time, largest speed and largest contact force (−1: none reported)
  for (size_t j = 0; j < b->nf; j++) {
    double fm = -1;
    for (size_t i = 0; i < b->nb; i++)
      if (isfinite(b->force[j * b->nb + i])) fm = fmax(fm, b->force[j * b->nb + i]);
    fprintf(out, "%.9g %.9g %.9g\n", b->t[j], frame_max(sp, b->nb, j), fm);
  }
  return fclose(out) == 0 ? 0 : -1;
}

// snap.gp: every value as a datablock line (never a command), read by plots/snapshot.gp
static int write_meta(const char *path, const char *const fixed[6], const xp_bodies *b,
                      const size_t pick[SNAP_FRAMES], int by_force, double cmax) {
  static const char *const labels[SNAP_FRAMES] = {"start", "first contact", "mid-landing", "end"};
  FILE *out = fopen(path, "w");
  if (!out) return -1;
  fputs(
      "# written by stabcon plot: values as data (datablock lines), never as commands\n"
      "$snap << EOD\n",
      out);
  for (int i = 0; i < 6; i++) xp_plot_block_line(out, &fixed[i], 1);
  char num[5][64];
  snprintf(num[0], sizeof num[0], "%.9g", b->wall_half);
  snprintf(num[1], sizeof num[1], "%d", by_force);
  snprintf(num[2], sizeof num[2], "%.9g", cmax > 0 ? cmax : 1);
  snprintf(num[3], sizeof num[3], "%zu", b->nb);
  const char *values[4] = {num[0], num[1], num[2], num[3]};
  for (int i = 0; i < 4; i++) xp_plot_block_line(out, &values[i], 1);
  for (int k = 0; k < SNAP_FRAMES; k++) {
    char title[96];
    snprintf(title, sizeof title, "%s, t = %.3g s", labels[k], b->t[pick[k]]);
    const char *line[1] = {title};
    xp_plot_block_line(out, line, 1);
  }
  const char *planar[1] = {strcmp(b->kind, "cylinders") == 0 ? "1" : "0"};
  xp_plot_block_line(out, planar, 1);
  for (int k = 0; k < SNAP_FRAMES; k++) {  // the frames' times, marked on the curves
    char tk[64];
    snprintf(tk, sizeof tk, "%.9g", b->t[pick[k]]);
    const char *line[1] = {tk};
    xp_plot_block_line(out, line, 1);
  }
  fputs("EOD\nsnap(i) = $snap[i][2:]\n", out);
  return fclose(out) == 0 ? 0 : -1;
}

// the figure of one case: <outdir>/<stem>_snap_<case>.png and .svg; XP_OK, or the failure
static int snapshot_case(const char *path, const char *case_name, const char *datadir,
                         const char *outdir, const char *stem, const char *plotsdir,
                         xp_error *err) {
  xp_bodies b;
  int rc = xp_bodies_read(path, case_name, 1, &b, err);
  if (rc != XP_OK) return rc;
  double *sp = malloc(b.nf * b.nb * sizeof *sp);
  if (!sp) return xp_bodies_free(&b), xp_fail(err, XP_ERR_RUN, "out of memory");
  speeds(&b, sp);
  size_t pick[SNAP_FRAMES];
  frames_pick(&b, sp, pick);
  int by_force = 0;
  double cmax = 0;
  for (int k = 1; k < SNAP_FRAMES; k++) by_force |= frame_max(b.force, b.nb, pick[k]) > 0;
  for (int k = 0; k < SNAP_FRAMES; k++)
    cmax = fmax(cmax, frame_max(by_force ? b.force : sp, b.nb, pick[k]));
  char safe[300], table[1500], meta[1500], fig[700], outd[1100];
  xp_plot_case_file_name(safe, sizeof safe, case_name);
  // names gnuplot opens: a relative one gets "./" (never read as '<' command or '|' pipe)
  const char *rel = datadir[0] == '/' ? "" : "./";
  snprintf(table, sizeof table, "%s%s/%s.snap.dat", rel, datadir, safe);
  snprintf(outd, sizeof outd, "%s%s", outdir[0] == '/' ? "" : "./", outdir);
  snprintf(meta, sizeof meta, "%s/%s.snap.gp", datadir, safe);
  snprintf(fig, sizeof fig, "%s_snap_%s", stem, safe);
  const char *fixed[6] = {table, outd, fig, plotsdir, case_name, b.kind};
  if (write_table(table, &b, sp, pick) || write_meta(meta, fixed, &b, pick, by_force, cmax))
    rc = xp_fail(err, XP_ERR_RUN, "cannot write '%s': %s", table, strerror(errno));
  free(sp);
  xp_bodies_free(&b);
  if (rc != XP_OK) return rc;
  char script[1200];
  snprintf(script, sizeof script, "%s/snapshot.gp", plotsdir);
  const int status = xp_plot_run_gnuplot(meta, script);
  if (status != 0)
    return xp_fail(err, XP_ERR_RUN, "gnuplot failed (exit %d) on '%s'", status, script);
  return XP_OK;
}

// names of the cases of `path` whose history is drawn (spheres, cylinders), at most cap; their
// count
static size_t drawn_cases(const char *path, char (*names)[256], size_t cap, xp_error *err) {
  char(*kinds)[32] = malloc((cap ? cap : 1) * sizeof *kinds);
  const long n = kinds ? xp_bodies_list(path, names, kinds, cap, err) : -1;
  size_t m = 0;
  for (long i = 0; i < n; i++)
    if (drawn_kind(kinds[i])) memmove(names[m++], names[i], 256);
  free(kinds);
  return m;
}

void xp_snapshot_report(FILE *md, const char *path, const char *figures, const char *link_dir,
                        const char *stem) {
  enum { CAP = 64 };
  char(*names)[256] = malloc(CAP * sizeof *names);
  xp_error quiet;
  const size_t n = names ? drawn_cases(path, names, CAP, &quiet) : 0;
  int any = 0;
  for (size_t i = 0; i < n; i++) {
    char safe[300], fig[1500];
    xp_plot_case_file_name(safe, sizeof safe, names[i]);
    snprintf(fig, sizeof fig, "%s/%s_snap_%s.png", figures, stem, safe);
    if (access(fig, R_OK) != 0) continue;
    if (!any)
      fprintf(md,
              "### Scene snapshots\n\nThe bodies at the start, the first contact, the middle of "
              "the landing and the end (to scale, coloured by the largest contact force each "
              "carries); `stabcon export %s --case NAME --xdmf` opens a run in ParaView.\n\n",
              path);
    any = 1;
    fprintf(md, "![%s, case %s](%s/%s_snap_%s.png)\n\n", stem, names[i], link_dir, stem, safe);
  }
  free(names);
}

int xp_snapshot_plot(const char *path, const char *datadir, const char *outdir, const char *stem,
                     const char *plotsdir, xp_error *err) {
  xp_file *f = xp_file_open(path, err);
  if (!f) return XP_ERR_USAGE;
  const size_t n = xp_file_case_count(f);
  xp_file_close(f);
  char(*names)[256] = malloc((n ? n : 1) * sizeof *names);
  if (!names) return xp_fail(err, XP_ERR_RUN, "out of memory");
  const size_t m = drawn_cases(path, names, n, err);
  int rc = XP_OK;
  for (size_t i = 0; rc == XP_OK && i < m; i++)
    rc = snapshot_case(path, names[i], datadir, outdir, stem, plotsdir, err);
  free(names);
  return rc;
}
