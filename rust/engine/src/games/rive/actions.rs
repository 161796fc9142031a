//! Rive in step form (docs/actions.md), which is its single-stone form: action `cell` places a
//! stone there or, while a capture is under way, removes the stone there; action `N` (the number
//! of cells) is the swap.

use super::{Move, Rive};
use crate::error::{Error, Result};
use crate::game::{Player, Position};
use crate::steps::{one_move_per_action, planes, Steps, Symmetry};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RiveActions {
    position: Rive,
}

// The observation planes, on the board's axial grid (`hex::AxialGrid`).
planes! {
    MINE = "mover",
    THEIRS = "opponent",
    EMPTY = "empty",
    ON_BOARD = "board",
    /// The placed stone of a capture under way.
    PLACED = "capture_placed",
    /// The stones a capture under way must still remove, over the number of cells, on every cell.
    TO_REMOVE = "capture_to_remove",
}

impl RiveActions {
    fn cells(&self) -> usize {
        self.position.board().len()
    }

    fn move_of(&self, action: usize) -> Move {
        match action {
            a if a == self.cells() => Move::Swap,
            cell if self.position.pending().is_some() => Move::Remove { cell: cell as u8 },
            cell => Move::place(cell as u8),
        }
    }

    fn action_of(&self, mv: Move) -> usize {
        match mv {
            Move::Swap => self.cells(),
            Move::Remove { cell } | Move::Place { cell, .. } => cell as usize,
        }
    }
}

impl Steps for RiveActions {
    type Position = Rive;
    const PLANES: &'static [&'static str] = PLANES;

    /// A compound-form position becomes the same position in the single-stone form (it has no
    /// capture under way: compound captures are one move).
    fn from_position(position: Rive) -> Self {
        RiveActions { position: Rive { single_stones: true, ..position } }
    }

    fn num_actions(&self) -> usize {
        self.cells() + 1
    }

    fn observation_shape(&self) -> [usize; 3] {
        let grid = &self.position.board().axial;
        [PLANES.len(), grid.height, grid.width]
    }

    one_move_per_action!();

    fn observe_into(&self, out: &mut [f32]) {
        out.fill(0.0);
        let p = &self.position;
        let board = p.board();
        let grid = &board.axial;
        let (black, white) = (p.black, p.white);
        let (mine, theirs) = if p.to_move() == Player::Black { (black, white) } else { (white, black) };
        grid.mark(out, MINE, mine, 1.0);
        grid.mark(out, THEIRS, theirs, 1.0);
        grid.mark(out, EMPTY, board.all & !(black | white), 1.0);
        grid.mark(out, ON_BOARD, board.all, 1.0);
        if let Some(pending) = p.pending() {
            grid.mark(out, PLACED, 1u128 << pending.placed, 1.0);
            grid.mark(out, TO_REMOVE, board.all, pending.remaining as f32 / board.len() as f32);
        }
    }

    /// The move's notation: `c3` (a placement), `xc3` (a removal), `swap`.
    fn action_name(&self, action: usize) -> String {
        self.position.format_move(self.move_of(action))
    }

    fn num_cells(&self) -> usize {
        self.cells()
    }

    fn cell_name(&self, cell: usize) -> String {
        self.position.board().cell_name(cell as u8)
    }

    fn parse_cell(&self, name: &str) -> Result<usize> {
        Ok(self.position.board().parse_cell(name)?.into())
    }

    fn cell_point(&self, cell: usize) -> (usize, usize) {
        self.position.board().axial.cell_point(cell)
    }

    /// The cell a stone is placed on or removed from; `None` for the swap.
    fn action_cell(&self, action: usize) -> Option<usize> {
        (action < self.cells()).then_some(action)
    }

    fn cell_actions(&self, cell: usize) -> std::ops::Range<usize> {
        cell..cell + 1
    }

    /// The same board, with or without the swap as the variant.
    fn within(self, start: &Self) -> Result<Self> {
        let (p, expected) = (&self.position, &start.position);
        if !std::ptr::eq(p.board(), expected.board()) {
            return Err(Error::invalid(format!(
                "the position is on the {} board, not {}",
                p.board().name,
                expected.board().name
            )));
        }
        if p.swap_allowed() != expected.swap_allowed() {
            let (has, not) = if p.swap_allowed() { ("allows", "does not") } else { ("does not allow", "does") };
            return Err(Error::invalid(format!("the position {has} the swap, the variant {not}")));
        }
        Ok(self)
    }

    /// The maps of the hexagon that keep the board's cells; `swap` stays `swap`.
    fn symmetries(&self) -> Vec<Symmetry> {
        let board = self.position.board();
        board
            .symmetries(|_| 0)
            .iter()
            .map(|cells| {
                let actions: Vec<usize> = cells.iter().map(|&c| c as usize).chain([self.cells()]).collect();
                Symmetry::from_images(PLANES.len(), &board.axial.point_permutation(cells), &actions)
            })
            .collect()
    }
}
