//! The `Position` trait's promises, checked on every implementation (issue 13, item 5): one
//! generic function plays seeded random games and checks, at every position on the way, what the
//! trait documents (game.rs), whichever methods a game overrides.

use boardcore_engine::cephalopod::Cephalopod;
use boardcore_engine::interrupt::Stop;
use boardcore_engine::reversi::Reversi;
use boardcore_engine::rive::Rive;
use boardcore_engine::rng::SplitMix64;
use boardcore_engine::strands::Strands;
use boardcore_engine::Position;
use std::fmt::Debug;

/// Moves checked one by one per position (parse/format, is_legal): Strands lists tens of
/// thousands on its larger layouts; every move is still counted and listed.
const MOVES_CHECKED: usize = 300;

/// Plays `games` seeded random games from `start` to the end and checks every position met.
fn contract<P: Position + PartialEq + Debug>(start: P, games: u64) {
    let mut positions = 0;
    for seed in 0..games {
        let mut rng = SplitMix64::new(seed);
        let mut p = start.clone();
        let mut earlier_moves: Vec<P::Move> = Vec::new();
        loop {
            check_position(&p, &earlier_moves);
            positions += 1;
            let Some(mv) = p.sample_move(&mut rng) else { break };
            earlier_moves = p.legal_moves().take(MOVES_CHECKED).collect();
            p.play_unchecked(mv);
        }
        check_play_out(&start, seed);
    }
    assert!(positions > games, "{start:?}: the games never moved");
}

/// Everything the trait promises about one position. `others` are moves of another position
/// (the one before), so that some of them are not legal here.
fn check_position<P: Position + PartialEq + Debug>(p: &P, others: &[P::Move]) {
    let moves: Vec<P::Move> = p.legal_moves().collect();
    let at = p.to_notation();

    // The end: no legal move exactly when the game is over, and then it has an outcome.
    assert_eq!(moves.is_empty(), p.is_over(), "{at}");
    assert_eq!(p.is_over(), p.outcome().is_some(), "{at}");

    // Counting, listing and the bulk perft counts agree with the list.
    assert_eq!(p.count_moves(), moves.len() as u64, "{at}");
    assert_eq!(p.count_moves_interruptible(Stop::never()).unwrap(), moves.len() as u64, "{at}");
    assert_eq!(p.list_moves(Stop::never()).unwrap(), moves, "{at}");
    assert_eq!(p.perft1(), (moves.len() as u64).max(1), "{at}");
    assert_eq!(p.perft2(), perft2_by_definition(p, &moves), "{at}");

    // Legality: every listed move is legal, and a move of another position is legal here
    // exactly when it is listed here.
    // `why_illegal` is the one hook: `is_legal` and `check_move` say what it says, and an
    // illegal move gets a reason to show.
    for &mv in moves.iter().take(MOVES_CHECKED) {
        assert_eq!(p.why_illegal(mv), None, "{at}: {mv:?}");
        assert!(p.is_legal(mv), "{at}: {mv:?}");
        assert!(p.check_move(mv).is_ok(), "{at}: {mv:?}");
    }
    for &mv in others {
        let listed = moves.contains(&mv);
        let why = p.why_illegal(mv);
        assert_eq!(why.is_none(), listed, "{at}: {mv:?}");
        assert!(why.as_ref().is_none_or(|text| !text.is_empty()), "{at}: {mv:?}");
        assert_eq!(p.is_legal(mv), listed, "{at}: {mv:?}");
        assert_eq!(p.check_move(mv).is_ok(), listed, "{at}: {mv:?}");
    }

    // Sampling draws a listed move (the same one on either path), or None at the end.
    let mut a = SplitMix64::new(moves.len() as u64);
    let mut b = a.clone();
    let sampled = p.sample_move(&mut a);
    assert_eq!(sampled.is_none(), moves.is_empty(), "{at}");
    assert!(sampled.is_none_or(|mv| moves.contains(&mv)), "{at}: {sampled:?}");
    assert_eq!(p.sample_move_interruptible(&mut b, Stop::never()).unwrap(), sampled, "{at}");

    // Notation: positions and moves round-trip, and equal positions hash alike.
    let back = P::from_notation(&at).unwrap_or_else(|e| panic!("{at}: {e:?}"));
    assert_eq!(back, *p, "{at}");
    assert_eq!(back.to_notation(), at);
    assert_eq!(back.zobrist(), p.zobrist(), "{at}");
    assert_eq!(p.clone().zobrist(), p.zobrist(), "{at}");
    for &mv in moves.iter().take(MOVES_CHECKED) {
        let text = p.format_move(mv);
        assert_eq!(p.parse_move(&text).unwrap_or_else(|e| panic!("{at}: {text}: {e:?}")), mv, "{at}: {text}");
    }
}

