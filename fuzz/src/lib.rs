//! The properties that boardcore's fuzz targets check, in one place: the libFuzzer targets
//! (`fuzz_targets/*.rs`, run with `cargo fuzz run NAME`) and the stable replay test
//! (`tests/replay.rs`, run with `cargo test`) both call the functions below, so a corpus file
//! means the same thing to both. A property that fails panics with a message naming the input.
//!
//! The targets (docs/reliability.md says more):
//! - [`position`]: any text, read as a position of every game.
//! - [`record`]: any text, read as a record of every game.
//! - [`moves`]: move text against a position reached by play (first two bytes pick it).
//! - [`play`]: a random play sequence (the bytes choose the moves, undos and checks).
//!
//! Rive's compound captures can have billions of survivor sets: they are counted and sampled
//! without listing, but a property that lists every move cannot; [`Fuzzed::tame`] keeps the
//! move-list properties to positions with at most [`RIVE_LISTED_MOVES`] moves.

use std::collections::HashSet;
use std::sync::OnceLock;

use boardcore_engine::cephalopod::{self, CephalopodGame};
use boardcore_engine::hex::HexBoard;
use boardcore_engine::perft::Plies;
use boardcore_engine::record::Record;
use boardcore_engine::reversi::{ReversiGame, Shape, Variant};
use boardcore_engine::rive::{self, RiveGame};
use boardcore_engine::rng::SplitMix64;
use boardcore_engine::strands::{self, named_layout, Cover, Strands, StrandsGame};
use boardcore_engine::{Error, Game, Player, Position};

/// Every target by name, for the replay test and the run script.
pub const TARGETS: [(&str, fn(&[u8])); 4] =
    [("position", position), ("record", record), ("moves", moves), ("play", play)];

/// Move lists up to this long are listed whole and compared with `count_moves`; longer ones
/// (Strands) are checked on their first moves only.
const LIST_LIMIT: usize = 300;
/// How many of the listed moves are also played, and their children round-tripped.
const CHILD_LIMIT: usize = 24;
/// Positions with at most this many moves also check `perft(2)` against their children.
const PERFT2_LIMIT: u64 = 32;
/// Operations of a play input past this many are ignored (longer inputs only cost time).
const MAX_OPS: usize = 160;
/// The play target runs [`check_position`] (notation round trip, listing and playing children,
/// perft(2)) on every this many positions played, and on its last; every ply is still played,
/// undone and replayed and compared exactly, and the record round trip replays them all.
/// Checking every position held the target to about 5 inputs a second.
const PLAY_CHECK_EVERY: usize = 8;
/// The most Rive moves a property lists (counting is exact at any size; listing is linear).
pub const RIVE_LISTED_MOVES: u64 = 100_000;

/// What the properties need to know about a game's variant beyond [`boardcore_engine::Variant`].
pub trait Fuzzed: boardcore_engine::Variant {
    /// Whether listing this position's moves is known to finish quickly (see the module doc).
    fn tame(_position: &Self::Position) -> bool {
        true
    }
}

impl Fuzzed for Variant {}
impl Fuzzed for cephalopod::Variant {}
impl Fuzzed for strands::Variant {}
impl Fuzzed for rive::Variant {
    fn tame(position: &Self::Position) -> bool {
        position.single_stones() || position.count_moves() <= RIVE_LISTED_MOVES
    }
}

/// Raw bytes as text: the engine's parsers take `&str` (invalid UTF-8 never reaches them).
fn text(data: &[u8]) -> std::borrow::Cow<'_, str> {
    String::from_utf8_lossy(data)
}

/// Text that is not a position or record is refused as a notation error, never anything else.
fn assert_notation_error(what: &str, input: &str, error: &Error) {
    assert!(matches!(error, Error::Notation(_)), "{what} {input:?} is refused with {error:?}, not a notation error");
}

// ---------------------------------------------------------------------------------------------
// The targets

/// Any text, as a position of every game: refused with a notation error, or accepted and then
/// every position property holds (see [`check_position`]) and its record round-trips.
pub fn position(data: &[u8]) {
    let input = text(data);
    position_of::<Variant>(&input);
    position_of::<cephalopod::Variant>(&input);
    position_of::<rive::Variant>(&input);
    position_of::<strands::Variant>(&input);
}

