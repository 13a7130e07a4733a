//! Turns a byte stream into packets and back (like mini-redis's `Connection`).

use sudoku_autoplay::adb_packet::{HEADER_LEN, Header, Packet, PacketError};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, BufReader, BufWriter};

/// Why reading a packet failed.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    #[error("connection closed")]
    Closed,
    #[error(transparent)]
    Io(#[from] std::io::Error),
    #[error(transparent)]
    Packet(#[from] PacketError),
}

/// Reads packets from the host.
pub struct PacketReader<R> {
    inner: BufReader<R>,
}

impl<R: AsyncRead + Unpin> PacketReader<R> {
    /// Wraps the read half of a connection.
    pub fn new(read: R) -> Self {
        PacketReader {
            inner: BufReader::with_capacity(64 * 1024, read),
        }
    }

    /// Reads the next packet. Payloads longer than `max_payload` are refused before any
    /// allocation, so a hostile length cannot exhaust memory.
    pub async fn read_packet(&mut self, max_payload: u32) -> Result<Packet, ReadError> {
        let mut head = [0u8; HEADER_LEN];
        match self.inner.read_exact(&mut head).await {
            Ok(_) => {}
            Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => {
                return Err(ReadError::Closed);
            }
            Err(e) => return Err(e.into()),
        }
        let header = Header::decode(&head, max_payload)?;
        let mut payload = vec![0u8; header.length as usize];
        self.inner.read_exact(&mut payload).await?;
        Ok(Packet::new(
            header.command,
            header.arg0,
            header.arg1,
            payload,
        ))
    }
}

/// Writes packets to the host.
pub struct PacketWriter<W> {
    inner: BufWriter<W>,
}

impl<W: AsyncWrite + Unpin> PacketWriter<W> {
    /// Wraps the write half of a connection.
    pub fn new(write: W) -> Self {
        PacketWriter {
            inner: BufWriter::with_capacity(64 * 1024, write),
        }
    }

    /// Writes one packet (without flushing).
    pub async fn write_packet(&mut self, packet: &Packet) -> std::io::Result<()> {
        self.inner.write_all(&packet.header()).await?;
        self.inner.write_all(&packet.payload).await
    }

    /// Flushes buffered packets to the socket.
    pub async fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush().await
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sudoku_autoplay::adb_packet::{Command, MAX_PAYLOAD};

    #[tokio::test]
    async fn packets_cross_a_pipe() {
        let (a, b) = tokio::io::duplex(1024);
        let mut w = PacketWriter::new(a);
        let mut r = PacketReader::new(b);
        let p = Packet::new(Command::Open, 1, 0, b"shell:echo hi\0".to_vec());
        w.write_packet(&p).await.unwrap();
        w.flush().await.unwrap();
        assert_eq!(r.read_packet(MAX_PAYLOAD).await.unwrap(), p);
        drop(w);
        assert!(matches!(
            r.read_packet(MAX_PAYLOAD).await,
            Err(ReadError::Closed)
        ));
    }

    #[tokio::test]
    async fn absurd_length_is_refused() {
        let (a, b) = tokio::io::duplex(1024);
        let mut w = PacketWriter::new(a);
        let mut r = PacketReader::new(b);
        let mut head = Packet::new(Command::Wrte, 1, 1, vec![]).header();
        head[12..16].copy_from_slice(&0x7fff_ffffu32.to_le_bytes());
        w.inner.write_all(&head).await.unwrap();
        w.flush().await.unwrap();
        assert!(matches!(
            r.read_packet(MAX_PAYLOAD).await,
            Err(ReadError::Packet(PacketError::TooLong { .. }))
        ));
    }
}
