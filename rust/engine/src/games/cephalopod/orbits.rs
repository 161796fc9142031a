//! Colour-free path counting over symmetry orbits: the fast form of `count_paths(depth,
//! owners=False)` and of `path_totals` on boards of up to 21 squares (docs/cephalopod.md,
//! "Counting paths fast").
//!
//! Three things make it fast, each measured on issue 16's contest workload (3x3 boards, depths to
//! 40), where the generic layer loop over `PipsOnly` spends its time in hash maps of 32-byte
//! entries far larger than the caches:
//!
//! 1. **Orbits.** The board's symmetries (8 on a square, 4 on other rectangles) send moves to
//!    moves, so the futures of a position and of its mirror image are mirror images. Each layer
//!    holds one entry per orbit, under its least image (the canonical key), with one count per
//!    map: `counts[t]` is the number of paths to the image of the canonical key under map `t`.
//!    A child `c` of canonical `k` is `u⁻¹(m)` for its canonical `m = u(c)`, so the child of
//!    `t(k)` is `(t ∘ u⁻¹)(m)`: the counts move to `m` permuted by a fixed table. Every final
//!    position stays recoverable exactly (the rows are the images, expanded at the end), and the
//!    tables hold up to 8 times fewer entries.
//! 2. **Narrow keys in flat tables.** A board is 3 bits a square in a `u64` (square 0 highest, so
//!    keys sort as `PipsOnly`'s do) and the layers live in two [`FlatTable`]s reused ply after ply.
//! 3. **Totals without rows.** `path_totals` reads the per-square totals off the orbits directly,
//!    never listing the final positions.
//!
//! Counts are exact (`u128`, an overflow is an error) or, in the wrapping mode, taken modulo
//! 2**64 (`u64`: half the memory traffic, for callers who only need a residue).

use super::{captures, Cephalopod, PipsOnly};
use crate::error::{Error, Result};
use crate::flat_table::FlatTable;
use crate::interrupt::Stop;
use crate::paths::{Progress, PIPS};
use crate::square::GridMap;

/// The largest board counted over orbits: 21 squares of 3 bits fill 63 bits of a `u64` key
/// (bigger boards take the generic `PipsOnly` count).
pub const MAX_SQUARES: usize = 21;

/// About the most memory the tables of one count may hold by default (the layer read, the layer
/// built and the finished games): 1 GiB, as for the generic count (`paths::MAX_POSITIONS`).
/// [`Options::max_positions`] moves it.
pub const MAX_BYTES: usize = 1 << 30;

/// The memory one position of the cap stands for: a cap of `n` positions lets these tables hold
/// `n * BYTES_PER_POSITION` bytes, the generic count's own bound for Cephalopod's entries.
pub const BYTES_PER_POSITION: usize = MAX_BYTES / crate::paths::MAX_POSITIONS;

/// How to count: over orbits or position by position (the same result), exactly or modulo 2**64.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// Merge positions under the board's symmetries (no change to the result, only to the speed).
    pub symmetry: bool,
    /// Counts modulo 2**64 rather than exact.
    pub wrapping: bool,
    /// The memory cap, in positions held at once (`None`: [`crate::paths::MAX_POSITIONS`], about
    /// 1 GiB); a machine with more memory can raise it to count deeper.
    pub max_positions: Option<usize>,
}

impl Default for Options {
    fn default() -> Self {
        Options { symmetry: true, wrapping: false, max_positions: None }
    }
}

impl Options {
    fn max_bytes(&self) -> usize {
        self.max_positions.map_or(MAX_BYTES, |n| n.saturating_mul(BYTES_PER_POSITION))
    }
}

/// The final positions (as `PipsOnly` keys, sorted) with their path counts: `count_paths`.
pub fn colour_free_paths(
    root: &Cephalopod,
    depth: u32,
    options: Options,
    stop: &Stop,
    progress: &mut Progress<'_>,
) -> Result<Vec<(u128, u128)>> {
    if root.rect.len() > MAX_SQUARES {
        let rows = crate::paths::count_paths_reporting(&PipsOnly(*root), depth, options.max_positions, stop, progress)?;
        return Ok(crate::paths::wrapped(rows, options.wrapping));
    }
    Orbits::new(root, options).dispatch::<ListRows>(root, depth, options.wrapping, stop, progress)
}

