//! Playing a level: search events become taps (`setnum`), replayed with verification (`replay`).

pub mod replay;
pub mod setnum;

pub use replay::{Journal, ReplayOptions, ReplayReport, Target, WriteKind, replay};
pub use setnum::{Cancel, Encoder, InputOrder, Layout, Point, Selection};
