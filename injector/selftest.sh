#!/usr/bin/env bash
# End-to-end test of autoplay-inject.dex off the phone: runs it on the JVM (run-jvm.sh) against the
# android.* stubs, feeds it binary records and checks its stdout, its exit status and the events the
# stubs recorded. Usage: injector/selftest.sh   (exit status 0 when every case passes)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0

# rec KIND SEQ X Y: one 16-byte record (kind u8, 3 zero bytes, seq u32 LE, x i32 LE, y i32 LE).
rec() {
  local s v
  s=$(printf '\\x%02x\\x00\\x00\\x00' "$1")
  for v in "$2" "$3" "$4"; do
    v=$((v & 0xffffffff))
    s+=$(printf '\\x%02x\\x%02x\\x%02x\\x%02x' $((v & 255)) $((v >> 8 & 255)) $((v >> 16 & 255)) $((v >> 24 & 255)))
  done
  printf '%b' "$s"
}

# The standard input of most cases: a tap, a down/move/up, a ping, a bad kind, a tap with a seq above
# 2^31 and a negative x.
{
  rec 1 1 100 200
  rec 2 2 10 20
  rec 4 3 15 25
  rec 3 4 15 25
  rec 0 5 0 0
  rec 9 6 0 0
  rec 1 4294967294 -5 2400
} >"$tmp/records.bin"

DENIED='java.lang.SecurityException: Injecting input events requires the caller (or the source of the instrumentation, if any) to have the INJECT_EVENTS permission.'

events='inject action=0 x=100.0 y=200.0 source=0x1002 mode=0
inject action=1 x=100.0 y=200.0 source=0x1002 mode=0
inject action=0 x=10.0 y=20.0 source=0x1002 mode=0
inject action=2 x=15.0 y=25.0 source=0x1002 mode=0
inject action=1 x=15.0 y=25.0 source=0x1002 mode=0
inject action=0 x=-5.0 y=2400.0 source=0x1002 mode=0
inject action=1 x=-5.0 y=2400.0 source=0x1002 mode=0'

acks='ok 1
ok 2
ok 3
ok 4
ok 5
err 6 bad kind 9
ok 4294967294'

# check NAME INPUT_FILE EXPECTED_STATUS EXPECTED_STDOUT EXPECTED_RECORD [-Dprop=value ...]
check() {
  local name=$1 input=$2 want_status=$3 want_out=$4 want_rec=$5
  shift 5
  local out=$tmp/$name.out record=$tmp/$name.rec err=$tmp/$name.err status=0 ok=1
  : >"$record"
  "$here/run-jvm.sh" -Dstub.record="$record" "$@" <"$input" >"$out" 2>"$err" || status=$?
  if [ "$status" != "$want_status" ]; then
    echo "FAIL $name: exit status $status, want $want_status"; ok=0
  fi
  if [ "$(cat "$out")" != "$want_out" ]; then
    echo "FAIL $name: stdout differs (want < > got):"; diff <(printf '%s\n' "$want_out") "$out" | sed 's/^/    /' || true; ok=0
  fi
  if [ "$(cat "$record")" != "$want_rec" ]; then
    echo "FAIL $name: recorded calls differ (want < > got):"; diff <(printf '%s\n' "$want_rec") "$record" | sed 's/^/    /' || true; ok=0
  fi
  # stderr must stay empty: adb without the shell protocol merges it into stdout. (A JVM that was
  # given JAVA_TOOL_OPTIONS says so there; that line is not the injector's.)
  sed -i '/^Picked up JAVA_TOOL_OPTIONS:/d; /^Picked up _JAVA_OPTIONS:/d' "$err"
  if [ -s "$err" ]; then
    echo "FAIL $name: stderr is not empty:"; sed 's/^/    /' "$err"; ok=0
  fi
  if [ "$ok" = 1 ]; then echo "ok   $name ($*)"; else failures=$((failures + 1)); fi
}

check sdk33 "$tmp/records.bin" 0 "autoplay-inject 1 sdk=33
$acks" "getInstance android.hardware.input.InputManager
$events" -Dstub.sdk=33

check sdk34 "$tmp/records.bin" 0 "autoplay-inject 1 sdk=34
$acks" "getInstance android.hardware.input.InputManagerGlobal
$events" -Dstub.sdk=34

