# SPDX-License-Identifier: MIT
# `stabcon bench maros --plot DIR`: fraction of the Maros-Meszaros set solved (and passing the
# independent check) against the time budget, and the iterations per problem.
# Variables from the caller: csv (name,iterations,time,pass), out (file stem), tol (label).
set datafile separator ','
set terminal svg size 900,420 dynamic font 'Helvetica,12'
set output out.'_solved_vs_time.svg'
set title 'qcp on Maros-Meszaros, tol '.tol.': fraction solved within a time budget'
set xlabel 'time budget per problem (s)'
set ylabel 'fraction of problems solved'
set logscale x
set yrange [0:1]
set key off
set grid
stats csv skip 1 using 2 nooutput
N = STATS_records
plot '< tail -n +2 '.csv.' | awk -F, ''$4 == 1 {print $3}'' | sort -g' using 1:($0 + 1) / N with steps lw 2
set output out.'_iterations.svg'
set title 'qcp on Maros-Meszaros, tol '.tol.': iterations per problem (red: fails)'
unset logscale x
set xlabel 'problem (alphabetical)'
set ylabel 'iterations'
set autoscale y
set style fill solid
plot csv skip 1 using 0:($4 == 1 ? $2 : 1/0) with boxes lc rgb '#3070b0', \
     csv skip 1 using 0:($4 == 1 ? 1/0 : $2) with boxes lc rgb '#c03030'
