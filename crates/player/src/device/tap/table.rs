//! The tap channels, fastest first: one row per channel, each saying whether it is possible on
//! a phone and why. The choice (`choose.rs`) takes the first possible row from the one asked
//! for; doctor lists every row's verdict. Adding a channel is adding a file that implements
//! [`TapChannel`] and its row here.
//!
//! - `raw` (`raw.rs`): binary records streamed into the touch panel by one `dd`: the app's own
//!   UI time is the only cost per tap.
//! - `inject` (`inject.rs`): binary records to one long-lived `app_process` injector that
//!   calls `injectInputEvent` asynchronously: one binder call per event.
//! - `events` (`events.rs`): `sendevent` lines: nine native processes per tap.
//! - `input` (`input.rs`): `input tap` lines: a Java start-up per tap up to Android 11, a `cmd
//!   input` call waiting for the app from 12; it works on every phone that lets the shell
//!   inject.

use super::channel::TapChannel;
use super::events::Events;
use super::inject::Inject;
use super::input::Input;
use super::kind::{Channel, ChannelKind};
use super::options::TapperOptions;
use super::raw::Raw;
use super::verdict::{Asking, Phone, Verdict};
use crate::device::{Device, DeviceError};

/// Opens a channel.
type Open =
    fn(&Device, &Channel, &TapperOptions, (u32, u32)) -> Result<Box<dyn TapChannel>, DeviceError>;

/// One channel of the table.
pub(super) struct Row {
    pub(super) kind: ChannelKind,
    /// Whether it is possible on a phone, and why.
    pub(super) possible: fn(&mut Phone<'_>, Asking) -> Result<Verdict, DeviceError>,
    pub(super) open: Open,
}

/// The channels, fastest first.
pub(super) fn rows() -> [Row; 4] {
    [
        row::<Raw>(),
        row::<Inject>(),
        row::<Events>(),
        row::<Input>(),
    ]
}

/// The row of channel `kind` (every kind has one: a test checks).
pub(super) fn row_of(kind: ChannelKind) -> Option<Row> {
    rows().into_iter().find(|r| r.kind == kind)
}

fn row<C: TapChannel + 'static>() -> Row {
    Row {
        kind: C::kind(),
        possible: C::possible,
        open: open::<C>,
    }
}

fn open<C: TapChannel + 'static>(
    device: &Device,
    chosen: &Channel,
    options: &TapperOptions,
    screen: (u32, u32),
) -> Result<Box<dyn TapChannel>, DeviceError> {
    Ok(Box::new(C::open(device, chosen, options, screen)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_has_its_row_once() {
        let kinds = rows().map(|r| r.kind);
        for kind in [
            ChannelKind::Input,
            ChannelKind::Events,
            ChannelKind::Raw,
            ChannelKind::Inject,
        ] {
            assert_eq!(kinds.iter().filter(|k| **k == kind).count(), 1, "{kind}");
            assert_eq!(row_of(kind).map(|r| r.kind), Some(kind));
        }
    }
}
