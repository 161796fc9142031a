#!/usr/bin/env bash
# Runs boardcore's fuzz campaign (docs/reliability.md): every cargo-fuzz target, then the atheris
# harness over the Python API, each for MINUTES (default 5; fractions allowed: 0.25 is 15 s).
#
#   fuzz/run.sh [MINUTES] [TARGET...]     TARGET: position record moves play python (default: all)
#   fuzz/run.sh --replay                  only replay the committed corpus (stable Rust, no fuzzing)
#
# Each target starts from its committed corpus (fuzz/corpus/TARGET, fuzz/python/corpus) and writes
# what it finds to fuzz/work/ (not committed); a failing input is saved in fuzz/artifacts/TARGET/.
# The Rust targets need nightly and cargo-fuzz (`cargo install cargo-fuzz --locked`); without
# them the script replays the corpus on stable instead and says so. The Python harness needs
# atheris (`pip install atheris`, in the test extra) and an installed boardcore.
# The last lines printed are one summary line per target: inputs executed, seconds, result.
set -euo pipefail
cd "$(dirname "$0")"

PYTHON=${PYTHON:-python}
RUST_TARGETS=(position record moves play)

replay() {
    echo "== replaying the committed corpus on stable (cargo test, no libFuzzer)"
    cargo test --release --no-default-features --quiet
}

if [[ "${1:-}" == "--replay" ]]; then
    replay
    exit 0
fi

minutes=${1:-5}
shift || true
targets=("$@")
[[ ${#targets[@]} -eq 0 ]] && targets=("${RUST_TARGETS[@]}" python)
seconds=$(awk -v m="$minutes" 'BEGIN { s = int(m * 60 + 0.5); print (s < 1 ? 1 : s) }')

have_cargo_fuzz() {
    cargo +nightly --version >/dev/null 2>&1 && cargo +nightly fuzz --version >/dev/null 2>&1
}

summary=()
failed=0
mkdir -p work

# libFuzzer's settings: a slow input (10 s) or a large one (2 GB) is a failure too.
LIBFUZZER_FLAGS=(-timeout=10 -rss_limit_mb=2048 -print_final_stats=1)

executed() {  # the number of inputs libFuzzer reports having run, from its log
    grep -o 'stat::number_of_executed_units: *[0-9]*' "$1" | grep -o '[0-9]*$' | tail -1
}

run_rust() {
    local target=$1 log=work/$1.log
    mkdir -p "work/$target"
    echo "== $target: ${seconds}s"
    if cargo +nightly fuzz run -O "$target" "work/$target" "corpus/$target" -- \
        -max_total_time="$seconds" "${LIBFUZZER_FLAGS[@]}" >"$log" 2>&1; then
        summary+=("$target: $(executed "$log") inputs in ${seconds}s, no failure")
    else
        tail -40 "$log"
        summary+=("$target: FAILED after $(executed "$log" || echo '?') inputs (log: fuzz/$log)")
        failed=1
    fi
}

run_python() {
    local log=work/python.log
    if ! "$PYTHON" -c 'import atheris, boardcore' 2>/dev/null; then
        summary+=("python: skipped (atheris or boardcore not importable by $PYTHON)")
        return
    fi
    mkdir -p work/python
    echo "== python (atheris): ${seconds}s"
    if "$PYTHON" python/fuzz_api.py work/python python/corpus -max_total_time="$seconds" \
        "${LIBFUZZER_FLAGS[@]}" -artifact_prefix=work/python- >"$log" 2>&1; then
        summary+=("python: $(executed "$log") inputs in ${seconds}s, no failure")
    else
        tail -40 "$log"
        summary+=("python: FAILED after $(executed "$log" || echo '?') inputs (log: fuzz/$log)")
        failed=1
    fi
}

rust_fuzz=1
if ! have_cargo_fuzz; then
    echo "cargo-fuzz or nightly missing: the Rust targets are replayed on stable, not fuzzed"
    rust_fuzz=0
fi

for target in "${targets[@]}"; do
    case $target in
        python) run_python ;;
        position | record | moves | play)
            if [[ $rust_fuzz == 1 ]]; then
                run_rust "$target"
            fi
            ;;
        *) echo "unknown target $target (position record moves play python)" >&2; exit 2 ;;
    esac
done
if [[ $rust_fuzz == 0 ]]; then
    if replay; then summary+=("rust targets: corpus replayed on stable, no failure"); else failed=1; fi
fi

echo "== summary"
printf '%s\n' "${summary[@]}"
exit $failed
