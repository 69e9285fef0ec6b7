// SPDX-License-Identifier: MIT
// Results writer (SPEC §6): one HDF5 file per run, provenance on the root, one group per case.
//
// Layout:  /            attributes: provenance (xp_provenance.c), experiment, paper_ref
//          /params      one string attribute per run parameter (the value actually used)
//          /cases/<c>   attributes status, message
//          /cases/<c>/params  /cases/<c>/stats   attributes (double or string)
//          /cases/<c>/series/<s>                 1-D double datasets with a `unit` attribute
//          /cases/<c>/bodies/<a>   optional per-body history of a scene (sim_frames.c): double
//                                  arrays t [F], position [F,B,3], orientation [F,B,4] (unit
//                                  quaternion w x y z), velocity [F,B,3], force [F,B] (largest
//                                  contact normal force on the body), radius [B], each with a
//                                  `unit` attribute; the group's attributes describe the scene
// The file is written as "<path>.partial" and renamed on commit; each finished case is flushed,
// so an interrupted run leaves every finished case readable in the partial file.
#include <errno.h>
#include <hdf5.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "xp/xp.h"
#include "xp/xp_path.h"
#include "xp_internal.h"

struct xp_case {
  xp_results *owner;
  hid_t group, params, stats, series;
  hid_t bodies;  // 0 until the first body array (the group is optional)
  int failed;
};

struct xp_results {
  hid_t file, cases;
  char path[1024];
  char partial[1040];
  xp_error error;  // the first error (code 0: none): it names the cause
  xp_case current;
  int case_open;
};

// keeps the first error of the file (the one convention, xp_error): later ones are its effects
#define results_set_error(r, ...) \
  ((void)((r)->error.code ? 0 : xp_fail(&(r)->error, XP_ERR_RUN, __VA_ARGS__)))

// a group whose links keep their creation order, so cases list in the order they ran
static hid_t group_create_ordered(hid_t parent, const char *name) {
  hid_t gcpl = H5Pcreate(H5P_GROUP_CREATE);
  H5Pset_link_creation_order(gcpl, H5P_CRT_ORDER_TRACKED | H5P_CRT_ORDER_INDEXED);
  hid_t g = H5Gcreate2(parent, name, H5P_DEFAULT, gcpl, H5P_DEFAULT);
  H5Pclose(gcpl);
  return g;
}

