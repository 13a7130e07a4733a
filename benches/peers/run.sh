#!/usr/bin/env bash
# Whole-process CPU time of `autoplay solve -f SET --unique --quiet` against peer solvers, each
# run the same way: read the puzzle file, count every puzzle's solutions up to two, print a
# summary. The peers are built here from checkouts the user points at (nothing of them is in
# this repository):
#
#   benches/peers/run.sh --tdoku ~/src/tdoku --jsolve ~/src/tdoku/other/jsolve
#
#   --tdoku DIR     a checkout of https://github.com/t-dillon/tdoku (src/solver_dpll_triad_simd.cc
#                   and src/util.cc are compiled with $CXX, default clang++, -O3 -march=native)
#   --jsolve DIR    a directory with JSolve.c and JSolve.h (tdoku's other/jsolve has them),
#                   compiled with $CC, default clang, -O3 -march=native
#   --runs N        interleaved runs per program and set (default 7); the table gives the minimum
#   --puzzles DIR   where the sets are (default ../shared/puzzles beside the repository)
#   SET...          set names in DIR without .txt (default: the five below)
#
# The `sudoku` crate 0.8 always takes part (examples/sudoku_crate_solve.rs). Before timing, every
# program must agree on how many puzzles of each set have exactly one solution. Times are CPU
# time (user + system, from wait4) in milliseconds, the minimum of the runs: on a shared machine
# CPU time is far steadier than wall time, but a loaded machine still slows every program a
# little (caches), so the load average is printed before and after. Ratio = peer / autoplay
# (above 1: autoplay takes less CPU time).
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
tdoku="" jsolve="" runs=7 puzzles="$root/../shared/puzzles" sets=()
while [ $# -gt 0 ]; do
    case "$1" in
        --tdoku) tdoku=$(cd "$2" && pwd); shift 2 ;;
        --jsolve) jsolve=$(cd "$2" && pwd); shift 2 ;;
        --runs) runs=$2; shift 2 ;;
        --puzzles) puzzles=$(cd "$2" && pwd); shift 2 ;;
        -h | --help) sed -n '2,/^set -e/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        -*) echo "unknown option $1 (see --help)" >&2; exit 2 ;;
        *) sets+=("$1"); shift ;;
    esac
