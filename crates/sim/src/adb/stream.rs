//! Streams multiplexed over one connection: a table of open streams, and the reader/writer
//! pair a service uses. Flow control follows the classic protocol: one WRTE in flight per
//! stream until the peer's OKAY; each WRTE received is acknowledged once the service took it.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use sudoku_autoplay::adb_packet::{Command, Packet};
use tokio::sync::{Semaphore, mpsc};

/// How many unacknowledged WRTEs from the host a stream queues before the host is considered
/// to be breaking flow control.
const INPUT_QUEUE: usize = 8;

/// Packets to send to the host.
pub type Outbox = mpsc::Sender<Packet>;

/// The connection's open streams, keyed by the device-side (local) id.
#[derive(Clone, Default)]
pub struct StreamTable {
    inner: Arc<Mutex<Table>>,
}

#[derive(Default)]
struct Table {
    next_id: u32,
    streams: HashMap<u32, Entry>,
}

struct Entry {
    remote: u32,
    input: mpsc::Sender<Vec<u8>>,
    acks: Arc<Semaphore>,
}

/// What happened to a WRTE from the host.
#[derive(Debug, PartialEq, Eq)]
pub enum Delivery {
    Delivered,
    /// No such stream (already closed): ignore it.
    Unknown,
    /// The host sent more than its window allows.
    Overflow,
}

impl StreamTable {
    fn lock(&self) -> std::sync::MutexGuard<'_, Table> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Registers a stream opened by the host (`remote` is its id) and returns the service's
    /// reader and writer.
    pub fn open(
        &self,
        remote: u32,
        outbox: Outbox,
        max_payload: usize,
    ) -> (StreamReader, StreamWriter) {
        let (tx, rx) = mpsc::channel(INPUT_QUEUE);
        let acks = Arc::new(Semaphore::new(1));
        let mut table = self.lock();
        table.next_id = table.next_id.wrapping_add(1).max(1);
        while table.streams.contains_key(&table.next_id) {
            table.next_id = table.next_id.wrapping_add(1).max(1);
        }
        let local = table.next_id;
        table.streams.insert(
            local,
            Entry {
                remote,
                input: tx,
                acks: acks.clone(),
            },
        );
        let reader = StreamReader {
            local,
            remote,
            rx,
            outbox: outbox.clone(),
        };
        let writer = StreamWriter {
            local,
            remote,
            acks,
            outbox,
            table: self.clone(),
            max_payload: max_payload.max(1),
        };
        (reader, writer)
    }

    /// A WRTE from the host for stream `local`.
    pub(crate) fn deliver(&self, local: u32, data: Vec<u8>) -> Delivery {
        let table = self.lock();
        let Some(entry) = table.streams.get(&local) else {
            return Delivery::Unknown;
        };
        match entry.input.try_send(data) {
            Ok(()) => Delivery::Delivered,
            Err(mpsc::error::TrySendError::Full(_)) => Delivery::Overflow,
            // The service stopped reading; the data has nowhere to go.
            Err(mpsc::error::TrySendError::Closed(_)) => Delivery::Delivered,
        }
    }

    /// An OKAY from the host: stream `local` may send its next WRTE.
    pub fn acknowledge(&self, local: u32) {
        if let Some(entry) = self.lock().streams.get(&local)
            && entry.acks.available_permits() == 0
        {
            entry.acks.add_permits(1);
        }
    }

    /// A CLSE from the host, or the connection going away: the service sees end of input and
    /// its writes fail.
    pub fn remove(&self, local: u32) -> Option<u32> {
        let entry = self.lock().streams.remove(&local)?;
        entry.acks.close();
        Some(entry.remote)
    }

    /// Closes every stream (connection reset or lost).
    pub fn clear(&self) {
        let entries: Vec<Entry> = self.lock().streams.drain().map(|(_, e)| e).collect();
        for e in entries {
            e.acks.close();
        }
    }
}

/// The host-to-device half of a stream.
pub struct StreamReader {
    local: u32,
    remote: u32,
    rx: mpsc::Receiver<Vec<u8>>,
    outbox: Outbox,
}

