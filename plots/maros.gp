# SPDX-License-Identifier: MIT
# `stabcon bench maros --plot DIR`: fraction of the Maros-Meszaros set solved (and passing the
# independent check) against the time budget, and the iterations per problem.
# Variables from the caller's meta file (datablock lines, never commands): csv
# (name,iterations,time,pass,pass_f64), out (file stem), tol (label).
set datafile separator ','
stats csv skip 1 using 2 nooutput
N = STATS_records
set terminal pngcairo size 900,420 font 'Sans,10' enhanced
set output out.'_solved_vs_time.png'
set title 'qcp on Maros-Meszaros, tol '.tol.': fraction solved within a time budget'
set xlabel 'time budget per problem (s)'
set ylabel 'fraction of problems solved'
set logscale x
set yrange [0:1]
set key left top
set grid
set xrange [1e-4:*]
# smooth cumulative sorts by time and sums 1/N over the solved problems
plot csv skip 1 using (column(3) < 1e-4 ? 1e-4 : column(3)):(column(5) == 1 ? 1.0 / N : 0) \
     smooth cumulative with steps lw 2 lc rgb '#3070b0' title 'scored in float64 (as the field)', \
     csv skip 1 using (column(3) < 1e-4 ? 1e-4 : column(3)):(column(4) == 1 ? 1.0 / N : 0) \
     smooth cumulative with steps lw 2 dt 2 lc rgb '#c06000' title 'scored with exact sums'
set key off
set output out.'_iterations.png'
set title 'qcp on Maros-Meszaros, tol '.tol.': iterations per problem (red: fails)'
unset logscale x
set xrange [-1:N]
set boxwidth 0.8 absolute
set xlabel 'problem (alphabetical)'
set ylabel 'iterations'
set autoscale y
set style fill solid
plot csv skip 1 using 0:($4 == 1 ? $2 : 1/0) with boxes lc rgb '#3070b0', \
     csv skip 1 using 0:($4 == 1 ? 1/0 : $2) with boxes lc rgb '#c03030'
