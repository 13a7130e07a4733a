//! What the app forbids, found before the first tap: a search the app will not let be shown, from the
//! app's input rules (the calibration's `[input]`, as calibrate probed them) and its mistake
//! counter: digits the search takes back where the app keeps right digits (locked) or has no way
//! to take one back, or more wrong digits than its mistake limit allows. What the app forbids
//! is a [`Forbidden`], with what the person can do.

use crate::board::Board;
use crate::calibration::{InputSection, RuleKey, TakeBack};
use crate::remedy::Remedy;
use crate::solver::{Event, Strategy};
use std::fmt;

/// Why the app will not let a search be shown.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Forbidden {
    /// The app keeps right digits (erase and the digit again left the probe's right digit in
    /// place, and no undo key took it back), and the search takes a digit back at `step`.
    #[error(
        "the app keeps right digits (erase and the digit again left the probe's right digit in \
         place, and no undo key took it back), and the {strategy} search takes a digit back at \
         step {step}"
    )]
    Locked { strategy: Strategy, step: usize },
    /// The app gives no way to take a digit back (`erase`: what the probe saw of its erase key),
    /// and the search takes one back at `step`.
    #[error(
        "the app gives no way to take a digit back ([input] take_back = \"none\": {erase}), and \
         the {strategy} search takes one back at step {step}"
    )]
    NoTakeBack {
        strategy: Strategy,
        step: usize,
        erase: String,
    },
    /// The app ends the game after `limit` mistakes (seen as `seen` says), and the search writes
    /// `wrong` wrong digits, the first at step `first`; the steps before the one that would end
    /// the game: `fits` (0: none).
    #[error(
        "the app ends the game after {} ({seen}), and the {strategy} search writes {} before it \
         solves the level (the first at step {first}): the game would end before the level is \
         solved. Turn the app's mistake limit off in its settings",
        plural(*limit as usize, "mistake"),
        plural(*wrong, "wrong digit")
    )]
    MistakeLimit {
        strategy: Strategy,
        limit: u32,
        seen: Counter,
        wrong: usize,
        first: usize,
        fits: usize,
    },
}

/// Where the mistake counter was seen.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Counter {
    /// On the screen now, in these words (mistakes made already count).
    Screen(String),
    /// By calibrate, on the phone.
    Calibration,
}

impl fmt::Display for Counter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Counter::Screen(text) => write!(f, "its screen shows {text:?}"),
            Counter::Calibration => f.write_str("calibrate saw its mistake counter"),
        }
    }
}

impl Forbidden {
    /// What to play instead: the search that writes only right digits and takes none back, or
    /// only the first steps (as many as fit before the game would end).
    pub fn remedies(&self) -> Vec<Remedy> {
        match self {
            Forbidden::Locked { .. } | Forbidden::NoTakeBack { .. } => {
                vec![Remedy::RightDigitsOnly, Remedy::FirstSteps(None)]
            }
            Forbidden::MistakeLimit { fits: 0, .. } => vec![Remedy::RightDigitsOnly],
            &Forbidden::MistakeLimit { fits, .. } => {
                vec![Remedy::RightDigitsOnly, Remedy::FirstSteps(Some(fits))]
            }
        }
    }
}

fn plural(n: usize, what: &str) -> String {
    format!("{n} {what}{}", if n == 1 { "" } else { "s" })
}

/// What the app forbids of the `shown` events (the ones that become taps) of a `strategy`
/// search that ends in `solution`, by its input rules and its mistake counter (`counter` reads
/// the one on the screen now, as (mistakes made, limit, its words), where there are wrong
/// digits to count); `None` where it allows them.
pub fn forbidden(
    input: &InputSection,
    shown: &[Event],
    solution: &Board,
    strategy: Strategy,
    counter: &mut dyn FnMut() -> Option<(u32, u32, String)>,
) -> Option<Forbidden> {
    taking_back(input, shown, solution, strategy)
        .or_else(|| over_the_limit(input, shown, solution, strategy, counter))
}

/// A digit taken back where nothing takes one back.
fn taking_back(
    input: &InputSection,
    shown: &[Event],
    solution: &Board,
    strategy: Strategy,
) -> Option<Forbidden> {
    let undo_of_right = shown.iter().position(
        |e| matches!(*e, Event::Undo { cell, digit } if solution.get(cell as usize) == digit),
    );
    let first_undo = shown.iter().position(|e| matches!(e, Event::Undo { .. }));
    let undo_key = input.take_back == Some(TakeBack::Undo) && input.undo.is_some();
    let none = input.take_back == Some(TakeBack::None);
    if input.locked
        && !undo_key
        && let Some(i) = undo_of_right.or(first_undo.filter(|_| none))
    {
        return Some(Forbidden::Locked {
            strategy,
            step: i + 1,
        });
    }
    let i = first_undo.filter(|_| none)?;
    Some(Forbidden::NoTakeBack {
        strategy,
        step: i + 1,
        erase: input
            .seen
            .get(&RuleKey::Erase)
            .map_or("no erase key", String::as_str)
            .to_string(),
    })
}

