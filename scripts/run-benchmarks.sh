#!/usr/bin/env bash
# Builds the benchmarks, runs them on this machine's GPU against CUB and cuBLAS, and writes the raw
# JSON, PNG plots and a Markdown summary into results/<gpu-name>/. Needs an NVIDIA GPU, the CUDA
# toolkit and CMake; the plots need a python3 with matplotlib (without one the JSON is still kept).
#
#   scripts/run-benchmarks.sh [--out DIR] [--quick] [--skip-build] [--only reduce|sgemm|top2|segmented]... [--readme]
#
# Environment: BUILD_DIR (default build-bench), CUDA_ARCHS (default: this GPU's compute capability,
# else 90), GPUPRIMS_PYTHON (a python3 with matplotlib, tried first).
set -euo pipefail

prog=run-benchmarks
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

usage() {
  cat <<'EOF'
Usage: scripts/run-benchmarks.sh [options]

Builds and runs the reduce, SGEMM, top-2 and row-wise (segmented) benchmarks on this machine's
NVIDIA GPU (ours against CUB and cuBLAS, same process, same timer), then writes into
results/<gpu-name>/:
  reduce.json sgemm.json top2.json segmented.json   raw measurements
  *.png                              plots
  summary.md                         tables (GPU, date, CUDA versions, timing method)

Options:
  --out DIR        results folder (default: results/<slug of the GPU name>)
  --quick          fewer shapes and sizes, for a smoke run (a minute or two)
  --skip-build     use the binaries already in the build folder
  --only NAME      run only this benchmark: reduce, sgemm, top2 or segmented (repeatable)
  --readme         also replace the results block of README.md with this run's summary
  -h, --help       this text

Environment:
  BUILD_DIR        build folder (default: build-bench)
  CUDA_ARCHS       CMAKE_CUDA_ARCHITECTURES (default: this GPU's compute capability, else 90)
  GPUPRIMS_PYTHON  a python3 with matplotlib, tried before python3 and /usr/bin/python3

Without a GPU, re-render plots from existing JSON with:
  python3 bench/report.py --input-dir results/<gpu-name>
EOF
}

die() {  # one plain line, then exit with the given status
  echo "$prog: $2" >&2
  exit "$1"
}

out_dir=""
quick=0
skip_build=0
update_readme=0
only=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --out)
      [[ $# -ge 2 && -n "$2" ]] || die 64 "--out needs a folder"
      out_dir="$2"
      shift 2
      ;;
    --out=*) out_dir="${1#--out=}"; shift ;;
    --quick) quick=1; shift ;;
    --skip-build) skip_build=1; shift ;;
    --readme) update_readme=1; shift ;;
    --only)
      [[ $# -ge 2 ]] || die 64 "--only needs one of: reduce, sgemm, top2, segmented"
      only+=("$2")
      shift 2
      ;;
    --only=*) only+=("${1#--only=}"); shift ;;
    -h | --help) usage; exit 0 ;;
    *) echo "$prog: unknown option '$1'" >&2; usage >&2; exit 64 ;;
  esac
done

