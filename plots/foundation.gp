# SPDX-License-Identifier: MIT
# Paper A Fig 7 analogue: pressure under the cube at T for the 50 N cases, the constraint
# solver beside the reference (RK45 at ref_tol); one panel per (elements, E, method). The load
# point circles the top face; the rigid cube tilts so the far side lifts off (white: zero).
load plotsdir.'/common.gp'
sel = ''
do for [i = 1:ncases] {
  c = word(cases, i)
  if (strstrt(c, 'F=50_') > 0 && (strstrt(c, '_constraint') > 0 && strstrt(c, 'paper') == 0 || strstrt(c, '_reference') > 0)) {
    sel = sel.' '.c
  }
}
nsel = words(sel)
if (nsel == 0) { print 'foundation.gp: no 50 N cases to draw'; exit }
set palette defined (0 'white', 0.001 '#fee8c8', 0.5 '#e34a33', 1 '#7f0000')
set cblabel 'pressure [Pa]'
set size ratio -1
unset key
set xlabel 'element x index'
set ylabel 'element y index'
ncol = nsel > 4 ? 4 : nsel
nrow = int(ceil(nsel / (ncol * 1.0)))
do for [fmt in "png svg"] {
  eval setterm(fmt, 430 * ncol, 400 * nrow)
  set multiplot layout nrow, ncol title 'Pressure on the foundation at T (50 N load), constraint solver vs reference' font ',12'
  do for [i = 1:nsel] {
    c = word(sel, i)
    f = csv2(c, 'pressure')
    # stats obeys the ranges: clear the previous panel's before measuring this one
    set autoscale xy
    set autoscale cb
    stats f using "pressure" nooutput
    n = int(sqrt(STATS_records) + 0.5)
    set title pretty(c) noenhanced
    set xrange [-0.5:n - 0.5]
    set yrange [-0.5:n - 0.5]
    set cbrange [0:(STATS_max > 0 ? STATS_max : 1)]
    plot f using (int($0) / n):(int($0) % n):(column("pressure")) with image
  }
  unset multiplot
}
