//! The exact endgame solver (`reversi::EndgameSolver`) against the rules: plain minimax over the
//! public `Position` interface on random endgames of every board, fail-soft bounds on the right
//! side of every window, and the published FForum endgame problems.

use boardcore_engine::interrupt::Stop;
use boardcore_engine::reversi::{EndgameSolver, Reversi, Shape, Variant};
use boardcore_engine::rng::SplitMix64;
use boardcore_engine::square::Coord;
use boardcore_engine::{Error, Outcome, Player, Position};

/// Wider than any score.
const INF: i32 = 1000;

/// Empty squares, read off the board's text (holes `#` and cut squares `-` are not squares).
fn empty_squares(p: &Reversi) -> u32 {
    let mut n = 0;
    p.for_each_cell(|_, c| n += u32::from(c == '.'));
    n
}

/// The suites' margin, by the rules: the mover's discs minus the opponent's, the empty squares
/// going to the winner.
fn margin_by_the_rules(p: &Reversi) -> i32 {
    let (black, white) = p.score();
    let diff = black as i32 - white as i32;
    let diff = if p.to_move() == Player::Black { diff } else { -diff };
    diff + diff.signum() * empty_squares(p) as i32
}

fn child(p: &Reversi, mv: <Reversi as Position>::Move) -> Reversi {
    let mut c = *p;
    c.play_unchecked(mv);
    c
}

/// Plain minimax: every legal move (a pass when the mover has none), to the end of the game.
fn minimax(p: &Reversi) -> i32 {
    let moves: Vec<_> = p.legal_moves().collect();
    if moves.is_empty() {
        return margin_by_the_rules(p);
    }
    moves.into_iter().map(|mv| -minimax(&child(p, mv))).max().unwrap()
}

/// Plain alpha-beta (fail-hard, in move-generation order, no table): exact on a full window, for
/// endgames too long for minimax.
fn alpha_beta(p: &Reversi, mut alpha: i32, beta: i32) -> i32 {
    let moves: Vec<_> = p.legal_moves().collect();
    if moves.is_empty() {
        return margin_by_the_rules(p).clamp(alpha, beta);
    }
    for mv in moves {
        alpha = alpha.max(-alpha_beta(&child(p, mv), -beta, -alpha));
        if alpha >= beta {
            break;
        }
    }
    alpha
}

fn square(name: &str) -> Coord {
    Coord::parse(name).unwrap()
}

fn start(shape: Shape, holes: &[&str]) -> Reversi {
    Variant::new(shape, holes.iter().map(|h| square(h)).collect(), 0, Player::Black).unwrap().start()
}

/// Every kind of board: each frame, with and without holes, the Octagon.
fn boards() -> Vec<(&'static str, Reversi)> {
    vec![
        ("4x4", start(Shape::Square(4), &[])),
        ("6x6", start(Shape::Square(6), &[])),
        ("6x6 with holes", start(Shape::Square(6), &["a1", "f2"])),
        ("8x8", start(Shape::Square(8), &[])),
        ("8x8 with holes", start(Shape::Square(8), &["b2", "g1", "a5", "f7"])),
        ("8x8 with random holes", Variant::random(Shape::Square(8), 7, 0, Player::Black).unwrap().start()),
        ("10x10", start(Shape::Square(10), &[])),
        ("10x10 with holes", start(Shape::Square(10), &["a1", "j10", "c5"])),
        ("octagon", start(Shape::Octagon, &[])),
    ]
}

/// A position of a random game from `start` with `empties` empty squares left (the game may be
/// over there), or None if the game ended earlier.
fn random_endgame(start: &Reversi, empties: u32, rng: &mut SplitMix64) -> Option<Reversi> {
    let mut p = *start;
    while empty_squares(&p) > empties {
        let mv = p.sample_move(rng)?;
        p.play_unchecked(mv);
    }
    Some(p)
}

