# SPDX-License-Identifier: MIT
# Shared settings for stabcon figures. The caller (stabcon plot) defines:
#   datadir  – exported CSV data (cases.txt, summary.csv, <case>.csv, <case>.<series>.csv)
#   outdir   – where figures go;  stem – figure base name;  plotsdir – this folder
set datafile separator ','
set datafile columnheaders
set datafile missing 'nan'
set grid lc rgb '#dddddd'
set key box opaque
cases = system("cat '".datadir."/cases.txt'")
ncases = words(cases)
csv(c) = datadir.'/'.c.'.csv'
# series of another length than the case's first: <case>.<first series of that length>.csv
csv2(c, s) = datadir.'/'.c.'.'.s.'.csv'
# output for format f ("png" or "svg") of size w×h pixels
setterm(f, w, h) = (f eq 'png') ? \
  sprintf("set terminal pngcairo size %d,%d font 'Sans,10' enhanced; set output '%s/%s.png'", w, h, outdir, stem) : \
  sprintf("set terminal svg size %d,%d font 'Sans,10' enhanced; set output '%s/%s.svg'", w, h, outdir, stem)
# "h=1e-5_k=1e6_b=1" → "h=1e-5, k=1e6, b=1"
pretty(c) = system("echo '".c."' | sed 's/_/, /g'")
