#!/usr/bin/env python3
"""Writes the seed corpora in fuzz/corpus/<target>/ (run from fuzz/). Standard library only."""
import os, struct, zlib, shutil, sys

C = "corpus"

def put(target, name, data):
    d = os.path.join(C, target)
    os.makedirs(d, exist_ok=True)
    if isinstance(data, str):
        data = data.encode()
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)

def png(w, h, colour_type=6):
    chans = {6: 4, 2: 3, 0: 1}[colour_type]
    raw = b"".join(b"\0" + bytes((x * 37 + y * 11 + c * 5) % 256 for x in range(w) for c in range(chans)) for y in range(h))
    def chunk(t, d):
        return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d) & 0xffffffff)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, colour_type, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))

def raw(w, h, fmt, bpp, header16):
    head = struct.pack("<III", w, h, fmt) + (struct.pack("<I", 0) if header16 else b"")
    return head + bytes((i * 7) % 256 for i in range(w * h * bpp))

# decode_frame
p = png(3, 2)
put("decode_frame", "png_rgba_3x2", p)
put("decode_frame", "png_rgb_2x2", png(2, 2, 2))
put("decode_frame", "png_grey_4x1", png(4, 1, 0))
put("decode_frame", "png_crlf_mangled", p.replace(b"\n", b"\r\n"))
put("decode_frame", "png_truncated", p[: len(p) // 2])
put("decode_frame", "raw12_rgba_2x2", raw(2, 2, 1, 4, False))
put("decode_frame", "raw16_rgbx_2x1", raw(2, 1, 2, 4, True))
put("decode_frame", "raw16_rgb888_3x1", raw(3, 1, 3, 3, True))
put("decode_frame", "raw12_rgb565_3x2", raw(3, 2, 4, 2, False))
put("decode_frame", "raw16_bgra_1x1", raw(1, 1, 5, 4, True))
put("decode_frame", "raw_wrong_size", raw(2, 2, 1, 4, False)[:-3])
jpg = "/root/.pyenv/versions/3.7.16/lib/python3.7/test/imghdrdata/python.jpg"
if os.path.exists(jpg):
    shutil.copy(jpg, os.path.join(C, "decode_frame", "jpeg_small"))

# board_parse
puzzles = ["..2...7...1.....6.5......18....37.......49.....41.23....3.2.9...8.....5.6.......2",
           "534678912672195348198342567859761423426853791713924856961537284287419635345286179"]
put("board_parse", "line", puzzles[0])
put("board_parse", "solved_line", puzzles[1] + "\n")
put("board_parse", "zeros_line", puzzles[0].replace(".", "0"))
grid = "\n".join(" ".join(puzzles[0][r * 9:r * 9 + 9]) for r in range(9)) + "\n"
put("board_parse", "grid", grid)
boxed = ""
for r in range(9):
    if r % 3 == 0:
        boxed += "+-------+-------+-------+\n"
    row = puzzles[0][r * 9:r * 9 + 9]
    boxed += "| " + " | ".join(" ".join(row[c:c + 3]) for c in (0, 3, 6)) + " |\n"
boxed += "+-------+-------+-------+\n"
put("board_parse", "boxed_grid", boxed)
put("board_parse", "conflict_line", "11" + puzzles[0][2:])

# calibration_parse: the shipped sim calibrations (one with templates, one trimmed to the core)
put("calibration_parse", "sim_pixel", open("../calibration/sim-pixel.toml").read())
text = open("../calibration/sim-budget.toml").read()
core = text.split("[[templates]]")[0]
put("calibration_parse", "sim_budget_no_templates", core)
nav = core.index("[navigation]")
put("calibration_parse", "sim_budget_taps", core[:nav] + '[navigation]\nkind = "taps"\ntaps = [[360, 1200], [100, 300]]\n')

# session_parse
session = f'''version = 1
created = "2026-11-21T23:59:00Z"
calibration = "calibration/sim-pixel.toml"
level = 3
strategy = "mrv"
givens = "{puzzles[0]}"
solution = "{puzzles[1]}"
placements = 120
undos = 40

[device]
serial = "127.0.0.1:5555"
model = "Pixel 7"
width = 1080
height = 2400
'''
put("session_parse", "session_toml", session)
journal = "\n".join([
    '{"kind":"start","t_ms":0,"from_event":0}',
    '{"kind":"event","t_ms":5,"i":0,"event":{"Place":{"cell":2,"digit":4}},"taps":[[10,20],[30,40]]}',
    '{"kind":"event","t_ms":9,"i":1,"event":{"Undo":{"cell":2,"digit":4}},"taps":[[10,20]]}',
    '{"kind":"write","t_ms":12,"why":"repair","cell":2,"digit":4,"taps":[[30,40]]}',
    '{"kind":"end","t_ms":20,"result":"solved","message":"ok"}',
]) + "\n"
put("session_parse", "journal", journal)
put("session_parse", "journal_torn", journal + '{"kind":"event","t_ms":5,"i":1,"ev')
put("session_parse", "runs_csv", "time,device,level,strategy,givens,placements,undos,calls,taps,repairs,search_ms,replay_ms,result\n"
    "2026-11-21T23:59:00Z,Pixel 7,3,mrv,24,120,40,160,320,0,2,5000,solved\n")

# adb_packet
def packet(cmd, a0, a1, payload):
    code = struct.unpack("<I", cmd)[0]
    return struct.pack("<IIIIII", code, a0, a1, len(payload), sum(payload) & 0xffffffff, code ^ 0xffffffff) + payload
cnxn = packet(b"CNXN", 0x01000001, 256 * 1024, b"host::features=shell_v2,cmd\0")
put("adb_packet", "cnxn", cnxn)
put("adb_packet", "auth_signature", packet(b"AUTH", 2, 0, bytes(range(256))))
shell_v2 = bytes([0]) + struct.pack("<I", 4) + b"ls\n\0" + bytes([4]) + struct.pack("<I", 0)
put("adb_packet", "session", cnxn + packet(b"OPEN", 1, 0, b"shell,v2,raw:input tap 10 20\0")
    + packet(b"WRTE", 1, 7, shell_v2) + packet(b"OKAY", 1, 7, b"") + packet(b"CLSE", 1, 7, b""))
put("adb_packet", "exec_screencap", packet(b"OPEN", 2, 0, b"exec:screencap -p\0") + packet(b"OPEN", 3, 0, b"framebuffer:\0"))
put("adb_packet", "partial", packet(b"WRTE", 1, 2, b"abcdef")[:27])

# shell_parse
put("shell_parse", "tap", "input tap 540 1200")
put("shell_parse", "list", "screencap -p; echo $?\ninput swipe 1 2 3 4 100 && echo 'ok' || echo \"failed $?\" # done\n")
put("shell_parse", "am_start", "am start -n org.autoplay.sudoku/.GameActivity --ei level 7")
put("shell_parse", "quotes", "echo 'a b'\\ c \"d\\\"e\" ''")
put("shell_parse", "getprop", "getprop ro.product.model; wm size; wm density")

# vision_read: drawn grids (mode 2) with some ink, and a grey ramp
put("vision_read", "grid_blobs", bytes([150, 150, 2, 3, 4, 7, 1]) + bytes([40, 40, 0, 41, 44, 0, 100, 20, 10, 12, 90, 30]))
put("vision_read", "grid_big_cells", bytes([199, 199, 2, 0, 0, 12, 2]) + bytes((i * 53) % 256 for i in range(90)))
put("vision_read", "grey_ramp", bytes([100, 100, 0]) + bytes((i * 3) % 256 for i in range(2000)))
put("vision_read", "rgba_noise", bytes([30, 20, 1]) + bytes((i * 97) % 256 for i in range(2400)))

# evdev_write: first byte = control (bit 0: 64-bit writer, bits 1-3: dd block size, bit 7:
# iflag=fullblock, whole byte: the first read's size); then input_event records
def rec(size, t, c, v):
    return b"\0" * (size - 8) + struct.pack("<HHi", t, c, v)

def tap(size, x, y, tid):
    ev = [(3, 0x2f, 0), (3, 0x39, tid), (3, 0x35, x), (3, 0x36, y), (1, 0x14a, 1), (0, 0, 0),
          (3, 0x2f, 0), (3, 0x39, -1), (1, 0x14a, 0), (0, 0, 0)]
    return b"".join(rec(size, *e) for e in ev)

put("evdev_write", "tap64", bytes([0x07]) + tap(24, 540, 2300, 1))
put("evdev_write", "tap32", bytes([0x06]) + tap(16, 2048, 3000, 2))
put("evdev_write", "tap64_fullblock", bytes([0x87]) + tap(24, 10, 10, 3) + tap(24, 500, 20, 4))
put("evdev_write", "torn64", bytes([0x05]) + tap(24, 540, 2300, 5)[:130])
put("evdev_write", "syn32_as_64", bytes([0x03]) + rec(16, 0, 0, 0) * 3)
put("evdev_write", "garbage", bytes([0x01]) + bytes(range(200)))