/// `count` random endgames of each board, with `empties` drawn in the range.
fn endgames(count: usize, empties: std::ops::RangeInclusive<u32>, seed: u64) -> Vec<(&'static str, Reversi)> {
    let mut rng = SplitMix64::new(seed);
    let span = u64::from(empties.end() - empties.start() + 1);
    let mut out = Vec::new();
    for (name, start) in boards() {
        let target = (empty_squares(&start)).min(*empties.end());
        let mut found = 0;
        while found < count {
            let e = (empties.start() + rng.below(span) as u32).min(target);
            if let Some(p) = random_endgame(&start, e, &mut rng) {
                out.push((name, p));
                found += 1;
            }
        }
    }
    out
}

fn solve(solver: &mut EndgameSolver, p: &Reversi, alpha: i32, beta: i32) -> i32 {
    solver.solve(p, alpha, beta, Stop::never()).expect("nobody stops this solve")
}

#[test]
fn empties_and_final_margin_count_squares_only() {
    assert_eq!(start(Shape::Square(4), &[]).empties(), 12);
    assert_eq!(start(Shape::Square(8), &[]).empties(), 60);
    assert_eq!(start(Shape::Square(8), &["b2", "g7"]).empties(), 58);
    assert_eq!(start(Shape::Octagon, &[]).empties(), 100 - 12 - 4);
    assert_eq!(start(Shape::Square(10), &["a1"]).empties(), 95);
    // A finished 4x4 game with two empty squares: Black's 14 discs, and the empties, win.
    let black_wins = Reversi::from_notation("4 bbbb/bbbb/bbbb/bb.. w").unwrap();
    assert!(black_wins.is_over());
    assert_eq!(black_wins.final_margin(), -16);
    assert_eq!(Reversi::from_notation("4 bbbb/bbbb/bbbb/bb.. b").unwrap().final_margin(), 16);
    // Four discs each and eight empties that neither can play: a draw, and the empties go to
    // nobody.
    let draw = Reversi::from_notation("4 bb../bb../..ww/..ww b").unwrap();
    assert_eq!(draw.outcome(), Some(Outcome::Draw));
    assert_eq!(draw.final_margin(), 0);
    // With holes: a hole is no empty square.
    let holed = Reversi::from_notation("6 #bbbbb/bbbbbb/bbbbbb/bbbbbb/bbbbbb/bbbb.w w").unwrap();
    assert_eq!(holed.empties(), 1);
    let mut solver = EndgameSolver::new(10);
    for p in [black_wins, draw, holed] {
        assert_eq!(solve(&mut solver, &p, -INF, INF), minimax(&p), "{}", p.to_notation());
        if p.is_over() {
            assert_eq!(solve(&mut solver, &p, -INF, INF), p.final_margin());
        }
    }
}

#[test]
fn the_solver_agrees_with_minimax_on_random_endgames_of_every_board() {
    let mut solver = EndgameSolver::new(16);
    for (board, p) in endgames(12, 6..=10, 1) {
        let expected = minimax(&p);
        assert_eq!(solve(&mut solver, &p, -INF, INF), expected, "{board}: {}", p.to_notation());
        // A fresh solver, with an empty table, says the same.
        assert_eq!(solve(&mut EndgameSolver::new(8), &p, -INF, INF), expected, "{board}: {}", p.to_notation());
    }
}

#[test]
fn the_solver_agrees_with_alpha_beta_on_longer_endgames_of_every_board() {
    // Deep enough for the table, the stability cut-off and the enhanced transposition cut-off.
    let mut solver = EndgameSolver::new(18);
    for (board, p) in endgames(3, 11..=14, 2) {
        let expected = alpha_beta(&p, -INF, INF);
        assert_eq!(solve(&mut solver, &p, -INF, INF), expected, "{board}: {}", p.to_notation());
    }
}

