#!/bin/sh
# What uthash would cost in the hand-kept hot tables (hash_bench.c):
# for each shape, the table as kept and its uthash equivalent, N keys
# (1 000 000 unless given) inserted, found and deleted.  Instructions per
# operation from callgrind (repeatable; inclusive counts of bench_insert,
# bench_find, bench_delete), heap bytes per entry from a native run
# (mallinfo2 reads nothing under valgrind), and uthash / hand ratios.
# Run from the build directory: make bench-hash [N=...], or
# tests/bench/hash_bench.sh [N].
set -eu
BENCH=${BENCH:-tests/bench/hash_bench}
N=${1:-1000000}
command -v valgrind >/dev/null || { echo "hash_bench: needs valgrind" >&2; exit 1; }
TMPD=$(mktemp -d)
trap 'rm -rf "$TMPD"' EXIT

# Instructions per operation of each phase: "insert find delete".
ir_per_op() {
	valgrind --tool=callgrind --callgrind-out-file="$TMPD/cg" \
	    "$BENCH" "$1" "$2" "$N" >/dev/null 2>"$TMPD/vg"
	callgrind_annotate --inclusive=yes "$TMPD/cg" 2>/dev/null |
	    awk -v n="$N" '
		{ c = $1; gsub(",", "", c) }
		/:bench_insert[ (]/ { i = c } /:bench_find[ (]/ { f = c }
		/:bench_delete[ (]/ { d = c }
		END { printf "%.0f %.0f %.0f\n", i / n, f / n, d / n }'
}

bytes_per_entry() {
	"$BENCH" "$1" "$2" "$N" | sed -n 's/.*bytes\/entry=\([0-9]*\).*/\1/p'
}

printf "%-10s %-7s %11s %9s %9s %9s\n" shape table bytes/entry \
    ins/op find/op del/op
for shape in flowtable pmap flowcfg; do
	for kind in hand uthash; do
		set -- $(ir_per_op "$shape" "$kind") $(bytes_per_entry \
		    "$shape" "$kind")
		printf "%-10s %-7s %11s %9s %9s %9s\n" "$shape" "$kind" \
		    "$4" "$1" "$2" "$3"
		echo "$shape $kind $*" >>"$TMPD/all"
	done
done
echo "(ins/op, find/op, del/op: instructions per operation, callgrind)"
awk '$2 == "hand" { h[$1] = $0 } $2 == "uthash" { u[$1] = $0 }
    END { for (s in h) { split(h[s], a); split(u[s], b)
	printf "%-10s uthash/hand: bytes %.2f, insert %.2f, find %.2f, " \
	    "delete %.2f\n", s, b[6] / a[6], b[3] / a[3], b[4] / a[4],
	    b[5] / a[5] } }' "$TMPD/all"