benches=(reduce sgemm top2 segmented)
if [[ ${#only[@]} -gt 0 ]]; then
  selected=()
  for b in "${benches[@]}"; do
    for o in "${only[@]}"; do
      case "$o" in reduce | sgemm | top2 | segmented) ;; *) die 64 "--only takes reduce, sgemm, top2 or segmented, not '$o'" ;; esac
      if [[ "$o" == "$b" ]]; then
        selected+=("$b")
        break
      fi
    done
  done
  benches=("${selected[@]}")
fi

# ---- (a) a GPU, before anything else -------------------------------------------------------------
no_gpu="no NVIDIA GPU found on this machine; the benchmarks need one (the tests run anywhere: scripts/test.sh)"
if ! command -v nvidia-smi >/dev/null 2>&1; then
  die 2 "$no_gpu"
fi
gpu_list="$(nvidia-smi -L 2>/dev/null)" || die 2 "$no_gpu"
grep -q '^GPU ' <<<"$gpu_list" || die 2 "$no_gpu"
if [[ -n "${CUDA_VISIBLE_DEVICES+set}" && ( -z "$CUDA_VISIBLE_DEVICES" || "$CUDA_VISIBLE_DEVICES" == -* ) ]]; then
  die 2 "CUDA_VISIBLE_DEVICES='${CUDA_VISIBLE_DEVICES}' hides every GPU; unset it or name one"
fi

# The benchmarks use CUDA device 0, which is the first entry of CUDA_VISIBLE_DEVICES when it is set.
query_gpu() {  # query_gpu FIELD: the field for the GPU the benchmarks will use
  local sel="${CUDA_VISIBLE_DEVICES:-}" v=""
  sel="${sel%%,*}"
  if [[ -n "$sel" ]]; then
    v="$(nvidia-smi -i "$sel" --query-gpu="$1" --format=csv,noheader 2>/dev/null | head -n 1)" || v=""
  fi
  if [[ -z "$v" ]]; then
    v="$(nvidia-smi --query-gpu="$1" --format=csv,noheader 2>/dev/null | head -n 1)" || v=""
  fi
  # Trim surrounding whitespace.
  v="${v#"${v%%[![:space:]]*}"}"
  printf '%s' "${v%"${v##*[![:space:]]}"}"
}
gpu_name="$(query_gpu name)"
[[ -n "$gpu_name" ]] || gpu_name="$(sed -n '1s/^GPU [0-9]*: \(.*\) (UUID.*$/\1/p' <<<"$gpu_list")"
[[ -n "$gpu_name" ]] || gpu_name="unknown-gpu"
slug="$(printf '%s' "$gpu_name" | tr '[:upper:]' '[:lower:]' | sed -e 's/[^a-z0-9]\{1,\}/-/g' -e 's/^-//' -e 's/-$//')"
[[ -n "$slug" ]] || slug="unknown-gpu"

# ---- paths ---------------------------------------------------------------------------------------
abspath() {  # an absolute path for $1 as given from the caller's folder (it need not exist yet)
  case "$1" in /*) printf '%s' "$1" ;; *) printf '%s/%s' "$PWD" "$1" ;; esac
}
if [[ -n "$out_dir" ]]; then
  out_dir="$(abspath "$out_dir")"
else
  out_dir="$root/results/$slug"
fi
build_dir="$(abspath "${BUILD_DIR:-$root/build-bench}")"
cd "$root"
# shellcheck source=scripts/cmake-generator.sh
source scripts/cmake-generator.sh

elapsed() {  # elapsed SECONDS: "1 min 05 s" or "42 s"
  local s=$1
  if ((s >= 60)); then printf '%d min %02d s' $((s / 60)) $((s % 60)); else printf '%d s' "$s"; fi
}

echo "$prog: GPU: $gpu_name"
echo "$prog: results go to ${out_dir#"$root"/}"

# ---- (b) configure and build ---------------------------------------------------------------------
targets=()
for b in "${benches[@]}"; do targets+=("${b}_bench"); done

if [[ $skip_build -eq 0 ]]; then
  command -v cmake >/dev/null 2>&1 || die 1 "cmake not found on PATH; install CMake >= 3.25"
  if [[ -z "${CUDACXX:-}" ]] && ! command -v nvcc >/dev/null 2>&1; then
    if [[ -x /usr/local/cuda/bin/nvcc ]]; then
      export CUDACXX=/usr/local/cuda/bin/nvcc
    else
      die 1 "nvcc not found (not on PATH, not in /usr/local/cuda/bin); install the CUDA toolkit or set CUDACXX"
    fi
  fi
  archs="${CUDA_ARCHS:-}"
  if [[ -z "$archs" ]]; then
    cc="$(query_gpu compute_cap)"  # e.g. "9.0"; older drivers do not know this field
    if [[ "$cc" =~ ^([0-9]+)\.([0-9]+)$ ]]; then
      archs="${BASH_REMATCH[1]}${BASH_REMATCH[2]}"
    else
      archs=90
    fi
  fi
  mkdir -p "$build_dir"
  log="$build_dir/run-benchmarks.log"
  : >"$log"
  gen=()
  ninja_for "$build_dir" && gen=(-G Ninja)  # scripts/cmake-generator.sh
  jobs="$(nproc 2>/dev/null || echo 4)"
  echo "$prog: building ${targets[*]} (Release, CUDA architectures $archs) in ${build_dir#"$root"/}..."
  t0=$SECONDS
  build_failed() {
    echo "---- last 30 lines of $log ----" >&2
    tail -n 30 "$log" >&2
    echo "----" >&2
    die 1 "$1 failed; the full log is $log"
  }
  cmake -S "$root" -B "$build_dir" "${gen[@]}" \
    -DCMAKE_BUILD_TYPE=Release \
    -DGPUPRIMS_BUILD_TESTS=OFF -DGPUPRIMS_BUILD_EXAMPLES=OFF -DGPUPRIMS_BUILD_BENCH=ON \
    -DCMAKE_CUDA_ARCHITECTURES="$archs" >>"$log" 2>&1 || build_failed "CMake configure"
  cmake --build "$build_dir" --config Release --parallel "$jobs" --target "${targets[@]}" >>"$log" 2>&1 ||
    build_failed "the build"
  echo "$prog: built in $(elapsed $((SECONDS - t0)))"
fi

find_binary() {  # the path of a built benchmark binary, or nothing
  local name=$1 p
  for p in "$build_dir/bench/$name" "$build_dir/bench/Release/$name" "$build_dir/$name"; do
    if [[ -x "$p" && -f "$p" ]]; then
      printf '%s' "$p"
      return
    fi
  done
  if [[ -d "$build_dir" ]]; then
    { find "$build_dir" -type f -name "$name" -perm -u+x 2>/dev/null || true; } | head -n 1
  fi
  return 0
}

# ---- (c) + (d) run -------------------------------------------------------------------------------
mkdir -p "$out_dir"
declare -A about=([reduce]="about 1 min" [sgemm]="about 5 min" [top2]="about 2 min" [segmented]="about 1 min")
declare -A title=([reduce]="reduce" [sgemm]="SGEMM" [top2]="top-2 (SGEMM + argmin)" [segmented]="row-wise reductions")
if [[ $quick -eq 1 ]]; then about=([reduce]="quick" [sgemm]="quick" [top2]="quick" [segmented]="quick"); fi
quick_arg=()
if [[ $quick -eq 1 ]]; then quick_arg=(--quick); fi

rm -f "$out_dir/summary.md"  # rewritten below from whatever JSON the folder then holds
failed=()
i=0
for b in "${benches[@]}"; do
  i=$((i + 1))
  bin="$(find_binary "${b}_bench")"
  json="$out_dir/$b.json"
  if [[ -z "$bin" ]]; then
    echo "$prog: ${b}_bench is not built in ${build_dir#"$root"/}; run without --skip-build" >&2
    failed+=("$b")
    continue
  fi
  # Never report an earlier run's file as this run's.
  case "$b" in
    sgemm) rm -f "$json" "$out_dir"/sgemm_4096.png "$out_dir"/sgemm_square.png "$out_dir"/sgemm_shapes.png \
             "$out_dir"/sgemm_heldout.png ;;
    *) rm -f "$json" "$out_dir/$b.png" ;;
  esac
  echo "[$i/${#benches[@]}] ${title[$b]} benchmark (${about[$b]})..."
  t0=$SECONDS
  rc=0
  "$bin" --out "$json" "${quick_arg[@]}" || rc=$?
  if [[ $rc -ne 0 || ! -s "$json" ]]; then
    why="exit $rc"
    if [[ $rc -eq 0 ]]; then why="it wrote no ${json##*/}"; fi
    echo "$prog: the ${title[$b]} benchmark failed ($why) after $(elapsed $((SECONDS - t0))); going on" >&2
    failed+=("$b")
  else
    echo "      done in $(elapsed $((SECONDS - t0))): ${json#"$root"/}"
  fi
done

# ---- (e) plots and summary -----------------------------------------------------------------------
python=""
for p in ${GPUPRIMS_PYTHON:+"$GPUPRIMS_PYTHON"} python3 /opt/torch/.venv/bin/python3 /usr/bin/python3; do
  if command -v "$p" >/dev/null 2>&1 && "$p" -c 'import matplotlib' >/dev/null 2>&1; then
    python="$p"
    break
  fi
done

report_ok=0
have_json=0
for b in reduce sgemm top2 segmented; do
  if [[ -s "$out_dir/$b.json" ]]; then have_json=1; fi
done
if [[ $have_json -eq 0 ]]; then
  echo "$prog: no benchmark produced results" >&2
elif [[ -z "$python" ]]; then
  echo "$prog: no python3 with matplotlib here, so no plots; the JSON is kept. Render later, anywhere, with:" >&2
  echo "  python3 bench/report.py --input-dir ${out_dir#"$root"/}" >&2
else
  echo "$prog: rendering plots and summary..."
  report=("$python" "$root/bench/report.py" --input-dir "$out_dir")
  if [[ $update_readme -eq 1 ]]; then
    rel="$(realpath -m --relative-to="$root" "$out_dir")"
    report+=(--readme "$root/README.md" --readme-results-path "$rel")
  fi
  if "${report[@]}"; then report_ok=1; else echo "$prog: bench/report.py failed (see above)" >&2; fi
fi

# ---- (f) where things are ------------------------------------------------------------------------
echo
echo "$prog: results in ${out_dir#"$root"/}/"
for f in "$out_dir"/*.json "$out_dir"/*.png "$out_dir"/summary.md; do
  if [[ -e "$f" ]]; then echo "  ${f##*/}"; fi
done
if [[ $report_ok -eq 1 && -f "$out_dir/summary.md" ]]; then
  echo
  cat "$out_dir/summary.md"
fi

if [[ ${#failed[@]} -gt 0 ]]; then
  if [[ ${#failed[@]} -lt ${#benches[@]} ]]; then
    die 1 "failed: ${failed[*]} (the others' results are above)"
  fi
  die 1 "failed: ${failed[*]}"
fi
if [[ $have_json -eq 1 && -n "$python" && $report_ok -eq 0 ]]; then
  exit 1
fi
if [[ $update_readme -eq 1 && $report_ok -eq 0 ]]; then
  die 1 "README.md was not updated"
fi
exit 0
