//! The pure work of playing, against the phone's seam ([`target::Target`]), never the phone
//! itself (that is [`crate::phone`]): search events become taps (`setnum`), performed with
//! verification and repairs (`perform`: the engine, verification and repair, judging what a
//! screen means, the advice for a stall); `words` says what a screen's words mean for the game;
//! `plan` says what a performance will show and how long it takes; `forbidden` what the app
//! will not let a search show; `stop` types the reasons a run ends early. A whole level, from finding the calibration to the session on disk, is
//! [`crate::level`].

pub mod forbidden;
pub(crate) mod perform;
pub mod plan;
pub mod setnum;
pub mod stop;
pub mod target;
pub(crate) mod words;

pub(crate) use perform::perform;
pub use perform::{
    Completion, DeadlineCut, Ending, IncidentCounts, Journal, PerformError, PerformOptions,
    PerformReport, Progress, Rewritten, Search, StallHint, Stalled, WriteKind,
};
pub use setnum::{Cancel, Encoder, Guard, Layout, Selection};
pub use target::{Incident, IncidentKind, Point, Seen, Target};