done
[ ${#sets[@]} -gt 0 ] || sets=(17_clue magictour_top1465 forum_hardest_1106 forum_hardest_1905_11plus serg_benchmark)
for s in "${sets[@]}"; do
    [ -f "$puzzles/$s.txt" ] || { echo "no puzzle set $puzzles/$s.txt (see --puzzles)" >&2; exit 2; }
done

# The checkouts before any build.
if [ -n "$tdoku" ] && [ ! -f "$tdoku/src/solver_dpll_triad_simd.cc" ]; then
    echo "$tdoku is not a tdoku checkout (no src/solver_dpll_triad_simd.cc)" >&2; exit 2
fi
if [ -n "$jsolve" ] && [ ! -f "$jsolve/JSolve.c" ]; then
    echo "$jsolve has no JSolve.c" >&2; exit 2
fi

out="$root/target/peers"
mkdir -p "$out"
CC=${CC:-clang} CXX=${CXX:-clang++}
echo "building autoplay and examples/sudoku_crate_solve (release)..." >&2
(cd "$root" && cargo build --release --quiet --bin autoplay --example sudoku_crate_solve)
${CC:-cc} -O2 -o "$out/cputime" "$root/benches/peers/cputime.c"

# Program `p` on a puzzle file, as an argument list in `argv`.
names=(autoplay "sudoku crate")
bins=("$root/target/release/autoplay" "$root/target/release/examples/sudoku_crate_solve")
argv_of() {
    if [ "$1" = 0 ]; then argv=("${bins[0]}" solve --unique --quiet -f "$2"); else argv=("${bins[$1]}" "$2"); fi
}
peers=""
if [ -n "$tdoku" ]; then
    commit=$(git -C "$tdoku" rev-parse --short HEAD 2>/dev/null || echo 'not a git checkout')
    echo "building tdoku from $tdoku ($commit)..." >&2
    peers+="tdoku $commit ($tdoku); "
    for f in solver_dpll_triad_simd util; do
        $CXX -O3 -march=native -std=c++14 -c "$tdoku/src/$f.cc" -o "$out/tdoku_$f.o"
    done
    $CC -O3 -march=native -DPEER_TDOKU "$root/benches/peers/peer_solve.c" \
        "$out/tdoku_solver_dpll_triad_simd.o" "$out/tdoku_util.o" -lstdc++ -lm -o "$out/tdoku_solve"
    names+=(tdoku) bins+=("$out/tdoku_solve")
fi
if [ -n "$jsolve" ]; then
    echo "building JSolve from $jsolve..." >&2
    $CC -O3 -march=native -DPEER_JSOLVE -I"$jsolve" "$root/benches/peers/peer_solve.c" "$jsolve/JSolve.c" -o "$out/jsolve_solve"
    names+=(JSolve) bins+=("$out/jsolve_solve")
    peers+="JSolve ($jsolve); "
fi
n=${#names[@]}

# How many puzzles of a set program `p` says, in its summary line, have exactly one solution.
unique_count() {
    local summary
    argv_of "$1" "$2"
    summary=$("${argv[@]}" 2>/dev/null | tail -n 1 | tr -d ,) || true
    case "$summary" in
        *"not unique"*) # autoplay: "# N puzzles: S solved, ..., U not unique in ..."
            echo "$summary" | sed -E 's/.*: ([0-9]+) solved.* ([0-9]+) not unique.*/\1 \2/' | awk '{print $1 - $2}' ;;
        *) echo "$summary" | sed -E 's/^# [0-9]+ puzzles: ([0-9]+) .*/\1/' ;;
    esac
}
for s in "${sets[@]}"; do
    want=$(unique_count 0 "$puzzles/$s.txt")
    for ((p = 1; p < n; p++)); do
        got=$(unique_count "$p" "$puzzles/$s.txt")
        [ "$got" = "$want" ] || { echo "$s: ${names[p]} finds $got puzzles with one solution, autoplay $want" >&2; exit 1; }
    done
done

load_before=$(cut -d' ' -f1-3 /proc/loadavg)
declare -A best
for ((r = 0; r < runs; r++)); do
    echo "run $((r + 1)) of $runs (load average $(cut -d' ' -f1 /proc/loadavg))" >&2
    for s in "${sets[@]}"; do
        for ((i = 0; i < n; i++)); do
            p=$(((i + r) % n)) # a different program first in each run
            argv_of "$p" "$puzzles/$s.txt"
            us=$("$out/cputime" "${argv[@]}")
            key="$s/$p"
            if [ -z "${best[$key]:-}" ] || [ "$us" -lt "${best[$key]}" ]; then best[$key]=$us; fi
        done
    done
done
load_after=$(cut -d' ' -f1-3 /proc/loadavg)

echo
echo "Machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores, $(uname -sr); $(date -u +%F)"
echo "Load average (1, 5, 15 min) before: $load_before, after: $load_after"
echo "rustc: $(rustc --version)"
[ -n "$peers" ] && echo "Peers: ${peers%; }; C/C++: $($CXX --version | head -n 1), -O3 -march=native"
echo "CPU time (user + system), minimum of $runs interleaved runs, in ms; ratio = peer / autoplay"
echo
header="| set | autoplay |" rule="|---|---:|"
for ((p = 1; p < n; p++)); do header+=" ${names[p]} | ratio |"; rule+="---:|---:|"; done
echo "$header"
echo "$rule"
for s in "${sets[@]}"; do
    ours=${best[$s/0]}
    row="| $s ($(grep -c . "$puzzles/$s.txt")) | $(awk -v t="$ours" 'BEGIN {printf "%.1f", t / 1000}') |"
    for ((p = 1; p < n; p++)); do
        row+=$(awk -v t="${best[$s/$p]}" -v o="$ours" 'BEGIN {printf " %.1f | %.2f |", t / 1000, t / o}')
    done
    echo "$row"
done
