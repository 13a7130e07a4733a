//! One host connection: CNXN handshake, optional AUTH, then streams.

use super::auth::{self, KeyStore, TOKEN_LEN};
use super::connection::{PacketReader, PacketWriter, ReadError};
use super::service::{self, Context, Service};
use super::stream::{Delivery, StreamTable};
use crate::shell::Handset;
use std::sync::{Arc, Mutex};
use sudoku_autoplay::adb_packet::{
    AUTH_RSAPUBLICKEY, AUTH_SIGNATURE, AUTH_TOKEN, Command, MAX_PAYLOAD, Packet, VERSION,
};
use tokio::net::TcpStream;
use tokio::sync::{Notify, mpsc};

/// Smallest payload size we agree to, whatever the host says.
const MIN_PAYLOAD: u32 = 4096;

/// What every connection shares.
pub struct Shared {
    pub device: Arc<Handset>,
    /// Trusted keys when `--auth` is on.
    pub keys: Option<Mutex<KeyStore>>,
    /// TCP connections accepted so far.
    pub connections: std::sync::atomic::AtomicU64,
}

enum State {
    /// Waiting for the host's CNXN.
    Offline,
    /// AUTH TOKEN sent; waiting for a signature or a public key.
    Authorizing([u8; TOKEN_LEN]),
    Online,
}

/// Serves one TCP connection until the host goes away, breaks the protocol, or
/// `--disconnect-after` drops it.
pub async fn serve(socket: TcpStream, shared: Arc<Shared>) {
    let _ = socket.set_nodelay(true);
    let (read, write) = socket.into_split();
    let mut reader = PacketReader::new(read);
    let (outbox, rx) = mpsc::channel::<Packet>(256);
    let mut writer_task = tokio::spawn(write_packets(write, rx));
    let mut session = Session {
        shared,
        outbox,
        streams: StreamTable::default(),
        hangup: Arc::new(Notify::new()),
        state: State::Offline,
        max_payload: MAX_PAYLOAD,
        host_version: VERSION,
    };
    loop {
        let packet = tokio::select! {
            p = reader.read_packet(MAX_PAYLOAD) => p,
            _ = session.hangup.notified() => break,
            _ = &mut writer_task => break,
        };
        let packet = match packet {
            Ok(p) => p,
            Err(ReadError::Closed) => break,
            Err(e) => {
                tracing::warn!("sim: dropping connection: {e}");
                break;
            }
        };
        if !session.handle(packet).await {
            break;
        }
    }
    session.streams.clear();
    writer_task.abort();
}

/// Writes the packets queued for the host, flushing when the queue runs empty.
async fn write_packets(
    write: tokio::net::tcp::OwnedWriteHalf,
    mut rx: mpsc::Receiver<Packet>,
) -> std::io::Result<()> {
    let mut writer = PacketWriter::new(write);
    while let Some(p) = rx.recv().await {
        writer.write_packet(&p).await?;
        while let Ok(p) = rx.try_recv() {
            writer.write_packet(&p).await?;
        }
        writer.flush().await?;
    }
    Ok(())
}

/// One connection's state.
struct Session {
    shared: Arc<Shared>,
    outbox: mpsc::Sender<Packet>,
    streams: StreamTable,
    hangup: Arc<Notify>,
    state: State,
    max_payload: u32,
    host_version: u32,
}

impl Session {
    async fn send(&self, p: Packet) -> bool {
        self.outbox.send(p).await.is_ok()
    }

    /// Handles one packet from the host; false when the connection must be dropped.
    async fn handle(&mut self, packet: Packet) -> bool {
        match (packet.command, &self.state) {
            (Command::Cnxn, _) => self.connect(&packet).await,
            (Command::Auth, State::Authorizing(token)) => {
                let token = *token;
                self.authorize(token, &packet).await;
            }
            (Command::Open, State::Online) => self.open(&packet).await,
            (Command::Okay, State::Online) => self.streams.acknowledge(packet.arg1),
            (Command::Wrte, State::Online) => {
                let delivery = self.streams.deliver(packet.arg1, packet.payload);
                if delivery == Delivery::Overflow {
                    tracing::warn!("sim: dropping connection: host ignored flow control");
                    return false;
                }
            }
            (Command::Clse, State::Online) => {
                self.streams.remove(packet.arg1);
            }
            // Anything else (before authorization, STLS, SYNC) is ignored, as adbd does.
            _ => {}
        }
        true
    }

    /// CNXN: a (re)connect resets every stream, then AUTH or the device's CNXN.
    async fn connect(&mut self, packet: &Packet) {
        self.streams.clear();
        self.max_payload = packet.arg1.clamp(MIN_PAYLOAD, MAX_PAYLOAD);
        self.host_version = packet.arg0;
        if self.shared.keys.is_some() {
            self.ask_for_key().await;
        } else {
            self.go_online().await;
        }
    }

    /// A new AUTH token for the host to sign.
    async fn ask_for_key(&mut self) {
        let token = auth::new_token();
        self.state = State::Authorizing(token);
        self.send(Packet::new(Command::Auth, AUTH_TOKEN, 0, token.to_vec()))
            .await;
    }

    async fn go_online(&mut self) {
        self.state = State::Online;
        let p = cnxn(&self.shared.device, self.host_version, self.max_payload);
        self.send(p).await;
    }

    /// AUTH: a signature of `token` by a trusted key, or a public key the user may accept.
    async fn authorize(&mut self, token: [u8; TOKEN_LEN], packet: &Packet) {
        let Some(keys) = &self.shared.keys else {
            return;
        };
        let trusted = match packet.arg0 {
            AUTH_SIGNATURE => lock(keys).verify(&token, &packet.payload),
            AUTH_RSAPUBLICKEY => lock(keys).offer(&packet.payload),
            _ => false,
        };
        if trusted {
            self.go_online().await;
        } else if packet.arg0 == AUTH_SIGNATURE {
            // Like adbd: a new token for the host's next key.
            self.ask_for_key().await;
        }
    }

    /// OPEN: a service on a new stream, or CLSE for one the phone does not offer.
    async fn open(&mut self, packet: &Packet) {
        let remote = packet.arg0;
        match Service::parse(&packet.payload) {
            Some(svc) if remote != 0 => {
                let (reader, writer) =
                    self.streams
                        .open(remote, self.outbox.clone(), self.max_payload as usize);
                let local = writer.local();
                self.send(Packet::new(Command::Okay, local, remote, vec![]))
                    .await;
                let ctx = Context {
                    device: self.shared.device.clone(),
                    hangup: self.hangup.clone(),
                };
                tokio::spawn(service::run(svc, ctx, reader, writer));
            }
            _ => {
                self.send(Packet::new(Command::Clse, 0, remote, vec![]))
                    .await;
            }
        }
    }
}

fn lock(keys: &Mutex<KeyStore>) -> std::sync::MutexGuard<'_, KeyStore> {
    keys.lock().unwrap_or_else(|e| e.into_inner())
}

/// The device's CNXN: negotiated version and payload size, and the banner.
fn cnxn(device: &Handset, host_version: u32, max_payload: u32) -> Packet {
    let p = device.profile();
    let banner = format!(
        "device::ro.product.name={};ro.product.model={};ro.product.device={};features=shell_v2,cmd",
        p.product, p.model, p.device
    );
    Packet::new(
        Command::Cnxn,
        host_version.min(VERSION),
        max_payload,
        banner.into_bytes(),
    )
}
