//! Pattern evaluation (an n-tuple network) for Reversi, the design of Logistello, Zebra and
//! Edax: the board is read through a few dozen fixed groups of squares (edges, corner blocks,
//! rows, diagonals), the contents of each group index a table of learned weights, and the
//! estimate is the sum of what the groups look up plus a few global terms (mobility, potential
//! mobility, parity), with one set of weights per stage of the game (by empties).
//!
//! A [`Layout`] is the patterns of one board shape (6x6, 8x8, 10x10, the Octagon): each
//! *class* is one canonical list of squares; its *instances* are the images of that list under
//! the eight symmetries of the square, so that they share its weights. A class whose squares are
//! mapped onto themselves by a symmetry (a row by its mirror) reads each content and its mirror
//! image as one canonical entry, so that symmetric positions get equal values exactly. The
//! layout also turns a position into its training row (`columns`): the same indices the
//! evaluation reads, so the training script and the engine cannot drift apart.
//!
//! Weights are fitted by `tools/train_patterns.py` from positions the library labels itself
//! (`search::label`); [`Patterns`] holds them expanded to one table per class and stage.

use super::board::Board;
use super::frame::Frame;
use super::{with_board, Reversi, Shape};
use crate::bitboard::Bits;
use crate::error::{Error, Result};

/// The weight files' format version: a file of another version is refused.
pub const FORMAT: u32 = 1;

/// Hundredths of a point, the tables' unit.
const SCALE_F: f32 = crate::search::SCALE as f32;

/// The global terms after the patterns, per stage.
pub const GLOBALS: &[&str] = &["bias", "mobility", "potential_mobility", "parity"];

/// One class of patterns: its squares in canonical order and the canonical entry of each
/// content (a base-3 number, digit `i` the `i`-th square: 0 empty, 1 the mover's, 2 the other's).
#[derive(Debug)]
pub struct Class {
    pub name: String,
    pub squares: usize,
    /// For each of the `3^squares` contents, its canonical entry (below `entries`).
    canon: Vec<u32>,
    pub entries: usize,
    /// The first column of this class within a stage's parameters.
    offset: usize,
    /// The first entry of this class's table within a stage's expanded tables.
    table: usize,
}

/// One instance: a class read on particular squares (frame indices, in class order).
#[derive(Debug)]
struct Instance {
    class: usize,
    squares: Vec<u8>,
}

/// The most squares a pattern has.
const MAX_SQUARES: usize = 10;

/// An instance as the evaluation reads it: its squares inline, and where its class's table
/// starts in a stage's tables.
#[derive(Debug, Clone, Copy)]
struct Read {
    squares: [u8; MAX_SQUARES],
    len: u8,
    table: u32,
}

/// The patterns of one board shape.
#[derive(Debug)]
pub struct Layout {
    pub shape: Shape,
    pub classes: Vec<Class>,
    instances: Vec<Instance>,
    pub stages: usize,
    /// Parameters of one stage: every class's canonical entries, then the globals.
    pub params: usize,
    /// Entries of one stage's expanded tables (every content of every class).
    pattern_len: usize,
    /// Playable squares of the empty board (the stages divide its empties).
    squares: u32,
    /// The instances, flattened for the evaluation.
    reads: Vec<Read>,
    /// The same, as PEXT reads them (8-wide frames only; empty on 10-wide ones).
    extracts: Vec<Extract>,
}

/// An instance of an 8-wide layout read by PEXT: the mask of its squares, and the base-3 value
/// of each set of extracted bits (which come out in square order, not the class's digit order),
/// five bits at a time: the content is `low[m & 31] + high[m >> 5]` for the mover's bits `m`,
/// plus twice the same for the other's.
#[derive(Debug, Clone, Copy)]
struct Extract {
    mask: u64,
    low: [u16; 32],
    high: [u16; 32],
    table: u32,
}

