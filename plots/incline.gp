# SPDX-License-Identifier: MIT
# Paper A §6.4, Fig 9: the box on the 15° ramp. Distance slid in T against μ for each contact
# formulation (with the discrete exact distance of a rigid box sliding flat), and over time for
# μ = 0.125: the height of the box above its resting height, the normal force per foot and the
# friction force (‖Σλ_t‖ over the feet). Log axes where the values span decades.
load plotsdir.'/common.gp'
forms = "coulomb relaxed paper"
# each formulation is a method of the matrix (paperA-coulomb, …): its style in every figure
colour(i) = mcolour('paperA-'.word(forms, i))
label(i) = (i == 1) ? 'coulomb (exact Coulomb)' : (i == 2) ? 'relaxed (Anitescu, gliding)' : 'paper (paper A objective, ζ = 1/h)'
mus = "0 0.125 0.25 0.375"
fig_mu = '0.125'
# distances: one row per case of summary.csv, by column name
summary = datadir.'/summary.csv'
do for [fmt in "png svg"] {
  eval setterm(fmt, 1300, 1000)
  set multiplot layout 2, 2 title "Box on a 15° ramp (paper A §6.4, Fig 9): h = 0.01 s, T = 1 s, Hertz feet, B_t = 10^6/h" font ',13'
  set title 'distance slid in 1 s against μ'
  set xlabel 'friction coefficient μ'
  set ylabel 'distance down the slope [m]'
  # a linear axis: the stiction distances (≈ 1e-8 m creep) and the exact zeros sit at 0
  unset logscale y
  set format y '% h'
  set yrange [0:*]
  set xrange [-0.02:0.4]
  set key inside top right font ',9'
  plot for [i = 1:3] summary using ((strcol("formulation") eq word(forms, i)) ? column("mu") : NaN):"distance" \
         with linespoints lw 2 pt mpoint('paperA-'.word(forms, i)) dt mdash('paperA-'.word(forms, i)) ps 1.2 lc rgb colour(i) title label(i), \
       summary using ((strcol("formulation") eq 'coulomb') ? column("mu") : NaN):"distance_rigid" with points pt 3 ps 2 lc rgb 'black' \
         title 'rigid box sliding flat, discrete exact'
  unset xrange
  set logscale y
  set format y '10^{%T}'
  set title sprintf('height of the box above its resting height, μ = %s (|Δz|)', fig_mu)
  set xlabel 't [s]'
  set ylabel '|z − z_0| [m]'
  set yrange [1e-12:1e4]  # the curves reach ~1 m: the top decades hold the key
  set key inside top left font ',9'
  plot for [i = 1:3] (has(word(forms, i).'_mu='.fig_mu) ? csv(word(forms, i).'_mu='.fig_mu) : '/dev/null') \
         using "t":((abs(column("height")) > 1e-12) ? abs(column("height")) : 1e-12) with lines lw 1.8 lc rgb colour(i) title label(i)
  set title sprintf('normal force per foot, μ = %s', fig_mu)
  set ylabel 'λ_n [N]'
  set yrange [1e-2:1e3]
  set key inside bottom right font ',8'  # (top right covered the paper formulation's points)
  plot for [k = 0:3] (has('coulomb_mu='.fig_mu) ? csv('coulomb_mu='.fig_mu) : '/dev/null') \
         using "t":(column(sprintf("lambda_n%d", k)) > 0 ? column(sprintf("lambda_n%d", k)) : NaN) with lines lw 1.5 lc rgb word("#17becf #0e7c8a #5fd3e0 #094f57", k + 1) \
         title sprintf('coulomb, foot %d', k), \
       for [k = 0:3] (has('paper_mu='.fig_mu) ? csv('paper_mu='.fig_mu) : '/dev/null') \
         using "t":(column(sprintf("lambda_n%d", k)) > 0 ? column(sprintf("lambda_n%d", k)) : NaN) with points pt 7 ps 0.5 lc rgb colour(3) \
         title (k == 0 ? 'paper, all feet (0 = airborne, not drawn)' : ''), \
       2.3689 with lines lw 1 dt 3 lc rgb 'black' title 'm g cos θ / 4'
  set title sprintf('friction force ‖Σλ_t‖, μ = %s', fig_mu)
  set ylabel 'friction force [N]'
  set yrange [1e-3:1e3]
  plot for [i = 1:3] (has(word(forms, i).'_mu='.fig_mu) ? csv(word(forms, i).'_mu='.fig_mu) : '/dev/null') \
         using "t":(column("friction") > 0 ? column("friction") : NaN) with lines lw 1.8 lc rgb colour(i) title label(i), \
       1.18436 with lines lw 1 dt 3 lc rgb 'black' title 'μ m g cos θ (sliding)'
  unset multiplot
}
