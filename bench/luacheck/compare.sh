#!/usr/bin/env bash
# compare.sh runs slotlint and Debian's luacheck as whole processes over the
# same files, alternately, ROUNDS times each, on two sets: the generated
# 400-script corpus and the real-world set in DIR (public scripts kept
# outside the repository; docs/lua-real-world.md lists them). It prints the
# load average before and after, each tool's wall and CPU time per run, and
# the ratios measured in that one run. A last line gives the bound the
# parser sets on the real-world set: gopher-lua's parser alone reading and
# parsing the files, in process and as a whole Go process, against
# luacheck's whole process in the same rounds (BenchmarkRealWorldParseBound).
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
out=$(SLOTLINT_LUA_CORPUS="$dir" go test -run '^$' -bench 'BenchmarkCheckInterleaved|BenchmarkRealWorldInterleaved|BenchmarkRealWorldParseBound' \
	-benchtime "${rounds}x" -count 1 .)
echo "load after:  $(cut -d' ' -f1-3 /proc/loadavg)"
echo "$out" | grep -E '^Benchmark'
# One line per set: the throughput ratio (wall time, both tools over the
# same files in the same run) and the CPU-time ratio (user + system); for
# the bound, the same ratios of the parser alone and of a program that
# only reads the files, which no checker on this parser can exceed.
echo "$out" | awk '/^Benchmark/ {
	name = $1; sub(/-[0-9]+$/, "", name)
	delete m
	for (i = 3; i < NF; i++) m[$(i+1)] = $i
	if (name ~ /ParseBound/) {
		printf "%-45s throughput %5.1fx luacheck   CPU %5.1fx less than luacheck\n", "slotlint, same rounds", m["speedup"], m["cpu-speedup"]
		printf "%-45s throughput %5.1fx luacheck   CPU %5.1fx less than luacheck\n", "bound: parser alone, in process", m["bound-inproc"], m["bound-inproc-cpu"]
		printf "%-45s throughput %5.1fx luacheck   CPU %5.1fx less than luacheck\n", "bound: parser alone, whole process", m["bound-proc"], m["bound-proc-cpu"]
		printf "%-45s throughput %5.1fx luacheck   CPU %5.1fx less than luacheck\n", "floor: a Go process that only reads them", m["luacheck-ms/run"] / m["readproc-ms/run"], m["luacheck-cpu-ms/run"] / m["readproc-cpu-ms/run"]
		next
	}
	printf "%-45s throughput %5.1fx luacheck   CPU %5.1fx less than luacheck\n", name, m["speedup"], m["cpu-speedup"]
}'
