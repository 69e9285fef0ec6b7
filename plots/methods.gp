# SPDX-License-Identifier: MIT
# The method matrix (`stabcon run SCENARIO --set method=…`): one case per method on one scenario,
# every series from the one simulate loop. Panels: energy, largest overlap (penetration) or
# bilateral deviation, solver iterations per step, and the method's wall time per step, all
# against time; log axes where the values span decades.
load plotsdir.'/common.gp'
label(c) = c[8:]  # "method=paperA-coulomb" → "paperA-coulomb"
colour(i) = mcolour(label(word(cases, i)))
pos(x) = (x > 0) ? x : NaN
scenario = stat(word(cases, 1), 'scenario')
do for [fmt in "png svg"] {
  eval setterm(fmt, 1300, 950)
  set multiplot layout 2, 2 title sprintf("Method matrix on the %s scenario: every method through one simulate loop", scenario) font ',13'
  set key top right font ',8'
  set xlabel 't [s]'
  set title 'total energy (kinetic + potential + contact springs)'
  set key bottom left
  set ylabel 'energy [J]'
  plot for [i = 1:ncases] csv(word(cases, i)) using "t":"energy" with lines lw 1.6 lc rgb colour(i) title label(word(cases, i))
  set title 'largest overlap of a contact or unilateral row'
  set key top right
  set ylabel 'penetration [m]'
  set logscale y
  set format y '10^{%T}'
  plot for [i = 1:ncases] csv(word(cases, i)) using "t":(pos(column("penetration"))) with lines lw 1.6 lc rgb colour(i) title label(word(cases, i))
  set title 'solver iterations per step (integrators: internal steps per output)'
  set ylabel 'iterations'
  plot for [i = 1:ncases] csv(word(cases, i)) using "t":(pos(column("iterations"))) with steps lw 1.2 lc rgb colour(i) title label(word(cases, i))
  set title "the method's wall time per step"
  set ylabel 'wall time per step [s]'
  plot for [i = 1:ncases] csv(word(cases, i)) using "t":(pos(column("wall_step"))) with points pt 7 ps 0.3 lc rgb colour(i) title label(word(cases, i))
  unset logscale y
  unset format y
  unset multiplot
}
