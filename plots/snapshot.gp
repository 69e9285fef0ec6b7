# SPDX-License-Identifier: MIT
# Scene snapshots of one case (stabcon plot, xp_snapshot.c): the bodies at four frames (start,
# first contact, mid-landing, end), side view (x–z) above and top view (x–y) below (side views
# only for a tall column or a planar model), drawn to scale (equal axes, circles of the true
# radius), coloured by the largest contact force each carries (or its speed when the method
# reports no forces), the ground and the walls; below them the whole run's largest speed and
# contact force with the four frames marked.
# META (<case>.snap.gp) holds every value as a datablock line, read by snap(i):
#   1 table  2 outdir  3 figure stem  4 plotsdir  5 case  6 scene kind  7 wall half-width [m]
#   8 colour by force (1) or speed (0)  9 colour-bar maximum  10 bodies  11–14 frame titles
#   15 planar (1: cylinders in the x–z plane, a spoke shows the rolling angle)  16–19 frame times
# The table: indexes 0–3 the frames, a line per body "x y z r speed force turn" (force −1: none
# reported; turn about +y [rad]); index 4 a line per stored frame "t speed_max force_max".
table = snap(1)
outdir = snap(2)
stem = snap(3)
wall = real(snap(7))
by_force = int(snap(8))
cmax = real(snap(9))
ccol = by_force ? 6 : 5
# a file with no data rows (a frame without bodies) is not an error of the figure
stats table index 0:3 using 1 nooutput
xabs = (abs(STATS_min) > abs(STATS_max)) ? abs(STATS_min) : abs(STATS_max)
stats table index 0:3 using 2 nooutput
yabs = (abs(STATS_min) > abs(STATS_max)) ? abs(STATS_min) : abs(STATS_max)
stats table index 0:3 using 4 nooutput
rmax = STATS_max
stats table index 0:3 using ($3 + $4) nooutput
ztop = STATS_max
half = (xabs > yabs ? xabs : yabs) + rmax
half = (wall > half ? wall : half) * 1.08
half = (half < 0.5 ? 0.5 : half)
ztop = ztop * 1.04 + rmax
# a tall column (the dropped stack) is drawn side views only, one tall row: to scale, a top view
# of it is one circle and a 2 × 4 layout would leave it a hairline
planar = int(snap(15))
tall = ztop > 4 * half
rows = (tall || planar) ? 1 : 2
set palette defined (0 '#2c7bb6', 0.35 '#abd9e9', 0.6 '#fdae61', 1 '#d7191c')
set cbrange [0:cmax]
set cblabel (by_force ? 'largest contact force [N]' : 'speed [m/s]')
set style fill solid 0.85 border lc rgb '#333333'
unset key
set grid lc rgb '#eeeeee'
# panels placed by hand: rows of four snapshots, below them the whole run's curves with the four
# frames marked (a strip of height `strip`), the colour bar at the right edge
height = tall ? 2200 : rows == 1 ? 800 : 1300
strip = tall ? 0.12 : rows == 1 ? 0.34 : 0.22
left = 0.03
pw = 0.22
ph = (0.93 - strip - 0.03) / rows
do for [fmt in "png svg"] {
  if (fmt eq 'png') { set terminal pngcairo size 1800,height font 'Sans,10' noenhanced } else { set terminal svg size 1800,height font 'Sans,10' noenhanced }
  set output outdir.'/'.stem.'.'.fmt
  set multiplot title sprintf(rows == 1 ? "Scene snapshots of case %s (%s bodies): side view x–z, to scale; grey: no force reported" : "Scene snapshots of case %s (%s bodies): side view x–z (top row), top view x–y (bottom row), to scale; grey: no force reported", snap(5), snap(10)) font ',13'
  unset key
  do for [view = 0:rows - 1] {
    do for [k = 0:3] {
      set title snap(11 + k)
      set origin left + k * pw, 0.93 - (view + 1) * ph
      set size ratio -1 pw, ph
      unset arrow
      unset object
      # one colour bar at the right edge, the height of the figure's panels
      if (k == 3) { set colorbox user origin screen 0.925, strip + 0.08 size screen 0.012, 0.93 - strip - 0.16 } else { unset colorbox }
      if (view == 0) {
        set xrange [-half:half]
        set yrange [-rmax:ztop]
        if (tall) { set xtics half } else { set xtics autofreq }
        set xlabel 'x [m]'
        set ylabel 'z [m]'
        set arrow 1 from -half, 0 to half, 0 nohead lw 2.5 lc rgb '#555555' back
        if (wall > 0) {
          set arrow 2 from -wall, 0 to -wall, ztop nohead lw 2 lc rgb '#555555' back
          set arrow 3 from wall, 0 to wall, ztop nohead lw 2 lc rgb '#555555' back
        }
        plot table index k using (column(ccol) < 0 ? NaN : $1):3:4:(column(ccol)) with circles lc palette, \
             table index k using (column(ccol) < 0 ? $1 : NaN):3:4 with circles lc rgb '#aaaaaa', \
             table index k using (planar ? $1 : NaN):3:($4 * sin($7)):($4 * cos($7)) with vectors nohead lw 2 lc rgb 'black'
      } else {
        set xrange [-half:half]
        set yrange [-half:half]
        set xtics autofreq
        set xlabel 'x [m]'
        set ylabel 'y [m]'
        if (wall > 0) { set object 1 rectangle from -wall, -wall to wall, wall fillstyle empty border lc rgb '#555555' lw 2 back }
        plot table index k using (column(ccol) < 0 ? NaN : $1):2:4:(column(ccol)) with circles lc palette, \
             table index k using (column(ccol) < 0 ? $1 : NaN):2:4 with circles lc rgb '#aaaaaa'
      }
    }
  }
  # the whole run: largest speed (log scale) and largest contact force over the stored frames
  unset arrow
  unset object
  unset colorbox
  set title 'the whole run (every stored frame); dotted: the four snapshots'
  set origin left, 0.01
  set size noratio 4 * pw, strip
  set autoscale xy
  set xtics autofreq
  set xlabel 't [s]'
  set ylabel 'largest speed [m/s]'
  set logscale y
  set format y '%g'
  set y2label 'largest contact force [N]'
  set y2tics
  set ytics nomirror
  set key above horizontal
  do for [k = 0:3] { set arrow k + 1 from first real(snap(16 + k)), graph 0 to first real(snap(16 + k)), graph 1 nohead dt 3 lw 1.5 lc rgb '#555555' }
  plot table index 4 using 1:($2 > 0 ? $2 : NaN) with lines lw 2 lc rgb '#1f77b4' title 'largest speed', \
       table index 4 using 1:($3 < 0 ? NaN : $3) axes x1y2 with lines lw 1.5 dt 2 lc rgb '#d7191c' title 'largest contact force'
  unset logscale y
  set format y '% h'
  unset y2tics
  unset y2label
  set ytics mirror
  unset multiplot
}
