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