/// Whether `result` is what a fail-soft solve of window (alpha, beta) may answer when the exact
/// value is `value`.
fn fail_soft(value: i32, alpha: i32, beta: i32, result: i32) -> bool {
    if value <= alpha {
        // Fail low: an upper bound, at most alpha.
        value <= result && result <= alpha
    } else if value >= beta {
        // Fail high: a lower bound, at least beta.
        beta <= result && result <= value
    } else {
        result == value
    }
}

#[test]
fn every_window_gives_the_value_inside_it_or_a_bound_on_the_right_side() {
    let mut solver = EndgameSolver::new(16);
    for (board, p) in endgames(6, 6..=12, 3) {
        let v = solve(&mut EndgameSolver::new(16), &p, -INF, INF);
        let what = format!("{board}: {} (value {v})", p.to_notation());
        assert_eq!(solve(&mut solver, &p, v - 1, v + 1), v, "{what}");
        // Null windows around the value: above it fails low, at or below it fails high.
        for a in v - 4..=v + 3 {
            let r = solve(&mut solver, &p, a, a + 1);
            assert!(fail_soft(v, a, a + 1, r), "{what}: window ({a}, {}) gave {r}", a + 1);
            assert_eq!(r > a, v > a, "{what}: window ({a}, {})", a + 1);
        }
        // Wide windows holding the value, and wide windows beside it.
        for (alpha, beta) in
            [(v - 5, v + 5), (v - 1, INF), (-INF, v + 1), (v, v + 10), (v - 10, v), (v + 2, v + 9), (v - 9, v - 2)]
        {
            let r = solve(&mut solver, &p, alpha, beta);
            assert!(fail_soft(v, alpha, beta, r), "{what}: window ({alpha}, {beta}) gave {r}");
        }
    }
}

#[test]
fn the_4x4_game_from_the_start_has_the_minimax_value() {
    let p = start(Shape::Square(4), &[]);
    let expected = minimax(&p);
    // Published (and found by the minimax above): White wins 4x4 Reversi with perfect play.
    assert!(expected < 0, "4x4 from the start: {expected}");
    let mut solver = EndgameSolver::new(16);
    assert_eq!(solve(&mut solver, &p, -INF, INF), expected);
    assert_eq!(solve(&mut solver, &p, expected - 1, expected + 1), expected);
    assert!(solver.nodes() > 0);
}

/// An FForum problem of an Edax `.obf` suite, read from `../shared/data/fforum/` beside the
/// repository (its README): `BOARD SIDE; MOVE:SCORE; ...`, the board as 64 characters `X`
/// (Black), `O` (White) or `-` from a1 to h8 row by row, then every legal move with its exact
/// score for the side to move, best first. A file's problems are numbered from the first number
/// of its name (`fforum-20-39.obf`: 20).
struct Problem {
    id: u32,
    position: Reversi,
    score: i32,
    /// Every legal move's name (`h5`) and exact score.
    moves: Vec<(String, i32)>,
}

/// The problems of `file`, or None (with a message) where the suites are not beside the
/// repository: the tests that need them pass without checking anything there, and say so.
fn problems(file: &str) -> Option<Vec<Problem>> {
    let path = format!("{}/../../../shared/data/fforum/{file}", env!("CARGO_MANIFEST_DIR"));
    let Ok(text) = std::fs::read_to_string(&path) else {
        eprintln!("skipped: the FForum suites are not here ({path}); they live in ../shared/data/fforum/");
        return None;
    };
    let first: u32 = file.split('-').nth(1).and_then(|n| n.parse().ok()).expect("fforum-FIRST-LAST.obf");
    let lines = text.lines().filter(|l| !l.trim().is_empty() && !l.starts_with('%'));
    Some((first..).zip(lines).map(|(id, line)| problem(id, line)).collect())
}

