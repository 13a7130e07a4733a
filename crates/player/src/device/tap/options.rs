//! A [`Tapper`](super::Tapper)'s settings: batching, the window, pacing, and how long a
//! channel may take.

use std::time::Duration;

/// Settings of a [`Tapper`](super::Tapper).
#[derive(Debug, Clone)]
pub struct TapperOptions {
    /// Minimum time between two taps (0: as fast as the device takes them).
    pub pace: Duration,
    /// Whether `pace` holds as the phone gets the taps: each tap goes out only once the one
    /// before it is proven in the phone's input, `pace` after that proof (a round trip per tap;
    /// for apps that read taps against their last drawn frame). Otherwise taps go out `pace`
    /// apart and a busy phone may read several at once.
    pub pace_on_phone: bool,
    /// Taps written per batch when not pacing.
    pub batch: usize,
    /// Most taps sent but not yet proven carried out.
    pub window: usize,
    /// How long one batch may take before the channel is considered stuck.
    pub ack_timeout: Duration,
    /// `raw`: how long a tap stays down before it is lifted (0: both in one write).
    pub hold: Duration,
}

impl Default for TapperOptions {
    fn default() -> Self {
        TapperOptions {
            pace: Duration::ZERO,
            pace_on_phone: false,
            batch: 8,
            window: 32,
            ack_timeout: Duration::from_secs(30),
            hold: Duration::ZERO,
        }
    }
}
