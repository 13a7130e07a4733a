//! The device side of the ADB transport protocol over TCP: packets ([`sudoku_autoplay::adb_packet`]), the byte
//! stream to packets layer (`connection`), per-connection handshake/auth/stream routing
//! (`session`), streams with flow control (`stream`) and the services run on them
//! ([`service`], [`shell_protocol`]; `screenrecord`, recording on the stream that asked).

pub mod auth;
pub(crate) mod connection;
pub mod pty;
mod screenrecord;
pub mod service;
pub(crate) mod session;
pub mod shell_protocol;
pub(crate) mod stream;
pub(crate) mod sync;
