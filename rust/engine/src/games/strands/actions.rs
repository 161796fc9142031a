//! Strands in step form (docs/actions.md): a turn covers one cell per action, in increasing
//! board order, then ends (by itself, or by action `end`). Action `cell` covers that cell, action
//! `N` (the number of cells) ends the turn.
//!
//! The first cell fixes the label X, and later cells must carry X and come after every cell
//! covered so far, so each turn's cells come in exactly one order: the sequences of steps and the
//! compound moves are in bijection. A turn ends by itself as soon as no longer turn could follow
//! (it has its most cells, or no cell of X is left after the last one); under `up-to` it may end
//! earlier by `end`; under `exact` a cell is legal only if enough cells of X follow it to
//! complete the turn.
//!
//! In any-order mode (`in_any_order`) a turn covers its label's cells in any order instead: the
//! legal cells are the empty cells of the turn's label not yet covered (at a turn's start, every
//! empty cell of a label that can make a turn), and the turn ends by itself when it has its most
//! cells or no cell of its label is left. A state is then the set of cells covered, not their
//! order, so the board's symmetries map states, masks and policies at every step; the price is
//! that a turn of k cells is reached by k! step sequences (a larger tree to search).

use super::{Cover, Move, Strands};
use crate::error::truncate;
use crate::error::{Error, Result};
use crate::game::Position;
use crate::rng::SplitMix64;
use crate::steps::{out_of_range, planes, Steps, Symmetry};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StrandsActions {
    /// The position at the start of the turn under way.
    start: Strands,
    /// The cells covered so far this turn (all empty in `start`).
    covered: u128,
    /// The cells of each label when the step state was made: the layout, when made at the start
    /// of a game (positions forget the labels of covered cells). Symmetries keep it.
    layout: [u128; 6],
    /// Whether a turn's cells may come in any order (module doc), not only in board order.
    any_order: bool,
}

// The observation planes, on the board's axial grid (`hex::AxialGrid`): the mover's stones
// (the cells covered this turn included), the opponent's, the empty cells of each label 1-6,
// the board, and the cells covered this turn.
planes! {
    MINE = "mover",
    THEIRS = "opponent",
    EMPTY_LABEL_1 = ["empty_1", "empty_2", "empty_3", "empty_4", "empty_5", "empty_6"],
    ON_BOARD = "board",
    COVERED = "covered",
}

/// The cells of `set` after `cell` in board order.
fn after(set: u128, cell: u32) -> u128 {
    // Two shifts: `cell + 1` may be 128.
    set & (u128::MAX << cell << 1)
}

/// `set` without its `count` highest cells.
fn without_highest(mut set: u128, count: u32) -> u128 {
    for _ in 0..count.min(set.count_ones()) {
        set &= !(1u128 << (127 - set.leading_zeros()));
    }
    set
}

/// The value of the last field starting with `prefix`, taken out of `fields` (state text).
fn take_field<'a>(fields: &mut Vec<&'a str>, prefix: &str) -> Option<&'a str> {
    let at = fields.iter().rposition(|f| f.starts_with(prefix))?;
    Some(&fields.remove(at)[prefix.len()..])
}

/// The label digits of a state text's `labels=ROWS` (0 where unknown), checked against the
/// position's board and its empty cells' labels.
fn read_labels(position: &Strands, rows: &str) -> Result<Vec<u8>> {
    let board = position.board;
    let bad = |what: String| Error::notation(format!("strands state: labels: {what}"));
    let rows: Vec<&str> = rows.split('/').collect();
    if rows.len() != board.rows.len() {
        return Err(bad(format!("{} has {} rows, got {}", board.name, board.rows.len(), rows.len())));
    }
    let mut labels = Vec::with_capacity(board.len());
    for (r, row) in rows.iter().enumerate() {
        let length = board.rows[r].0 as usize;
        if row.len() != length || !row.bytes().all(|b| (b'0'..=b'6').contains(&b)) {
            return Err(bad(format!("row {} must be {length} digits from 0 to 6, got {:?}", r + 1, truncate(row))));
        }
        labels.extend(row.bytes().map(|b| b - b'0'));
    }
    for (cell, &label) in labels.iter().enumerate() {
        if let Some(own) = position.label(cell as u8).filter(|&own| own != label) {
            let name = board.cell_name(cell as u8);
            return Err(bad(format!("{name} is empty and labelled {own} in the position, not {label}")));
        }
    }
    Ok(labels)
}

