#!/usr/bin/env bash
# Runs autoplay-inject.dex on the JVM against the android.* stubs in stubs/, for tests off the phone.
#   injector/run-jvm.sh [-Dname=value ...]   stdin, stdout and the exit status are the injector's.
# Properties (read by the stubs):
#   -Dstub.sdk=N        Build.VERSION.SDK_INT (default 34)
#   -Dstub.global=0|1   put android.hardware.input.InputManagerGlobal on the class path
#                       (default: 1 when stub.sdk >= 34, as on Android 14+)
#   -Dstub.record=FILE  append the "getInstance ..." and "inject ..." lines there (default: stderr)
#   -Dstub.deny=1       the phone refuses injection: from SDK 33 injectInputEvent throws; before,
#                       an asynchronous event returns true and is lost, a waited-for one throws
#   -Dstub.interactive=0  the screen is off: events are dropped and reported injected
#   -Dstub.drop=1       injectInputEvent returns false
# CLASSPATH is set to the dex, as on the phone (the hello line names the dex it reads there).
# Environment: AUTOPLAY_INJECT_DEX (default: injector/autoplay-inject.dex).
# The compiled stubs and the enjarified jar are cached by content hash under
# ${XDG_CACHE_HOME:-~/.cache}/autoplay-inject-jvm. Needs java, javac (openjdk-17-jdk-headless) and enjarify.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
dex=${AUTOPLAY_INJECT_DEX:-$here/autoplay-inject.dex}
cache=${XDG_CACHE_HOME:-$HOME/.cache}/autoplay-inject-jvm
mkdir -p "$cache"

sdk=34
global=
for arg in "$@"; do
  case "$arg" in
    -Dstub.sdk=*) sdk=${arg#-Dstub.sdk=} ;;
    -Dstub.global=*) global=${arg#-Dstub.global=} ;;
    -D*) ;;
    *) echo "run-jvm.sh: only -Dname=value arguments are accepted, not: $arg" >&2; exit 2 ;;
  esac
done
if [ -z "$global" ]; then
  if [ "$sdk" -ge 34 ]; then global=1; else global=0; fi
fi

# Stubs: stubs/base gets every class but InputManagerGlobal, stubs/global that one.
stubs_hash=$(cd "$here/stubs" && find . -name '*.java' -print0 | LC_ALL=C sort -z | xargs -0 sha256sum | sha256sum | cut -c1-16)
stubs=$cache/stubs-$stubs_hash
if [ ! -d "$stubs" ]; then
  tmp=$(mktemp -d "$cache/tmp.XXXXXX")
  mkdir "$tmp/base" "$tmp/global"
  (cd "$here/stubs" && find . -name '*.java' ! -name InputManagerGlobal.java -print0 | LC_ALL=C sort -z \
     | xargs -0 javac -nowarn -encoding UTF-8 --release 17 -d "$tmp/base")
  javac -nowarn -encoding UTF-8 --release 17 -cp "$tmp/base" -d "$tmp/global" \
    "$here/stubs/android/hardware/input/InputManagerGlobal.java"
  mv -T "$tmp" "$stubs" 2>/dev/null || rm -rf "$tmp"
fi

# The dex, as JVM classes.
dex_hash=$(sha256sum "$dex" | cut -c1-16)
jar=$cache/inject-$dex_hash.jar
if [ ! -f "$jar" ]; then
  # Debian's enjarify runs "python3 -m enjarify.main": it needs the python3 that has Debian's
  # dist-packages (a pyenv or venv python3 first on PATH does not).
  if [ -z "${PYTHON:-}" ] && [ -x /usr/bin/python3 ]; then export PYTHON=/usr/bin/python3; fi
  tmp=$(mktemp -d "$cache/tmp.XXXXXX")
  if ! enjarify -o "$tmp/inject.jar" "$dex" >"$tmp/log" 2>&1; then
    cat "$tmp/log" >&2; rm -rf "$tmp"; exit 2
  fi
  mv "$tmp/inject.jar" "$jar"
  rm -rf "$tmp"
fi

cp=$stubs/base:$jar
if [ "$global" = 1 ]; then cp=$stubs/global:$cp; fi
exec env CLASSPATH="$dex" java -Xshare:auto -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -cp "$cp" "$@" org.autoplay.inject.Main
