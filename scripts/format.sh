#!/usr/bin/env bash
# clang-format (version 14, the style in .clang-format) over our C++ and CUDA sources: *.cpp *.hpp
# *.cu *.cuh *.h under lib/ testkit/ tests/ bench/ examples/ (git's tracked and untracked-but-not-ignored files,
# so build directories are never touched; lib/gemm/src/model_constants.inc is generated and not C++
# of ours to format).
#
#   scripts/format.sh            format every file in place
#   scripts/format.sh --check    change nothing; list each file that is not formatted (with how many
#                                lines would change) and exit 1 if there is any
#   scripts/format.sh [--check] FILE...   only these files
#
# Environment: CLANG_FORMAT (default: clang-format-14, else clang-format). Installs clang-format-14
# with apt when no clang-format is found and this is a root shell on Debian/Ubuntu, as test.sh does.
set -euo pipefail
cd "$(dirname "$0")/.."
check=0
files=()
while [ $# -gt 0 ]; do
  case "$1" in
    --check) check=1; shift ;;
    --fix) check=0; shift ;;
    -h | --help) sed -n '2,13p' "$0"; exit 0 ;;
    -*) echo "format.sh: unknown option $1 (--check, --fix, or file names)" >&2; exit 64 ;;
    *) files+=("$1"); shift ;;
  esac
done

# shellcheck source=scripts/llvm-tool.sh
source scripts/llvm-tool.sh
cf=$(llvm_tool clang-format "${CLANG_FORMAT:-}" format.sh) || exit 2
# Other major versions break lines differently: the check is only meaningful with 14.
version=$("$cf" --version | grep -Eo 'version [0-9]+' | grep -Eo '[0-9]+' || true)
[ "$version" = 14 ] || echo "format.sh: warning: $cf is version ${version:-?}, the style is tuned for clang-format 14" >&2

if [ ${#files[@]} -eq 0 ]; then
  pattern='^(lib|testkit|tests|bench|examples)/.*\.(cpp|hpp|cu|cuh|h)$'
  if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    mapfile -t files < <(git ls-files --cached --others --exclude-standard -- lib testkit tests bench examples |
                         grep -E "$pattern" | sort -u)
  else  # a tarball of the tree: everything under the four folders but build output
    mapfile -t files < <(find lib testkit tests bench examples -type f | grep -E "$pattern" | grep -v '/build' | sort)
  fi
fi
# A file listed by git but deleted in the work tree is not ours to format.
existing=()
for f in "${files[@]}"; do [ -f "$f" ] && existing+=("$f"); done
files=("${existing[@]}")

if [ $check -eq 0 ]; then
  "$cf" -i --style=file "${files[@]}"
  echo "format.sh: formatted ${#files[@]} files with $cf"
  exit 0
fi

bad=0
lines=0
for f in "${files[@]}"; do
  # Lines of the file that the formatter would replace ("<" lines of a plain diff).
  n=$("$cf" --style=file "$f" | diff "$f" - | grep -c '^<' || true)
  if [ "$n" -gt 0 ]; then
    echo "not formatted: $f ($n lines would change)"
    bad=$(( bad + 1 ))
    lines=$(( lines + n ))
  fi
done
if [ $bad -gt 0 ]; then
  echo "format.sh: $bad of ${#files[@]} files not formatted ($lines lines would change); run scripts/format.sh"
  exit 1
fi
echo "format.sh: all ${#files[@]} files formatted"