impl Extract {
    fn new(read: &Read) -> Extract {
        let squares = &read.squares[..read.len as usize];
        let mut by_square: Vec<(u8, usize)> = squares.iter().enumerate().map(|(digit, &s)| (s, digit)).collect();
        by_square.sort_unstable();
        let value = |bits: usize, from: usize| -> u16 {
            let digits = by_square.iter().skip(from).take(5).enumerate();
            digits.filter(|(j, _)| bits >> j & 1 == 1).map(|(_, &(_, digit))| pow3(digit) as u16).sum()
        };
        Extract {
            mask: squares.iter().fold(0u64, |m, &s| m | 1 << s),
            low: std::array::from_fn(|bits| value(bits, 0)),
            high: std::array::from_fn(|bits| value(bits, 5)),
            table: read.table,
        }
    }
}

/// The sum of the tables' entries the instances read, square by square.
#[inline(always)]
fn read_sum<F: Frame>(layout: &Layout, b: &Board<F>, tables: &[i16]) -> i32 {
    let mut sum = 0i32;
    if F::W == 8 {
        // 8-wide frames fit 64 bits: cheaper shifts than 128.
        let (me, opp) = (b.me.to_u128() as u64, b.opponent.to_u128() as u64);
        for read in &layout.reads {
            let mut x = 0usize;
            for &s in read.squares[..read.len as usize].iter().rev() {
                x = x * 3 + ((me >> s) & 1) as usize + 2 * ((opp >> s) & 1) as usize;
            }
            sum += i32::from(tables[read.table as usize + x]);
        }
    } else {
        let (me, opp) = (b.me.to_u128(), b.opponent.to_u128());
        for read in &layout.reads {
            sum += i32::from(tables[read.table as usize + content(me, opp, &read.squares[..read.len as usize])]);
        }
    }
    sum
}

/// The sum of the tables' entries the extracts read.
///
/// # Safety
/// The CPU must have BMI2, and every extract's entries must lie within `tables`.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi2")]
unsafe fn extracted_sum(extracts: &[Extract], me: u64, opponent: u64, tables: &[i16]) -> i32 {
    use std::arch::x86_64::_pext_u64;
    let mut sum = 0i32;
    for e in extracts {
        let (m, o) = (_pext_u64(me, e.mask) as usize, _pext_u64(opponent, e.mask) as usize);
        let mine = u32::from(e.low[m & 31]) + u32::from(e.high[m >> 5]);
        let theirs = u32::from(e.low[o & 31]) + u32::from(e.high[o >> 5]);
        sum += i32::from(*tables.get_unchecked((e.table + mine + 2 * theirs) as usize));
    }
    sum
}

/// The eight symmetries of an `n x n` square, as maps of (row, col).
fn symmetries(n: u8) -> [impl Fn((u8, u8)) -> (u8, u8); 8] {
    let l = n - 1;
    [0u8, 1, 2, 3, 4, 5, 6, 7].map(move |k| {
        move |(r, c): (u8, u8)| {
            let (r, c) = if k & 4 != 0 { (c, r) } else { (r, c) };
            let r = if k & 1 != 0 { l - r } else { r };
            let c = if k & 2 != 0 { l - c } else { c };
            (r, c)
        }
    })
}

/// The canonical squares of each class on an `n x n` board (the Octagon: 10, its cut squares
/// always empty): the patterns of the strong Othello programs, cut to at most ten squares.
fn class_shapes(n: u8) -> Vec<(String, Vec<(u8, u8)>)> {
    let l = n - 1;
    let mut out = Vec::new();
    let mut edge: Vec<(u8, u8)> = (0..n).map(|c| (0, c)).collect();
    if n <= 8 {
        edge.extend([(1, 1), (1, l - 1)]);
        out.push(("edge_x".to_string(), edge));
    } else {
        out.push(("edge".to_string(), edge));
    }
    out.push(("corner_3x3".to_string(), (0..3).flat_map(|r| (0..3).map(move |c| (r, c))).collect()));
    let long = (n / 2 + 1).min(5);
    out.push((format!("corner_2x{long}"), (0..2).flat_map(|r| (0..long).map(move |c| (r, c))).collect()));
    for k in 1..n / 2 {
        out.push((format!("line_{}", k + 1), (0..n).map(|c| (k, c)).collect()));
    }
    for len in 4..=n {
        out.push((format!("diagonal_{len}"), (0..len).map(|i| (i, len - 1 - i)).collect()));
    }
    out
}

