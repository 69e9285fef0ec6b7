# SPDX-License-Identifier: MIT
# Paper A Figs 1–2: x(t) of the spring–mass–damper, one panel per case. Panels whose |x| grows
# past 100 m (an unstable scheme) switch to a log scale of |x|.
load plotsdir.'/common.gp'
unset key  # one curve per panel: the panel title names it
ncols = (ncases > 2) ? 2 : ncases
nrows = int(ceil(ncases / (ncols * 1.0)))
do for [fmt in "png svg"] {
  eval setterm(fmt, 560 * ncols, 380 * nrows)
  set multiplot layout nrows, ncols title stem.": spring-mass-damper x(t), one panel per case" font ',12' noenhanced
  do for [i = 1:ncases] {
    c = word(cases, i)
    stats csv(c) using (abs(column("x"))) nooutput
    set title pretty(c)
    set xlabel 't [s]'
    if (STATS_max > 100) {
      set logscale y
      set format y '10^{%T}'
      set ylabel '|x| [m]'
      # the growth itself says "unstable": the panel title states it, no legend box
      set title pretty(c).' (unstable: |x| on a log axis)'
      plot csv(c) using "t":(abs(column("x"))) with lines lw 1.2 lc rgb '#c0392b' notitle
      unset logscale y
      set format y '% h'
    } else {
      set ylabel 'x [m]'
      plot csv(c) using "t":"x" with lines lw 1.2 lc rgb '#1f77b4' notitle
    }
  }
  unset multiplot
}