# An Android 14 preview reported SDK_INT 33 but already had InputManagerGlobal: the class decides.
check sdk33-with-global "$tmp/records.bin" 0 "autoplay-inject 1 sdk=33
$acks" "getInstance android.hardware.input.InputManagerGlobal
$events" -Dstub.sdk=33 -Dstub.global=1

check sdk34-deny "$tmp/records.bin" 0 "autoplay-inject 1 sdk=34
err 1 $DENIED
err 2 $DENIED
err 3 $DENIED
err 4 $DENIED
ok 5
err 6 bad kind 9
err 4294967294 $DENIED" "getInstance android.hardware.input.InputManagerGlobal" -Dstub.sdk=34 -Dstub.deny=1

check sdk33-deny "$tmp/records.bin" 0 "autoplay-inject 1 sdk=33
err 1 $DENIED
err 2 $DENIED
err 3 $DENIED
err 4 $DENIED
ok 5
err 6 bad kind 9
err 4294967294 $DENIED" "getInstance android.hardware.input.InputManager" -Dstub.sdk=33 -Dstub.deny=1

check sdk34-drop "$tmp/records.bin" 0 "autoplay-inject 1 sdk=34
err 1 not injected
err 2 not injected
err 3 not injected
err 4 not injected
ok 5
err 6 bad kind 9
err 4294967294 not injected" "getInstance android.hardware.input.InputManagerGlobal" -Dstub.sdk=34 -Dstub.drop=1

# Android 14 without InputManagerGlobal: InputManager.getInstance() throws, the injector gives up.
check sdk34-no-global "$tmp/records.bin" 1 \
  "fatal java.lang.NullPointerException: ActivityThread.currentApplication() is null (stub, SDK_INT >= 34)" \
  "" -Dstub.sdk=34 -Dstub.global=0

: >"$tmp/empty.bin"
check empty-stdin "$tmp/empty.bin" 0 "autoplay-inject 1 sdk=34" \
  "getInstance android.hardware.input.InputManagerGlobal" -Dstub.sdk=34

{ rec 0 7 0 0; printf 'ABCDE'; } >"$tmp/truncated.bin"
check truncated "$tmp/truncated.bin" 1 "autoplay-inject 1 sdk=34
ok 7
fatal java.io.EOFException: truncated record (5 of 16 bytes)" \
  "getInstance android.hardware.input.InputManagerGlobal" -Dstub.sdk=34

# Acks are not held back while stdin stays open: each record is answered before the next is sent.
interactive() {
  local record=$tmp/interactive.rec line want got=() status=0
  : >"$record"
  coproc INJ { exec "$here/run-jvm.sh" -Dstub.sdk=34 -Dstub.record="$record" 2>"$tmp/interactive.err"; }
  local to=${INJ[1]} from=${INJ[0]} pid=$INJ_PID
  IFS= read -r -t 30 -u "$from" line || line='(no line within 30 s)'
  got+=("$line")
  for want in 'ok 11' 'ok 12' 'ok 13'; do
    case $want in
      'ok 11') rec 2 11 300 400 >&"$to" ;;
      'ok 12') rec 4 12 310 410 >&"$to" ;;
      'ok 13') rec 3 13 310 410 >&"$to" ;;
    esac
    IFS= read -r -t 30 -u "$from" line || line='(no line within 30 s)'
    got+=("$line")
  done
  exec {to}>&-
  wait "$pid" || status=$?
  local joined
  joined=$(printf '%s\n' "${got[@]}")
  if [ "$joined" = "autoplay-inject 1 sdk=34
ok 11
ok 12
ok 13" ] && [ "$status" = 0 ] && [ "$(cat "$record")" = "getInstance android.hardware.input.InputManagerGlobal
inject action=0 x=300.0 y=400.0 source=0x1002 mode=0
inject action=2 x=310.0 y=410.0 source=0x1002 mode=0
inject action=1 x=310.0 y=410.0 source=0x1002 mode=0" ]; then
    echo "ok   interactive (one record at a time, stdin open)"
  else
    echo "FAIL interactive: status $status, lines:"; printf '    %s\n' "${got[@]}"; sed 's/^/    /' "$record" "$tmp/interactive.err"
    failures=$((failures + 1))
  fi
}
interactive

if [ "$failures" != 0 ]; then
  echo "selftest: $failures case(s) failed"
  exit 1
fi
echo "selftest: all cases passed"
