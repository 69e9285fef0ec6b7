// SPDX-License-Identifier: MIT
// A case's per-body history (the `bodies` group) read with every shape checked, and its XDMF 2
// description: a temporal collection of point grids whose data items are hyperslabs of the
// results file's arrays, so ParaView, VisIt or OVITO play the run without a copy of the data.
#include "xp/xp_bodies.h"
#include "xp/xp_file.h"
#include "xp/xp_path.h"
#include "xp_internal.h"

#include <hdf5.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct body_array {
  const char *name;
  int rank, optional;
  size_t last;  // the last dimension (3 or 4) for rank 3
} body_array;

// t [F], position [F,B,3], orientation [F,B,4], velocity [F,B,3], force [F,B], radius [B]
static const body_array arrays[] = {{"t", 1, 0, 0},           {"position", 3, 0, 3},
                                    {"orientation", 3, 1, 4}, {"velocity", 3, 0, 3},
                                    {"force", 2, 0, 0},       {"radius", 1, 0, 0}};
enum { N_ARRAYS = sizeof arrays / sizeof arrays[0] };

// one array: a hard link to an 8-byte float dataset of the expected rank; its dims into d,
// *present 0 for an optional array that is absent. XP_OK or an error.
static int array_shape(hid_t g, const body_array *a, hsize_t d[3], int *present, const char *where,
                       xp_error *err) {
  H5L_info_t link;
  *present = H5Lexists(g, a->name, H5P_DEFAULT) > 0;
  if (!*present)
    return a->optional ? XP_OK : xp_fail(err, XP_ERR_USAGE, "%s: no array '%s'", where, a->name);
  if (H5Lget_info(g, a->name, &link, H5P_DEFAULT) < 0 || link.type != H5L_TYPE_HARD)
    return xp_fail(err, XP_ERR_USAGE, "%s: array '%s' is not a hard link", where, a->name);
  H5O_info_t oi;
  if (H5Oget_info_by_name2(g, a->name, &oi, H5O_INFO_BASIC, H5P_DEFAULT) < 0 ||
      oi.type != H5O_TYPE_DATASET)
    return xp_fail(err, XP_ERR_USAGE, "%s: array '%s' is not a dataset", where, a->name);
  hid_t ds = H5Dopen2(g, a->name, H5P_DEFAULT);
  hid_t space = ds >= 0 ? H5Dget_space(ds) : -1, type = ds >= 0 ? H5Dget_type(ds) : -1;
  int ok = space >= 0 && type >= 0 && H5Tget_class(type) == H5T_FLOAT && H5Tget_size(type) == 8 &&
           H5Sget_simple_extent_ndims(space) == a->rank;
  if (ok) H5Sget_simple_extent_dims(space, d, NULL);
  // as for series (xp_file_check.c): an extent the stored bytes do not back is not read
  const double bytes = ok ? 8.0 * (double)H5Sget_simple_extent_npoints(space) : 0;
  const int backed = !ok || bytes <= 1100.0 * (double)H5Dget_storage_size(ds) + 65536.0;
  if (type >= 0) H5Tclose(type);
  if (space >= 0) H5Sclose(space);
  if (ds >= 0) H5Dclose(ds);
  if (!ok)
    return xp_fail(err, XP_ERR_USAGE, "%s: array '%s' is not a %d-D array of 8-byte floats", where,
                   a->name, a->rank);
  if (!backed)
    return xp_fail(err, XP_ERR_USAGE, "%s: array '%s' declares far more entries than it stores",
                   where, a->name);
  return XP_OK;
}

static int shapes_check(hid_t g, xp_bodies *b, int present[N_ARRAYS], const char *where,
                        xp_error *err) {
  hsize_t d[N_ARRAYS][3] = {{0}};
  for (int k = 0; k < N_ARRAYS; k++) {
    int rc = array_shape(g, &arrays[k], d[k], &present[k], where, err);
    if (rc != XP_OK) return rc;
  }
  b->nf = (size_t)d[0][0], b->nb = (size_t)d[5][0];
  if (b->nf < 1 || b->nf > XP_BODIES_MAX_FRAMES || b->nb < 1 ||
      (double)b->nf * (double)b->nb > XP_SERIES_MAX_POINTS / 4)
    return xp_fail(err, XP_ERR_USAGE,
                   "%s: %zu frames of %zu bodies (limits %d frames, 2.5e7 "
                   "entries)",
                   where, b->nf, b->nb, XP_BODIES_MAX_FRAMES);
  for (int k = 1; k < 5; k++) {
    const body_array *a = &arrays[k];
    if (!present[k]) continue;
    if (d[k][0] != b->nf || d[k][1] != b->nb || (a->rank == 3 && d[k][2] != a->last))
      return xp_fail(err, XP_ERR_USAGE,
                     "%s: array '%s': shape does not match t [%zu] and radius [%zu]", where,
                     a->name, b->nf, b->nb);
  }
  return XP_OK;
}

