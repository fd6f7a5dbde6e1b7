#!/bin/sh
# Builds the IPOPT reference driver (bench/ipopt/README.md):
#
#   sh bench/ipopt/build.sh [OUTDIR]      → OUTDIR/ipopt-ocp (default: bench/ipopt/build)
#
# Needs a C++17 compiler (c++ or g++) and IPOPT's headers and library (Debian/Ubuntu:
# `apt-get install coinor-libipopt-dev`; this script installs nothing). Exit status 0 and the
# binary's path on stdout when built; 3 and the line "IPOPT driver skipped: ..." when the
# headers or the compiler are missing; 1 when compilation fails.
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=${1:-"$HERE/build"}
CXX=${CXX:-}
if [ -z "$CXX" ]; then
  for c in c++ g++ clang++; do
    if command -v "$c" >/dev/null 2>&1; then CXX=$c; break; fi
  done
fi
if [ -z "$CXX" ]; then
  echo "IPOPT driver skipped: no C++ compiler (c++, g++ or clang++) on PATH"
  exit 3
fi
CFLAGS=""
LIBS="-lipopt"
if command -v pkg-config >/dev/null 2>&1 && pkg-config --exists ipopt 2>/dev/null; then
  CFLAGS=$(pkg-config --cflags ipopt)
  # the shared libipopt brings its own dependencies (MUMPS, BLAS, LAPACK): only its -L paths
  LIBS="$(pkg-config --libs-only-L ipopt) -lipopt"
elif [ -f /usr/include/coin/IpTNLP.hpp ]; then
  CFLAGS="-I/usr/include/coin"
elif [ -f /usr/include/coin-or/IpTNLP.hpp ]; then
  CFLAGS="-I/usr/include/coin-or"
else
  echo "IPOPT driver skipped: coinor-libipopt-dev not installed"
  exit 3
fi
CFLAGS=$(printf "%s" "$CFLAGS" | sed "s/-I/-isystem /g")  # no warnings from IPOPT's headers
mkdir -p "$OUT"
# shellcheck disable=SC2086
"$CXX" -std=c++17 -O2 -Wall -Wextra -o "$OUT/ipopt-ocp" $CFLAGS \
  "$HERE/driver.cpp" "$HERE/ocp.cpp" "$HERE/so3_steering.cpp" "$HERE/plate_ball.cpp" \
  "$HERE/unicycle_parking.cpp" "$HERE/satellite.cpp" "$HERE/quadrotor.cpp" $LIBS
echo "$OUT/ipopt-ocp"
