#!/usr/bin/env bash
# compare.sh runs slotlint and Debian's luacheck as whole processes over the
# same files, alternately, ROUNDS times each, on two sets: the generated
# 400-script corpus and the real-world set in DIR (public scripts kept
# outside the repository; docs/lua-real-world.md lists them). It prints the
# load average before and after, each tool's wall and CPU time per run, and
# the ratios measured in that one run.
#
# Usage: bench/luacheck/compare.sh DIR [ROUNDS]   (ROUNDS defaults to 20)
# Needs luacheck on the PATH (Debian: apt-get install lua-check).
set -euo pipefail

if [ $# -lt 1 ] || [ ! -d "$1" ]; then
	echo "usage: $0 DIR [ROUNDS]  (DIR: the real-world scripts)" >&2
	exit 2
fi
dir=$(cd "$1" && pwd)
rounds=${2:-20}
command -v luacheck >/dev/null || { echo "luacheck is not installed (Debian: apt-get install lua-check)" >&2; exit 2; }
cd "$(dirname "$0")"

echo "files: $(find "$dir" -name '*.lua' | wc -l) real-world, 400 generated; $rounds rounds each"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
out=$(SLOTLINT_LUA_CORPUS="$dir" go test -run '^$' -bench 'BenchmarkCheckInterleaved|BenchmarkRealWorldInterleaved' \
	-benchtime "${rounds}x" -count 1 .)
echo "load after:  $(cut -d' ' -f1-3 /proc/loadavg)"
echo "$out" | grep -E '^Benchmark'
# One line per set: the throughput ratio (wall time, both tools over the
# same files in the same run) and the CPU-time ratio (user + system).
echo "$out" | awk '/^Benchmark/ {
	name = $1; sub(/-[0-9]+$/, "", name)
	for (i = 3; i < NF; i++) { if ($(i+1) == "speedup") wall = $i; if ($(i+1) == "cpu-speedup") cpu = $i }
	printf "%-45s throughput %5.1fx luacheck   CPU %5.1fx less than luacheck\n", name, wall, cpu
}'
