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

# The standard input of most cases: a tap, a check, a down/move/up, a ping, a bad kind, a tap with a
# seq above 2^31 and a negative x.
{
  rec 1 1 100 200
  rec 5 2 0 0
  rec 2 3 10 20
  rec 4 4 15 25
  rec 3 5 15 25
  rec 0 6 0 0
  rec 9 7 0 0
  rec 1 4294967294 -5 2400
} >"$tmp/records.bin"

DENIED='java.lang.SecurityException: Injecting input events requires the caller (or the source of the instrumentation, if any) to have the INJECT_EVENTS permission.'
DENIED_BEFORE_33='java.lang.SecurityException: Injecting to another application requires INJECT_EVENTS permission'

# The hello line names the dex by its header's SHA-1 signature (bytes 12..31).
dex=${AUTOPLAY_INJECT_DEX:-$here/autoplay-inject.dex}
signature=$(od -An -tx1 -j12 -N20 "$dex" | tr -d ' \n')
# ... which is the SHA-1 of everything after it (the dex format's definition of the field).
if [ "$(tail -c +33 "$dex" | sha1sum | cut -c1-40)" != "$signature" ]; then
  echo "FAIL signature: the dex header's signature $signature is not the SHA-1 of the file after it"
  failures=$((failures + 1))
fi
hello() { echo "autoplay-inject 2 sdk=$1 dex=$signature"; }

# The events of records.bin as the stubs record them (PREFIX: inject, denied, "dropped (screen off)"):
# one finger (tool 1), pressure 1 on the down and the move and 0 on the up, size 1, device 0.
motion() { echo "$1 action=$2 x=$3 y=$4 pressure=$5 size=1.0 tool=1 device=0 source=0x1002 mode=0"; }
key() { echo "$1 key action=$2 code=0 repeat=0 device=-1 source=0x101 mode=1"; }
events() {
  motion "$1" 0 100.0 200.0 1.0
  motion "$1" 1 100.0 200.0 0.0
  if [ -n "${2:-}" ]; then echo "$2"; else key "$1" 0; key "$1" 1; fi
  motion "$1" 0 10.0 20.0 1.0
  motion "$1" 2 15.0 25.0 1.0
  motion "$1" 1 15.0 25.0 0.0
  motion "$1" 0 -5.0 2400.0 1.0
  motion "$1" 1 -5.0 2400.0 0.0
}

# acks CHECK_REPLY [EVENT_REPLY]: the replies to records.bin.
acks() {
  local e=${2:-}
  for seq in 1 2 3 4 5 6 7 4294967294; do
    case $seq in
      2) if [ -n "$1" ]; then echo "err 2 $1"; else echo "ok 2"; fi ;;
      6) echo "ok 6" ;;
      7) echo "err 7 bad kind 9" ;;
      *) if [ -n "$e" ]; then echo "err $seq $e"; else echo "ok $seq"; fi ;;
    esac
  done
}

