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
