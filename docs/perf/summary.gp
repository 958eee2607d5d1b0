# gnuplot summary.gp  ->  summary.svg: each reference beside its library call at 2^28
# (summary.dat: index, lab, percent of the library's speed; 100 = as fast as CUB/Thrust;
#  for 01_saxpy, percent of the device copy bandwidth).
set terminal svg size 900,420 font "Helvetica,12" background rgb "white" noenhanced
set output "summary.svg"
set title "Reference solutions on an NVIDIA H200, 2^28 elements (10_merge_sort at 2^24)"
set ylabel "% of CUB/Thrust speed (01: % of copy)"
set yrange [0:130]
set style fill solid 0.8 border -1
set boxwidth 0.7
set xtics rotate by -35 left nomirror
set grid ytics
unset key
plot "summary.dat" using 1:3:xtic(2) with boxes lc rgb "#4477aa", \
     100 with lines dt 2 lc rgb "#cc3311" title "library"