const fn pow3(k: usize) -> usize {
    let mut p = 1;
    let mut i = 0;
    while i < k {
        p *= 3;
        i += 1;
    }
    p
}

/// The canonical entry of every content of a class whose squares some symmetries permute
/// (`perms[s][i]`: where square `i` goes): the smallest of its images, then numbered densely.
fn canonical_entries(squares: usize, perms: &[Vec<usize>]) -> (Vec<u32>, usize) {
    let size = pow3(squares);
    let mut smallest = vec![0u32; size];
    let mut digits = vec![0usize; squares];
    for (content, smallest) in smallest.iter_mut().enumerate() {
        let mut x = content;
        for d in digits.iter_mut() {
            *d = x % 3;
            x /= 3;
        }
        *smallest = perms
            .iter()
            .map(|perm| (0..squares).map(|i| digits[i] * pow3(perm[i])).sum::<usize>())
            .min()
            .unwrap_or(content) as u32;
    }
    let mut dense = vec![u32::MAX; size];
    let mut entries = 0u32;
    let mut canon = vec![0u32; size];
    for content in 0..size {
        let s = smallest[content] as usize;
        if dense[s] == u32::MAX {
            dense[s] = entries;
            entries += 1;
        }
        canon[content] = dense[s];
    }
    (canon, entries as usize)
}

impl Layout {
    /// The layout of a board shape with `stages` stages: 6x6, 8x8, 10x10 and the Octagon.
    pub fn new(shape: Shape, stages: usize) -> Result<Layout> {
        if !matches!(shape, Shape::Square(6 | 8 | 10) | Shape::Octagon) {
            return Err(Error::invalid(format!("no pattern layout for the {} board", shape.name())));
        }
        if !(1..=64).contains(&stages) {
            return Err(Error::invalid(format!("stages must be from 1 to 64, got {stages}")));
        }
        let n = shape.size();
        let width = if n <= 8 { 8 } else { 10 };
        let (mut classes, mut instances) = (Vec::new(), Vec::new());
        let (mut offset, mut table) = (0, 0);
        for (name, squares) in class_shapes(n) {
            let images: Vec<Vec<(u8, u8)>> =
                symmetries(n).iter().map(|g| squares.iter().map(|&s| g(s)).collect()).collect();
            // The symmetries that map the class onto itself, as permutations of its squares.
            let perms: Vec<Vec<usize>> = images
                .iter()
                .filter_map(|image| image.iter().map(|s| squares.iter().position(|t| t == s)).collect())
                .collect();
            let (canon, entries) = canonical_entries(squares.len(), &perms);
            let class = classes.len();
            let mut seen: Vec<Vec<(u8, u8)>> = Vec::new();
            for image in images {
                let mut set = image.clone();
                set.sort_unstable();
                if seen.contains(&set) {
                    continue;
                }
                seen.push(set);
                let squares = image.iter().map(|&(r, c)| r * width + c).collect();
                instances.push(Instance { class, squares });
            }
            let size = pow3(squares.len());
            classes.push(Class { name, squares: squares.len(), canon, entries, offset, table });
            offset += entries;
            table += size;
        }
        let squares = shape.squares().count() as u32;
        let reads: Vec<Read> = instances
            .iter()
            .map(|i: &Instance| {
                let mut squares = [0u8; MAX_SQUARES];
                squares[..i.squares.len()].copy_from_slice(&i.squares);
                Read { squares, len: i.squares.len() as u8, table: classes[i.class].table as u32 }
            })
            .collect();
        let extracts = if width == 8 { reads.iter().map(Extract::new).collect() } else { Vec::new() };
        Ok(Layout {
            reads,
            extracts,
            shape,
            classes,
            instances,
            stages,
            params: offset + GLOBALS.len(),
            pattern_len: table,
            squares,
        })
    }

    /// Instances of all classes (the pattern columns of a training row).
    pub fn instances(&self) -> usize {
        self.instances.len()
    }

