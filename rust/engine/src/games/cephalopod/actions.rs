//! Cephalopod in step form (docs/actions.md): action `square * 16 + captured`, where `captured`
//! has one bit per neighbour direction whose die the placement captures (bit 0 north, 1 east,
//! 2 south, 3 west); 0 for a placement that captures nothing.

use super::{Cephalopod, Move};
use crate::error::{Error, Result};
use crate::game::Position;
use crate::square::{GridMap, Rect};
use crate::steps::{one_move_per_action, planes, Steps, Symmetry};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CephalopodActions {
    position: Cephalopod,
}

/// For each compass bit (north, east, south, west), the engine's neighbour slot (its slots are
/// in board order: up, left, right, down).
const SLOT_OF_COMPASS: [usize; 4] = [0, 2, 3, 1];
const COMPASS_NAMES: [&str; 4] = ["north", "east", "south", "west"];
const COMPASS_LETTERS: [char; 4] = ['N', 'E', 'S', 'W'];
/// Each compass bit's step (rows down, columns right).
const COMPASS_STEPS: [(i8, i8); 4] = [(-1, 0), (0, 1), (1, 0), (0, -1)];
// The observation planes: the mover's dice showing 1-6, the opponent's, empty squares.
planes! {
    MINE = ["mover_1", "mover_2", "mover_3", "mover_4", "mover_5", "mover_6"],
    THEIRS = ["opponent_1", "opponent_2", "opponent_3", "opponent_4", "opponent_5", "opponent_6"],
    EMPTY = "empty",
}

/// The compass bits of `captured` as `map` turns them.
fn map_compass(map: GridMap, captured: u8) -> usize {
    (0..4).filter(|d| captured >> d & 1 == 1).fold(0, |mask, d| {
        // Always found: a map sends a step to a neighbour to another such step.
        let image = COMPASS_STEPS.iter().position(|&step| step == map.apply_step(COMPASS_STEPS[d])).unwrap_or(d);
        mask | 1 << image
    })
}

/// The compass bits of `captured` that point off the board from `square`.
fn off_board(rect: &Rect, square: u8, captured: u8) -> impl Iterator<Item = usize> + '_ {
    let around = rect.neighbours[square as usize];
    (0..4).filter(move |&d| captured >> d & 1 == 1 && around[SLOT_OF_COMPASS[d]] == Rect::NONE)
}

impl CephalopodActions {
    /// (square, compass mask) of an action.
    fn split(action: usize) -> (u8, u8) {
        ((action / 16) as u8, (action % 16) as u8)
    }

    fn move_of(&self, action: usize) -> Move {
        let (square, captured) = Self::split(action);
        let capture = (0..4).filter(|d| captured >> d & 1 == 1).fold(0, |mask, d| mask | 1 << SLOT_OF_COMPASS[d]);
        Move { square, capture }
    }

    fn action_of(&self, mv: Move) -> usize {
        let captured = (0..4).filter(|&d| mv.capture >> SLOT_OF_COMPASS[d] & 1 == 1).fold(0, |mask, d| mask | 1 << d);
        mv.square as usize * 16 + captured
    }

    /// A capture towards the edge maps to no move the position could judge: name its direction.
    fn refuse_edge_capture(&self, action: usize) -> Result<()> {
        let rect = self.position.rect();
        let (square, captured) = Self::split(action);
        if let Some(d) = off_board(rect, square, captured).next() {
            return Err(Error::illegal(format!("{} has no neighbour to the {}", rect.name(square), COMPASS_NAMES[d])));
        }
        Ok(())
    }
}

impl Steps for CephalopodActions {
    type Position = Cephalopod;
    const PLANES: &'static [&'static str] = PLANES;

    fn from_position(position: Cephalopod) -> Self {
        CephalopodActions { position }
    }

    fn num_actions(&self) -> usize {
        self.position.rect().len() * 16
    }

    fn observation_shape(&self) -> [usize; 3] {
        let rect = self.position.rect();
        [PLANES.len(), rect.rows as usize, rect.cols as usize]
    }

    one_move_per_action!(refuse_edge_capture);

    fn observe_into(&self, out: &mut [f32]) {
        out.fill(0.0);
        let squares = self.position.rect().len();
        let mover = self.position.to_move();
        for square in 0..squares {
            let plane = match self.position.die(square as u8) {
                None => EMPTY,
                Some((owner, pips)) => pips as usize - 1 + if owner == mover { MINE } else { THEIRS },
            };
            out[plane * squares + square] = 1.0;
        }
    }

    /// The move's notation (`c3`, `c3xb3,c2`); an action capturing towards the edge (never
    /// legal) names its directions by compass letter instead (`a1xNW`).
    fn action_name(&self, action: usize) -> String {
        let rect = self.position.rect();
        let (square, captured) = Self::split(action);
        if off_board(rect, square, captured).next().is_none() {
            return self.position.format_move(self.move_of(action));
        }
        let letters: String = (0..4).filter(|d| captured >> d & 1 == 1).map(|d| COMPASS_LETTERS[d]).collect();
        format!("{}x{letters}", rect.name(square))
    }

    fn num_cells(&self) -> usize {
        self.position.rect().len()
    }

    fn cell_name(&self, cell: usize) -> String {
        self.position.rect().name(cell as u8)
    }

    fn parse_cell(&self, name: &str) -> Result<usize> {
        let rect = self.position.rect();
        let coord = crate::square::Coord::parse(name)?;
        rect.index(coord)
            .map(usize::from)
            .ok_or_else(|| Error::notation(format!("{} is off the {} board", coord.name(), rect.size_name())))
    }

    fn cell_point(&self, cell: usize) -> (usize, usize) {
        let cols = self.position.rect().cols as usize;
        (cell / cols, cell % cols)
    }

    /// The square a die is placed on, whatever it captures.
    fn action_cell(&self, action: usize) -> Option<usize> {
        Some(Self::split(action).0 as usize)
    }

    /// The 16 capture choices of a placement on the square (`square * 16 + captured`).
    fn cell_actions(&self, cell: usize) -> std::ops::Range<usize> {
        cell * 16..cell * 16 + 16
    }

    fn within(self, start: &Self) -> Result<Self> {
        let (rect, expected) = (self.position.rect(), start.position.rect());
        if (rect.rows, rect.cols) != (expected.rows, expected.cols) {
            return Err(Error::invalid(format!(
                "the position is on a {} board, not {}",
                rect.size_name(),
                expected.size_name()
            )));
        }
        Ok(self)
    }

    /// The maps that keep the rectangle (8 on a square board, 4 otherwise). An action's square
    /// moves and its captured directions turn with it; actions capturing towards the edge go
    /// to actions capturing towards the edge.
    fn symmetries(&self) -> Vec<Symmetry> {
        let rect = self.position.rect();
        GridMap::keeping(rect.rows, rect.cols, |_| 0)
            .into_iter()
            .map(|map| {
                let squares = map.permutation(rect.rows, rect.cols);
                let actions: Vec<usize> = (0..self.num_actions())
                    .map(|action| {
                        let (square, captured) = Self::split(action);
                        squares[square as usize] * 16 + map_compass(map, captured)
                    })
                    .collect();
                Symmetry::from_images(PLANES.len(), &squares, &actions)
            })
            .collect()
    }
}
