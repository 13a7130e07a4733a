//! What a performance performs: a [`Search`] (the level's givens, the search's events, the
//! solution they end in), and one event applied to a board ([`apply`]).

use crate::board::Board;
use crate::solver::Event;

/// A search to perform: the level's givens, its events in order, and the solution they end in.
#[derive(Debug, Clone, Copy)]
pub struct Search<'a> {
    pub givens: Board,
    pub events: &'a [Event],
    pub solution: Board,
}

/// One search event on `board`: a placement writes its digit, an undo empties its cell.
pub(crate) fn apply(board: &mut Board, ev: Event) {
    match ev {
        Event::Place { cell, digit } => board.set(cell as usize, digit),
        Event::Undo { cell, .. } => board.set(cell as usize, 0),
    }
}
