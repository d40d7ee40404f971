# Shared by scripts/demo and scripts/check: install what is missing from
# Debian's packages, then configure and build into $BUILD_DIR.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD_DIR=${BUILD_DIR:-$ROOT/build}
JOBS=${JOBS:-$(nproc)}
PACKAGES=(cmake ninja-build ccache python3 llvm-22-dev libmlir-22-dev
  mlir-22-tools llvm-22-tools clang-22 lld-22 libgtest-dev libomp-22-dev)
# Optional: OpenMPI for mirage-opt-mpi (docs/scale.md). Without it the
# driver is not built and its tests are skipped.
OPTIONAL_PACKAGES=(libopenmpi-dev openmpi-bin)

# The packages of "$@" that are not installed.
missing_of() {
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" ||
      echo "$p"
  done
}

install_missing() {
  local missing optional sudo=""
  mapfile -t missing < <(missing_of "${PACKAGES[@]}")
  mapfile -t optional < <(missing_of "${OPTIONAL_PACKAGES[@]}")
  [ ${#missing[@]} -eq 0 ] && [ ${#optional[@]} -eq 0 ] && return 0
  [ "$(id -u)" -eq 0 ] || sudo=sudo
  if [ ${#missing[@]} -gt 0 ]; then
    echo "== installing: ${missing[*]}"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq \
      --no-install-recommends "${missing[@]}" >/dev/null
  fi
  if [ ${#optional[@]} -gt 0 ]; then
    echo "== installing (optional): ${optional[*]}"
    { [ ${#missing[@]} -gt 0 ] || $sudo apt-get update -qq; } &&
      DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq \
        --no-install-recommends "${optional[@]}" >/dev/null ||
      echo "== could not install ${optional[*]}: mirage-opt-mpi and its tests are skipped"
  fi
}

configure_and_build() {
  if [ ! -f "$BUILD_DIR/build.ninja" ]; then
    echo "== configuring $BUILD_DIR"
    # A configure that failed (a compiler not installed yet) leaves a cache
    # with empty per-build-type flags, i.e. an unoptimised build with
    # assertions: start from scratch.
    rm -rf "$BUILD_DIR/CMakeCache.txt" "$BUILD_DIR/CMakeFiles"
    cmake -G Ninja -S "$ROOT" -B "$BUILD_DIR" \
      -DCMAKE_BUILD_TYPE=Release \
      -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
      -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-22/bin/lit \
      -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
      -DLLVM_USE_LINKER=lld -DCMAKE_CXX_COMPILER_LAUNCHER=ccache >/dev/null
  fi
  echo "== building (ninja -j$JOBS)"
  ninja -C "$BUILD_DIR" -j"$JOBS" "$@"
}