static double *array_read(hid_t g, const char *name, size_t n) {
  double *x = malloc(n * sizeof *x);
  hid_t ds = x ? H5Dopen2(g, name, H5P_DEFAULT) : -1;
  int ok = ds >= 0 && H5Dread(ds, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, x) >= 0;
  if (ds >= 0) H5Dclose(ds);
  if (!ok) free(x);
  return ok ? x : NULL;
}

static void scene_read(hid_t g, xp_bodies *b) {
  xp_h5_attr_read_string(g, "kind", b->kind, sizeof b->kind);
  const char *keys[6] = {"wall_half", "foot_radius", "half_x", "half_y", "half_z", "ramp_angle"};
  double *dst[6] = {&b->wall_half, &b->foot_radius, &b->half[0],
                    &b->half[1],   &b->half[2],     &b->ramp_angle};
  for (int k = 0; k < 6; k++) {
    char text[64];
    if (xp_h5_attr_read_string(g, keys[k], text, sizeof text) == 0) *dst[k] = atof(text);
  }
}

static int bodies_load(hid_t file, const char *case_name, int read_data, xp_bodies *b,
                       const char *where, xp_error *err) {
  char gpath[XP_NAME_MAX + 32];
  snprintf(gpath, sizeof gpath, "cases/%s/bodies", case_name);
  H5L_info_t link;
  if (H5Lexists(file, gpath, H5P_DEFAULT) <= 0)
    return xp_fail(err, XP_ERR_USAGE,
                   "%s holds no per-body history (only runs of a scene with bodies — stack, pile, "
                   "incline, sphere, spring–cylinder — with frames > 0 store one)",
                   where);
  if (H5Lget_info(file, gpath, &link, H5P_DEFAULT) < 0 || link.type != H5L_TYPE_HARD)
    return xp_fail(err, XP_ERR_USAGE, "%s: bodies is not a hard link", where);
  hid_t g = H5Gopen2(file, gpath, H5P_DEFAULT);
  if (g < 0) return xp_fail(err, XP_ERR_USAGE, "%s: bodies is not a group", where);
  int present[N_ARRAYS];
  int rc = shapes_check(g, b, present, where, err);
  if (rc == XP_OK) scene_read(g, b);
  const size_t nf = b->nf, nb = b->nb;
  const size_t sizes[N_ARRAYS] = {nf, 3 * nf * nb, 4 * nf * nb, 3 * nf * nb, nf * nb, nb};
  double **dst[N_ARRAYS] = {&b->t, &b->pos, &b->rot, &b->vel, &b->force, &b->radius};
  for (int k = 0; rc == XP_OK && read_data && k < N_ARRAYS; k++) {
    if (!present[k]) continue;
    *dst[k] = array_read(g, arrays[k].name, sizes[k]);
    if (!*dst[k]) rc = xp_fail(err, XP_ERR_RUN, "%s: cannot read %s", where, arrays[k].name);
  }
  if (rc == XP_OK && !present[2]) b->rot = NULL;
  H5Gclose(g);
  return rc;
}

int xp_bodies_read(const char *path, const char *case_name, int read_data, xp_bodies *b,
                   xp_error *err) {
  memset(b, 0, sizeof *b);
  xp_file *f = xp_file_open(path, err);  // checks the whole file first
  if (!f) return XP_ERR_USAGE;
  int found = 0;
  for (size_t i = 0; i < xp_file_case_count(f); i++)
    found |= strcmp(xp_file_case_name(f, i), case_name) == 0;
  xp_file_close(f);
  if (!found)
    return xp_fail(err, XP_ERR_USAGE, "'%s' has no case '%s' (see `stabcon info`)", path,
                   case_name);
  hid_t file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
  if (file < 0) return xp_fail(err, XP_ERR_USAGE, "cannot open '%s'", path);
  char where[1400];
  snprintf(where, sizeof where, "case '%.256s' of '%.1000s'", case_name, path);
  int rc = bodies_load(file, case_name, read_data, b, where, err);
  H5Fclose(file);
  if (rc != XP_OK) xp_bodies_free(b);
  return rc;
}