fn problem(id: u32, line: &str) -> Problem {
    let fields: Vec<&str> = line.split(';').map(str::trim).filter(|f| !f.is_empty()).collect();
    let (board, side) = fields[0].split_once(' ').expect("BOARD SIDE");
    let cells: Vec<char> =
        board.chars().map(|c| ['.', 'b', 'w'][usize::from(c == 'X') + 2 * usize::from(c == 'O')]).collect();
    assert_eq!(cells.len(), 64, "{line}");
    let rows: Vec<String> = cells.chunks(8).map(|r| r.iter().collect()).collect();
    let side = if side.trim() == "X" { 'b' } else { 'w' };
    let position = Reversi::from_notation(&format!("8 {} {side}", rows.join("/"))).unwrap();
    let moves: Vec<(String, i32)> = fields[1..]
        .iter()
        .map(|m| {
            let (name, score) = m.split_once(':').expect("MOVE:SCORE");
            (name.to_lowercase(), score.parse().expect("a score"))
        })
        .collect();
    let score = moves.iter().map(|&(_, s)| s).max().expect("a move");
    Problem { id, position, score, moves }
}

fn check_problems(file: &str, ids: std::ops::RangeInclusive<u32>) {
    let Some(problems) = problems(file) else { return };
    let mut solver = EndgameSolver::new(20);
    let chosen: Vec<Problem> = problems.into_iter().filter(|p| ids.contains(&p.id)).collect();
    assert_eq!(chosen.len(), ids.count(), "{file}: problems missing");
    for p in chosen {
        let started = std::time::Instant::now();
        let before = solver.nodes();
        let score = solve(&mut solver, &p.position, -64, 64);
        eprintln!(
            "FForum #{}: {score:+} ({} empties, {} nodes, {:.3} s)",
            p.id,
            p.position.empties(),
            solver.nodes() - before,
            started.elapsed().as_secs_f64()
        );
        assert_eq!(score, p.score, "FForum #{}", p.id);
    }
}

#[test]
fn every_move_of_fforum_problems_1_to_19_has_its_published_score() {
    // The suite scores every legal move, not only the best: each child is solved exactly.
    let Some(problems) = problems("fforum-1-19.obf") else { return };
    assert_eq!(problems.len(), 19);
    let mut solver = EndgameSolver::new(20);
    for p in problems {
        let legal: Vec<_> = p.position.legal_moves().collect();
        assert_eq!(legal.len(), p.moves.len(), "FForum #{}: the moves scored are the legal ones", p.id);
        for (name, expected) in &p.moves {
            let mv = *legal.iter().find(|m| &m.name(p.position.shape()) == name).expect("a legal move");
            let score = -solve(&mut solver, &child(&p.position, mv), -64, 64);
            assert_eq!(score, *expected, "FForum #{}, {name}", p.id);
        }
    }
}

#[test]
fn fforum_problems_20_to_34_are_solved_exactly() {
    check_problems("fforum-20-39.obf", 20..=34);
}

#[test]
#[ignore = "about 10 s in release: cargo test --release -p boardcore-engine --test reversi_endgame -- --ignored"]
fn fforum_problems_20_to_39_are_solved_exactly() {
    check_problems("fforum-20-39.obf", 20..=39);
}

#[test]
#[ignore = "about 5 minutes in release (49 alone: 160 s)"]
fn fforum_problems_40_to_49_are_solved_exactly() {
    check_problems("fforum-40-59.obf", 40..=49);
}

#[test]
fn a_solve_stops_when_asked_and_the_solver_stays_right() {
    let Some(problems) = problems("fforum-20-39.obf") else { return };
    let p = problems.into_iter().find(|p| p.id == 26).unwrap();
    let mut solver = EndgameSolver::new(16);
    // Stopped at its third look, well inside the search of 20 empties.
    assert_eq!(solver.solve(&p.position, -64, 64, &Stop::at_look(3)), Err(Error::Interrupted));
    let stop = Stop::new();
    stop.request();
    assert_eq!(solver.solve(&p.position, -1, 0, &stop), Err(Error::Interrupted));
    // What the table kept from the stopped solves is still true.
    assert_eq!(solve(&mut solver, &p.position, -64, 64), p.score);
}