/// `T[square * 7 + pips]`: the number of paths whose final position shows `pips` (0 for empty)
/// on `square`, exact (or modulo 2**64 in the wrapping mode): `path_totals`.
pub fn colour_free_totals(
    root: &Cephalopod,
    depth: u32,
    options: Options,
    stop: &Stop,
    progress: &mut Progress<'_>,
) -> Result<Vec<u128>> {
    if root.rect.len() > MAX_SQUARES {
        let rows = colour_free_paths(root, depth, options, stop, progress)?;
        return totals_of_rows(root.rect.len(), &rows, options.wrapping);
    }
    Orbits::new(root, options).dispatch::<SumTotals>(root, depth, options.wrapping, stop, progress)
}

/// The per-square totals of rows of `PipsOnly` keys (`paths::square_totals` of their cells).
pub fn totals_of_rows(squares: usize, rows: &[(u128, u128)], wrapping: bool) -> Result<Vec<u128>> {
    let cells: Vec<i8> =
        rows.iter().flat_map(|&(key, _)| PipsOnly::pips_cells(key, squares).map(|p| p as i8)).collect();
    let counts: Vec<u128> = rows.iter().map(|&(_, count)| count).collect();
    crate::paths::square_totals(&cells, squares, &counts, wrapping)
}

/// A path count: exact (`u64` or `u128`, an overflow noted) or modulo 2**64 ([`Mod64`]).
trait PathCount: Copy + Default + PartialEq + Send {
    fn add(self, other: Self, overflow: &mut bool) -> Self;
    fn widen(self) -> u128;
    const ONE: Self;
    /// A sum of widened counts, as this kind of count reports it (reduced modulo 2**64 when
    /// counting modulo 2**64).
    fn reduce(total: u128) -> u128 {
        total
    }
}