long xp_bodies_list(const char *path, char (*names)[256], char (*kinds)[32], size_t cap,
                    xp_error *err) {
  xp_file *f = xp_file_open(path, err);  // checks the whole file once
  if (!f) return -1;
  const size_t n = xp_file_case_count(f);
  char(*all)[256] = malloc((n ? n : 1) * sizeof *all);
  for (size_t i = 0; all && i < n; i++) snprintf(all[i], 256, "%s", xp_file_case_name(f, i));
  xp_file_close(f);
  if (!all) return xp_fail(err, XP_ERR_RUN, "out of memory"), -1;
  hid_t file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
  if (file < 0) return free(all), xp_fail(err, XP_ERR_USAGE, "cannot open '%s'", path), -1;
  size_t m = 0;
  for (size_t i = 0; i < n && m < cap; i++) {
    xp_bodies b;
    xp_error quiet;
    memset(&b, 0, sizeof b);
    if (bodies_load(file, all[i], 0, &b, all[i], &quiet) == XP_OK) {
      memcpy(names[m], all[i], 256);
      snprintf(kinds[m++], 32, "%s", b.kind);
    }
    xp_bodies_free(&b);
  }
  H5Fclose(file);
  free(all);
  return (long)m;
}

void xp_bodies_free(xp_bodies *b) {
  double *arrays_owned[6] = {b->t, b->pos, b->rot, b->vel, b->force, b->radius};
  for (int k = 0; k < 6; k++) free(arrays_owned[k]);
  b->t = b->pos = b->rot = b->vel = b->force = b->radius = NULL;
}

// ---- XDMF ---------------------------------------------------------------------------------

// text as XML character data or attribute value
static void xml_text(FILE *out, const char *s) {
  static const char special[] = "&<>\"'";
  static const char *const entity[] = {"&amp;", "&lt;", "&gt;", "&quot;", "&apos;"};
  for (; *s; s++) {
    const char *hit = strchr(special, *s);
    if (*s && hit)
      fputs(entity[hit - special], out);
    else
      fputc(*s, out);
  }
}

// a data item of frame j: the hyperslab [j, 0 …] of count [1, B (, width)] of array `name`
// ([F, B (, width)]), declared as B (× width) values
static void slab_item(FILE *out, const char *file, const char *case_name, const char *name,
                      const xp_bodies *b, size_t j, size_t width) {
  const int rank = width ? 3 : 2;
  fprintf(out, "     <DataItem ItemType=\"HyperSlab\" Dimensions=\"%zu", b->nb);
  if (width) fprintf(out, " %zu", width);
  fprintf(out, "\" Type=\"HyperSlab\">\n      <DataItem Dimensions=\"3 %d\" Format=\"XML\">", rank);
  fprintf(out, "%zu 0%s 1 1%s 1 %zu", j, width ? " 0" : "", width ? " 1" : "", b->nb);
  if (width) fprintf(out, " %zu", width);
  fprintf(out, "</DataItem>\n      <DataItem Dimensions=\"%zu %zu", b->nf, b->nb);
  if (width) fprintf(out, " %zu", width);
  fputs("\" NumberType=\"Float\" Precision=\"8\" Format=\"HDF\">", out);
  xml_text(out, file);
  fputs(":/cases/", out);
  xml_text(out, case_name);
  fprintf(out, "/bodies/%s</DataItem>\n     </DataItem>\n", name);
}

