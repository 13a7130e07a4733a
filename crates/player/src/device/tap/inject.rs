//! The `inject` tap channel's pieces: the on-phone injector (`injector/`, a raw dex that
//! `app_process` runs, as scrcpy runs its server), its protocol (16-byte records in, one
//! `ok SEQ` / `err SEQ ...` line out per record; see `injector/README.md`), and how the player
//! pushes it (the ADB sync protocol, which says when the file is complete).

/// The committed injector (`injector/autoplay-inject.dex`, checked against its smali source by
/// `injector/build.sh --check`).
pub const INJECTOR_DEX: &[u8] = include_bytes!("../../../../../injector/autoplay-inject.dex");

/// Its entry point.
pub const INJECTOR_CLASS: &str = "org.autoplay.inject.Main";

/// The protocol version its hello line announces (`VERSION` in `Main.smali`).
pub const INJECTOR_VERSION: u32 = 1;

/// Where the player pushes it (the shell user may write there on every Android version).
pub const INJECTOR_PATH: &str = "/data/local/tmp/autoplay-inject.dex";

/// Bytes per record.
pub const RECORD: usize = 16;

/// Record kinds.
pub const KIND_PING: u8 = 0;
pub const KIND_TAP: u8 = 1;
pub const KIND_DOWN: u8 = 2;
pub const KIND_UP: u8 = 3;
pub const KIND_MOVE: u8 = 4;

/// One record: kind, three reserved zero bytes, then seq, x and y little-endian.
pub fn record(kind: u8, seq: u32, x: i32, y: i32) -> [u8; RECORD] {
    let mut r = [0u8; RECORD];
    r[0] = kind;
    r[4..8].copy_from_slice(&seq.to_le_bytes());
    r[8..12].copy_from_slice(&x.to_le_bytes());
    r[12..16].copy_from_slice(&y.to_le_bytes());
    r
}

/// The command that starts the injector at `path` (`exec:` it: no pty).
pub fn start_command(path: &str) -> String {
    format!("CLASSPATH={path} app_process / {INJECTOR_CLASS}")
}

/// The hello line's version and SDK (`autoplay-inject 1 sdk=34`).
pub fn parse_hello(line: &str) -> Option<(u32, u32)> {
    let rest = line.trim().strip_prefix("autoplay-inject ")?;
    let (version, sdk) = rest.split_once(' ')?;
    Some((
        version.parse().ok()?,
        sdk.strip_prefix("sdk=")?.parse().ok()?,
    ))
}

/// One reply line: `Ok(seq)` for `ok SEQ`, `Err((seq, why))` for `err SEQ why`.
pub fn parse_reply(line: &str) -> Option<Result<u32, (u32, String)>> {
    let line = line.trim_end();
    if let Some(seq) = line.strip_prefix("ok ") {
        return seq.trim().parse().ok().map(Ok);
    }
    let rest = line.strip_prefix("err ")?;
    let (seq, why) = rest.split_once(' ').unwrap_or((rest, ""));
    Some(Err((seq.parse().ok()?, why.to_string())))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_and_lines() {
        assert_eq!(
            record(KIND_TAP, 0xfffffffe, -5, 2400),
            [
                1, 0, 0, 0, 0xfe, 0xff, 0xff, 0xff, 0xfb, 0xff, 0xff, 0xff, 0x60, 0x09, 0, 0
            ]
        );
        assert_eq!(parse_hello("autoplay-inject 1 sdk=34\n"), Some((1, 34)));
        assert_eq!(parse_hello("Aborted"), None);
        assert_eq!(parse_reply("ok 7"), Some(Ok(7)));
        assert_eq!(
            parse_reply("err 6 bad kind 9"),
            Some(Err((6, "bad kind 9".into())))
        );
        assert_eq!(&INJECTOR_DEX[..4], b"dex\n");
    }
}
