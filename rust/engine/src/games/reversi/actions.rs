//! Reversi in step form (docs/actions.md): action `row * size + col` places a disc on that
//! square of the board's full rectangle (holes and cut squares included, never legal), and action
//! `size * size` passes.

use super::{Move, Reversi};
use crate::error::{Error, Result};
use crate::game::Position;
use crate::square::{Coord, GridMap};
use crate::steps::{one_move_per_action, planes, Steps, Symmetry};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReversiActions {
    position: Reversi,
}

// The observation planes: the mover's discs, the opponent's, empty playable squares, and
// squares that are not playable (holes, cut squares).
planes! {
    MINE = "mover",
    THEIRS = "opponent",
    EMPTY = "empty",
    BLOCKED = "blocked",
}

impl ReversiActions {
    fn size(&self) -> usize {
        self.position.shape().size() as usize
    }

    fn pass_action(&self) -> usize {
        self.size() * self.size()
    }

    fn coord(&self, square: usize) -> Coord {
        Coord::new((square / self.size()) as u8, (square % self.size()) as u8)
    }

    fn move_of(&self, action: usize) -> Move {
        if action == self.pass_action() {
            Move::PASS
        } else {
            Move::from_coord(self.coord(action), self.position.shape())
        }
    }

    fn action_of(&self, mv: Move) -> usize {
        mv.coord(self.position.shape()).map_or(self.pass_action(), |c| c.row as usize * self.size() + c.col as usize)
    }

    /// The engine's own message would say a cut square brackets nothing: say what it is.
    fn refuse_cut_square(&self, action: usize) -> Result<()> {
        if action != self.pass_action() && self.position.shape().is_cut(self.coord(action)) {
            return Err(Error::illegal(format!("{} is cut from the octagon", self.coord(action).name())));
        }
        Ok(())
    }
}

impl Steps for ReversiActions {
    type Position = Reversi;
    const PLANES: &'static [&'static str] = PLANES;

    fn from_position(position: Reversi) -> Self {
        ReversiActions { position }
    }

    fn num_actions(&self) -> usize {
        self.pass_action() + 1
    }

    fn observation_shape(&self) -> [usize; 3] {
        [PLANES.len(), self.size(), self.size()]
    }

    one_move_per_action!(refuse_cut_square);

    fn observe_into(&self, out: &mut [f32]) {
        out.fill(0.0);
        let squares = self.pass_action();
        let mine = self.position.to_move().letter();
        self.position.for_each_cell(|square, cell| {
            let plane = match cell {
                '#' | '-' => BLOCKED,
                '.' => EMPTY,
                disc if disc == mine => MINE,
                _ => THEIRS,
            };
            out[plane * squares + square] = 1.0;
        });
    }

    fn action_name(&self, action: usize) -> String {
        self.position.format_move(self.move_of(action))
    }

    /// Every square of the rectangle, holes and cut squares included (each has its action).
    fn num_cells(&self) -> usize {
        self.pass_action()
    }

    fn cell_name(&self, cell: usize) -> String {
        self.coord(cell).name()
    }

    fn parse_cell(&self, name: &str) -> Result<usize> {
        let coord = Coord::parse(name)?;
        let n = self.size() as u8;
        if coord.row >= n || coord.col >= n {
            let shape = self.position.shape().name();
            return Err(Error::notation(format!("{} is off the {shape} board", coord.name())));
        }
        Ok(coord.row as usize * self.size() + coord.col as usize)
    }

    fn cell_point(&self, cell: usize) -> (usize, usize) {
        (cell / self.size(), cell % self.size())
    }

    fn action_cell(&self, action: usize) -> Option<usize> {
        (action < self.pass_action()).then_some(action)
    }

    fn cell_actions(&self, cell: usize) -> std::ops::Range<usize> {
        cell..cell + 1
    }

    /// The same shape with the same blocked squares.
    fn within(self, start: &Self) -> Result<Self> {
        let (shape, expected) = (self.position.shape(), start.position.shape());
        if shape != expected {
            return Err(Error::invalid(format!(
                "the position is on the {} board, not the {}",
                shape.name(),
                expected.name()
            )));
        }
        // Equal shapes have the same cut squares: only the holes can differ.
        if self.position.holes() != start.position.holes() {
            return Err(Error::invalid("the position's blocked squares (holes) are not the variant's"));
        }
        Ok(self)
    }

    /// The maps of the square that keep the blocked squares (holes, the Octagon's cuts); the
    /// discs, the start's and the handicap's included, are the position and move with it.
    fn symmetries(&self) -> Vec<Symmetry> {
        let n = self.size() as u8;
        let blocked = |c: Coord| matches!(self.position.cell_char(c), '#' | '-') as u8;
        GridMap::keeping(n, n, blocked)
            .into_iter()
            .map(|map| {
                let squares = map.permutation(n, n);
                let actions: Vec<usize> = squares.iter().copied().chain([self.pass_action()]).collect();
                Symmetry::from_images(PLANES.len(), &squares, &actions)
            })
            .collect()
    }
}