impl StrandsActions {
    /// The label the state knows for a cell (1-6), or 0.
    fn known_label(&self, cell: u8) -> u8 {
        (0..6).find(|&l| self.layout[l] >> cell & 1 == 1).map_or(0, |l| l as u8 + 1)
    }

    /// Covers `cells` (names, comma-separated) as the turn under way: each must be legal in
    /// board order, and the turn must still be under way after the last.
    fn replay_turn(&mut self, cells: &str) -> Result<()> {
        let board = self.start.board;
        let bad = |what: String| Error::notation(format!("strands state: covering: {what}"));
        let mut set = 0u128;
        for name in cells.split(',') {
            set |= 1u128 << board.parse_cell(name).map_err(|e| bad(e.to_string()))?;
        }
        self.replay_cells(set).map_err(|e| bad(e.to_string()))
    }

    /// Covers the cells of `set` in board order (an order both modes allow when any does), each
    /// checked; the turn must still be under way after the last.
    fn replay_cells(&mut self, set: u128) -> Result<()> {
        for cell in crate::bitboard::Ones(set) {
            self.check_action(cell as usize)?;
            self.apply_action_unchecked(cell as usize);
        }
        if self.covered != set {
            let cells = self.start.board.cell_names(set).join(",");
            return Err(Error::illegal(format!("{} end the turn: it is not under way", truncate(&cells))));
        }
        Ok(())
    }

    /// The covered cells of this turn, in the form the position plays.
    pub fn covered(&self) -> u128 {
        self.covered
    }

    /// The step state of `position` in a game whose cells had `labels` at the start (board
    /// order, 0 where unknown): its symmetries keep the labels of covered cells too.
    pub fn with_labels(position: Strands, labels: &[u8]) -> Self {
        let mut layout = position.empty;
        for (cell, &label) in labels.iter().enumerate().filter(|&(_, &l)| (1..=6).contains(&l)) {
            if (position.black | position.white) >> cell & 1 == 1 {
                layout[label as usize - 1] |= 1u128 << cell;
            }
        }
        StrandsActions { start: position, covered: 0, layout, any_order: false }
    }

    /// This state with a turn's cells in any order (`true`) or in board order (module doc). A
    /// turn under way is replayed in the new mode, as if its cells had been covered there; an
    /// error if they are no turn under way there (in board order under `exact`, cells past the
    /// last ones that can complete the turn). At a turn's start it never fails.
    pub fn in_any_order(self, any_order: bool) -> Result<Self> {
        if any_order == self.any_order {
            return Ok(self);
        }
        let mut state = StrandsActions { covered: 0, any_order, ..self };
        state.replay_cells(self.covered)?;
        Ok(state)
    }

    /// Whether a turn's cells may come in any order (`in_any_order`).
    pub fn any_order(&self) -> bool {
        self.any_order
    }

    fn cells(&self) -> usize {
        self.start.board.len()
    }

    fn end_action(&self) -> usize {
        self.cells()
    }

    /// The label index (label - 1) of the turn under way.
    fn label(&self) -> Option<usize> {
        (self.covered != 0)
            .then(|| (0..6).find(|&l| self.start.empty[l] >> self.covered.trailing_zeros() & 1 == 1))
            .flatten()
    }

    /// (fewest, most) cells a turn on `label` covers, from the start of the turn.
    fn sizes(&self, label: usize) -> (u32, u32) {
        if self.start.opening() {
            (1, 1)
        } else {
            self.start.sizes(label, self.start.empty[label].count_ones())
        }
    }

    /// The cells of `label` a turn may cover next, after the cells covered so far. In board
    /// order: those after the last covered cell, save the highest ones that must follow to reach
    /// the fewest cells. In any order: every one not yet covered, if enough are left.
    fn next_cells(&self, label: usize) -> u128 {
        let count = self.covered.count_ones();
        let fewest = self.sizes(label).0;
        if self.any_order {
            let left = self.start.empty[label] & !self.covered;
            return if count + left.count_ones() >= fewest { left } else { 0 };
        }
        let candidates = match self.covered {
            0 => self.start.empty[label],
            covered => after(self.start.empty[label], 127 - covered.leading_zeros()),
        };
        without_highest(candidates, fewest.saturating_sub(count + 1))
    }