fn position_of<G: Fuzzed>(input: &str) {
    check_parsed(input, Game::<G>::from_position(input));
}

/// A parser's answer to `input`: a game that passes every check, or a notation error.
fn check_parsed<G: Fuzzed>(input: &str, parsed: Result<Game<G>, Error>) {
    match parsed {
        Ok(game) => {
            check_position::<G>(game.position());
            check_game(&game);
        }
        Err(e) => assert_notation_error(G::NAME, input, &e),
    }
}

/// Any text, as a record: the shared syntax writes back what it read, and each game either
/// refuses it with a notation error or accepts it, and then its record round-trips.
pub fn record(data: &[u8]) {
    let input = text(data);
    if let Ok(parsed) = Record::parse(&input) {
        let again = Record::parse(&parsed.to_text()).expect("a written record parses");
        assert_eq!(again, parsed, "record syntax does not round-trip for {input:?}");
    }
    record_of::<Variant>(&input);
    record_of::<cephalopod::Variant>(&input);
    record_of::<strands::Variant>(&input);
    if rive_record_is_tame(&input) {
        record_of::<rive::Variant>(&input);
    }
}

fn record_of<G: Fuzzed>(input: &str) {
    check_parsed(input, Game::<G>::from_record(input));
}

/// Replaying a Rive record lists capture moves: only on boards [`rive::Variant`]'s [`Fuzzed::tame`] allows.
fn rive_record_is_tame(input: &str) -> bool {
    let Ok(parsed) = Record::parse(input) else { return true };
    if let Some(position) = parsed.tag("Position") {
        return boardcore_engine::rive::Rive::from_notation(position).map_or(true, |p| rive::Variant::tame(&p));
    }
    // Positions along the replay are unknown until it runs: allow boards where random records stay
    // small (every capture on them has few survivor sets).
    let single = parsed.tag("SingleStones") == Some("yes");
    let board = parsed.tag("Board").and_then(|b| HexBoard::named(b).ok());
    single || board.map_or(true, |b| b.len() <= 37)
}

/// Move text against a position reached by play: `data[0]` picks the game ([`starts`]),
/// `data[1]` how many random plies to play first, the rest is the move. A move that parses
/// formats back to itself; playing it either succeeds (and undo restores everything) or is
/// refused and changes nothing.
pub fn moves(data: &[u8]) {
    let [which, plies, rest @ ..] = data else { return };
    let input = text(rest);
    let mut rng = SplitMix64::new(u64::from(*plies));
    match start(*which) {
        AnyGame::Reversi(g) => moves_of(advance(g, *plies, &mut rng), &input),
        AnyGame::Cephalopod(g) => moves_of(advance(g, *plies, &mut rng), &input),
        AnyGame::Rive(g) => moves_of(advance(g, *plies, &mut rng), &input),
        AnyGame::Strands(g) => moves_of(advance(g, *plies, &mut rng), &input),
    }
}

fn advance<G: Fuzzed>(mut game: Game<G>, plies: u8, rng: &mut SplitMix64) -> Game<G> {
    for _ in 0..plies {
        let Some(mv) = game.position().sample_move(rng) else { break };
        game.play(mv).expect("a sampled move is legal");
    }
    game
}

fn moves_of<G: Fuzzed>(game: Game<G>, input: &str) {
    let position = game.position();
    match position.parse_move(input) {
        Ok(mv) => {
            let name = position.format_move(mv);
            assert_eq!(position.parse_move(&name), Ok(mv), "{input:?} formats as {name:?}, which reads differently");
            assert_eq!(
                position.is_legal(mv),
                position.check_move(mv).is_ok(),
                "is_legal and check_move disagree on {name:?}"
            );
        }
        Err(e) => assert!(!matches!(e, Error::Overflow(_)), "{input:?}: {e:?}"),
    }
    let before = Snapshot::<G>::of(&game);
    let mut played = game.clone();
    match played.play_notation(input) {
        Ok(mv) => {
            assert!(position.is_legal(mv), "{input:?} was played but is not legal");
            assert_eq!(played.undo(), Some(mv));
            before.assert_same(&played, "play then undo");
        }
        Err(_) => before.assert_same(&played, "a refused move"),
    }
}

