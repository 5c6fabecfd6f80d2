# Shared helpers for the scripts in this folder; source it, don't run it.
# Every script cds to the project root first, so paths here are relative to it.

# Prints a header that stands out in a long CI log, and remembers the step so a
# failure can say where it happened.
section() {
    current_section=$1
    printf '\n\033[1;34m==> %s\033[0m\n' "$1"
}

# Runs another script of this folder, so that a failure names it as the failed step.
run_script() {
    current_section="scripts/$1"
    bash "scripts/$1" "${@:2}"
}

# Says which step failed: `set -e` alone exits silently, leaving the reader to scroll.
report_failure() {
    local status=$?
    if (( status != 0 )); then
        printf '\033[1;31mFAILED (exit %d) in %s, during: %s\033[0m\n' \
            "$status" "$(basename "$0")" "${current_section:-startup}" >&2
    fi
}
current_section=
trap report_failure EXIT