    /// Whether a position is read by this layout: its shape, without holes.
    pub fn reads(&self, position: &Reversi) -> bool {
        position.shape() == self.shape && with_board!(position, b => b.holes.is_zero())
    }

    /// The stage of a position with `empties` empty squares.
    #[inline(always)]
    fn stage(&self, empties: u32) -> usize {
        (empties as usize * self.stages / (self.squares as usize - 3)).min(self.stages - 1)
    }

    /// A position's training row: its stage, the column (within the stage's parameters) each
    /// instance reads, and the global terms after the bias.
    pub fn columns(&self, position: &Reversi, columns: &mut Vec<u32>) -> (usize, [f32; 3]) {
        columns.clear();
        with_board!(position, b => {
            let (me, opp) = (b.me.to_u128(), b.opponent.to_u128());
            for instance in &self.instances {
                let class = &self.classes[instance.class];
                let content = content(me, opp, &instance.squares);
                columns.push((class.offset + class.canon[content] as usize) as u32);
            }
            (self.stage(empties(b)), super::features::pattern_globals(b))
        })
    }
}

#[inline(always)]
fn empties<F: Frame>(b: &Board<F>) -> u32 {
    (b.playable & !(b.me | b.opponent)).count()
}

/// The base-3 content of `squares` (the first the lowest digit).
#[inline(always)]
fn content(me: u128, opp: u128, squares: &[u8]) -> usize {
    let mut x = 0usize;
    for &s in squares.iter().rev() {
        x = x * 3 + ((me >> s) & 1) as usize + 2 * ((opp >> s) & 1) as usize;
    }
    x
}

/// Fitted pattern weights for one board shape, expanded for the evaluation.
#[derive(Debug)]
pub struct Patterns {
    layout: Layout,
    /// Per stage, `layout.pattern_len` weights, in hundredths of a point (16 bits, as Edax keeps
    /// them: a stage's tables then fit a core's L2 cache, which measured 1.4x faster than f32).
    tables: Vec<i16>,
    /// Per stage, the globals' weights, in points.
    globals: Vec<[f32; 4]>,
    /// Multi-ProbCut's errors, in points: `sigma[d]` for a `d`-ply search (none below
    /// `PROBCUT_MIN_DEPTH`; the last entry serves deeper searches); empty: no selective search.
    sigmas: Vec<f32>,
}

impl Patterns {
    /// Weights for `layout`: `stages * params` numbers (per stage, every class's canonical
    /// entries in order, then the globals), or why they do not fit.
    pub fn new(layout: Layout, weights: &[f32]) -> Result<Patterns> {
        let expected = layout.stages * layout.params;
        if weights.len() != expected {
            return Err(Error::invalid(format!(
                "{} pattern weights given, the {} layout of {} stages needs {expected}",
                weights.len(),
                layout.shape.name(),
                layout.stages
            )));
        }
        if weights.iter().any(|w| !w.is_finite()) {
            return Err(Error::invalid("pattern weights must be finite numbers"));
        }
        if weights.iter().any(|w| w.abs() * SCALE_F >= f32::from(i16::MAX)) {
            return Err(Error::invalid("pattern weights must lie within +-327 points"));
        }
        let mut tables = Vec::with_capacity(layout.stages * layout.pattern_len);
        let mut globals = Vec::with_capacity(layout.stages);
        for stage in weights.chunks(layout.params) {
            for class in &layout.classes {
                tables.extend(class.canon.iter().map(|&e| (stage[class.offset + e as usize] * SCALE_F).round() as i16));
            }
            let g = &stage[layout.params - GLOBALS.len()..];
            globals.push([g[0], g[1], g[2], g[3]]);
        }
        Ok(Patterns { layout, tables, globals, sigmas: Vec::new() })
    }

    /// These weights with Multi-ProbCut's errors (`sigmas[d]`, in points, for a `d`-ply
    /// search; see `probcut_sigma`), fitted for them by `tools/train_patterns.py probcut`.
    pub fn with_sigmas(mut self, sigmas: Vec<f32>) -> Result<Patterns> {
        if sigmas.iter().any(|s| !s.is_finite() || *s < 0.0) {
            return Err(Error::invalid("probcut sigmas must be finite numbers >= 0"));
        }
        self.sigmas = sigmas;
        Ok(self)
    }