/// `perft(2)` as the trait defines it: the sum of the children's `perft(1)`, or 1 at the end
/// (a child's move count by `count_moves`, which `check_position` holds to the listed moves).
fn perft2_by_definition<P: Position>(p: &P, moves: &[P::Move]) -> u64 {
    if moves.is_empty() {
        return 1;
    }
    moves
        .iter()
        .map(|&mv| {
            let mut child = p.clone();
            child.play_unchecked(mv);
            child.count_moves().max(1)
        })
        .sum()
}

/// `play_out` ends where drawing `sample_move` after `sample_move` does, with the same draws.
fn check_play_out<P: Position + PartialEq + Debug>(start: &P, seed: u64) {
    let mut played = start.clone();
    played.play_out(&mut SplitMix64::new(seed));
    let mut stepped = start.clone();
    let mut rng = SplitMix64::new(seed);
    while let Some(mv) = stepped.sample_move(&mut rng) {
        stepped.play_unchecked(mv);
    }
    assert_eq!(played, stepped, "seed {seed}");
    assert!(played.is_over());
}

fn from<P: Position>(text: &str) -> P {
    P::from_notation(text).unwrap_or_else(|e| panic!("{text}: {e:?}"))
}

/// Where each game's contract is checked from: its board shapes and options, each start with the
/// number of seeded random games played from it.
const STARTS: &[(&str, &str, u64)] = &[
    ("Reversi", "4 ..../.wb./.bw./.... b", 40),
    ("Reversi", "6 ....../....../..wb../..bw../....../...... b", 12),
    ("Reversi", "8 ......../......../......../...wb.../...bw.../......../......../........ b", 6),
    ("Reversi", "8 ......../.#....../......../...wb.../...bw.../......../......#./........ b", 6),
    ("Reversi", "10 w........w/........../........../........../....wb..../....bw..../........../........../........../.........w b", 3),
    ("Reversi", "octagon --#.....--/-........-/........../........../....wb..../....bw..../........../........../-........-/--......-- b", 3),
    // White must pass at once: pass moves in every check.
    ("Reversi", "4 bw../..../bw../.... w", 4),
    ("Cephalopod", "2x2 ../.. b", 20),
    ("Cephalopod", "2x5 ...../..... b", 10),
    ("Cephalopod", "3x3 .../.../... b", 10),
    ("Cephalopod", "5x5 ...../...../...../...../..... b", 4),
    ("Cephalopod", "8x8 ......../......../......../......../......../......../......../........ b", 1),
    // Low pips everywhere: captures of three and four dice.
    ("Cephalopod", "3x3 .1b./1w.1w/.1b. b", 10),
    ("Rive", "hex2 ../.../.. b", 20),
    ("Rive", "hex3 .../..../...../..../... b", 6),
    ("Rive", "hex3 .../..../...../..../... b swap", 6),
    ("Rive", "hex3 .../..../...../..../... b single", 6),
    ("Rive", "hex335 .../..../...../...../...../..../... b swap single", 2),
    ("Strands", "up-to 4334/32223/322223/4221224/322223/32223/4334 b", 3),
    ("Strands", "exact 4334/32223/322223/4221224/322223/32223/4334 b", 3),
    ("Strands", "up-to 555/5326/54236/5325/666 b", 6),
    ("Strands", "exact 64446/433334/4222224/43222234/632212236/43222234/4222224/433334/64446 b", 1),
];

/// A test a game: the contract from each of the game's `STARTS`.
macro_rules! keeps_the_contract {
    ($($test:ident: $game:ident),* $(,)?) => {$(
        #[test]
        fn $test() {
            let starts: Vec<_> = STARTS.iter().filter(|(game, ..)| *game == stringify!($game)).collect();
            assert!(!starts.is_empty(), "no start of {}", stringify!($game));
            for &&(_, text, games) in &starts {
                contract(from::<$game>(text), games);
            }
        }
    )*};
}

keeps_the_contract! {
    reversi_keeps_the_contract: Reversi,
    cephalopod_keeps_the_contract: Cephalopod,
    rive_keeps_the_contract: Rive,
    strands_keeps_the_contract: Strands,
}