/// A random play sequence: `data[0]` picks the game ([`starts`]); each later byte is an
/// operation: play a chosen move (low bits pick which), play a sampled move, undo and replay,
/// or round-trip the record and try a move that is no longer legal. The start, every
/// [`PLAY_CHECK_EVERY`]th position played and the last are checked with [`check_position`].
pub fn play(data: &[u8]) {
    let Some((&which, ops)) = data.split_first() else { return };
    match start(which) {
        AnyGame::Reversi(g) => play_of(g, ops),
        AnyGame::Cephalopod(g) => play_of(g, ops),
        AnyGame::Rive(g) => play_of(g, ops),
        AnyGame::Strands(g) => play_of(g, ops),
    }
}

fn play_of<G: Fuzzed>(mut game: Game<G>, ops: &[u8]) {
    let mut rng = SplitMix64::new(ops.len() as u64);
    check_position::<G>(game.position());
    // Round-tripping the record replays the whole game: twice per input is enough.
    let mut record_checks = 0;
    let mut plies = 0;
    for &op in ops.iter().take(MAX_OPS) {
        let position = game.position().clone();
        if !G::tame(&position) {
            break;
        }
        match op % 8 {
            0..=3 => {
                let count = position.count_moves();
                if count > 0 {
                    let pick = u64::from(op / 8) * 7 % count;
                    let mv = position.legal_moves().nth(pick as usize).expect("count_moves moves are listed");
                    plies += 1;
                    play_checked(&mut game, mv, plies % PLAY_CHECK_EVERY == 0);
                }
            }
            4 | 5 => {
                if let Some(mv) = position.sample_move(&mut rng) {
                    plies += 1;
                    play_checked(&mut game, mv, plies % PLAY_CHECK_EVERY == 0);
                }
            }
            6 => {
                let before = Snapshot::<G>::of(&game);
                if let Some(mv) = game.undo() {
                    assert_eq!(game.moves().len() + 1, before.moves.len());
                    game.play(mv).expect("the move undone is legal again");
                    before.assert_same(&game, "undo then play");
                }
            }
            _ if record_checks < 2 => {
                record_checks += 1;
                check_game(&game);
                // The last move is (usually) no longer legal: refused, it must change nothing.
                if let Some(last) = game.moves().last() {
                    let before = Snapshot::<G>::of(&game);
                    if game.play(last).is_ok() {
                        game.undo();
                    }
                    before.assert_same(&game, "replaying the last move");
                }
            }
            _ => {}
        }
    }
    check_position::<G>(game.position());
    check_game(&game);
}

/// Plays a listed move through the checked path, checks that undo restores the old position
/// exactly, and with `check`, checks the new position ([`check_position`]).
fn play_checked<G: Fuzzed>(game: &mut Game<G>, mv: <G::Position as Position>::Move, check: bool) {
    let before = Snapshot::<G>::of(game);
    game.play(mv).expect("a listed move plays");
    let after = Snapshot::<G>::of(game);
    assert_eq!(game.undo(), Some(mv));
    before.assert_same(game, "play then undo");
    game.play(mv).expect("a listed move plays again");
    after.assert_same(game, "playing the same move twice");
    if check {
        check_position::<G>(game.position());
    }
}

// ---------------------------------------------------------------------------------------------
// The properties

