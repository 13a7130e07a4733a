//! The simulated phone: an Android device running a Sudoku app, reachable over the real ADB
//! transport protocol (so the real `adb` server can `adb connect` to it).
//!
//! Layout (like tokio's mini-redis): `adb` turns bytes into packets and streams, `shell` runs the
//! commands a host sends, and `app` is the phone's state and screen, independent of the protocol.
//! The sim shares nothing with the player but public types such as [`crate::board::Board`].

pub mod app;
pub mod profile;
