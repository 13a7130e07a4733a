//! One host connection: CNXN handshake, optional AUTH, then streams.

use super::auth::{self, KeyStore, TOKEN_LEN};
use super::connection::{PacketReader, PacketWriter, ReadError};
use super::service::{self, Context, Service};
use super::stream::{Delivery, StreamTable};
use crate::shell::Device;
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
    pub device: Arc<Device>,
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
    let (outbox, mut rx) = mpsc::channel::<Packet>(256);
    let mut writer_task = tokio::spawn(async move {
        let mut writer = PacketWriter::new(write);
        while let Some(p) = rx.recv().await {
            writer.write_packet(&p).await?;
            while let Ok(p) = rx.try_recv() {
                writer.write_packet(&p).await?;
            }
            writer.flush().await?;
        }
        Ok::<(), std::io::Error>(())
    });
    let streams = StreamTable::default();
    let hangup = Arc::new(Notify::new());
    let mut state = State::Offline;
    let mut max_payload = MAX_PAYLOAD;
    let mut host_version = VERSION;
    loop {
        let packet = tokio::select! {
            p = reader.read_packet(MAX_PAYLOAD) => p,
            _ = hangup.notified() => break,
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
        let send = |p: Packet| {
            let outbox = outbox.clone();
            async move { outbox.send(p).await.is_ok() }
        };
        match (packet.command, &state) {
            (Command::Cnxn, _) => {
                // A (re)connect resets every stream.
                streams.clear();
                max_payload = packet.arg1.clamp(MIN_PAYLOAD, MAX_PAYLOAD);
                host_version = packet.arg0;
                match &shared.keys {
                    Some(_) => {
                        let token = auth::new_token();
                        state = State::Authorizing(token);
                        send(Packet::new(Command::Auth, AUTH_TOKEN, 0, token.to_vec())).await;
                    }
                    None => {
                        state = State::Online;
                        send(cnxn(&shared.device, host_version, max_payload)).await;
                    }
                }
            }
            (Command::Auth, State::Authorizing(token)) => {
                let Some(keys) = &shared.keys else { continue };
                let trusted = match packet.arg0 {
                    AUTH_SIGNATURE => lock(keys).verify(token, &packet.payload),
                    AUTH_RSAPUBLICKEY => lock(keys).offer(&packet.payload),
                    _ => false,
                };
                if trusted {
                    state = State::Online;
                    send(cnxn(&shared.device, host_version, max_payload)).await;
                } else if packet.arg0 == AUTH_SIGNATURE {
                    // Like adbd: a new token for the host's next key.
                    let token = auth::new_token();
                    state = State::Authorizing(token);
                    send(Packet::new(Command::Auth, AUTH_TOKEN, 0, token.to_vec())).await;
                }
            }
            (Command::Open, State::Online) => {
                let remote = packet.arg0;
                match Service::parse(&packet.payload) {
                    Some(svc) if remote != 0 => {
                        let (reader, writer) =
                            streams.open(remote, outbox.clone(), max_payload as usize);
                        let local = writer.local();
                        send(Packet::new(Command::Okay, local, remote, vec![])).await;
                        let ctx = Context {
                            device: shared.device.clone(),
                            hangup: hangup.clone(),
                        };
                        tokio::spawn(service::run(svc, ctx, reader, writer));
                    }
                    _ => {
                        send(Packet::new(Command::Clse, 0, remote, vec![])).await;
                    }
                }
            }
            (Command::Okay, State::Online) => streams.acknowledge(packet.arg1),
            (Command::Wrte, State::Online) => {
                let delivery = streams.deliver(packet.arg1, packet.payload);
                if delivery == Delivery::Overflow {
                    tracing::warn!("sim: dropping connection: host ignored flow control");
                    break;
                }
            }
            (Command::Clse, State::Online) => {
                streams.remove(packet.arg1);
            }
            // Anything else (before authorization, STLS, SYNC) is ignored, as adbd does.
            _ => {}
        }
    }
    streams.clear();
    writer_task.abort();
}

fn lock(keys: &Mutex<KeyStore>) -> std::sync::MutexGuard<'_, KeyStore> {
    keys.lock().unwrap_or_else(|e| e.into_inner())
}

/// The device's CNXN: negotiated version and payload size, and the banner.
fn cnxn(device: &Device, host_version: u32, max_payload: u32) -> Packet {
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