/// Everything that must hold of any position the engine accepted or reached:
/// - its notation reads back to the same position, notation and hash;
/// - the game is over exactly when there is no legal move (`outcome`, `is_over`, `count_moves`);
/// - `perft(1)` is `count_moves` (1 on a finished game), and on small cases `perft(2)` is the
///   sum over the children;
/// - `count_moves` is the length of `legal_moves` (when it is at most [`LIST_LIMIT`]);
/// - every listed move is legal, has a unique name that reads back to it, and plays; the child
///   round-trips through its notation;
/// - `sample_move` draws a legal move exactly when there is one.
pub fn check_position<G: Fuzzed>(p: &G::Position) {
    let notation = p.to_notation();
    let again =
        G::Position::from_notation(&notation).unwrap_or_else(|e| panic!("{notation:?} does not read back: {e}"));
    assert!(again == *p, "{notation:?} reads back as a different position");
    assert_eq!(again.to_notation(), notation, "notation is not stable");
    assert_eq!(again.zobrist(), p.zobrist(), "{notation:?}: the hash changes on a round trip");
    if !G::tame(p) {
        return;
    }
    let count = p.count_moves();
    let over = p.outcome().is_some();
    assert_eq!(over, count == 0, "{notation:?}: over is {over} with {count} legal moves");
    assert_eq!(p.is_over(), over, "{notation:?}: is_over disagrees with outcome");
    assert_eq!(p.perft1(), count.max(1), "{notation:?}: perft1");
    assert_eq!(p.perft(1, Plies::EveryMove, 1), count.max(1), "{notation:?}: perft(1)");

    let mut rng = SplitMix64::new(p.zobrist());
    match p.sample_move(&mut rng) {
        Some(mv) => assert!(p.is_legal(mv), "{notation:?}: sampled an illegal move {mv:?}"),
        None => assert_eq!(count, 0, "{notation:?}: sampled nothing from {count} moves"),
    }

    let listed: Vec<_> = p.legal_moves().take(LIST_LIMIT + 1).collect();
    if count <= LIST_LIMIT as u64 {
        assert_eq!(listed.len() as u64, count, "{notation:?}: count_moves is not the number of legal moves");
    } else {
        assert_eq!(listed.len(), LIST_LIMIT + 1, "{notation:?}: fewer moves listed than counted");
    }
    let mut names = HashSet::new();
    for (i, &mv) in listed.iter().enumerate() {
        let name = p.format_move(mv);
        assert!(p.is_legal(mv) && p.check_move(mv).is_ok(), "{notation:?}: listed move {name:?} is not legal");
        assert_eq!(p.parse_move(&name), Ok(mv), "{notation:?}: move {name:?} reads back differently");
        assert!(names.insert(name.clone()), "{notation:?}: move {name:?} listed twice");
        if i < CHILD_LIMIT {
            let mut child = p.clone();
            child.play_unchecked(mv);
            let child_notation = child.to_notation();
            let back = G::Position::from_notation(&child_notation)
                .unwrap_or_else(|e| panic!("{notation:?} after {name:?}: {child_notation:?} does not read back: {e}"));
            assert!(back == child && back.zobrist() == child.zobrist(), "{child_notation:?} reads back differently");
        }
    }
    if count > 0 && count <= PERFT2_LIMIT {
        let children: Vec<G::Position> = listed
            .iter()
            .map(|&mv| {
                let mut child = p.clone();
                child.play_unchecked(mv);
                child
            })
            .collect();
        if children.iter().all(G::tame) {
            let leaves: u64 = children.iter().map(Position::perft1).sum();
            assert_eq!(p.perft(2, Plies::EveryMove, 1), leaves, "{notation:?}: perft(2)");
        }
    }
}

/// A game's record reads back as the same game (start, moves, position) and writes the same
/// text; undoing and replaying the last move restores position, hash and record.
pub fn check_game<G: Fuzzed>(game: &Game<G>) {
    if !G::tame(game.start()) {
        return;
    }
    let text = game.record();
    let back = Game::<G>::from_record(&text).unwrap_or_else(|e| panic!("the record {text:?} does not read back: {e}"));
    assert!(back.position() == game.position(), "{text:?} replays to another position");
    assert!(back.moves().eq(game.moves()), "{text:?} replays other moves");
    assert_eq!(back.record(), text, "the record is not stable");
}

/// What a refused call, or a play and its undo, must leave as it was: the position (notation and
/// hash) and the history (the start and the moves: the record is written from these and the
/// game's fixed setup, and [`check_game`] checks that it round-trips).
struct Snapshot<G: Fuzzed> {
    notation: String,
    zobrist: u64,
    start: String,
    moves: Vec<<G::Position as Position>::Move>,
}

