# SPDX-License-Identifier: MIT
# Shared settings for stabcon figures. The caller (stabcon plot) runs `gnuplot META SCRIPT`;
# META (datadir/meta.gp) defines, from datablock lines only:
#   datadir  – exported CSV data (cases.txt, summary.csv, <case>.csv, <case>.<series>.csv)
#   outdir   – where figures go;  stem – figure base name;  plotsdir – this folder
#   $stabcon_cases, $stabcon_methods, $stabcon_stats – the case list, the distinct methods and
#   every case's status, parameters and statistics (lines ":case<TAB>key<TAB>value")
# Values from a results file are data: they are never spliced into a command (no eval of them,
# no system(): a results file may come from anyone).
set datafile separator ','
set datafile columnheaders
set datafile missing 'nan'
set grid lc rgb '#dddddd'
set key box opaque
cases = ''
do for [i = 1:|$stabcon_cases|] { cases = cases.' '.$stabcon_cases[i][2:] }
ncases = words(cases)
csv(c) = datadir.'/'.c.'.csv'
# series of another length than the case's first: <case>.<first series of that length>.csv
csv2(c, s) = datadir.'/'.c.'.'.s.'.csv'
# output for format f ("png" or "svg") of size w×h pixels
# (the command names the variables outdir and stem; their values are never part of it)
setterm(f, w, h) = (f eq 'png') ? \
  sprintf("set terminal pngcairo size %d,%d font 'Sans,10' enhanced; set output outdir.'/'.stem.'.png'", w, h) : \
  sprintf("set terminal svg size %d,%d font 'Sans,10' enhanced; set output outdir.'/'.stem.'.svg'", w, h)
# "h=1e-5_k=1e6_b=1" → "h=1e-5, k=1e6, b=1"
pretty(c) = strstrt(c, '_') ? c[1:strstrt(c, '_') - 1].', '.pretty(c[strstrt(c, '_') + 1:]) : c
# 1 if case c exists
has(c) = sum [i = 1:|$stabcon_cases|] ($stabcon_cases[i] eq ':'.c) > 0
# status, parameter or statistic key of case c as a string ('' if absent)
stat_find(c, key) = sum [i = 1:|$stabcon_stats|] (strstrt($stabcon_stats[i], ':'.c."\t".key."\t") == 1 ? i : 0)
stat_at(j, c, key) = (j > 0) ? $stabcon_stats[j][strlen(c) + strlen(key) + 4:] : ''
stat(c, key) = stat_at(stat_find(c, key), c, key)
# the distinct values of the cases' method parameter
nmethods = |$stabcon_methods|
method(i) = $stabcon_methods[i][2:]
# One style per method in every figure: colour, point type, dash type. `constraint` is the
# foundation studies' name for paperA-relaxed (`constraint-paper`: paperA-paper), so they share a
# style; an unknown method is grey.
style_methods = 'paperA-relaxed paperA-coulomb paperA-paper theta-explicit theta-symplectic theta-implicit theta-midpoint cvode-bdf1 cvode-bdf rk45 ida mujoco constraint constraint-paper fine-step-constraint reference'
style_colours = '#1f77b4 #17becf #b8860b #bcbd22 #e377c2 #8c564b #9467bd #ff7f0e #d62728 #2ca02c #7f7f7f #000000 #1f77b4 #b8860b #6baed6 #444444'
style_points = '7 5 9 1 2 3 4 11 13 6 8 10 7 9 7 12'
style_dashes = '1 2 4 1 1 1 1 1 1 1 3 5 1 4 2 3'
mindex(m) = sum [k = 1:words(style_methods)] (word(style_methods, k) eq m ? k : 0)
mcolour(m) = (mindex(m) > 0) ? word(style_colours, mindex(m)) : '#999999'
mpoint(m) = (mindex(m) > 0) ? int(word(style_points, mindex(m))) : 1
mdash(m) = (mindex(m) > 0) ? int(word(style_dashes, mindex(m))) : 1
# runs without a value on a log axis (error zero, not reached, did not finish) are drawn at the
# axis floor with this marker and say so in the legend
floor_point = 'pt 3 ps 1.6 lc rgb "#555555"'
# the error of a coordinate vector mixing positions [m] and unit quaternions [1]
error_label = "error ‖q − q_{ref}‖ at T\n(m; quaternion parts unitless)"