    /// Multi-ProbCut's error for a `depth`-ply search, in hundredths of a point (a zero entry,
    /// or none fitted: no cut).
    #[inline]
    pub fn probcut_sigma(&self, depth: i32) -> Option<i32> {
        let last = self.sigmas.len().checked_sub(1)?;
        let sigma = self.sigmas[(depth.max(0) as usize).min(last)];
        (sigma > 0.0).then_some((sigma * crate::search::SCALE as f32) as i32)
    }

    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// The estimated final margin, in points, for the side to move (a position the layout
    /// `reads`).
    #[inline]
    pub fn margin(&self, position: &Reversi) -> f32 {
        with_board!(position, b => self.margin_of(b))
    }

    #[inline(always)]
    fn margin_of<F: Frame>(&self, b: &Board<F>) -> f32 {
        let layout = &self.layout;
        let stage = layout.stage(empties(b));
        let tables = &self.tables[stage * layout.pattern_len..(stage + 1) * layout.pattern_len];
        #[cfg(target_arch = "x86_64")]
        if F::W == 8 && crate::cpu::has_fast_pdep() {
            let (me, opp) = (b.me.to_u128() as u64, b.opponent.to_u128() as u64);
            // SAFETY: the CPU has BMI2 (has_fast_pdep), and every extract reads within its
            // class's table, which `tables` (one stage's) holds whole. Two PEXTs an instance
            // instead of a multiply-add a square: the evaluation runs about twice as fast.
            let sum = unsafe { extracted_sum(&layout.extracts, me, opp, tables) };
            return self.with_globals(b, stage, sum);
        }
        self.with_globals(b, stage, read_sum(layout, b, tables))
    }