impl StreamReader {
    /// The next chunk the host wrote (acknowledged with OKAY), or `None` once the stream closed.
    pub async fn recv(&mut self) -> Option<Vec<u8>> {
        let data = self.rx.recv().await?;
        let _ = self
            .outbox
            .send(Packet::new(Command::Okay, self.local, self.remote, vec![]))
            .await;
        Some(data)
    }

    /// Reads and discards everything until the stream closes (for services without stdin).
    pub(crate) fn drain(mut self) {
        tokio::spawn(async move { while self.recv().await.is_some() {} });
    }
}

/// The stream is closed: the host closed it or the connection went away.
#[derive(Debug, thiserror::Error)]
#[error("stream closed")]
pub struct Closed;

/// The device-to-host half of a stream.
pub struct StreamWriter {
    local: u32,
    remote: u32,
    acks: Arc<Semaphore>,
    outbox: Outbox,
    table: StreamTable,
    max_payload: usize,
}

impl StreamWriter {
    /// The device-side id of this stream.
    pub fn local(&self) -> u32 {
        self.local
    }

    /// Sends `data` as WRTEs of at most the negotiated payload size, each after the previous
    /// one was acknowledged.
    pub async fn write(&mut self, data: &[u8]) -> Result<(), Closed> {
        for chunk in data.chunks(self.max_payload) {
            self.acks.acquire().await.map_err(|_| Closed)?.forget();
            self.outbox
                .send(Packet::new(
                    Command::Wrte,
                    self.local,
                    self.remote,
                    chunk.to_vec(),
                ))
                .await
                .map_err(|_| Closed)?;
        }
        Ok(())
    }

    /// Closes the stream from the device side (CLSE), unless the host already did.
    pub async fn close(self) {
        if let Some(remote) = self.table.remove(self.local) {
            let _ = self
                .outbox
                .send(Packet::new(Command::Clse, self.local, remote, vec![]))
                .await;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn one_write_in_flight_until_okay() {
        let table = StreamTable::default();
        let (tx, mut rx) = mpsc::channel(16);
        let (_reader, mut writer) = table.open(42, tx, 4);
        let local = writer.local;
        let task = tokio::spawn(async move {
            writer.write(b"abcdefghij").await.unwrap();
            writer.close().await;
        });
        let first = rx.recv().await.unwrap();
        assert_eq!(
            (first.command, first.arg1, first.payload.as_slice()),
            (Command::Wrte, 42, &b"abcd"[..])
        );
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        assert!(rx.try_recv().is_err(), "second WRTE sent before OKAY");
        table.acknowledge(local);
        assert_eq!(rx.recv().await.unwrap().payload, b"efgh");
        table.acknowledge(local);
        assert_eq!(rx.recv().await.unwrap().payload, b"ij");
        table.acknowledge(local);
        let close = rx.recv().await.unwrap();
        assert_eq!(
            (close.command, close.arg0, close.arg1),
            (Command::Clse, local, 42)
        );
        task.await.unwrap();
        assert!(table.lock().streams.is_empty());
    }

    #[tokio::test]
    async fn input_is_acknowledged_and_overflow_detected() {
        let table = StreamTable::default();
        let (tx, mut rx) = mpsc::channel(16);
        let (mut reader, writer) = table.open(5, tx, 1024);
        assert_eq!(
            table.deliver(writer.local, b"x".to_vec()),
            Delivery::Delivered
        );
        assert_eq!(reader.recv().await.unwrap(), b"x");
        let okay = rx.recv().await.unwrap();
        assert_eq!(
            (okay.command, okay.arg0, okay.arg1),
            (Command::Okay, writer.local, 5)
        );
        for _ in 0..INPUT_QUEUE {
            assert_eq!(table.deliver(writer.local, vec![1]), Delivery::Delivered);
        }
        assert_eq!(table.deliver(writer.local, vec![1]), Delivery::Overflow);
        assert_eq!(table.deliver(999, vec![1]), Delivery::Unknown);
        // Host closes: reads end after the queue, writes fail.
        table.remove(writer.local);
        let mut writer = writer;
        assert!(writer.write(b"late").await.is_err());
        assert!(reader.recv().await.is_some(), "queued input is still read");
    }
}
