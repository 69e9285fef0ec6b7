# SPDX-License-Identifier: MIT
# Work–precision diagram: error at T against median wall time, one curve per method (the
# constraint solver over a sweep of h, the ODE integrators over a sweep of tolerances) joined in
# cost order — methods compared at matched accuracy, not at matched settings. Runs without an
# error (did not finish within the budget, failed) are drawn at the axis floor with their own
# marker; the reference's own error floor is the dotted line, kept above the frame.
load plotsdir.'/common.gp'
summary = datadir.'/summary.csv'
nm = nmethods
stats summary using "floor_abs" nooutput
floorv = STATS_min
norun = 0
# counted as a sum of 0/1 (every row valid: no warning when all runs are ok)
stats summary using (strcol("status") ne "ok" || !(column("error_abs") > 0) ? 1 : 0) nooutput
norun = exists("STATS_sum") ? int(STATS_sum) : 0
undefine STATS_*
stats summary using (strcol("status") eq "ok" && column("error_abs") > 0 ? column("error_abs") : NaN) nooutput
emin = STATS_min
emax = STATS_max
stats summary using (column("wall_time") > 0 ? column("wall_time") : NaN) nooutput
wmin = STATS_min
wmax = STATS_max
undefine STATS_*
# the y axis: a decade under the smallest of the errors and the floor, whose line then clears the
# frame; the runs without an error sit on ybot
ylo = (floorv > 0 && floorv < emin) ? floorv : emin
ybot = 10 ** (floor(log10(ylo)) - 1)
set yrange [ybot / 2 : 10 ** ceil(log10(2 * emax))]
set xrange [wmin / 1.5 : wmax * 1.5]
# the case, from the first row that records it (older files do not: title without it)
first(name) = stat(word(cases, 1), name)
el = first("elements"); Ev = first("E"); Fv = first("F")
case_txt = (el eq '') ? '' : sprintf(', %s elements, E = %g Pa, F = %g N', el, real(Ev), real(Fv))
set logscale xy
set format x '10^{%T}'
set format y '10^{%T}'
# outside the plot: the curves of a stiff case fill every corner
set key outside right top
okrun(m) = strcol("method") eq m && strcol("status") eq "ok" && column("error_abs") > 0
do for [fmt in "png svg"] {
  eval setterm(fmt, 980, 620)
  set title sprintf('Work-precision: cube on elastic foundation%s (error of q at T vs reference)', case_txt) noenhanced
  set xlabel 'median wall time [s]'
  set ylabel error_label
  plot for [i = 1:nm] summary using (okrun(method(i)) ? column("wall_time") : NaN):(column("error_abs")) \
         smooth unique with linespoints lw 1.5 pt mpoint(method(i)) dt mdash(method(i)) \
         lc rgb mcolour(method(i)) title method(i) noenhanced, \
       floorv with lines dt 3 lw 1.5 lc rgb 'gray40' title 'reference floor', \
       summary using (strcol("status") ne "ok" || !(column("error_abs") > 0) ? column("wall_time") : NaN):(ybot) \
         with points @floor_point title (norun > 0 ? 'no error: did not finish or failed (at axis floor)' : '')
}
