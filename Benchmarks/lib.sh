# Benchmarks/lib.sh — shared by the benchmark scripts (sourced, not run). Measurement harness, not product code.
# The caller defines say (a message to stderr), logged (run a command and record it in the run's commands.txt,
# or just run it) and RUN (the run folder).

# install_missing_commands COMMAND:PACKAGE…: apt-get install the Debian package of each command not on PATH
# (sudo when not root); apt's output goes to $RUN/apt.log.
install_missing_commands() {
  local missing=() pair sudo=""
  for pair in "$@"; do
    command -v "${pair%%:*}" >/dev/null || missing+=("${pair#*:}")
  done
  (( ${#missing[@]} )) || return 0
  (( EUID == 0 )) || sudo=sudo
  say "installing ${missing[*]}"
  logged $sudo apt-get update -qq
  logged $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" > "$RUN/apt.log"
}

# replace_section REPORT SECTION_FILE: puts the section (a "## Heading" and what follows) into REPORT in place of
# the section with the same heading, or at the end when it has none; the rest of REPORT stays as it is.
replace_section() {
  python3 - "$1" "$2" <<'PY'
import re, sys
report_path, section_path = sys.argv[1], sys.argv[2]
section = open(section_path).read().rstrip() + "\n"
heading = section.splitlines()[0]
try:
    report = open(report_path).read()
except FileNotFoundError:
    report = "# Benchmarks\n"
pattern = re.compile("^" + re.escape(heading) + r"\n.*?(?=^## |\Z)", re.S | re.M)
report = pattern.sub(lambda _: section + "\n", report) if pattern.search(report) else report.rstrip() + "\n\n" + section
open(report_path, "w").write(report)
PY
}

# busy_percent: the whole machine's CPU use over the next 5 s, in % (from /proc/stat).
busy_percent() {
  local a b
  a=($(head -1 /proc/stat)); sleep 5; b=($(head -1 /proc/stat))
  awk -v u1="${a[1]}" -v n1="${a[2]}" -v s1="${a[3]}" -v i1="${a[4]}" -v w1="${a[5]}" -v q1="${a[6]}" -v sq1="${a[7]}" -v st1="${a[8]}" \
      -v u2="${b[1]}" -v n2="${b[2]}" -v s2="${b[3]}" -v i2="${b[4]}" -v w2="${b[5]}" -v q2="${b[6]}" -v sq2="${b[7]}" -v st2="${b[8]}" \
      'BEGIN { busy = (u2-u1)+(n2-n1)+(s2-s1)+(q2-q1)+(sq2-sq1)+(st2-st1); all = busy+(i2-i1)+(w2-w1);
               printf "%.0f", (all > 0 ? 100 * busy / all : 0) }'
}

# wait_for_quiet_machine BUSY WAIT: waits (at most WAIT s) until the machine's CPU use over 5 s is under BUSY %,
# then goes on anyway; sets QUIET_NOTE to what it found, for the report.
wait_for_quiet_machine() {
  local busy waited=0
  while :; do
    busy="$(busy_percent)"; waited=$(( waited + 5 ))
    if (( busy < $1 )); then QUIET_NOTE="machine CPU use over 5 s before starting: ${busy} % (after ${waited} s)"; break; fi
    if (( waited >= $2 )); then
      QUIET_NOTE="machine NOT quiet: CPU use over 5 s still ${busy} % after waiting ${waited} s; measured anyway"; break
    fi
    (( waited % 60 == 5 )) && say "waiting for a quiet machine (CPU use ${busy} %, want < $1 %; at most $2 s)"
  done
}

# perf_report RUN: from RUN/perf.data (a `perf record -g` of the server), the server's largest functions by self time
# (RUN/perf-self.txt), with their callees (RUN/perf-children.txt) and by library (RUN/perf-dso.txt), demangled.
perf_report() {
  local run=$1 demangle
  [ -s "$run/perf.data" ] || return 0
  demangle="$(command -v swift-demangle || command -v /opt/swift/usr/bin/swift-demangle || echo cat)"
  [ "$demangle" != cat ] && demangle="$demangle --simplified"
  perf report -i "$run/perf.data" --no-children --sort dso,symbol --percent-limit 0.7 --stdio -g none 2>/dev/null \
    | grep '%' | $demangle | sed -E 's/ +- +- *$//; s/ {2,}/  /g' | cut -c1-150 | head -30 > "$run/perf-self.txt" || true
  perf report -i "$run/perf.data" --children --sort symbol --percent-limit 3 --stdio -g none 2>/dev/null \
    | grep '%' | $demangle | sed -E 's/ {2,}/  /g' | cut -c1-170 > "$run/perf-children.txt" || true
  perf report -i "$run/perf.data" --no-children --sort dso --stdio -g none 2>/dev/null | grep '%' | head -10 > "$run/perf-dso.txt" || true
}