# check NAME INPUT_FILE EXPECTED_STATUS EXPECTED_STDOUT EXPECTED_RECORD [-Dprop=value ...]
check() {
  local name=$1 input=$2 want_status=$3 want_out=$4 want_rec=$5
  shift 5
  local out=$tmp/$name.out record=$tmp/$name.rec err=$tmp/$name.err status=0 ok=1
  : >"$record"
  "$here/run-jvm.sh" -Dstub.record="$record" "$@" <"$input" >"${STDOUT:-$out}" 2>"$err" || status=$?
  [ -n "${STDOUT:-}" ] && : >"$out"
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

IM='getInstance android.hardware.input.InputManager'
IMG='getInstance android.hardware.input.InputManagerGlobal'

check sdk33 "$tmp/records.bin" 0 "$(hello 33)
$(acks '')" "$IM
$(events inject)" -Dstub.sdk=33

check sdk34 "$tmp/records.bin" 0 "$(hello 34)
$(acks '')" "$IMG
$(events inject)" -Dstub.sdk=34

# An Android 14 preview reported SDK_INT 33 but already had InputManagerGlobal: the class decides.
check sdk33-with-global "$tmp/records.bin" 0 "$(hello 33)
$(acks '')" "$IMG
$(events inject)" -Dstub.sdk=33 -Dstub.global=1

check sdk31 "$tmp/records.bin" 0 "$(hello 31)
$(acks '')" "$IM
$(events inject)" -Dstub.sdk=31

# Android 12 refusing injection: every tap is acknowledged and lost; only the check key, waited
# for, comes back refused.
check sdk31-deny "$tmp/records.bin" 0 "$(hello 31)
$(acks "$DENIED_BEFORE_33")" "$IM
$(events denied "$(key denied 0)")" -Dstub.sdk=31 -Dstub.deny=1

# Android 12 with the screen off: events are dropped and reported injected, so the check says so.
check sdk31-screen-off "$tmp/records.bin" 0 "$(hello 31)
$(acks 'screen off')" "$IM
$(events 'dropped (screen off)')" -Dstub.sdk=31 -Dstub.interactive=0

# ... and the same phone refusing: the check cannot pass either.
check sdk31-deny-screen-off "$tmp/records.bin" 0 "$(hello 31)
$(acks 'screen off')" "$IM
$(events 'dropped (screen off)')" -Dstub.sdk=31 -Dstub.deny=1 -Dstub.interactive=0

# From Android 13 a refusal throws before anything is queued, so the screen is not asked.
check sdk34-screen-off "$tmp/records.bin" 0 "$(hello 34)
$(acks '')" "$IMG
$(events 'dropped (screen off)')" -Dstub.sdk=34 -Dstub.interactive=0

check sdk34-deny "$tmp/records.bin" 0 "$(hello 34)
$(acks "$DENIED" "$DENIED")" "$IMG" -Dstub.sdk=34 -Dstub.deny=1

check sdk33-deny "$tmp/records.bin" 0 "$(hello 33)
$(acks "$DENIED" "$DENIED")" "$IM" -Dstub.sdk=33 -Dstub.deny=1

check sdk34-drop "$tmp/records.bin" 0 "$(hello 34)
$(acks 'not injected' 'not injected')" "$IMG" -Dstub.sdk=34 -Dstub.drop=1

# Android 14 without InputManagerGlobal: InputManager.getInstance() throws, the injector gives up.
check sdk34-no-global "$tmp/records.bin" 1 \
  "fatal java.lang.NullPointerException: ActivityThread.currentApplication() is null (stub, SDK_INT >= 34)" \
  "" -Dstub.sdk=34 -Dstub.global=0

: >"$tmp/empty.bin"
check empty-stdin "$tmp/empty.bin" 0 "$(hello 34)" "$IMG" -Dstub.sdk=34

{ rec 0 7 0 0; printf 'ABCDE'; } >"$tmp/truncated.bin"
check truncated "$tmp/truncated.bin" 1 "$(hello 34)
ok 7
fatal java.io.EOFException: truncated record (5 of 16 bytes)" "$IMG" -Dstub.sdk=34

# I/O errors: a stdin that cannot be read (a directory: EISDIR) and a stdout that cannot be
# written (/dev/full: ENOSPC, from the hello line on) end the injector with status 1, not with an
# escaped exception (whose stack trace would land on stderr).
check stdin-error / 1 "$(hello 34)
fatal java.io.IOException: Is a directory" "$IMG" -Dstub.sdk=34
STDOUT=/dev/full check stdout-error "$tmp/records.bin" 1 "" "$IMG" -Dstub.sdk=34

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
  if [ "$joined" = "$(hello 34)
ok 11
ok 12
ok 13" ] && [ "$status" = 0 ] && [ "$(cat "$record")" = "getInstance android.hardware.input.InputManagerGlobal
$(motion inject 0 300.0 400.0 1.0)
$(motion inject 2 310.0 410.0 1.0)
$(motion inject 1 310.0 410.0 0.0)" ]; then
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
