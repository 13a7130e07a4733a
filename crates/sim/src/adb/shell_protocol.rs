//! The shell v2 protocol inside a stream: packets of `[id u8][len u32 LE][data]`.

/// Packet ids.
pub const STDIN: u8 = 0;
pub const STDOUT: u8 = 1;
pub const STDERR: u8 = 2;
pub const EXIT: u8 = 3;
pub const CLOSE_STDIN: u8 = 4;
pub const WINDOW_SIZE: u8 = 5;

/// Largest shell packet accepted from the host.
const MAX_PACKET: usize = 1024 * 1024;

/// One shell packet.
pub fn encode(id: u8, data: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(5 + data.len());
    out.push(id);
    out.extend_from_slice(&u32::try_from(data.len()).unwrap_or(u32::MAX).to_le_bytes());
    out.extend_from_slice(data);
    out
}

/// The host sent a shell packet larger than allowed.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error("shell packet of {0} bytes is too large")]
pub struct TooLarge(pub usize);

/// Reassembles shell packets from stream chunks.
#[derive(Debug, Default)]
pub struct Decoder {
    buf: Vec<u8>,
}

impl Decoder {
    /// Adds bytes received on the stream.
    pub fn push(&mut self, bytes: &[u8]) {
        self.buf.extend_from_slice(bytes);
    }

    /// The next complete packet, if any.
    pub fn next_packet(&mut self) -> Result<Option<(u8, Vec<u8>)>, TooLarge> {
        let Some(head) = self.buf.first_chunk::<5>() else {
            return Ok(None);
        };
        let len = u32::from_le_bytes([head[1], head[2], head[3], head[4]]) as usize;
        if len > MAX_PACKET {
            return Err(TooLarge(len));
        }
        if self.buf.len() < 5 + len {
            return Ok(None);
        }
        let id = head[0];
        let data = self.buf[5..5 + len].to_vec();
        self.buf.drain(..5 + len);
        Ok(Some((id, data)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_split_across_chunks() {
        let mut bytes = encode(STDIN, b"input tap 1 2\n");
        bytes.extend(encode(CLOSE_STDIN, b""));
        let mut d = Decoder::default();
        d.push(&bytes[..3]);
        assert_eq!(d.next_packet(), Ok(None));
        d.push(&bytes[3..]);
        assert_eq!(
            d.next_packet(),
            Ok(Some((STDIN, b"input tap 1 2\n".to_vec())))
        );
        assert_eq!(d.next_packet(), Ok(Some((CLOSE_STDIN, vec![]))));
        assert_eq!(d.next_packet(), Ok(None));
        let mut d = Decoder::default();
        d.push(&[0, 255, 255, 255, 255]);
        assert!(d.next_packet().is_err());
    }
}
