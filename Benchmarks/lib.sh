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