/// More wrong digits than the mistakes left before the game ends.
fn over_the_limit(
    input: &InputSection,
    shown: &[Event],
    solution: &Board,
    strategy: Strategy,
    counter: &mut dyn FnMut() -> Option<(u32, u32, String)>,
) -> Option<Forbidden> {
    let wrong: Vec<usize> = shown
        .iter()
        .enumerate()
        .filter(|(_, e)| matches!(**e, Event::Place { cell, digit } if solution.get(cell as usize) != digit))
        .map(|(i, _)| i)
        .collect();
    let &first = wrong.first()?;
    // The counter on the screen now (mistakes made already count), else the calibration's.
    let (made, limit, seen) = match counter() {
        Some((m, n, text)) => (m, n, Counter::Screen(text)),
        None => (0, input.mistake_limit?, Counter::Calibration),
    };
    let left = limit.saturating_sub(made) as usize;
    if wrong.len() < left {
        return None;
    }
    Some(Forbidden::MistakeLimit {
        strategy,
        limit,
        seen,
        wrong: wrong.len(),
        first: first + 1,
        fits: wrong.get(left.saturating_sub(1)).copied().unwrap_or(0),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::calibration::InputMode;
    use crate::solver::{Options, Recorder, search};

    const LEET: &str =
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";

    fn events(strategy: Strategy) -> (Vec<Event>, Board) {
        let givens = Board::parse_line(LEET).unwrap();
        let mut rec = Recorder::default();
        let solution = match search(strategy, &givens, &Options::default(), &mut rec).outcome {
            crate::solver::Outcome::Solved(s) => s,
            other => panic!("{other:?}"),
        };
        (rec.0, solution)
    }

    #[test]
    fn locked_digits_refuse_a_search_that_takes_one_back() {
        let (events, solution) = events(Strategy::RowMajor);
        let mut input = InputSection::new(InputMode::CellFirst);
        input.locked = true;
        let r = forbidden(&input, &events, &solution, Strategy::RowMajor, &mut || None);
        assert!(matches!(r, Some(Forbidden::Locked { .. })), "{r:?}");
        assert_eq!(
            r.unwrap().remedies(),
            [Remedy::RightDigitsOnly, Remedy::FirstSteps(None)]
        );
        // An undo key takes them back.
        input.take_back = Some(TakeBack::Undo);
        input.undo = Some([1, 1]);
        assert_eq!(
            forbidden(&input, &events, &solution, Strategy::RowMajor, &mut || None),
            None
        );
        // fast takes nothing back.
        let (fast, _) = events_of_fast();
        input.take_back = Some(TakeBack::None);
        assert_eq!(
            forbidden(&input, &fast, &solution, Strategy::Fast, &mut || None),
            None
        );
    }

    fn events_of_fast() -> (Vec<Event>, Board) {
        events(Strategy::Fast)
    }

    #[test]
    fn a_mistake_limit_refuses_more_wrong_digits_and_says_how_many_steps_fit() {
        let (events, solution) = events(Strategy::RowMajor);
        let input = InputSection::new(InputMode::CellFirst);
        let mut asked = 0;
        let mut counter = || {
            asked += 1;
            Some((1, 3, "Mistakes: 1/3".to_string()))
        };
        let r = forbidden(&input, &events, &solution, Strategy::RowMajor, &mut counter);
        let Some(Forbidden::MistakeLimit {
            limit, fits, first, ..
        }) = &r
        else {
            panic!("{r:?}");
        };
        assert_eq!((*limit, asked), (3, 1));
        // Two mistakes left: the steps before the second wrong digit fit.
        assert!(*fits >= *first, "{r:?}");
        assert_eq!(
            r.as_ref().unwrap().remedies(),
            [Remedy::RightDigitsOnly, Remedy::FirstSteps(Some(*fits))]
        );
        let text = r.as_ref().unwrap().to_string();
        assert!(
            text.contains("its screen shows \"Mistakes: 1/3\""),
            "{text}"
        );
        // Without a counter: the calibration's limit, or nothing to refuse.
        assert_eq!(
            forbidden(&input, &events, &solution, Strategy::RowMajor, &mut || None),
            None
        );
        // fast writes no wrong digit: the counter is not even read.
        let (fast, solution) = events_of_fast();
        let mut read = false;
        let none = forbidden(&input, &fast, &solution, Strategy::Fast, &mut || {
            read = true;
            None
        });
        assert_eq!((none, read), (None, false));
    }
}