/// The exact counts, unsigned integers whose sums note an overflow.
macro_rules! exact_path_count {
    ($($(#[$doc:meta])* $t:ty),+ $(,)?) => {$(
        $(#[$doc])*
        impl PathCount for $t {
            #[inline(always)]
            fn add(self, other: Self, overflow: &mut bool) -> Self {
                let (sum, over) = self.overflowing_add(other);
                *overflow |= over;
                sum
            }
            fn widen(self) -> u128 {
                u128::from(self)
            }
            const ONE: Self = 1;
        }
    )+};
}

exact_path_count!(
    u128,
    /// Exact counts start here: half the memory of `u128`, and enough for almost every count
    /// (the empty 3x3 board to depth 40 included); one that overflows is counted again in `u128`.
    u64,
);

/// A count modulo 2**64 (the wrapping mode): never overflows.
#[derive(Clone, Copy, Default, PartialEq)]
struct Mod64(u64);

impl PathCount for Mod64 {
    #[inline(always)]
    fn add(self, other: Self, _overflow: &mut bool) -> Self {
        Mod64(self.0.wrapping_add(other.0))
    }
    fn widen(self) -> u128 {
        self.0 as u128
    }
    const ONE: Self = Mod64(1);
    fn reduce(total: u128) -> u128 {
        total as u64 as u128
    }
}

/// The counts of one orbit, one per map (`Default` by hand: arrays of any `N` have none).
#[derive(Clone, Copy)]
struct Counts<C, const N: usize>([C; N]);

impl<C: PathCount, const N: usize> Default for Counts<C, N> {
    fn default() -> Self {
        Counts([C::default(); N])
    }
}

/// What a count ends with, read off its final orbits.
trait Finish {
    type Output;
    fn finish<C: PathCount, const N: usize>(orbits: &Orbits, done: &Layers<C, N>) -> Result<Self::Output>;
}

/// The final positions with their counts (`count_paths`).
struct ListRows;

/// The per-square, per-pips totals (`path_totals`).
struct SumTotals;

impl Finish for ListRows {
    type Output = Vec<(u128, u128)>;
    fn finish<C: PathCount, const N: usize>(orbits: &Orbits, done: &Layers<C, N>) -> Result<Self::Output> {
        // The images (key and count) and the rows (two u128) of every final position.
        let row = std::mem::size_of::<(u64, C)>() + std::mem::size_of::<(u128, u128)>();
        orbits.within_memory(done.final_orbits() * N * row, done.ply, done.ply)?; // listing the last layer
        let mut overflow = false;
        let rows = orbits.rows(done, &mut overflow);
        checked(rows, overflow)
    }
}

impl Finish for SumTotals {
    type Output = Vec<u128>;
    fn finish<C: PathCount, const N: usize>(orbits: &Orbits, done: &Layers<C, N>) -> Result<Self::Output> {
        let mut overflow = false;
        let totals = orbits.totals(done, &mut overflow);
        checked(totals, overflow)
    }
}

fn checked<T>(value: T, overflow: bool) -> Result<T> {
    match overflow {
        true => Err(Error::Overflow("count_paths: a path count passed 2**128".into())),
        false => Ok(value),
    }
}

/// A board's geometry for counting over orbits: its squares' neighbours, its maps (the identity
/// first) as square permutations and as key images, and how maps compose.
struct Orbits {
    squares: usize,
    neighbours: &'static [[u8; 4]],
    /// `maps[t][s]`: the square that map `t` sends square `s` to.
    maps: Vec<Vec<usize>>,
    /// `images[t * chunks + j][bits]`: the image under map `t` of the key whose only nonzero bits
    /// are `bits` at chunk `j` (bits `9j` to `9j + 8`, three squares).
    images: Vec<[u64; 512]>,
    chunks: usize,
    /// `after[t][u]`: the map `t ∘ u⁻¹`.
    after: [[u8; 8]; 8],
    /// `keep[(square * 16 + captured) * 8 + t]`: the bits of the image under map `t` that a move
    /// on `square` capturing the neighbour slots `captured` leaves as they were.
    keep: Vec<u64>,
    /// `placed_shift[square * 8 + t]`: where the die placed on `square` goes in the image under
    /// map `t`.
    placed_shift: Vec<u32>,
    /// The most bytes the count's tables may hold (`Options::max_positions`).
    max_bytes: usize,
}

impl Orbits {
    fn new(root: &Cephalopod, options: Options) -> Orbits {
        let symmetry = options.symmetry;
        let rect = root.rect;
        let squares = rect.len();
        let maps: Vec<Vec<usize>> = if symmetry {
            GridMap::keeping(rect.rows, rect.cols, |_| 0)
                .into_iter()
                .map(|map| map.permutation(rect.rows, rect.cols))
                .collect()
        } else {
            vec![(0..squares).collect()]
        };
        let chunks = squares.div_ceil(3);
        let (keep, placed_shift) = move_masks(&maps, &rect.neighbours);
        Orbits {
            squares,
            neighbours: &rect.neighbours,
            images: image_tables(&maps, chunks),
            chunks,
            after: composition(&maps),
            keep,
            placed_shift,
            maps,
            max_bytes: options.max_bytes(),
        }
    }

    fn key(&self, root: &Cephalopod) -> u64 {
        (0..self.squares).fold(0, |key, square| key | (root.pips[square] as u64) << shift(self.squares, square))
    }

    #[inline(always)]
    fn pips(&self, key: u64, square: usize) -> u8 {
        (key >> shift(self.squares, square) & 7) as u8
    }

    /// The image of `key` under map `t`.
    #[inline(always)]
    fn image(&self, t: usize, key: u64) -> u64 {
        let tables = &self.images[t * self.chunks..(t + 1) * self.chunks];
        tables.iter().enumerate().fold(0, |image, (chunk, table)| image | table[(key >> (9 * chunk) & 511) as usize])
    }

    /// The least image of `key` and the map `u` that gives it.
    #[inline(always)]
    fn canonical<const N: usize>(&self, key: u64) -> (u64, usize) {
        if N == 1 {
            return (key, 0);
        }
        let mut least = (key, 0);
        for t in 1..N {
            let image = self.image(t, key);
            if image < least.0 {
                least = (image, t);
            }
        }
        least
    }

    /// Calls `child(canonical, u)` for every position one move after the position `key`, with
    /// `canonical` its least image, given by map `u`; false for a full board. The images of a
    /// child are those of `key` with the move's squares rewritten, so they are made once per
    /// position and patched per move.
    #[inline(always)]
    fn for_each_child<const N: usize>(&self, key: u64, mut child: impl FnMut(u64, usize)) -> bool {
        let mut images = [key; N];
        for (t, image) in images.iter_mut().enumerate().skip(1) {
            *image = self.image(t, key);
        }
        let squares = self.squares;
        let pips = |square: u8| if square as usize >= squares { 0 } else { self.pips(key, square as usize) };
        captures::for_each_move(self.neighbours, pips, |square, captured, placed| {
            let keep = &self.keep[(square * 16 + captured as usize) * 8..][..N];
            let shifts = &self.placed_shift[square * 8..][..N];
            let mut least = (u64::MAX, 0);
            for t in 0..N {
                let image = images[t] & keep[t] | (placed as u64) << shifts[t];
                if image < least.0 {
                    least = (image, t);
                }
            }
            child(least.0, least.1);
        })
    }

    /// Counts modulo 2**64, or exactly: in `u64` while every count fits (the ply that would
    /// pass 2**64 and every ply after it in `u128`).
    fn dispatch<F: Finish>(
        &self,
        root: &Cephalopod,
        depth: u32,
        wrapping: bool,
        stop: &Stop,
        progress: &mut Progress<'_>,
    ) -> Result<F::Output> {
        match (wrapping, self.maps.len()) {
            (true, 1) => self.run::<F, Mod64, 1>(root, depth, stop, progress),
            (true, 4) => self.run::<F, Mod64, 4>(root, depth, stop, progress),
            (true, 8) => self.run::<F, Mod64, 8>(root, depth, stop, progress),
            (false, 1) => self.run::<F, u64, 1>(root, depth, stop, progress),
            (false, 4) => self.run::<F, u64, 4>(root, depth, stop, progress),
            (false, 8) => self.run::<F, u64, 8>(root, depth, stop, progress),
            (_, maps) => unreachable!("a rectangle has 1, 4 or 8 maps, not {maps}"),
        }
    }

    fn run<F: Finish, C: PathCount, const N: usize>(
        &self,
        root: &Cephalopod,
        depth: u32,
        stop: &Stop,
        progress: &mut Progress<'_>,
    ) -> Result<F::Output> {
        let mut narrow = Layers::<C, N>::start(self, self.key(root));
        if !self.advance(&mut narrow, depth, stop, progress)? {
            return F::finish(self, &narrow);
        }
        // The wide tables hold the live and finished orbits with counts twice as wide.
        let orbit = std::mem::size_of::<Counts<u128, N>>() + 2 * std::mem::size_of::<u64>() + 16;
        self.within_memory(narrow.bytes() + 2 * narrow.final_orbits() * orbit, depth, narrow.ply + 1)?;
        narrow.next = FlatTable::with_capacity(1);
        let mut wide = narrow.widen();
        drop(narrow);
        if self.advance(&mut wide, depth, stop, progress)? {
            return Err(Error::Overflow("count_paths: a path count passed 2**128".into()));
        }
        F::finish(self, &wide)
    }

    /// Plays `state` on, ply after ply, to `depth` or until no game is live. Returns true, with
    /// `state` as it was at the start of that ply, if a count of the ply would pass what `C`
    /// holds; false when done (the final positions are then `state.layer` and `state.finished`).
    fn advance<C: PathCount, const N: usize>(
        &self,
        state: &mut Layers<C, N>,
        depth: u32,
        stop: &Stop,
        progress: &mut Progress<'_>,
    ) -> Result<bool> {
        let mut full = Vec::new();
        // Children of a few positions at a time, placed in three passes so that their cache
        // misses overlap (`FlatTable::prefetch`): canonical keys, their places in `next`, counts.
        let mut batch = Batch::<C, N>::default();
        while state.ply < depth && !state.layer.is_empty() {
            let Layers { layer, next, finished, .. } = state;
            next.clear();
            full.clear();
            let mut overflow = false;
            for (i, (key, &counts)) in layer.iter().enumerate() {
                if i % 4096 == 0 {
                    stop.check()?;
                    self.check_memory(depth, state.ply, [&*layer, &*next, &*finished])?;
                }
                let parent = batch.parents.len() as u32;
                let children = &mut batch.children;
                if !self.for_each_child::<N>(key, |canonical, u| children.push((canonical, u as u8, parent))) {
                    full.push((key, counts));
                    continue;
                }
                batch.parents.push(counts);
                if batch.children.len() >= BATCH {
                    self.place_batch(&mut batch, next, &mut overflow);
                }
            }
            self.place_batch(&mut batch, next, &mut overflow);
            if overflow || !merge_all(finished, &full) {
                return Ok(true);
            }
            std::mem::swap(layer, next);
            state.ply += 1;
            if state.layer.is_empty() {
                // Every game has ended: the deeper plies are all done (as the generic count says).
                state.ply = depth;
            }
            progress(state.ply, state.layer.len())?;
        }
        Ok(false)
    }

    /// Adds the counts of every child in `batch` into `next`, and empties the batch.
    #[inline(always)]
    fn place_batch<C: PathCount, const N: usize>(
        &self,
        batch: &mut Batch<C, N>,
        next: &mut FlatTable<Counts<C, N>>,
        overflow: &mut bool,
    ) {
        let Batch { parents, children, places } = batch;
        children.iter().for_each(|&(canonical, _, _)| next.prefetch(canonical));
        places.clear();
        for &(canonical, _, _) in children.iter() {
            let at = next.place(canonical);
            next.prefetch_value(at);
            places.push(at);
        }
        for (&(_, u, parent), &at) in children.iter().zip(places.iter()) {
            let counts = &parents[parent as usize];
            let entry = next.value_mut(at);
            for (t, &count) in counts.0.iter().enumerate() {
                let to = self.after[t][u as usize] as usize;
                entry.0[to] = entry.0[to].add(count, overflow);
            }
        }
        parents.clear();
        children.clear();
    }

    /// `TooLarge` if the tables, with the largest of them grown once more (a growth holds the old
    /// index and the new one at once), would pass [`MAX_BYTES`].
    fn check_memory<V: Copy + Default>(&self, depth: u32, ply: u32, tables: [&FlatTable<V>; 3]) -> Result<()> {
        let largest = tables.iter().map(|t| t.bytes()).max().unwrap_or(0);
        let bytes: usize = tables.iter().map(|t| t.bytes()).sum::<usize>() + 2 * largest;
        self.within_memory(bytes, depth, ply + 1)
    }

    /// `TooLarge` if `bytes` would pass the count's cap (checked before allocating them).
    fn within_memory(&self, bytes: usize, depth: u32, reached: u32) -> Result<()> {
        if bytes > self.max_bytes {
            return Err(Error::TooLarge(format!(
                "count_paths to depth {depth} needs more than {} positions' worth of memory ({} KiB) at \
                 once (reached at depth {reached}); ask for a smaller depth or a larger max_positions",
                self.max_bytes / BYTES_PER_POSITION,
                self.max_bytes >> 10,
            )));
        }
        Ok(())
    }

    /// Every final position (each orbit's images) with its count, as sorted `PipsOnly` keys.
    /// Images that coincide (a position its own mirror image) are summed.
    fn rows<C: PathCount, const N: usize>(&self, done: &Layers<C, N>, overflow: &mut bool) -> Vec<(u128, u128)> {
        let mut images: Vec<(u64, C)> = Vec::with_capacity(done.final_orbits() * N);
        // (`ListRows::finish` checked that these and the rows fit in memory.)
        for (key, counts) in done.finals() {
            for (t, &count) in counts.0.iter().enumerate() {
                if count != C::default() {
                    images.push((if N == 1 { key } else { self.image(t, key) }, count));
                }
            }
        }
        images.sort_unstable_by_key(|&(key, _)| key);
        // Sums in u128 whatever the counts: images of one position add up, and totals of u64
        // counts may pass 2**64 when no count does.
        let mut rows: Vec<(u128, u128)> = Vec::with_capacity(images.len());
        for (key, count) in images {
            let key = self.pips_only_key(key);
            match rows.last_mut() {
                Some((held, sum)) if *held == key => *sum = sum.add(count.widen(), overflow),
                _ => rows.push((key, count.widen())),
            }
        }
        for (_, sum) in &mut rows {
            *sum = C::reduce(*sum);
        }
        // Modulo 2**64, images of one position may add up to 0 (the rows then leave it out).
        rows.retain(|&(_, sum)| sum != 0);
        rows
    }

    /// `T[square * 7 + pips]` over the final orbits, each image's squares through its map.
    fn totals<C: PathCount, const N: usize>(&self, done: &Layers<C, N>, overflow: &mut bool) -> Vec<u128> {
        let mut totals = vec![0u128; self.squares * PIPS];
        for (key, counts) in done.finals() {
            for square in 0..self.squares {
                let pips = self.pips(key, square) as usize;
                for (map, &count) in self.maps.iter().zip(&counts.0) {
                    let total = &mut totals[map[square] * PIPS + pips];
                    *total = total.add(count.widen(), overflow);
                }
            }
        }
        totals.into_iter().map(C::reduce).collect()
    }

    /// The same board as `PipsOnly`'s key: the same 3-bit fields in the same order, higher up.
    fn pips_only_key(&self, key: u64) -> u128 {
        (key as u128) << super::pips::pips_shift(self.squares - 1)
    }
}

/// `Orbits::images`: per map and chunk of three squares (9 bits of the key), the image of every
/// value of the chunk.
fn image_tables(maps: &[Vec<usize>], chunks: usize) -> Vec<[u64; 512]> {
    let squares = maps[0].len();
    let mut images = vec![[0u64; 512]; maps.len() * chunks];
    for (t, map) in maps.iter().enumerate() {
        for chunk in 0..chunks {
            for (bits, image) in images[t * chunks + chunk].iter_mut().enumerate() {
                for within in 0..3 {
                    // Bits 9j + 3i hold square squares - 1 - (3j + i) (square 0 highest).
                    let Some(square) = (squares - 1).checked_sub(3 * chunk + within) else { continue };
                    let pips = (bits >> (3 * within) & 7) as u64;
                    *image |= pips << shift(squares, map[square]);
                }
            }
        }
    }
    images
}

/// `Orbits::after`: the index of the map `t ∘ u⁻¹` for every pair of maps.
fn composition(maps: &[Vec<usize>]) -> [[u8; 8]; 8] {
    let inverse = |map: &Vec<usize>| {
        let mut inverse = vec![0; map.len()];
        map.iter().enumerate().for_each(|(s, &image)| inverse[image] = s);
        inverse
    };
    let mut after = [[0u8; 8]; 8];
    for (t, map_t) in maps.iter().enumerate() {
        for (u, map_u) in maps.iter().enumerate() {
            let composed: Vec<usize> = inverse(map_u).iter().map(|&s| map_t[s]).collect();
            after[t][u] = maps.iter().position(|m| *m == composed).expect("the maps form a group") as u8;
        }
    }
    after
}

/// `Orbits::keep` and `Orbits::placed_shift`: per square, captured slots and map, the image bits
/// a move leaves alone, and where its placed die goes in the image.
fn move_masks(maps: &[Vec<usize>], neighbours: &[[u8; 4]]) -> (Vec<u64>, Vec<u32>) {
    let squares = neighbours.len();
    let mut keep = vec![0u64; squares * 16 * 8];
    let mut placed_shift = vec![0u32; squares * 8];
    let board = u64::MAX >> (64 - 3 * squares);
    for square in 0..squares {
        for (t, map) in maps.iter().enumerate() {
            placed_shift[square * 8 + t] = shift(squares, map[square]);
            for captured in 0..16usize {
                let emptied = (0..4)
                    .filter(|slot| captured >> slot & 1 == 1)
                    .map(|slot| neighbours[square][slot] as usize)
                    .filter(|&n| n < squares)
                    .chain([square])
                    .fold(0u64, |bits, s| bits | 7 << shift(squares, map[s]));
                keep[(square * 16 + captured) * 8 + t] = board & !emptied;
            }
        }
    }
    (keep, placed_shift)
}

/// Where square `square`'s pips sit in a `u64` key of a `squares`-square board: square 0 highest.
#[inline(always)]
fn shift(squares: usize, square: usize) -> u32 {
    3 * (squares - 1 - square) as u32
}

/// About how many children `Orbits::advance` gathers before placing them: enough cache misses
/// in flight to overlap, few enough that their lines are still cached when written.
const BATCH: usize = 32;

/// Children waiting to be placed: each with its canonical key, map and parent (an index into
/// `parents`, the parents' counts), and, while placing, their places in the next table.
struct Batch<C, const N: usize> {
    parents: Vec<Counts<C, N>>,
    children: Vec<(u64, u8, u32)>,
    places: Vec<usize>,
}

impl<C, const N: usize> Default for Batch<C, N> {
    fn default() -> Self {
        Batch { parents: Vec::new(), children: Vec::new(), places: Vec::new() }
    }
}

/// The state of a count between plies: the plies done, the live orbits, the table the next
/// ply is built in, and the games over (full boards) with their counts.
struct Layers<C, const N: usize> {
    ply: u32,
    layer: FlatTable<Counts<C, N>>,
    next: FlatTable<Counts<C, N>>,
    finished: FlatTable<Counts<C, N>>,
}

impl<C: PathCount, const N: usize> Layers<C, N> {
    fn start(orbits: &Orbits, root: u64) -> Self {
        let mut layer: FlatTable<Counts<C, N>> = FlatTable::with_capacity(1);
        let (canonical, u) = orbits.canonical::<N>(root);
        // The root is u⁻¹ of its canonical key: its one path goes to the slot of that map.
        layer.entry(canonical).0[orbits.after[0][u] as usize] = C::ONE;
        Layers { ply: 0, layer, next: FlatTable::with_capacity(1), finished: FlatTable::with_capacity(1) }
    }

    /// The same state in `u128` counts.
    fn widen(&self) -> Layers<u128, N> {
        let widen = |table: &FlatTable<Counts<C, N>>| {
            let mut wide = FlatTable::with_capacity(table.len());
            for (key, counts) in table.iter() {
                *wide.entry(key) = Counts(counts.0.map(PathCount::widen));
            }
            wide
        };
        Layers {
            ply: self.ply,
            layer: widen(&self.layer),
            next: FlatTable::with_capacity(self.next.len()),
            finished: widen(&self.finished),
        }
    }

    /// The final orbits once done: the live layer (depth reached) and the games over.
    fn finals(&self) -> impl Iterator<Item = (u64, &Counts<C, N>)> + '_ {
        self.layer.iter().chain(self.finished.iter())
    }

    fn final_orbits(&self) -> usize {
        self.layer.len() + self.finished.len()
    }

    fn bytes(&self) -> usize {
        self.layer.bytes() + self.next.bytes() + self.finished.bytes()
    }
}

/// Adds `full` into `finished` if no count overflows, else changes nothing and returns false.
fn merge_all<C: PathCount, const N: usize>(
    finished: &mut FlatTable<Counts<C, N>>,
    full: &[(u64, Counts<C, N>)],
) -> bool {
    let mut overflow = false;
    for (key, counts) in full {
        if let Some(held) = finished.get(*key) {
            for (&a, &b) in held.0.iter().zip(&counts.0) {
                a.add(b, &mut overflow);
            }
        }
    }
    if overflow {
        return false;
    }
    for (key, counts) in full {
        let entry = finished.entry(*key);
        for (held, &count) in entry.0.iter_mut().zip(&counts.0) {
            *held = held.add(count, &mut overflow);
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Position;
    use crate::paths::count_paths;

    fn quiet() -> impl FnMut(u32, usize) -> Result<()> {
        |_, _| Ok(())
    }

    fn paths(notation: &str, depth: u32, symmetry: bool, wrapping: bool) -> Vec<(u128, u128)> {
        let root = Cephalopod::from_notation(notation).unwrap();
        colour_free_paths(
            &root,
            depth,
            Options { symmetry, wrapping, ..Options::default() },
            Stop::never(),
            &mut quiet(),
        )
        .unwrap()
    }

    /// Boards square and not, empty and with dice (some low, so that captures abound).
    const STARTS: [(&str, u32); 11] = [
        ("2x2 1b./.. w", 6),
        ("2x2 ../.. b", 7),
        ("3x3 .../.../... b", 9),
        ("3x3 6b.1w/.../1b.6w w", 8),
        ("2x3 .1w./... b", 8),
        ("3x4 ..../.2b1w./.... b", 5),
        ("4x4 ..../.1b../..../.... b", 4),
        ("2x5 ...../..... b", 5),
        // 21 squares: 63-bit keys, the largest counted over orbits; and a long thin board.
        ("3x7 ......./..1b1w.../....... b", 3),
        ("7x3 .../.../.../.2w./.../.../... w", 3),
        ("2x8 ......../1b....... b", 4),
    ];

    #[test]
    fn counting_over_orbits_gives_the_generic_colour_free_count_row_for_row() {
        for (notation, depth) in STARTS {
            let root = Cephalopod::from_notation(notation).unwrap();
            let generic = count_paths(&PipsOnly(root), depth).unwrap();
            assert_eq!(paths(notation, depth, true, false), generic, "{notation} with symmetry");
            assert_eq!(paths(notation, depth, false, false), generic, "{notation} without");
        }
    }

    #[test]
    fn the_totals_are_the_rows_summed_by_square_and_pips() {
        for (notation, depth) in STARTS {
            let root = Cephalopod::from_notation(notation).unwrap();
            let rows = count_paths(&PipsOnly(root), depth).unwrap();
            let expected = totals_of_rows(root.rect.len(), &rows, false).unwrap();
            for symmetry in [true, false] {
                let options = Options { symmetry, wrapping: false, ..Options::default() };
                let totals = colour_free_totals(&root, depth, options, Stop::never(), &mut quiet()).unwrap();
                assert_eq!(totals, expected, "{notation} symmetry {symmetry}");
            }
        }
    }

    #[test]
    fn counts_past_2_to_the_64_are_exact_and_the_wrapping_mode_is_them_modulo_2_to_the_64() {
        // From the empty 3x3 board, counts of single positions pass 2**64 by depth 30 (the exact
        // count goes on in 128 bits from that ply), and totals by depth 26.
        let root = Cephalopod::new(3, 3).unwrap();
        for (depth, symmetry) in [(30, true), (40, true), (26, false)] {
            let exact = Options { symmetry, wrapping: false, ..Options::default() };
            let wrapping = Options { symmetry, wrapping: true, ..Options::default() };
            let exact = colour_free_paths(&root, depth, exact, Stop::never(), &mut quiet()).unwrap();
            let wrapped = colour_free_paths(&root, depth, wrapping, Stop::never(), &mut quiet()).unwrap();
            let reduced: Vec<(u128, u128)> =
                exact.iter().map(|&(k, c)| (k, c as u64 as u128)).filter(|&(_, c)| c != 0).collect();
            assert_eq!(wrapped, reduced, "depth {depth}");
            let past = |rows: &[(u128, u128)]| rows.iter().any(|&(_, c)| c > u64::MAX as u128);
            let totals = totals_of_rows(9, &exact, false).unwrap();
            assert!(totals.iter().any(|&t| t > u64::MAX as u128), "depth {depth}");
            assert_eq!(past(&exact), depth >= 30, "depth {depth}");
        }
    }

    #[test]
    fn progress_is_told_every_ply_and_an_error_from_it_stops_the_count() {
        let root = Cephalopod::new(3, 3).unwrap();
        let mut told = Vec::new();
        let mut record = |ply, positions| {
            told.push((ply, positions));
            Ok(())
        };
        colour_free_paths(&root, 4, Options::default(), Stop::never(), &mut record).unwrap();
        // One orbit after a ply: a die in a corner, on an edge, or in the centre.
        assert_eq!(told.iter().map(|&(ply, _)| ply).collect::<Vec<_>>(), [1, 2, 3, 4]);
        assert_eq!(told[0].1, 3);
        let mut refuse = |_, _| Err(Error::Interrupted);
        let stopped = colour_free_paths(&root, 4, Options::default(), Stop::never(), &mut refuse);
        assert_eq!(stopped, Err(Error::Interrupted));
    }

    #[test]
    fn a_stopped_count_is_interrupted() {
        let stop = Stop::new();
        stop.request();
        let root = Cephalopod::new(3, 3).unwrap();
        assert_eq!(colour_free_paths(&root, 5, Options::default(), &stop, &mut quiet()), Err(Error::Interrupted));
    }

    #[test]
    fn the_memory_cap_is_the_callers() {
        let root = Cephalopod::new(3, 3).unwrap();
        let capped = |n| Options { max_positions: Some(n), ..Options::default() };
        for options in [capped(100), capped(1)] {
            let refused = colour_free_paths(&root, 6, options, Stop::never(), &mut quiet());
            assert!(matches!(refused, Err(Error::TooLarge(_))), "{refused:?}");
        }
        let lifted = colour_free_paths(&root, 6, capped(1 << 20), Stop::never(), &mut quiet()).unwrap();
        assert_eq!(lifted, colour_free_paths(&root, 6, Options::default(), Stop::never(), &mut quiet()).unwrap());
        // Past 21 squares the generic count takes the same cap in positions.
        let wide = Cephalopod::new(4, 6).unwrap();
        let refused = colour_free_paths(&wide, 3, capped(10), Stop::never(), &mut quiet());
        assert!(matches!(refused, Err(Error::TooLarge(_))), "{refused:?}");
    }

    #[test]
    fn boards_past_21_squares_take_the_generic_count() {
        let root = Cephalopod::new(4, 6).unwrap();
        let rows = colour_free_paths(&root, 2, Options::default(), Stop::never(), &mut quiet()).unwrap();
        assert_eq!(rows, count_paths(&PipsOnly(root), 2).unwrap());
    }
}
