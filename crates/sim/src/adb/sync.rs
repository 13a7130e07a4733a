//! The `sync:` service: the file transfer protocol behind `adb push` (AOSP
//! `packages/modules/adb/file_sync_protocol.h`). Each request is a 4-byte id and a 4-byte
//! little-endian length. `SEND` names `path,mode`; `DATA` chunks (at most 64 KiB each) follow,
//! and `DONE` (its length is the mtime) ends the file, answered by `OKAY` once the file is
//! written or `FAIL` with a message. `QUIT` ends the session. Only `/data/local/tmp` is
//! writable here, as for the shell user on a phone.

use super::stream::{StreamReader, StreamWriter};
use crate::shell::Handset;

/// Largest `DATA` chunk adb sends (`SYNC_DATA_MAX`).
const DATA_MAX: usize = 64 * 1024;

/// The longest path a `SEND` may name.
const PATH_MAX: usize = 1024;

/// Reads exactly `n` bytes of the stream, keeping what follows in `buf`.
async fn take(reader: &mut StreamReader, buf: &mut Vec<u8>, n: usize) -> Option<Vec<u8>> {
    while buf.len() < n {
        buf.extend(reader.recv().await?);
    }
    Some(buf.drain(..n).collect())
}

async fn header(reader: &mut StreamReader, buf: &mut Vec<u8>) -> Option<([u8; 4], u32)> {
    let h = take(reader, buf, 8).await?;
    Some((
        [h[0], h[1], h[2], h[3]],
        u32::from_le_bytes([h[4], h[5], h[6], h[7]]),
    ))
}

fn fail(message: &str) -> Vec<u8> {
    let mut out = b"FAIL".to_vec();
    out.extend((message.len() as u32).to_le_bytes());
    out.extend(message.as_bytes());
    out
}

/// Serves one sync session until `QUIT`, the stream's end or a protocol error.
pub async fn serve(device: &Handset, mut reader: StreamReader, writer: &mut StreamWriter) {
    let mut buf = Vec::new();
    while let Some((id, len)) = header(&mut reader, &mut buf).await {
        match &id {
            b"SEND" if (len as usize) <= PATH_MAX => {
                let Some(spec) = take(&mut reader, &mut buf, len as usize).await else {
                    return;
                };
                let spec = String::from_utf8_lossy(&spec).into_owned();
                let path = spec.rsplit_once(',').map_or(spec.as_str(), |(p, _)| p);
                let Some(file) = receive_file(&mut reader, &mut buf, writer).await else {
                    return;
                };
                let reply = match device.write_file(path, file) {
                    Ok(()) => b"OKAY\0\0\0\0".to_vec(),
                    Err(why) => fail(&why),
                };
                if writer.write(&reply).await.is_err() {
                    return;
                }
            }
            b"STAT" if (len as usize) <= PATH_MAX => {
                let Some(path) = take(&mut reader, &mut buf, len as usize).await else {
                    return;
                };
                let path = String::from_utf8_lossy(&path).into_owned();
                let (mode, size) = match device.file(&path) {
                    Some(bytes) => (0o100644u32, bytes.len() as u32),
                    None => (0, 0),
                };
                let mut reply = b"STAT".to_vec();
                for v in [mode, size, 0] {
                    reply.extend(v.to_le_bytes());
                }
                if writer.write(&reply).await.is_err() {
                    return;
                }
            }
            b"QUIT" => return,
            _ => {
                let _ = writer.write(&fail("unknown sync request")).await;
                return;
            }
        }
    }
}

/// A `SEND`'s file: its `DATA` chunks up to `DONE`. `None` where the stream ends or breaks the
/// protocol (then the host is told).
async fn receive_file(
    reader: &mut StreamReader,
    buf: &mut Vec<u8>,
    writer: &mut StreamWriter,
) -> Option<Vec<u8>> {
    let mut file = Vec::new();
    loop {
        let (id, len) = header(reader, buf).await?;
        match &id {
            b"DATA" if (len as usize) <= DATA_MAX => {
                file.extend(take(reader, buf, len as usize).await?)
            }
            b"DONE" => return Some(file),
            _ => {
                let _ = writer.write(&fail("invalid data message")).await;
                return None;
            }
        }
    }
}
