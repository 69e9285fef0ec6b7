// SPDX-License-Identifier: MIT
// What a results file may contain, checked before any value is read from it.
//
// A results file is data someone may send. Every object the readers in xp_file.c touch is
// checked here first against the shapes xp_results.c writes: attributes one number or one
// string, cases and their params/stats/series groups reached by hard links only (a soft or
// external link could point anywhere, even into another file), series 1-D floating-point
// datasets whose declared length is backed by stored bytes. A file that holds anything else is
// refused with a message naming the object, before libhdf5 is asked to convert or allocate.
#include <hdf5.h>
#include <stdio.h>
#include <string.h>

#include "xp/xp.h"
#include "xp_internal.h"

typedef struct check_ctx {
  const char *path;   // the file, for messages
  const char *where;  // the object being walked, for messages
  xp_error *err;
  int rc;
} check_ctx;

int xp_h5_attr_shape(hid_t attr, char *why, size_t len) {
  hid_t space = H5Aget_space(attr), type = H5Aget_type(attr);
  int ok = 0;
  if (space < 0 || type < 0) {
    snprintf(why, len, "unreadable");
  } else if (!(H5Sget_simple_extent_type(space) == H5S_SCALAR ||
               (H5Sget_simple_extent_type(space) == H5S_SIMPLE &&
                H5Sget_simple_extent_npoints(space) == 1))) {
    snprintf(why, len, "not a single value (%lld elements)",
             (long long)H5Sget_simple_extent_npoints(space));
  } else {
    H5T_class_t cls = H5Tget_class(type);
    size_t size = H5Tget_size(type);
    htri_t vlen = cls == H5T_STRING ? H5Tis_variable_str(type) : 0;
    if (cls == H5T_STRING && vlen < 0)
      snprintf(why, len, "a string of unknown kind");
    else if (cls == H5T_STRING && !vlen && (size < 1 || size > XP_ATTR_MAX_STRING))
      snprintf(why, len, "a fixed string of %zu bytes (limit %d)", size, (int)XP_ATTR_MAX_STRING);
    else if (cls == H5T_INTEGER && (size < 1 || size > 8))
      snprintf(why, len, "an integer of %zu bytes", size);
    else if (cls == H5T_FLOAT && size != 4 && size != 8)
      snprintf(why, len, "a floating-point number of %zu bytes", size);
    else if (cls != H5T_STRING && cls != H5T_INTEGER && cls != H5T_FLOAT)
      snprintf(why, len, "neither a number nor a string (type class %d)", (int)cls);
    else
      ok = 1;
  }
  if (type >= 0) H5Tclose(type);
  if (space >= 0) H5Sclose(space);
  return ok ? 0 : -1;
}

static int check_fail(check_ctx *c, const char *fmt, const char *a, const char *b) {
  char what[2048];
  snprintf(what, sizeof what, fmt, a, b);
  c->rc = xp_fail(c->err, XP_ERR_USAGE, "'%s' is not a valid results file: %s", c->path, what);
  return 1;  // stops the iteration
}

static herr_t check_attr(hid_t obj, const char *name, const H5A_info_t *info, void *data) {
  (void)info;
  check_ctx *c = data;
  if (strlen(name) >= XP_NAME_MAX)
    return check_fail(c, "%s: an attribute name is longer than %s characters", c->where, "255");
  hid_t attr = H5Aopen(obj, name, H5P_DEFAULT);
  char why[128] = "unreadable";
  int bad = attr < 0 || xp_h5_attr_shape(attr, why, sizeof why) != 0;
  if (attr >= 0) H5Aclose(attr);
  if (!bad) return 0;
  char what[300];
  snprintf(what, sizeof what, "%.200s of '%.80s'", name, c->where);
  return check_fail(c, "attribute %s is %s", what, why);
}

static int check_attrs(hid_t obj, const char *where, check_ctx *c) {
  c->where = where;
  hsize_t idx = 0;
  if (H5Aiterate2(obj, H5_INDEX_NAME, H5_ITER_INC, &idx, check_attr, c) < 0 && c->rc == XP_OK)
    check_fail(c, "cannot list the attributes of '%s'%s", where, "");
  return c->rc;
}

// name must be a hard link to an object of the given type; opens it into *id
static int open_member(hid_t parent, const char *name, const char *where, H5O_type_t want,
                       hid_t *id, check_ctx *c) {
  *id = -1;
  H5L_info_t link;
  if (H5Lget_info(parent, name, &link, H5P_DEFAULT) < 0)
    return check_fail(c, "cannot read the link '%s'%s", where, ""), c->rc;
  if (link.type != H5L_TYPE_HARD)
    return check_fail(c, "'%s' is a soft or external link%s; only hard links are read", where, ""),
           c->rc;
  H5O_info_t oi;
  if (H5Oget_info_by_name2(parent, name, &oi, H5O_INFO_BASIC, H5P_DEFAULT) < 0 || oi.type != want)
    return check_fail(c, "'%s' is not a %s", where, want == H5O_TYPE_GROUP ? "group" : "dataset"),
           c->rc;
  *id = H5Oopen(parent, name, H5P_DEFAULT);
  if (*id < 0) return check_fail(c, "cannot open '%s'%s", where, ""), c->rc;
  return XP_OK;
}

