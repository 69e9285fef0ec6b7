// SPDX-License-Identifier: MIT
// Figures: export a results file's data as CSV and run the experiment's gnuplot script.
// gnuplot cannot read HDF5, so every figure is drawn from CSV exported from the stored file.
#include "xp/xp_bodies.h"
#include "xp/xp_file.h"
#include "xp/xp_path.h"

#include "stabcon_config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

int xp_mkdir_p(const char *path) {
  char tmp[1024];
  if (snprintf(tmp, sizeof tmp, "%s", path) >= (int)sizeof tmp) return errno = ENAMETOOLONG, -1;
  for (char *p = tmp + 1; *p; p++) {
    if (*p != '/') continue;
    *p = '\0';
    if (mkdir(tmp, 0777) != 0 && errno != EEXIST) return -1;
    *p = '/';
  }
  if (mkdir(tmp, 0777) != 0 && errno != EEXIST) return -1;
  return 0;
}

static FILE *open_in(const char *dir, const char *name, char *path, size_t len) {
  snprintf(path, len, "%s/%s", dir, name);
  return fopen(path, "w");
}

int xp_file_export_for_plot(const xp_file *f, const char *datadir, xp_error *err) {
  if (xp_mkdir_p(datadir) != 0)
    return xp_fail(err, XP_ERR_RUN, "cannot create directory '%s': %s", datadir, strerror(errno));
  char path[2048];
  FILE *list = open_in(datadir, "cases.txt", path, sizeof path);
  FILE *summary = list ? open_in(datadir, "summary.csv", path, sizeof path) : NULL;
  if (!list || !summary) {
    if (list) fclose(list);
    return xp_fail(err, XP_ERR_RUN, "cannot write '%s': %s", path, strerror(errno));
  }
  int rc = xp_file_export_summary_csv(f, summary, err);
  fclose(summary);
  for (size_t i = 0; rc == XP_OK && i < xp_file_case_count(f); i++) {
    const char *name = xp_file_case_name(f, i);
    char safe[300];
    xp_plot_case_file_name(safe, sizeof safe, name);
    fprintf(list, "%s\n", safe);
    size_t groups = 1;
    for (size_t g = 0; rc == XP_OK && g < groups; g++) {
      char file[700], first[256] = "";
      if (g == 0) {
        snprintf(file, sizeof file, "%s.csv", safe);
      } else {
        xp_file_case_group_name(f, name, g, first, sizeof first);
        snprintf(file, sizeof file, "%s.%s.csv", safe, first);
      }
      FILE *out = open_in(datadir, file, path, sizeof path);
      if (!out) {
        rc = xp_fail(err, XP_ERR_RUN, "cannot write '%s': %s", path, strerror(errno));
        break;
      }
      xp_error ignored;
      // a case without series still gets its (empty) file
      if (xp_file_export_case_csv(f, name, g, out, &groups, &ignored) != XP_OK) groups = 0;
      if (fclose(out) != 0) rc = xp_fail(err, XP_ERR_RUN, "cannot write '%s'", path);
    }
  }
  if (fclose(list) != 0 && rc == XP_OK) rc = xp_fail(err, XP_ERR_RUN, "cannot write cases.txt");
  return rc;
}

static void plots_dir(char *buf, size_t len) {
  const char *env = getenv("STABCON_PLOTS_DIR");
  if (env && env[0])
    snprintf(buf, len, "%s", env);
  else
    snprintf(buf, len, "%s/plots", STABCON_SOURCE_DIR);
}

// meta.gp: the figure's settings and the file's case list, methods and (unless a sweep, whose
// figures need none and may hold 1e5 cases) every status, parameter and statistic, as datablocks;
// the only commands in it are fixed text that copy block lines into variables
static int write_meta(const xp_file *f, const char *path, const char *const values[9],
                      int with_stats, xp_error *err) {
  FILE *out = fopen(path, "w");
  if (!out) return xp_fail(err, XP_ERR_RUN, "cannot write '%s': %s", path, strerror(errno));
  fputs(
      "# written by stabcon plot: values as data (datablock lines), never as commands\n"
      "$stabcon_meta << EOD\n",
      out);
  for (int i = 0; i < 9; i++) xp_plot_block_line(out, &values[i], 1);
  fputs(
      "EOD\n"
      "stabcon_meta(i) = $stabcon_meta[i][2:]\n"
      "datadir = stabcon_meta(1); outdir = stabcon_meta(2); stem = stabcon_meta(3)\n"
      "plotsdir = stabcon_meta(4); xcol = stabcon_meta(5); ycol = stabcon_meta(6)\n"
      "gcol = stabcon_meta(7); xunit = stabcon_meta(8); yunit = stabcon_meta(9)\n",
      out);
  int rc = xp_file_plot_blocks(f, out, with_stats, err);
  if (fclose(out) != 0 && rc == XP_OK) rc = xp_fail(err, XP_ERR_RUN, "cannot write '%s'", path);
  return rc;
}

int xp_plot_file(const char *path, const xp_experiment *xp, const char *outdir, xp_error *err) {
  return xp_plot_file_y(path, xp, outdir, NULL, err);
}