    /// The margin from the patterns' `sum` (in the tables' hundredths) and the global terms.
    #[inline(always)]
    fn with_globals<F: Frame>(&self, b: &Board<F>, stage: usize, sum: i32) -> f32 {
        let g = &self.globals[stage];
        let [mobility, potential, parity] = super::features::pattern_globals(b);
        sum as f32 / SCALE_F + g[0] + g[1] * mobility + g[2] * potential + g[3] * parity
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Position;
    use crate::rng::SplitMix64;

    fn layout(shape: Shape) -> Layout {
        Layout::new(shape, 4).unwrap()
    }

    #[test]
    fn the_8x8_layout_has_the_classic_patterns() {
        let l = layout(Shape::Square(8));
        let names: Vec<_> = l.classes.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "edge_x",
                "corner_3x3",
                "corner_2x5",
                "line_2",
                "line_3",
                "line_4",
                "diagonal_4",
                "diagonal_5",
                "diagonal_6",
                "diagonal_7",
                "diagonal_8"
            ]
        );
        // 4 edges, 4 corner blocks, 8 2x5 blocks, 4 of each line, 4 of each short diagonal, 2 long.
        assert_eq!(l.instances(), 4 + 4 + 8 + 12 + 16 + 2);
        // A symmetric class shares mirror images: the edge has (3^10 + 3^5)/2 entries.
        assert_eq!(l.classes[0].entries, (pow3(10) + pow3(5)) / 2);
        assert_eq!(l.classes[2].entries, pow3(10));
    }

    #[test]
    #[cfg(target_arch = "x86_64")]
    fn pext_reads_the_same_entries_as_square_by_square_reading() {
        if !crate::cpu::has_fast_pdep() {
            return;
        }
        for shape in [Shape::Square(6), Shape::Square(8)] {
            let l = layout(shape);
            let tables: Vec<i16> = (0..l.pattern_len).map(|i| (i * 7919 % 65_521) as i16).collect();
            let mut rng = SplitMix64::new(11);
            let start = crate::reversi::Variant::new(shape, vec![], 0, crate::game::Player::Black).unwrap().start();
            let mut p = start;
            for _ in 0..400 {
                match p.sample_move(&mut rng) {
                    Some(mv) => p.play_unchecked(mv),
                    None => p = start,
                }
                with_board!(&p, b => {
                    let (me, opp) = (b.me.to_u128() as u64, b.opponent.to_u128() as u64);
                    // SAFETY: has_fast_pdep, and the tables are one stage's, whole.
                    let fast = unsafe { extracted_sum(&l.extracts, me, opp, &tables) };
                    assert_eq!(fast, read_sum(&l, b, &tables), "{}", p.to_notation());
                });
            }
        }
    }

    /// Weights in whole hundredths, as the tables keep them (so sums compare exactly).
    fn random_weights(l: &Layout, seed: u64) -> Vec<f32> {
        let mut rng = SplitMix64::new(seed);
        (0..l.stages * l.params).map(|_| (rng.below(101) as f32 - 50.0) / 100.0).collect()
    }

    fn mirrored(notation: &str, g: usize) -> String {
        // Board rows of the notation, mirrored by symmetry g (same side to move).
        let (size, rest) = notation.split_once(' ').unwrap();
        let (board, side) = rest.rsplit_once(' ').unwrap();
        let rows: Vec<Vec<char>> = board.split('/').map(|r| r.chars().collect()).collect();
        let n = rows.len() as u8;
        let map = &symmetries(n)[g];
        let mut out = rows.clone();
        for r in 0..n {
            for c in 0..n {
                let (r2, c2) = map((r, c));
                out[r2 as usize][c2 as usize] = rows[r as usize][c as usize];
            }
        }
        let rows: Vec<String> = out.iter().map(|r| r.iter().collect()).collect();
        format!("{size} {} {side}", rows.join("/"))
    }

    #[test]
    fn symmetric_positions_get_equal_values() {
        for shape in [Shape::Square(6), Shape::Square(8), Shape::Square(10), Shape::Octagon] {
            let l = layout(shape);
            let weights = random_weights(&l, 7);
            let patterns = Patterns::new(l, &weights).unwrap();
            let mut rng = SplitMix64::new(3);
            let mut p = crate::reversi::Variant::new(shape, vec![], 0, crate::game::Player::Black).unwrap().start();
            for _ in 0..30 {
                let Some(mv) = p.sample_move(&mut rng) else { break };
                p.play_unchecked(mv);
                let value = patterns.margin(&p);
                for g in 1..8 {
                    let image = Reversi::from_notation(&mirrored(&p.to_notation(), g)).unwrap();
                    let other = patterns.margin(&image);
                    assert!((value - other).abs() < 1e-3, "{shape:?} symmetry {g}: {value} vs {other}");
                }
            }
        }
    }

    #[test]
    fn the_evaluation_is_the_sum_of_the_training_row() {
        let l = layout(Shape::Square(8));
        let weights = random_weights(&l, 11);
        let patterns = Patterns::new(layout(Shape::Square(8)), &weights).unwrap();
        let mut rng = SplitMix64::new(5);
        let mut p =
            crate::reversi::Variant::new(Shape::Square(8), vec![], 0, crate::game::Player::Black).unwrap().start();
        let mut columns = Vec::new();
        while let Some(mv) = p.sample_move(&mut rng) {
            p.play_unchecked(mv);
            let (stage, globals) = l.columns(&p, &mut columns);
            let w = &weights[stage * l.params..(stage + 1) * l.params];
            let g = &w[l.params - GLOBALS.len()..];
            let expected = columns.iter().map(|&c| w[c as usize]).sum::<f32>()
                + g[0]
                + g[1] * globals[0]
                + g[2] * globals[1]
                + g[3] * globals[2];
            assert!((patterns.margin(&p) - expected).abs() < 1e-3);
        }
    }

    #[test]
    fn weights_that_do_not_fit_are_refused() {
        let l = layout(Shape::Square(6));
        let n = l.stages * l.params;
        assert!(Patterns::new(layout(Shape::Square(6)), &vec![0.0; n - 1]).is_err());
        assert!(Patterns::new(layout(Shape::Square(6)), &vec![f32::NAN; n]).is_err());
        assert!(Layout::new(Shape::Square(4), 4).is_err());
    }
}
