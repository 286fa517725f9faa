#!/usr/bin/env bash
# Builds the peer tools levelkit is timed against (bench/peers/README.md), outside the repository.
# Their code never enters levelkit: this only compiles their public sources beside our drivers.
#   LEVELKIT_PEERS   where to build (default ~/.cache/levelkit-peers)
#   LIBWAP32_SRC     a libwap32 git repository or checkout (default: clone it from GitHub)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
P="${LEVELKIT_PEERS:-$HOME/.cache/levelkit-peers}"
mkdir -p "$P"

# libwap32 (C++ with a C API) at the commit PEERS.md names, with system zlib (zlib1g-dev).
LIBWAP32_COMMIT=a9ed93d
src="$P/libwap32"
if [ ! -d "$src" ]; then
  git clone -q "${LIBWAP32_SRC:-https://github.com/cubuspl42/libwap32}" "$src"
fi
git -C "$src" checkout -q "$LIBWAP32_COMMIT"
# gcc 12 rejects the curly quote in a skipped #error of this commit.
sed -i "s/two’s/twos/" "$src/include/wap32/common.h"
mkdir -p "$P/obj"
for f in "$src"/src/*.cpp; do
  g++ -O2 -std=c++11 -I"$src/include" -c "$f" -o "$P/obj/$(basename "$f" .cpp).o"
done
gcc -O2 -I"$src/include" -c "$here/wwdbench.c" -o "$P/obj/wwdbench-driver.o"
g++ -O2 -o "$P/wwdbench" "$P"/obj/*.o -lz
echo "built $P/wwdbench"
