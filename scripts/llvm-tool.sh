# Sourced by scripts/format.sh and scripts/tidy.sh: finding the LLVM 14 tool each runs.
#
#   path=$(llvm_tool TOOL "$OVERRIDE" CALLER) || exit 2
# prints OVERRIDE when it is set, else the first of TOOL-14 and TOOL on PATH. When neither is found and
# this is a root shell with apt (Debian/Ubuntu, as in CI), installs TOOL-14 first. Fails (status 2, a
# message on stderr naming CALLER and the override variable) when there is still none.
llvm_tool() {
  local tool=$1 override=$2 caller=$3 path
  if [ -n "$override" ]; then echo "$override"; return 0; fi
  path=$(command -v "$tool-14" || command -v "$tool" || true)
  if [ -z "$path" ] && command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" -eq 0 ]; then
    echo "$caller: installing $tool-14" >&2
    apt-get update -qq >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$tool-14" >/dev/null
    path=$(command -v "$tool-14" || command -v "$tool" || true)
  fi
  if [ -z "$path" ]; then
    local var=${tool^^}
    var=${var//-/_}
    echo "$caller: $tool not found; install $tool-14 (apt-get install $tool-14) or set $var" >&2
    return 2
  fi
  echo "$path"
}