#[test]
fn wide_windows_at_many_empties_give_the_value_inside_them_or_a_bound_on_the_right_side() {
    // From 14 empties a wide window is solved by null-window tests (MTD(f)): the same contract.
    let Some(problems) = problems("fforum-20-39.obf") else { return };
    for p in problems.into_iter().filter(|p| [21, 22, 23].contains(&p.id)) {
        let v = p.score;
        let mut solver = EndgameSolver::new(18);
        for (alpha, beta) in
            [(v - 5, v + 5), (v - 1, INF), (-INF, v + 1), (v, v + 10), (v - 10, v), (v + 2, v + 9), (v - 9, v - 2)]
        {
            let r = solve(&mut solver, &p.position, alpha, beta);
            assert!(fail_soft(v, alpha, beta, r), "FForum #{}: window ({alpha}, {beta}) gave {r}", p.id);
            // And from an empty table.
            let r = solve(&mut EndgameSolver::new(18), &p.position, alpha, beta);
            assert!(fail_soft(v, alpha, beta, r), "FForum #{} (fresh): window ({alpha}, {beta}) gave {r}", p.id);
        }
    }
}

/// Solves a 6x6 start (of `Variant::random(6x6, seed)` when seeded) exactly, printing its nodes and time.
fn solve_6x6(p: &Reversi) -> i32 {
    let mut solver = EndgameSolver::new(24);
    let started = std::time::Instant::now();
    let score = solve(&mut solver, p, -INF, INF);
    eprintln!("{}: {score:+} ({} nodes, {:.1} s)", p.to_notation(), solver.nodes(), started.elapsed().as_secs_f64());
    score
}

fn random_6x6(seed: u64) -> Reversi {
    Variant::random(Shape::Square(6), seed, 0, Player::Black).unwrap().start()
}

#[test]
#[ignore = "about 8-12 minutes in release (4.7 G nodes): cargo test --release -p boardcore-engine --test reversi_endgame -- --ignored reversi_6x6"]
fn reversi_6x6_from_the_start_is_a_four_disc_win_for_white() {
    let p = Reversi::from_notation("6 ....../....../..wb../..bw../....../...... b").unwrap();
    assert_eq!(p, start(Shape::Square(6), &[]));
    // Published (Feinstein, 1993): 16-20 for White with perfect play.
    assert_eq!(solve_6x6(&p), -4);
}

/// A test a 6x6 start with random holes (`Variant::random(6x6, seed)`): the seed's holes, then
/// the exact score (docs/solved.md lists them).
macro_rules! random_6x6_solves_to {
    ($($test:ident: seed $seed:literal, $start:literal => $score:literal, $ignore:literal;)*) => {$(
        #[test]
        #[ignore = $ignore]
        fn $test() {
            let p = random_6x6($seed);
            assert_eq!(p.to_notation(), $start);
            assert_eq!(solve_6x6(&p), $score);
        }
    )*};
}

random_6x6_solves_to! {
    reversi_6x6_with_the_random_holes_of_seed_1_is_a_two_disc_win_for_black:
        seed 1, "6 ....../....../..wb../..bw../....../.#...# b" => 2, "about 3 minutes in release (1.3 G nodes)";
    reversi_6x6_with_the_random_holes_of_seed_2_is_an_eleven_disc_win_for_black:
        seed 2, "6 .....#/#...../..wb../..bw../....../#..... b" => 11, "about 3 minutes in release (1.0 G nodes)";
    reversi_6x6_with_the_random_holes_of_seed_3_is_a_draw:
        seed 3, "6 .#.#../....../..wb../..bw../....../...... b" => 0, "about 1.5 minutes in release (0.5 G nodes)";
}
