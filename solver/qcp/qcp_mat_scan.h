// SPDX-License-Identifier: MIT
// The structural scan of a MATLAB v5 problem file that runs before libmatio (qcp_mat_scan.c says
// what a valid problem file is).
#ifndef QCP_MAT_SCAN_H
#define QCP_MAT_SCAN_H

#include "qcp/qcp.h"

#define QCP_MAT_MAX_VARS 64       // a problem file holds 8 variables
#define QCP_MAT_NAME_MAX 64       // MATLAB names have at most 63 characters
#define QCP_MAT_MAX_RATIO 1100.0  // deflate expands at most about 1032:1

// QCP_OK if path is a level-5 MATLAB file of flat, real arrays that store what they declare;
// otherwise QCP_ERR_IO / QCP_ERR_INPUT with a message naming the file and the variable.
int qcp_mat_scan(const char *path, qcp_error *err);

#endif  // QCP_MAT_SCAN_H
