# SPDX-License-Identifier: MIT
# Paper A Fig 3: implicit Euler on the undamped spring–mass system for two step sizes on one
# axes (stable for any h; the amplitude should not attenuate, but does).
load plotsdir.'/common.gp'
do for [fmt in "png svg"] {
  eval setterm(fmt, 900, 500)
  set title "implicit Euler, k = 10^6 N/m, b = 0, m = 1 kg: stable for any h, numerically damped"
  set xlabel 't [s]'
  set ylabel 'x [m]'
  plot for [i = 1:ncases] csv(word(cases, i)) using "t":"x" with linespoints \
       lw 1.5 dt i pt 7 ps (i == 1 ? 0 : 0.8) title pretty(word(cases, i))
}