static int write_params(hid_t file, const xp_params *p) {
  hid_t g = H5Gcreate2(file, "params", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  if (g < 0) return -1;
  int rc = 0;
  for (size_t i = 0; p && i < p->n; i++) rc |= xp_h5_attr_string(g, p->defs[i].key, p->text[i]);
  H5Gclose(g);
  return rc;
}

// H5F_ACC_EXCL creates with O_EXCL, which never follows a symlink planted at the partial name; a
// stale regular partial file is removed first, and a file the library could not initialise (a
// full disk) is not left behind empty
static hid_t partial_create(const char *partial) {
  struct stat st;
  if (xp_partial_remove_stale(partial)) return -1;  // another run is writing it
  errno = 0;
  hid_t file = H5Fcreate(partial, H5F_ACC_EXCL, H5P_DEFAULT, H5P_DEFAULT);
  int saved = errno;
  if (file < 0 && lstat(partial, &st) == 0 && S_ISREG(st.st_mode) && st.st_size == 0)
    unlink(partial);
  errno = saved;
  return file;
}

xp_results *xp_results_create(const char *path, const xp_experiment *x, const xp_params *params,
                              int argc, char *const *argv, xp_error *err) {
  xp_h5_quiet();
  xp_results *r = calloc(1, sizeof *r);
  if (!r) {
    xp_fail(err, XP_ERR_RUN, "out of memory");
    return NULL;
  }
  if (strlen(path) >= sizeof r->path) {
    xp_fail(err, XP_ERR_USAGE, "output path too long: %s", path);
    free(r);
    return NULL;
  }
  strcpy(r->path, path);
  snprintf(r->partial, sizeof r->partial, "%s.partial", path);
  r->file = partial_create(r->partial);
  if (r->file < 0) {
    const int full = errno == ENOSPC || errno == EDQUOT, busy = errno == EBUSY;
    xp_fail(err, full || busy ? XP_ERR_RUN : XP_ERR_USAGE, "cannot create results file '%s': %s",
            r->partial,
            busy   ? "another stabcon is writing it"
            : full ? strerror(errno)
                   : "is the directory writable?");
    free(r);
    return NULL;
  }
  int rc = xp_provenance_write(r->file, argc, argv);
  rc |= xp_h5_attr_string(r->file, "experiment", x->name);
  rc |= xp_h5_attr_string(r->file, "paper_ref", x->paper_ref ? x->paper_ref : "");
  rc |= write_params(r->file, params);
  r->cases = group_create_ordered(r->file, "cases");
  if (rc || r->cases < 0 || H5Fflush(r->file, H5F_SCOPE_GLOBAL) < 0) {
    xp_fail(err, XP_ERR_RUN, "cannot write results file '%s' (disk full?)", r->partial);
    xp_results_abort(r);
    return NULL;
  }
  return r;
}

int xp_results_commit(xp_results *r, xp_error *err) {
  int rc = XP_OK;
  if (r->case_open) xp_case_end(&r->current);
  if (r->error.code) rc = xp_fail(err, r->error.code, "%s", r->error.message);
  if ((H5Gclose(r->cases) < 0 || H5Fflush(r->file, H5F_SCOPE_GLOBAL) < 0) && rc == XP_OK)
    rc = xp_fail(err, XP_ERR_RUN, "cannot write results file '%s' (disk full?)", r->partial);
  if (H5Fclose(r->file) < 0 && rc == XP_OK)
    rc = xp_fail(err, XP_ERR_RUN, "cannot close results file '%s' (disk full?)", r->partial);
  if (rc == XP_OK && rename(r->partial, r->path) != 0)
    rc = xp_fail(err, XP_ERR_RUN, "cannot rename '%s' to '%s'", r->partial, r->path);
  if (rc != XP_OK) unlink(r->partial);
  free(r);
  return rc;
}

void xp_results_abort(xp_results *r) {
  if (r->case_open) xp_case_end(&r->current);
  if (r->cases >= 0) H5Gclose(r->cases);
  H5Fclose(r->file);
  unlink(r->partial);
  free(r);
}

const char *xp_results_error(const xp_results *r) { return r->error.message; }

hid_t xp_results_file_id(xp_results *r) { return r->file; }
hid_t xp_results_cases_id(xp_results *r) { return r->cases; }

xp_case *xp_case_begin(xp_results *r, const char *name) {
  if (r->case_open) xp_case_end(&r->current);
  xp_case *c = &r->current;
  memset(c, 0, sizeof *c);
  c->owner = r;
  c->group = group_create_ordered(r->cases, name);
  if (c->group < 0) {
    results_set_error(r, "cannot create case '%s' (duplicate name or disk full)", name);
    return NULL;
  }
  c->params = H5Gcreate2(c->group, "params", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  c->stats = H5Gcreate2(c->group, "stats", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  c->series = group_create_ordered(c->group, "series");
  r->case_open = 1;
  // a case that never reports a status did not finish
  xp_h5_attr_string(c->group, "status", "did-not-finish");
  if (c->params < 0 || c->stats < 0 || c->series < 0) c->failed = 1;
  return c;
}

static void case_check(xp_case *c, int rc, const char *what, const char *key) {
  if (rc >= 0) return;
  c->failed = 1;
  results_set_error(c->owner, "cannot write %s '%s' (disk full?)", what, key);
}

// units are stored beside the value as "<key>.unit"
static void attr_unit(xp_case *c, hid_t g, const char *key, const char *unit) {
  if (!unit || !unit[0]) return;
  char name[256];
  snprintf(name, sizeof name, "%s.unit", key);
  case_check(c, xp_h5_attr_string(g, name, unit), "unit of", key);
}

void xp_case_param_real(xp_case *c, const char *key, double value, const char *unit) {
  if (!c) return;
  case_check(c, xp_h5_attr_double(c->params, key, value), "parameter", key);
  attr_unit(c, c->params, key, unit);
}

void xp_case_param_string(xp_case *c, const char *key, const char *value) {
  if (!c) return;
  case_check(c, xp_h5_attr_string(c->params, key, value), "parameter", key);
}

void xp_case_stat_real(xp_case *c, const char *key, double value, const char *unit) {
  if (!c) return;
  case_check(c, xp_h5_attr_double(c->stats, key, value), "statistic", key);
  attr_unit(c, c->stats, key, unit);
}

void xp_case_series(xp_case *c, const char *name, const char *unit, const double *data, size_t n) {
  if (!c) return;
  hsize_t dims[1] = {n};
  hid_t space = H5Screate_simple(1, dims, NULL);
  hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
  // long series are chunked and compressed when the library has deflate
  if (n >= 4096 && H5Zfilter_avail(H5Z_FILTER_DEFLATE) > 0) {
    hsize_t chunk[1] = {n < 65536 ? n : 65536};
    H5Pset_chunk(dcpl, 1, chunk);
    H5Pset_shuffle(dcpl);
    H5Pset_deflate(dcpl, 4);
  }
  hid_t ds = H5Dcreate2(c->series, name, H5T_NATIVE_DOUBLE, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
  int rc = ds < 0 ? -1 : 0;
  if (ds >= 0 && n > 0) rc = H5Dwrite(ds, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, data);
  if (ds >= 0 && rc >= 0) rc = xp_h5_attr_string(ds, "unit", unit ? unit : "");
  if (ds >= 0) H5Dclose(ds);
  H5Pclose(dcpl);
  H5Sclose(space);
  case_check(c, rc, "series", name);
}

// the case's bodies group, created on first use
static hid_t case_bodies(xp_case *c) {
  if (c->bodies != 0) return c->bodies;
  c->bodies = H5Gcreate2(c->group, "bodies", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  if (c->bodies < 0) case_check(c, -1, "group", "bodies");
  return c->bodies;
}

void xp_case_bodies_array(xp_case *c, const char *name, const char *unit, const double *data,
                          int rank, const size_t *dims) {
  if (!c || rank < 1 || rank > 3 || case_bodies(c) < 0) return;
  hsize_t d[3];
  for (int k = 0; k < rank; k++) d[k] = dims[k];
  hid_t space = H5Screate_simple(rank, d, NULL);
  hid_t ds =
      H5Dcreate2(c->bodies, name, H5T_NATIVE_DOUBLE, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  int rc = ds < 0 ? -1 : 0;
  if (ds >= 0 && H5Sget_simple_extent_npoints(space) > 0)
    rc = H5Dwrite(ds, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, data);
  if (ds >= 0 && rc >= 0) rc = xp_h5_attr_string(ds, "unit", unit ? unit : "");
  if (ds >= 0) H5Dclose(ds);
  H5Sclose(space);
  case_check(c, rc, "body history", name);
}

void xp_case_bodies_attr(xp_case *c, const char *key, const char *text, double value) {
  if (!c || case_bodies(c) < 0) return;
  case_check(
      c, text ? xp_h5_attr_string(c->bodies, key, text) : xp_h5_attr_double(c->bodies, key, value),
      "scene attribute", key);
}

void xp_case_status(xp_case *c, const char *status, const char *message) {
  if (!c) return;
  // overwrite the provisional "did-not-finish"
  if (H5Aexists(c->group, "status") > 0) H5Adelete(c->group, "status");
  case_check(c, xp_h5_attr_string(c->group, "status", status), "status", status);
  if (message && message[0])
    case_check(c, xp_h5_attr_string(c->group, "message", message), "message", message);
}

int xp_case_end(xp_case *c) {
  if (!c) return XP_ERR_RUN;
  xp_results *r = c->owner;
  if (c->series >= 0) H5Gclose(c->series);
  if (c->bodies > 0) H5Gclose(c->bodies);
  if (c->stats >= 0) H5Gclose(c->stats);
  if (c->params >= 0) H5Gclose(c->params);
  H5Gclose(c->group);
  r->case_open = 0;
  if (H5Fflush(r->file, H5F_SCOPE_GLOBAL) < 0) {
    c->failed = 1;
    results_set_error(r, "cannot flush results file '%s' (disk full?)", r->partial);
  }
  return c->failed ? XP_ERR_RUN : XP_OK;
}