    /// Every cell that may be covered now.
    fn legal_cells(&self) -> u128 {
        if let Some(label) = self.label() {
            return self.next_cells(label);
        }
        if self.start.opening() {
            return self.next_cells(1);
        }
        (0..6).fold(0, |cells, label| cells | self.next_cells(label))
    }

    /// Whether the turn under way may stop here: its cells are a move, but a longer one exists.
    fn end_is_legal(&self) -> bool {
        self.label().is_some_and(|label| self.covered.count_ones() >= self.sizes(label).0)
    }

    /// Whether no longer turn can follow the cells covered so far.
    fn turn_is_complete(&self, label: usize) -> bool {
        self.covered.count_ones() == self.sizes(label).1 || self.next_cells(label) == 0
    }

    fn end_turn(&mut self) {
        self.start.play_unchecked(Move { cells: self.covered });
        self.covered = 0;
    }

    /// Why covering `cell` is not legal now (it is not in `legal_cells`).
    fn why_not_cell(&self, cell: usize) -> String {
        let board = self.start.board;
        let name = board.cell_name(cell as u8);
        let Some(label) = self.start.label(cell as u8).filter(|_| self.covered >> cell & 1 == 0) else {
            return format!("{name} is covered");
        };
        match self.label() {
            _ if self.start.opening() => "Black's opening covers one cell labelled 2".into(),
            Some(turn) if turn != label as usize - 1 => {
                format!("this turn covers cells labelled {}, {name} is labelled {label}", turn + 1)
            }
            Some(_) if !self.any_order && cell < 127 - self.covered.leading_zeros() as usize => {
                let last = board.cell_name((127 - self.covered.leading_zeros()) as u8);
                format!("the cells of a turn come in board order: {name} is before {last}")
            }
            _ => format!("too few cells labelled {label} follow {name} to complete the turn (cover rule exact)"),
        }
    }
}