// A sweep figure's axes from the sweep description "EXP [key=value]… key=v1,v2,… …": x the first
// swept numeric key (h by default), the groups the method axis if swept, y the override or the
// experiment's error statistic, which some case must have (a reference case may lack it); the
// units of x and y from the first case that has y. xcol, ycol, gcol hold 64 bytes, units 2×64.
static int sweep_axes(const xp_file *f, const char *sweep, const xp_experiment *xp,
                      const char *ycol_override, char *xcol, char *ycol, char *gcol,
                      char units[2][64], xp_error *err) {
  snprintf(xcol, 64, "h");
  const char *axes = strchr(sweep, ' ');
  while (axes) {
    if (axes[1] == '[') {  // the bracketed fixed settings are not axes
      const char *close = strchr(axes, ']');
      axes = close ? strchr(close, ' ') : NULL;
      continue;
    }
    char key[64];
    if (sscanf(axes + 1, "%63[^=]", key) == 1) {
      if (strcmp(key, "method") == 0)
        snprintf(gcol, 64, "method");
      else if (!xcol[0] || strcmp(xcol, "h") == 0)
        snprintf(xcol, 64, "%s", key);
    }
    axes = strchr(axes + 1, ' ');
  }
  snprintf(ycol, 64, "%s",
           ycol_override    ? ycol_override
           : xp->error_stat ? xp->error_stat
                            : "error_final");
  double probe;
  size_t with_y = 0;
  while (with_y < xp_file_case_count(f) &&
         xp_file_case_stat(f, xp_file_case_name(f, with_y), ycol, &probe) != 0)
    with_y++;
  if (with_y == xp_file_case_count(f))
    return xp_fail(err, XP_ERR_USAGE,
                   "the sweep's cases have no statistic '%s'; choose one with --y STAT "
                   "(`stabcon export FILE` lists them)",
                   ycol);
  xp_file_case_unit(f, xp_file_case_name(f, with_y), xcol, units[0], sizeof units[0]);
  xp_file_case_unit(f, xp_file_case_name(f, with_y), ycol, units[1], sizeof units[1]);
  return XP_OK;
}

int xp_plot_file_y(const char *path, const xp_experiment *xp, const char *outdir,
                   const char *ycol_override, xp_error *err) {
  xp_file *f = xp_file_open(path, err);
  if (!f) return XP_ERR_USAGE;
  char experiment[128] = "";
  xp_file_attr(f, "experiment", experiment, sizeof experiment);
  char sweep[8192] = "";
  int is_sweep = xp_file_attr(f, "sweep", sweep, sizeof sweep) == 0;
  if (!xp) {
    xp_file_close(f);
    return xp_fail(err, XP_ERR_USAGE, "'%s': unknown experiment '%s' (no figure script)", path,
                   experiment);
  }
  if (!xp->plot_script && !is_sweep) {
    xp_file_close(f);
    return xp_fail(err, XP_ERR_USAGE, "experiment '%s' has no figure", experiment);
  }
  // stem: basename without .h5
  const char *base = strrchr(path, '/');
  base = base ? base + 1 : path;
  char stem[256];
  snprintf(stem, sizeof stem, "%s", base);
  char *dot = strstr(stem, ".h5");
  if (dot) *dot = '\0';
  char datadir[1400], script[1400], meta[1500], dir[1024], out[1100], plots[1024];
  // every path reaching gnuplot (arguments and datablock lines) is one it cannot take as a pipe
  plots_dir(plots, sizeof plots);
  if (xp_gnuplot_path(out, sizeof out, outdir, err) != XP_OK ||
      xp_gnuplot_path(dir, sizeof dir, plots, err) != XP_OK) {
    xp_file_close(f);
    return XP_ERR_USAGE;
  }
  outdir = out;
  snprintf(datadir, sizeof datadir, "%s/data/%s", outdir, stem);
  // the file's name is part of datadir, a datablock line: no control characters in it either
  if (xp_gnuplot_path(meta, sizeof meta, datadir, err) != XP_OK) {
    xp_file_close(f);
    return XP_ERR_USAGE;
  }
  int rc = xp_file_export_for_plot(f, datadir, err);
  char units[2][64] = {"", ""};  // of x and y in a sweep figure, read before closing
  if (rc != XP_OK) {
    xp_file_close(f);
    return rc;
  }
  // a sweep over both h and k is drawn as a stability map, any other sweep as y against x
  int is_map = is_sweep && strstr(sweep, " h=") && strstr(sweep, " k=");
  snprintf(script, sizeof script, "%s/%s", dir,
           is_map     ? "sweep_map.gp"
           : is_sweep ? "sweep.gp"
                      : xp->plot_script);
  if (access(script, R_OK) != 0) {
    xp_file_close(f);
    return xp_fail(err, XP_ERR_RUN, "figure script '%s' not found (set STABCON_PLOTS_DIR)", script);
  }
  char xcol[64] = "", ycol[64] = "", gcol[64] = "";
  if (is_sweep) {
    rc = sweep_axes(f, sweep, xp, ycol_override, xcol, ycol, gcol, units, err);
    if (rc != XP_OK) {
      xp_file_close(f);
      return rc;
    }
  }
  // every value from the file or the command line goes to gnuplot as data (meta.gp)
  snprintf(meta, sizeof meta, "%s/meta.gp", datadir);
  const char *values[] = {datadir, outdir, stem, dir, xcol, ycol, gcol, units[0], units[1]};
  rc = write_meta(f, meta, values, !is_sweep, err);
  xp_file_close(f);
  if (rc != XP_OK) return rc;
  int status = xp_plot_run_gnuplot(meta, script);
  if (status == 127)
    return xp_fail(err, XP_ERR_RUN, "gnuplot not found on PATH (install gnuplot-nox)");
  if (status != 0)
    return xp_fail(err, XP_ERR_RUN, "gnuplot failed (exit %d) on '%s'", status, script);
  return is_sweep ? XP_OK : xp_snapshot_plot(path, datadir, outdir, stem, dir, err);
}
