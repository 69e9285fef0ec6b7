# SPDX-License-Identifier: MIT
# Error floor of the first-order step on the elastic foundation: the constraint solver's error at
# T against h (filled), the closed-form error model of implicit Euler's numerical damping (dashed;
# drawn where every element stays in contact), the exact model with element damping B + hK
# (open circles, where ωh ≤ 0.1) and the reference floor (dotted), one colour per (E, F) case.
load plotsdir.'/common.gp'
summary = datadir.'/summary.csv'
refs = ''
do for [i = 1:ncases] {
  c = word(cases, i)
  if (strstrt(c, '_reference') > 0) { refs = refs.' '.c }
}
nr = words(refs)
if (nr == 0) { print 'foundation_ringing.gp: no reference cases to draw'; exit }
Ecase(i) = real(stat(word(refs, i), 'E'))
Fcase(i) = real(stat(word(refs, i), 'F'))
floorcase(i) = real(stat(word(refs, i), 'floor_abs'))
# the error model needs every element in contact (contact margin > 0); no legend entry otherwise
modelled(i) = real(stat(word(refs, i), 'contact_margin')) > 0
# a step case of case i
is(i) = strcol("method") eq "constraint" && column("E") == Ecase(i) && column("F") == Fcase(i)
# the data's extent: x from the steps, y from every drawn value and the floors (log axes: > 0)
stats summary using (strcol("method") eq "constraint" ? column("h") : NaN) nooutput
set xrange [STATS_min / 2:STATS_max * 2]
stats summary using (strcol("method") eq "constraint" && column("error_abs") > 0 ? column("error_abs") : NaN) nooutput
ymax = STATS_max
ymin = STATS_min
do for [i = 1:nr] { ymin = (floorcase(i) > 0 && floorcase(i) < ymin) ? floorcase(i) : ymin }
set yrange [ymin / 3:ymax * 3]
set logscale xy
set format x '10^{%T}'
set format y '10^{%T}'
# below the plot, one column: room for its rows (the automatic margin is too small here)
krows = nr + 3
set key below vertical maxrows krows spacing 1.1
set bmargin 5 + 1.3 * krows
do for [fmt in "png svg"] {
  eval setterm(fmt, 900, 640 + 18 * krows)
  Tv = stat(word(refs, 1), 'T')
  set title sprintf('Cube on elastic foundation: error of the constraint solver at T%s against the step', (Tv eq '') ? '' : sprintf(' = %g s', real(Tv))) noenhanced
  set xlabel 'step h [s]'
  set ylabel 'error at T: ‖q - q_{ref}‖ (position [m], quaternion [-])'
  # colour: the case; style: what is drawn (entries in black)
  plot for [i = 1:nr] summary using (is(i) ? column("h") : NaN):(column("error_abs")) \
         with linespoints lw 1 pt 7 lc i title sprintf('measured, E = %g Pa, F = %g N', Ecase(i), Fcase(i)), \
       for [i = 1:nr] summary using (is(i) && modelled(i) ? column("h") : NaN):(column("error_model")) \
         with lines lw 3 dt 2 lc i notitle, \
       for [i = 1:nr] summary using (is(i) ? column("h") : NaN):(column("error_equiv")) \
         with points pt 6 ps 2.2 lw 1.5 lc i notitle, \
       for [i = 1:nr] floorcase(i) with lines dt 3 lw 1 lc i notitle, \
       NaN with lines lw 3 dt 2 lc rgb 'black' title 'error model: implicit Euler damping (all elements in contact)', \
       NaN with points pt 6 ps 2.2 lw 1.5 lc rgb 'black' title 'exact model with damping B + hK (ωh ≤ 0.1)', \
       NaN with lines dt 3 lc rgb 'black' title 'reference floor'
}
