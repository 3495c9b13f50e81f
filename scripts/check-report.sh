# Sourced by the end-to-end check scripts (package-test.sh, dist-test.sh): each failure is one
# line "NAME: FAIL: ..." on stderr and in the report file when one is given, `step` says what
# is being checked, and `finish` ends the script: exit 1 when any check failed.
#   check_report NAME [REPORT]
check_report() {
  check_name=$1
  check_file=${2:-}
  [ -n "$check_file" ] && mkdir -p "$(dirname "$check_file")" && : >"$check_file"
  failures=0
  began=$(date +%s)
}
fail() {
  echo "$check_name: FAIL: $*" >&2
  [ -n "$check_file" ] && echo "$check_name: FAIL: $*" >>"$check_file"
  failures=$((failures + 1))
}
step() { echo "$check_name: $*"; }
finish() {
  if [ "$failures" -ne 0 ]; then
    echo "$check_name: $failures check(s) failed" >&2
    exit 1
  fi
  step "every check passed in $(($(date +%s) - began)) s"
  exit 0
}
