// SPDX-License-Identifier: MIT
// Scalar attribute writers and the library's quiet mode, shared by the results writer and the
// provenance (both depend on this file, not on each other).
#include <hdf5.h>
#include <string.h>

#include "xp_internal.h"

void xp_h5_quiet(void) { H5Eset_auto2(H5E_DEFAULT, NULL, NULL); }

int xp_h5_attr_string(hid_t obj, const char *name, const char *value) {
  hid_t type = H5Tcopy(H5T_C_S1);
  if (type < 0) return -1;
  H5Tset_size(type, strlen(value) + 1);
  H5Tset_cset(type, H5T_CSET_UTF8);
  hid_t space = H5Screate(H5S_SCALAR);
  hid_t attr = H5Acreate2(obj, name, type, space, H5P_DEFAULT, H5P_DEFAULT);
  int rc = attr < 0 ? -1 : (H5Awrite(attr, type, value) < 0 ? -1 : 0);
  if (attr >= 0) H5Aclose(attr);
  H5Sclose(space);
  H5Tclose(type);
  return rc;
}

int xp_h5_attr_double(hid_t obj, const char *name, double value) {
  hid_t space = H5Screate(H5S_SCALAR);
  hid_t attr = H5Acreate2(obj, name, H5T_NATIVE_DOUBLE, space, H5P_DEFAULT, H5P_DEFAULT);
  int rc = attr < 0 ? -1 : (H5Awrite(attr, H5T_NATIVE_DOUBLE, &value) < 0 ? -1 : 0);
  if (attr >= 0) H5Aclose(attr);
  H5Sclose(space);
  return rc;
}

int xp_h5_attr_int(hid_t obj, const char *name, long value) {
  hid_t space = H5Screate(H5S_SCALAR);
  hid_t attr = H5Acreate2(obj, name, H5T_NATIVE_LONG, space, H5P_DEFAULT, H5P_DEFAULT);
  int rc = attr < 0 ? -1 : (H5Awrite(attr, H5T_NATIVE_LONG, &value) < 0 ? -1 : 0);
  if (attr >= 0) H5Aclose(attr);
  H5Sclose(space);
  return rc;
}