static void frame_grid(FILE *out, const char *file, const char *case_name, const xp_bodies *b,
                       size_t j) {
  fprintf(out, "   <Grid Name=\"frame %zu\" GridType=\"Uniform\">\n", j);
  fprintf(out, "    <Time Value=\"%.17g\"/>\n", b->t[j]);
  fprintf(out,
          "    <Topology TopologyType=\"Polyvertex\" NumberOfElements=\"%zu\" "
          "NodesPerElement=\"1\"/>\n",
          b->nb);
  fputs("    <Geometry GeometryType=\"XYZ\">\n", out);
  slab_item(out, file, case_name, "position", b, j, 3);
  fputs("    </Geometry>\n", out);
  const struct {
    const char *name, *type;
    size_t width;
  } attrs[3] = {{"velocity", "Vector", 3}, {"orientation", "Matrix", 4}, {"force", "Scalar", 0}};
  for (int k = 0; k < 3; k++) {
    if (k == 1 && !b->rot) continue;
    fprintf(out, "    <Attribute Name=\"%s\" AttributeType=\"%s\" Center=\"Node\">\n",
            attrs[k].name, attrs[k].type);
    slab_item(out, file, case_name, attrs[k].name, b, j, attrs[k].width);
    fputs("    </Attribute>\n", out);
  }
  fputs("    <Attribute Name=\"radius\" AttributeType=\"Scalar\" Center=\"Node\">\n", out);
  fprintf(out,
          "     <DataItem Dimensions=\"%zu\" NumberType=\"Float\" Precision=\"8\" "
          "Format=\"HDF\">",
          b->nb);
  xml_text(out, file);
  fputs(":/cases/", out);
  xml_text(out, case_name);
  fputs("/bodies/radius</DataItem>\n    </Attribute>\n   </Grid>\n", out);
}

static void xdmf_write(FILE *out, const char *file, const char *case_name, const xp_bodies *b) {
  fputs(
      "<?xml version=\"1.0\" ?>\n<!DOCTYPE Xdmf SYSTEM \"Xdmf.dtd\" []>\n"
      "<Xdmf Version=\"2.0\">\n <Domain>\n",
      out);
  fputs("  <Grid Name=\"", out);
  xml_text(out, case_name);
  fputs("\" GridType=\"Collection\" CollectionType=\"Temporal\">\n", out);
  for (size_t j = 0; j < b->nf; j++) frame_grid(out, file, case_name, b, j);
  fputs("  </Grid>\n </Domain>\n</Xdmf>\n", out);
}

int xp_xdmf_export(const char *path, const char *case_name, char *out, size_t len, xp_error *err) {
  const char *slash = strrchr(path, '/'), *base = slash ? slash + 1 : path;
  // an XDMF data item names "file:dataset"; the file is referred to by its name, beside it
  if (strchr(base, ':') || strchr(case_name, ':'))
    return xp_fail(err, XP_ERR_USAGE,
                   "'%s', case '%s': a ':' in the file or case name cannot be "
                   "referred to from XDMF",
                   path, case_name);
  xp_bodies b;
  int rc = xp_bodies_read(path, case_name, 1, &b, err);
  if (rc != XP_OK) return rc;
  char stem[1024], safe[XP_NAME_MAX];
  snprintf(stem, sizeof stem, "%.*s", (int)(slash ? (size_t)(slash - path + 1) : 0), path);
  const size_t dot = strlen(base) > 3 && strcmp(base + strlen(base) - 3, ".h5") == 0
                         ? strlen(base) - 3
                         : strlen(base);
  xp_plot_case_file_name(safe, sizeof safe, case_name);
  if (snprintf(out, len, "%s%.*s.%s.xdmf", stem, (int)dot, base, safe) >= (int)len) {
    xp_bodies_free(&b);
    return xp_fail(err, XP_ERR_USAGE, "'%s': output path too long", path);
  }
  const char *inputs[1] = {path};
  char partial[4200];
  snprintf(partial, sizeof partial, "%s.partial", out);
  rc = xp_output_check("--xdmf", out, inputs, 1, err);
  const int fd = rc == XP_OK ? xp_partial_create(partial) : -1;
  FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
  if (rc == XP_OK && !f) {
    if (fd >= 0) close(fd);
    rc = xp_fail(err, XP_ERR_RUN, "cannot write '%s'", partial);
  }
  if (f) {
    xdmf_write(f, base, case_name, &b);
    if (fflush(f) != 0 || ferror(f)) rc = xp_fail(err, XP_ERR_RUN, "write error on %s", partial);
    if (fclose(f) != 0 && rc == XP_OK) rc = xp_fail(err, XP_ERR_RUN, "write error on %s", partial);
    if (rc == XP_OK && rename(partial, out) != 0)
      rc = xp_fail(err, XP_ERR_RUN, "cannot rename %s to %s", partial, out);
    if (rc != XP_OK) unlink(partial);
  }
  xp_bodies_free(&b);
  return rc;
}
