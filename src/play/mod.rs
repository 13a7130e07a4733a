//! Playing a level: search events become taps (`setnum`), replayed with verification (`replay`);
//! `run` is the whole flow of one level on a device.

pub mod plan;
pub mod replay;
pub mod run;
pub mod setnum;

pub use replay::{Journal, ReplayOptions, ReplayReport, Target, WriteKind, replay};
pub use setnum::{Cancel, Encoder, InputOrder, Layout, Point, Selection};
