# SPDX-License-Identifier: MIT
# Work–precision diagram: error at T against median wall time, one curve per method (the
# constraint solver over a sweep of h, the ODE integrators over a sweep of tolerances) —
# methods compared at matched accuracy, not at matched settings. Points at the reference's
# error floor are drawn hollow.
load plotsdir.'/common.gp'
summary = datadir.'/summary.csv'
nm = nmethods
stats summary using "floor_abs" nooutput
floorv = STATS_min
# the case, from the first row that records it (older files do not: title without it)
first(name) = stat(word(cases, 1), name)
el = first("elements"); Ev = first("E"); Fv = first("F")
case_txt = (el eq '') ? '' : sprintf(', %s elements, E = %g Pa, F = %g N', el, real(Ev), real(Fv))
set logscale xy
set format x '10^{%T}'
set format y '10^{%T}'
# outside the plot: the curves of a stiff case fill every corner
set key outside right top
do for [fmt in "png svg"] {
  eval setterm(fmt, 900, 620)
  set title sprintf('Work-precision: cube on elastic foundation%s (error of q at T vs reference)', case_txt) noenhanced
  set xlabel 'median wall time [s]'
  set ylabel 'error ‖q - q_{ref}‖ [m, 1]'
  plot for [i = 1:nm] summary using (strcol("method") eq method(i) && strcol("status") eq "ok" ? column("wall_time") : NaN):(column("error_abs")) \
         with linespoints lw 1.5 pt 7 title method(i) noenhanced, \
       floorv with lines dt 3 lc rgb 'gray' title 'reference floor'
}