// a series: 1-D floating point, at most XP_SERIES_MAX_POINTS, its bytes really stored
static int check_series(hid_t ds, const char *where, check_ctx *c) {
  hid_t space = H5Dget_space(ds), type = H5Dget_type(ds);
  H5T_class_t cls = type >= 0 ? H5Tget_class(type) : H5T_NO_CLASS;
  size_t size = type >= 0 ? H5Tget_size(type) : 0;
  int rank = space >= 0 ? H5Sget_simple_extent_ndims(space) : -1;
  hssize_t n = space >= 0 ? H5Sget_simple_extent_npoints(space) : -1;
  if (type >= 0) H5Tclose(type);
  if (space >= 0) H5Sclose(space);
  char count[64];
  snprintf(count, sizeof count, "%lld", (long long)n);
  if (cls != H5T_FLOAT || (size != 4 && size != 8))
    return check_fail(c, "series '%s' is not a floating-point dataset%s", where, "");
  if (rank != 1 || n < 0) return check_fail(c, "series '%s' is not one-dimensional%s", where, "");
  if (n > XP_SERIES_MAX_POINTS)
    return check_fail(c, "series '%s' declares %s entries (limit 1e8)", where, count);
  // a declared extent without stored data (chunks never written) would make the reader allocate
  // what the file merely claims; deflate compresses at most about 1000:1
  hsize_t stored = H5Dget_storage_size(ds);
  if (n > 0 && (double)n * (double)size > 1100.0 * (double)stored + 65536.0)
    return check_fail(c, "series '%s' declares %s entries but stores far fewer bytes", where,
                      count);
  return check_attrs(ds, where, c);
}

static herr_t check_series_link(hid_t g, const char *name, const H5L_info_t *info, void *data) {
  (void)info;
  check_ctx *c = data;
  char where[XP_NAME_MAX * 3];
  snprintf(where, sizeof where, "%s/%s", c->where, name);
  const char *saved = c->where;
  hid_t ds;
  if (strlen(name) >= XP_NAME_MAX) return check_fail(c, "'%s': name too long%s", where, "");
  if (open_member(g, name, where, H5O_TYPE_DATASET, &ds, c)) return 1;
  check_series(ds, where, c);
  H5Oclose(ds);
  c->where = saved;
  return c->rc != XP_OK;
}

// /cases/<case>: attributes, and params, stats (attributes) and series (datasets) if present
static int check_case(hid_t cases, const char *name, check_ctx *c) {
  char where[XP_NAME_MAX + 16];
  snprintf(where, sizeof where, "cases/%s", name);
  if (strlen(name) >= XP_NAME_MAX) return check_fail(c, "'%s': case name too long%s", where, "");
  hid_t g;
  if (open_member(cases, name, where, H5O_TYPE_GROUP, &g, c)) return c->rc;
  check_attrs(g, where, c);
  const char *subs[3] = {"params", "stats", "series"};
  for (int s = 0; s < 3 && c->rc == XP_OK; s++) {
    char sub[XP_NAME_MAX + 32];
    snprintf(sub, sizeof sub, "%s/%s", where, subs[s]);
    if (H5Lexists(g, subs[s], H5P_DEFAULT) <= 0) continue;
    hid_t sg;
    if (open_member(g, subs[s], sub, H5O_TYPE_GROUP, &sg, c)) break;
    check_attrs(sg, sub, c);
    if (s == 2 && c->rc == XP_OK) {
      c->where = sub;
      hsize_t idx = 0;
      if (H5Literate(sg, H5_INDEX_NAME, H5_ITER_INC, &idx, check_series_link, c) < 0 &&
          c->rc == XP_OK)
        check_fail(c, "cannot list '%s'%s", sub, "");
    }
    H5Oclose(sg);
  }
  H5Oclose(g);
  return c->rc;
}

static herr_t check_case_link(hid_t g, const char *name, const H5L_info_t *info, void *data) {
  (void)info;
  return check_case(g, name, data) != XP_OK;
}

int xp_file_check(hid_t file, const char *path, xp_error *err) {
  check_ctx c = {.path = path, .where = "/", .err = err, .rc = XP_OK};
  if (check_attrs(file, "/", &c)) return c.rc;
  hid_t g;
  if (H5Lexists(file, "params", H5P_DEFAULT) > 0) {
    if (open_member(file, "params", "params", H5O_TYPE_GROUP, &g, &c)) return c.rc;
    check_attrs(g, "params", &c);
    H5Oclose(g);
    if (c.rc) return c.rc;
  }
  if (open_member(file, "cases", "cases", H5O_TYPE_GROUP, &g, &c)) return c.rc;
  hsize_t idx = 0;
  if (H5Literate(g, H5_INDEX_NAME, H5_ITER_INC, &idx, check_case_link, &c) < 0 && c.rc == XP_OK)
    check_fail(&c, "cannot list '%s'%s", "cases", "");
  H5Oclose(g);
  return c.rc;
}
