//! What the table's channels are asked and what they answer: the phone as the choice and doctor
//! see it ([`Phone`]: the touch panels' survey and `input keyevent 0`'s answer, each asked once
//! and shared by the channels), whether the answer is for tapping or for a report ([`Asking`]),
//! and a channel's [`Verdict`]: possible, not possible and why, or refused by the phone.

use super::kind::Channel;
use super::panel::{PanelSurvey, TouchPanel};
use crate::device::android::{Key, KeyPress};
use crate::device::refusal::Refusal;
use crate::device::{Device, DeviceError};

/// What a verdict is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Asking {
    /// To tap now (the choice): the channel may be readied on the phone (the injector pushed, a
    /// dark screen woken for its check), and a possible channel says what it is, for the user.
    ToTap,
    /// To report (doctor): nothing on the phone changes, and a possible channel says what
    /// showed it.
    ToReport,
}

/// One channel's verdict on a phone.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Verdict {
    /// It works: the channel, its `why` what it is ([`Asking::ToTap`], without the channel's
    /// name) or what showed it ([`Asking::ToReport`]).
    Possible(Channel),
    /// It cannot work here.
    NotPossible(Unfit),
    /// The phone refuses injected input: no channel can tap.
    Refused(Refusal),
}

/// Why a channel cannot work here, and how the channel chosen instead says so.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Unfit {
    pub(crate) why: String,
    pub(crate) told: Told,
}

/// How the channel chosen instead of an unfit one tells it, in its `why`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Told {
    /// Not at all (a channel not tried).
    Not,
    /// As these words after its own (" (raw is not possible on Android 14: ...)").
    Aside(String),
    /// As its reason: "..., because WHY".
    Because,
}

impl Verdict {
    /// Not possible, for this reason, told so.
    pub(crate) fn not_possible(why: impl Into<String>, told: Told) -> Verdict {
        Verdict::NotPossible(Unfit {
            why: why.into(),
            told,
        })
    }
}

/// The phone, as the channels' verdicts share it: each question asked once.
pub(crate) struct Phone<'a> {
    pub(crate) device: &'a Device,
    survey: Option<PanelSurvey>,
    key: Option<KeyPress>,
}

impl<'a> Phone<'a> {
    /// The phone behind `device`; `survey`, its touch panels where they are known already.
    pub(crate) fn new(device: &'a Device, survey: Option<PanelSurvey>) -> Self {
        Phone {
            device,
            survey,
            key: None,
        }
    }

    /// The touch panels (`getevent -p`, `dumpsys input`), surveyed at the first question.
    pub(crate) fn survey(&mut self) -> Result<&PanelSurvey, DeviceError> {
        let survey = match self.survey.take() {
            Some(survey) => survey,
            None => {
                let survey = PanelSurvey::of(self.device)?;
                if let Some((_, why)) = &survey.chosen {
                    tracing::debug!(%why, "touch panel");
                }
                survey
            }
        };
        Ok(self.survey.insert(survey))
    }

    /// The touch panel that can be written, if any.
    pub(crate) fn panel(&mut self) -> Result<Option<TouchPanel>, DeviceError> {
        Ok(self.survey()?.panel())
    }

    /// Why no panel can be written: none listed, or the chosen one's axes unknown.
    pub(crate) fn no_panel(&mut self) -> Result<String, DeviceError> {
        Ok(match self.survey()?.node() {
            Some(n) => format!("the axes of the touch panel {} are not known", n.device),
            None => "`getevent -p` lists no multitouch panel".to_string(),
        })
    }

    /// What `input keyevent 0` did (a `KEYCODE_UNKNOWN` key, which no app takes), pressed at
    /// the first question: `input` waits for the dispatcher's verdict, so a refusing phone
    /// prints its `SecurityException` on every version (Android 10-12 at dispatch, 13+ before
    /// queueing; `tests/data/android/input-errors/`).
    pub(crate) fn key(&mut self) -> Result<&KeyPress, DeviceError> {
        let key = match self.key.take() {
            Some(key) => key,
            None => self.device.press(Key::Unknown)?,
        };
        Ok(self.key.insert(key))
    }
}