impl Steps for StrandsActions {
    type Position = Strands;
    const PLANES: &'static [&'static str] = PLANES;

    fn from_position(position: Strands) -> Self {
        StrandsActions { start: position, covered: 0, layout: position.empty, any_order: false }
    }

    /// The position at the start of the turn under way (`covered` holds the rest).
    fn position(&self) -> &Strands {
        &self.start
    }

    fn turn_under_way(&self) -> bool {
        self.covered != 0
    }

    fn turn_cells(&self) -> Vec<String> {
        self.start.board.cell_names(self.covered)
    }

    fn num_actions(&self) -> usize {
        self.cells() + 1
    }

    fn observation_shape(&self) -> [usize; 3] {
        let grid = &self.start.board.axial;
        [PLANES.len(), grid.height, grid.width]
    }

    fn for_each_legal_action(&self, mut f: impl FnMut(usize)) {
        let mut cells = self.legal_cells();
        while cells != 0 {
            f(cells.trailing_zeros() as usize);
            cells &= cells - 1;
        }
        if self.end_is_legal() {
            f(self.end_action());
        }
    }

    /// `Steps::sample_action`'s draw (the `k`-th legal action in increasing order, `k` from
    /// `below(count)`) straight from the cell set: playouts finish turns under way with it.
    fn sample_action(&self, rng: &mut SplitMix64) -> Option<usize> {
        let cells = self.legal_cells();
        let count = u64::from(cells.count_ones()) + u64::from(self.end_is_legal());
        if count == 0 {
            return None;
        }
        let k = rng.below(count) as u32;
        if k == cells.count_ones() {
            return Some(self.end_action());
        }
        Some(usize::from(crate::bitboard::nth_bit(cells, k)))
    }

    fn check_action(&self, action: usize) -> Result<()> {
        let end = self.end_action();
        if action > end {
            return Err(out_of_range(action, self.num_actions()));
        }
        if self.start.is_over() {
            return Err(Error::illegal("the game is over"));
        }
        let why = match action {
            a if a == end && self.end_is_legal() => return Ok(()),
            a if a == end && self.covered == 0 => "end: no turn is under way, cover a cell first".to_string(),
            a if a == end && self.start.cover == Cover::Exact => {
                "end: under the exact rule a turn ends by itself".to_string()
            }
            a if a == end => "end: the turn ends by itself here".to_string(),
            cell if self.legal_cells() >> cell & 1 == 1 => return Ok(()),
            cell => self.why_not_cell(cell),
        };
        Err(Error::illegal(why))
    }

    fn apply_action_unchecked(&mut self, action: usize) {
        if action == self.end_action() {
            return self.end_turn();
        }
        self.covered |= 1u128 << action;
        if self.label().is_some_and(|label| self.turn_is_complete(label)) {
            self.end_turn();
        }
    }

    fn completed_move(&self, action: usize) -> Option<Move> {
        let mut next = *self;
        next.apply_action_unchecked(action);
        let cells = if action == self.end_action() { self.covered } else { self.covered | 1u128 << action };
        (!next.turn_under_way()).then_some(Move { cells })
    }

    fn observe_into(&self, out: &mut [f32]) {
        out.fill(0.0);
        let p = &self.start;
        let grid = &p.board.axial;
        grid.mark(out, MINE, p.stones(p.side) | self.covered, 1.0);
        grid.mark(out, THEIRS, p.stones(p.side.other()), 1.0);
        for label in 0..6 {
            grid.mark(out, EMPTY_LABEL_1 + label, p.empty[label] & !self.covered, 1.0);
        }
        grid.mark(out, ON_BOARD, p.board.all, 1.0);
        grid.mark(out, COVERED, self.covered, 1.0);
    }

    /// The cell's name, or `end`.
    fn action_name(&self, action: usize) -> String {
        if action == self.end_action() {
            "end".into()
        } else {
            self.start.board.cell_name(action as u8)
        }
    }

    fn num_cells(&self) -> usize {
        self.cells()
    }

    fn cell_name(&self, cell: usize) -> String {
        self.start.board.cell_name(cell as u8)
    }

    fn parse_cell(&self, name: &str) -> Result<usize> {
        Ok(self.start.board.parse_cell(name)?.into())
    }

    fn cell_point(&self, cell: usize) -> (usize, usize) {
        self.start.board.axial.cell_point(cell)
    }

    /// The cell covered; `None` for `end`.
    fn action_cell(&self, action: usize) -> Option<usize> {
        (action < self.cells()).then_some(action)
    }

    fn cell_actions(&self, cell: usize) -> std::ops::Range<usize> {
        cell..cell + 1
    }

    /// `RULE ROWS SIDE`, then ` labels=ROWS` (each cell's label digit, 0 where unknown) when the
    /// state knows labels of covered cells, then ` order=any` in any-order mode, then
    /// ` covering=CELLS` (in board order) while a turn is under way.
    fn state_text(&self) -> String {
        let mut text = self.start.to_notation();
        if self.layout != self.start.empty {
            let board = self.start.board;
            text.push_str(" labels=");
            text.push_str(&board.notation_rows(|cell| (b'0' + self.known_label(cell)) as char));
        }
        if self.any_order {
            text.push_str(" order=any");
        }
        if self.covered != 0 {
            text.push_str(" covering=");
            text.push_str(&self.turn_cells().join(","));
        }
        text
    }

    /// Checks what `state_text` writes: the labels agree with the position's, and the covered
    /// cells are a turn under way that the rules allow (they are replayed).
    fn from_state_text(text: &str) -> Result<Self> {
        let mut fields: Vec<&str> = crate::text::trim(text).split(' ').collect();
        let covering = take_field(&mut fields, "covering=");
        let any_order = match take_field(&mut fields, "order=") {
            None => false,
            Some("any") => true,
            Some(other) => {
                return Err(Error::notation(format!("strands state: order must be any, got {:?}", truncate(other))))
            }
        };
        let labels = take_field(&mut fields, "labels=");
        let position = Strands::from_notation(&fields.join(" "))?;
        let mut state = match labels {
            None => Self::from_position(position),
            Some(rows) => Self::with_labels(position, &read_labels(&position, rows)?),
        }
        .in_any_order(any_order)?;
        if let Some(cells) = covering {
            state.replay_turn(cells)?;
        }
        Ok(state)
    }

    /// The same board, cover rule and labels (where both states know them); the state takes
    /// `start`'s order mode (a turn under way is replayed in it, and must be legal there).
    fn within(self, start: &Self) -> Result<Self> {
        let (p, expected) = (&self.start, &start.start);
        if !std::ptr::eq(p.board, expected.board) {
            return Err(Error::invalid(format!(
                "the position is on the {} board, not {}",
                p.board.name, expected.board.name
            )));
        }
        if p.cover != expected.cover {
            let (cover, wanted) = (p.cover.name(), expected.cover.name());
            return Err(Error::invalid(format!("the position's cover rule is {cover}, not {wanted}")));
        }
        for label in 0..6 {
            let others =
                start.layout.iter().enumerate().filter(|&(l, _)| l != label).fold(0, |all, (_, &set)| all | set);
            let clash = self.layout[label] & others;
            if clash != 0 {
                let name = p.board.cell_name(clash.trailing_zeros() as u8);
                return Err(Error::invalid(format!(
                    "{name} is labelled {} in the position, not in the layout",
                    label + 1
                )));
            }
        }
        let mut layout = self.layout;
        layout.iter_mut().zip(start.layout).for_each(|(mine, known)| *mine |= known);
        StrandsActions { layout, ..self }.in_any_order(start.any_order)
    }

    /// The maps of the hexagon that keep every label of the layout (as far as the step state
    /// knows it: see `layout`); `end` stays `end`. In board order (the default) a turn's cells
    /// come in an order the maps do not keep: docs/actions.md says what that means for masks and
    /// policies mid-turn. In any-order mode the maps commute with every step.
    fn symmetries(&self) -> Vec<Symmetry> {
        let board = self.start.board;
        let label = |cell: u8| (0..6).find(|&l| self.layout[l] >> cell & 1 == 1).map_or(0, |l| l as u8 + 1);
        board
            .symmetries(label)
            .iter()
            .map(|cells| {
                let actions: Vec<usize> = cells.iter().map(|&c| c as usize).chain([self.end_action()]).collect();
                Symmetry::from_images(PLANES.len(), &board.axial.point_permutation(cells), &actions)
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    //! Any-order mode against the compound moves and the board's symmetries.
    use super::*;
    use crate::bitboard::Ones;
    use std::collections::{BTreeSet, HashSet};

    fn variants() -> Vec<Strands> {
        let hex3 = Strands::random_layout(3, 1).unwrap();
        let hex4 = super::super::named_layout("hex4").unwrap();
        let twos: Vec<Vec<u8>> = [4, 5, 6, 7, 6, 5, 4].iter().map(|&n| vec![2; n]).collect();
        let mut all = Vec::new();
        for cover in [Cover::UpTo, Cover::Exact] {
            for rows in [&hex3, &hex4, &twos] {
                all.push(Strands::new(rows, cover).unwrap());
            }
        }
        all
    }

    /// Positions along random games (compound moves) from `start`, each turn's start.
    fn positions(start: Strands, games: u64) -> Vec<Strands> {
        let mut all = Vec::new();
        for seed in 0..games {
            let (mut rng, mut p) = (SplitMix64::new(seed), start);
            all.push(p);
            while let Some(mv) = p.sample_move(&mut rng) {
                p.play_unchecked(mv);
                all.push(p);
            }
        }
        all
    }

    fn any_order(p: Strands) -> StrandsActions {
        StrandsActions::from_position(p).in_any_order(true).unwrap()
    }

    /// The cells of every turn reachable by steps from `state` (a turn's start), walking the
    /// covered sets once each; every completed turn is checked to be a legal compound move.
    fn reachable_turns(state: StrandsActions) -> BTreeSet<u128> {
        let legal: HashSet<u128> = state.start.legal_moves().map(|m| m.cells).collect();
        let (mut turns, mut seen, mut stack) = (BTreeSet::new(), HashSet::new(), vec![state]);
        while let Some(s) = stack.pop() {
            s.for_each_legal_action(|action| {
                let turn = s.completed_move(action);
                let mut next = s;
                next.apply_action(action).unwrap();
                match turn {
                    Some(mv) => {
                        assert!(legal.contains(&mv.cells), "{:?}: {mv:?} is no legal move", s.start);
                        assert_eq!(next.start, {
                            let mut p = s.start;
                            p.play_unchecked(mv);
                            p
                        });
                        turns.insert(mv.cells);
                    }
                    None if seen.insert(next.covered) => stack.push(next),
                    None => {}
                }
            });
        }
        turns
    }

    #[test]
    fn any_order_steps_reach_exactly_the_compound_moves() {
        for start in variants() {
            for p in positions(start, 3).into_iter().step_by(2) {
                let compound: BTreeSet<u128> = p.legal_moves().map(|m| m.cells).collect();
                assert_eq!(reachable_turns(any_order(p)), compound, "{p:?}");
            }
        }
    }

    #[test]
    fn any_order_turns_take_their_cells_in_every_order() {
        // Every order of every legal move's cells is a sequence of legal steps that ends
        // the turn there (by itself, or by `end` where the move is shorter than the longest).
        for start in variants() {
            for p in positions(start, 2).into_iter().step_by(3) {
                for mv in p.legal_moves() {
                    let cells: Vec<usize> = Ones(mv.cells).map(|c| c as usize).collect();
                    for order in orders(&cells) {
                        let mut s = any_order(p);
                        for &cell in &order {
                            s.apply_action(cell).unwrap();
                        }
                        if s.turn_under_way() {
                            s.apply_action(s.end_action()).unwrap();
                        }
                        assert_eq!(
                            s.start,
                            {
                                let mut q = p;
                                q.play_unchecked(mv);
                                q
                            },
                            "{p:?} {order:?}"
                        );
                    }
                }
            }
        }
    }

    /// Every order of up to 4 cells; for more, the reverse and a rotation (6! orders per move
    /// would make the test slow, not stronger).
    fn orders(cells: &[usize]) -> Vec<Vec<usize>> {
        if cells.len() <= 4 {
            return permutations(cells);
        }
        let mut rotated = cells.to_vec();
        rotated.rotate_left(1);
        vec![cells.iter().rev().copied().collect(), rotated]
    }

    fn permutations(cells: &[usize]) -> Vec<Vec<usize>> {
        if cells.len() <= 1 {
            return vec![cells.to_vec()];
        }
        let mut all = Vec::new();
        for i in 0..cells.len() {
            let mut rest = cells.to_vec();
            let first = rest.remove(i);
            for mut tail in permutations(&rest) {
                tail.insert(0, first);
                all.push(tail);
            }
        }
        all
    }

    /// `set` with each cell sent to `forward[cell]`.
    fn map_cells(set: u128, forward: &[usize]) -> u128 {
        Ones(set).fold(0, |out, cell| out | 1u128 << forward[cell as usize])
    }

    /// The image of a state under a symmetry (`forward[a]` = the image of action `a`).
    fn map_state(s: &StrandsActions, forward: &[usize]) -> StrandsActions {
        let mut image = *s;
        let p = &mut image.start;
        p.black = map_cells(p.black, forward);
        p.white = map_cells(p.white, forward);
        p.empty.iter_mut().for_each(|set| *set = map_cells(*set, forward));
        image.layout.iter_mut().for_each(|set| *set = map_cells(*set, forward));
        image.covered = map_cells(s.covered, forward);
        image
    }

    fn mask(s: &StrandsActions) -> Vec<bool> {
        let mut mask = vec![false; s.num_actions()];
        s.legal_actions_into(&mut mask);
        mask
    }

    fn observation(s: &StrandsActions) -> Vec<f32> {
        let mut out = vec![0.0; s.observation_len()];
        s.observe_into(&mut out);
        out
    }

    #[test]
    fn any_order_steps_commute_with_every_symmetry() {
        for start in variants() {
            let state = any_order(start);
            for (k, symmetry) in state.symmetries().iter().enumerate() {
                let mut forward = vec![0; symmetry.action.len()];
                symmetry.action.iter().enumerate().for_each(|(image, &a)| forward[a as usize] = image);
                let mut rng = SplitMix64::new(k as u64);
                let (mut s, mut image) = (state, map_state(&state, &forward));
                loop {
                    assert_eq!(image, map_state(&s, &forward), "symmetry {k}");
                    let m = mask(&s);
                    assert_eq!(mask(&image), symmetry.action.iter().map(|&a| m[a as usize]).collect::<Vec<_>>());
                    let o = observation(&s);
                    let mapped: Vec<f32> = symmetry.observation.iter().map(|&i| o[i as usize]).collect();
                    assert_eq!(observation(&image), mapped);
                    let Some(action) = s.sample_action(&mut rng) else { break };
                    s.apply_action(action).unwrap();
                    image.apply_action(forward[action]).unwrap();
                }
                assert!(image.outcome().is_some());
            }
        }
    }

    #[test]
    fn any_order_mode_is_kept_by_state_texts_and_taken_from_the_env_start() {
        for start in variants() {
            let mut rng = SplitMix64::new(7);
            let mut s = any_order(start);
            while let Some(action) = s.sample_action(&mut rng) {
                let text = s.state_text();
                assert!(text.contains(" order=any"), "{text}");
                assert_eq!(StrandsActions::from_state_text(&text), Ok(s), "{text}");
                let ordered = StrandsActions::from_state_text(&text.replace(" order=any", ""));
                // The same cells in board order are a turn under way there, or they are not.
                if let Ok(ordered) = ordered {
                    assert_eq!(ordered.within(&any_order(start)), Ok(s));
                    assert!(!ordered.state_text().contains("order="));
                }
                s.apply_action(action).unwrap();
            }
            let ordered = StrandsActions::from_position(start);
            assert!(!ordered.state_text().contains("order="));
            assert_eq!(ordered.within(&any_order(start)).map(|s| s.any_order()), Ok(true));
            assert!(StrandsActions::from_state_text(&format!("{} order=board", start.to_notation())).is_err());
        }
    }

    #[test]
    fn switching_mode_mid_turn_replays_the_turn_or_refuses_it() {
        // A turn under way switched to the other mode is the state reached by covering its cells
        // there; into any order that always works, into board order it may not.
        let mut switches = [0; 2];
        for start in variants() {
            for p in positions(start, 2).into_iter().step_by(3) {
                for from in [false, true] {
                    let mut rng = SplitMix64::new(p.black as u64 ^ u64::from(from));
                    let mut s = StrandsActions::from_position(p).in_any_order(from).unwrap();
                    while let Some(action) = s.sample_action(&mut rng) {
                        s.apply_action(action).unwrap();
                        if !s.turn_under_way() {
                            break;
                        }
                        let mut expected = StrandsActions::from_position(p).in_any_order(!from).unwrap();
                        let replayed = Ones(s.covered).try_for_each(|cell| expected.apply_action(cell as usize));
                        let reached = replayed.is_ok() && expected.covered == s.covered;
                        match s.in_any_order(!from) {
                            Ok(switched) => {
                                assert!(reached, "{s:?}");
                                assert_eq!(switched, expected);
                                assert_eq!(switched.in_any_order(from), Ok(s), "and back");
                                switches[usize::from(from)] += 1;
                            }
                            Err(_) => assert!(from && !reached, "{s:?}: only board order refuses"),
                        }
                    }
                }
            }
        }
        assert!(switches[0] > 0 && switches[1] > 0, "{switches:?}");
    }

    #[test]
    fn board_order_refuses_a_turn_under_way_it_cannot_complete() {
        // On a board of 2s under `exact`, after the opening: the last 2 first is an any-order turn
        // under way; in board order nothing follows it, so no turn can start there.
        let twos: Vec<Vec<u8>> = [4, 5, 6, 7, 6, 5, 4].iter().map(|&n| vec![2; n]).collect();
        let mut p = Strands::new(&twos, Cover::Exact).unwrap();
        p.play_unchecked(Move { cells: 1 << 20 });
        let last = 127 - p.empty[1].leading_zeros() as usize;
        let mut s = any_order(p);
        s.apply_action(last).unwrap();
        assert!(s.turn_under_way());
        let refused = s.in_any_order(false).unwrap_err().to_string();
        assert!(refused.contains("too few cells labelled 2"), "{refused}");
        assert!(s.any_order() && s.covered() == 1 << last, "the state is unchanged");
        let text = s.state_text().replace(" order=any", "");
        assert!(StrandsActions::from_state_text(&text).is_err());
    }

    #[test]
    fn board_order_alone_refuses_a_turn_any_order_takes() {
        // On a board of 2s, after the opening: c1 then a1 (before it) is legal in any order only.
        let twos: Vec<Vec<u8>> = [4, 5, 6, 7, 6, 5, 4].iter().map(|&n| vec![2; n]).collect();
        let mut p = Strands::new(&twos, Cover::UpTo).unwrap();
        p.play_unchecked(Move { cells: 1 << 20 });
        let (a1, c1) = (0, p.board.parse_cell("c1").unwrap() as usize);
        for any in [false, true] {
            let mut s = StrandsActions::from_position(p).in_any_order(any).unwrap();
            s.apply_action(c1).unwrap();
            assert_eq!(s.is_legal_action(a1), any);
            if !any {
                assert!(s.check_action(a1).unwrap_err().to_string().contains("board order"));
            }
        }
    }
}