impl<G: Fuzzed> Snapshot<G> {
    fn of(game: &Game<G>) -> Self {
        let p = game.position();
        Snapshot {
            notation: p.to_notation(),
            zobrist: p.zobrist(),
            start: game.start().to_notation(),
            moves: game.moves().collect(),
        }
    }

    fn assert_same(&self, game: &Game<G>, after: &str) {
        let now = Self::of(game);
        assert_eq!(now.notation, self.notation, "{after}: the position changed");
        assert_eq!(now.zobrist, self.zobrist, "{after}: the hash changed on {}", self.notation);
        assert_eq!(now.start, self.start, "{after}: the start changed on {}", self.notation);
        assert_eq!(now.moves, self.moves, "{after}: the history changed on {}", self.notation);
    }
}

// ---------------------------------------------------------------------------------------------
// The games the play and moves targets start from

/// One of the four games, as a value the targets can match on.
#[derive(Clone)]
pub enum AnyGame {
    Reversi(ReversiGame),
    Cephalopod(CephalopodGame),
    Rive(RiveGame),
    Strands(StrandsGame),
}

/// The start picked by a byte (`which % starts().len()`).
pub fn start(which: u8) -> AnyGame {
    let all = starts();
    all[usize::from(which) % all.len()].clone()
}

/// Every variant of every game worth playing at random: the board sizes and rules that change
/// the move generator. New starts go at the end, so that the corpus's first bytes keep naming
/// the starts they named (fuzz/seed_corpus.py lists them in the same order).
pub fn starts() -> &'static [AnyGame] {
    static STARTS: OnceLock<Vec<AnyGame>> = OnceLock::new();
    STARTS.get_or_init(|| {
        let reversi = |shape, holes_seed: Option<u64>, handicap| {
            let variant = match holes_seed {
                Some(seed) => Variant::random(shape, seed, handicap, Player::Black),
                None => Variant::new(shape, Vec::new(), handicap, Player::Black),
            };
            AnyGame::Reversi(ReversiGame::new(variant.expect("a valid Reversi variant")).expect("a valid start"))
        };
        let cephalopod = |rows, cols| {
            AnyGame::Cephalopod(CephalopodGame::new(cephalopod::Variant { rows, cols }).expect("a valid size"))
        };
        let rive = |name, swap, single| {
            let board = HexBoard::named(name).expect("a named board");
            AnyGame::Rive(RiveGame::new(rive::Variant::new(board, swap, single)).expect("a valid Rive board"))
        };
        let strands = |rows: Vec<Vec<u8>>, name: Option<&str>, cover| {
            AnyGame::Strands(
                StrandsGame::new(strands::Variant { rows, name: name.map(str::to_string), cover })
                    .expect("a valid layout"),
            )
        };
        let layout = |name| named_layout(name).expect("a named layout");
        vec![
            reversi(Shape::Square(8), None, 0),
            reversi(Shape::Square(6), None, 0),
            reversi(Shape::Square(4), None, 0),
            reversi(Shape::Octagon, None, 0),
            reversi(Shape::Square(8), Some(1), 0),
            reversi(Shape::Square(10), Some(7), 2),
            cephalopod(2, 2),
            cephalopod(3, 3),
            cephalopod(3, 5),
            cephalopod(5, 5),
            rive("hex2", false, false),
            rive("hex3", false, false),
            rive("hex3", true, false),
            rive("hex3", false, true),
            rive("hex335", false, false),
            rive("hex335", true, true),
            rive("hex4", false, true),
            rive("hex5", true, true),
            strands(layout("hex4"), Some("hex4"), Cover::Exact),
            strands(layout("hex4"), Some("hex4"), Cover::UpTo),
            strands(layout("hex5"), Some("hex5"), Cover::UpTo),
            strands(Strands::random_layout(3, 5).expect("a side-3 layout"), None, Cover::Exact),
            // Compound captures on the boards where they used to hang (issue 11, defect 1).
            rive("hex4", false, false),
            rive("hex5", false, false),
        ]
    })
}
