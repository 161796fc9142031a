//! Reversi's and Cephalopod's `Setup` layer: each validity rule rejects what it should, with the
//! error naming the square; positions round-trip through `to_setup`; the notation and the
//! variants reach the same rules. For every game with one, the rules that a notation reader's
//! grammar also refuses (pips and labels 1-6, a capture count from 1) are still `validate`'s.

use boardcore_engine::cephalopod::{self, Cephalopod};
use boardcore_engine::paths::CompactKey;
use boardcore_engine::reversi::{self, Reversi, SetupError, Shape, Variant};
use boardcore_engine::rive::{self, Pending, Rive};
use boardcore_engine::rng::SplitMix64;
use boardcore_engine::square::Coord;
use boardcore_engine::strands::{self, Strands};
use boardcore_engine::{Error, Player, Position};

fn sq(name: &str) -> Coord {
    Coord::parse(name).unwrap()
}

fn with_holes(shape: Shape, holes: &[&str]) -> reversi::Setup {
    let mut setup = reversi::Setup::start(shape);
    setup.holes = holes.iter().map(|h| sq(h)).collect();
    setup
}

/// Positions along a seeded random game from `start`, the start included.
fn random_game<P: Position>(start: P, seed: u64) -> Vec<P> {
    let (mut rng, mut p, mut seen) = (SplitMix64::new(seed), start.clone(), vec![start]);
    while let Some(mv) = p.sample_move(&mut rng) {
        p.play_unchecked(mv);
        seen.push(p.clone());
    }
    seen
}

#[test]
fn reversi_setup_rules_name_the_square_at_fault() {
    let eight = Shape::Square(8);
    let cases = [
        (with_holes(eight, &["i1"]), SetupError::OffBoard(sq("i1"), eight)),
        (with_holes(Shape::Octagon, &["a1"]), SetupError::Cut(sq("a1"))),
        (with_holes(eight, &["c3"]), SetupError::HoleInCentre(sq("c3"))),
        (with_holes(eight, &["b2", "b2"]), SetupError::Twice(sq("b2"))),
        (with_holes(eight, &["a1", "b1", "g1", "h1", "a8"]), SetupError::TooManyHoles(5)),
    ];
    for (setup, error) in cases {
        assert_eq!(setup.validate(), Err(error));
    }
    let mut on_disc = with_holes(eight, &["a1"]);
    on_disc.white.push(sq("a1"));
    assert_eq!(on_disc.validate(), Err(SetupError::HoleOnDisc(sq("a1"))));
    let mut both = reversi::Setup::start(eight);
    both.black.push(sq("d4")); // d4 is White's
    assert_eq!(both.validate(), Err(SetupError::Twice(sq("d4"))));
    let mut off = reversi::Setup::start(Shape::Square(6));
    off.black.push(sq("g1"));
    assert_eq!(off.validate(), Err(SetupError::OffBoard(sq("g1"), Shape::Square(6))));
    let mut cut = reversi::Setup::start(Shape::Octagon);
    cut.white.push(sq("j10"));
    assert_eq!(cut.validate(), Err(SetupError::Cut(sq("j10"))));
}

#[test]
fn the_centre_hole_rule_is_one_rule_worded_for_each_caller() {
    let notation =
        Reversi::from_notation("8 ......../......../..#...../...wb.../...bw.../......../......../........ b");
    let rule = "c3 is in the central 4x4, where holes are not allowed";
    assert_eq!(notation, Err(Error::notation(format!("reversi position: {rule}"))));
    let variant = Variant::new(Shape::Square(8), vec![sq("c3")], 0, Player::Black);
    assert_eq!(variant, Err(Error::invalid(format!("blocked: {rule}"))));
    let handicap = Variant::new(Shape::Square(8), vec![sq("a1")], 1, Player::White);
    assert_eq!(handicap, Err(Error::invalid("blocked: a1 holds a handicap disc")));
}

#[test]
fn reversi_positions_round_trip_through_setup() {
    let variants = [
        Variant::new(Shape::Square(4), vec![], 0, Player::Black).unwrap(),
        Variant::new(Shape::Square(8), vec![], 2, Player::White).unwrap(),
        Variant::new(Shape::Square(8), vec![sq("b2"), sq("a1")], 0, Player::Black).unwrap(),
        Variant::random(Shape::Square(10), 7, 3, Player::Black).unwrap(),
        Variant::random(Shape::Octagon, 11, 4, Player::White).unwrap(),
    ];
    for (seed, variant) in variants.iter().enumerate() {
        for p in random_game(variant.start(), seed as u64) {
            let setup = p.to_setup();
            assert_eq!(setup.holes, variant.holes);
            assert_eq!(setup.clone().validate(), Ok(p), "{}", p.to_notation());
            assert_eq!(Reversi::try_from(setup), Ok(p));
        }
    }
}

#[test]
fn a_variant_start_is_its_setup_validated() {
    let v = Variant::new(Shape::Octagon, vec![sq("c1")], 2, Player::White).unwrap();
    let mut setup = reversi::Setup::start(Shape::Octagon);
    setup.white.extend(v.corners());
    setup.holes.push(sq("c1"));
    assert_eq!(setup.validate(), Ok(v.start()));
    assert_eq!(v.corners(), vec![sq("b2"), sq("i9")]);
}

#[test]
fn cephalopod_setup_rules() {
    let bad_size = cephalopod::Setup::empty(9, 5).validate().unwrap_err();
    assert_eq!(Error::from(bad_size), Error::invalid("rows must be from 2 to 8, got 9"));
    let mut short = cephalopod::Setup::empty(3, 3);
    short.dice.pop();
    assert_eq!(short.validate().unwrap_err().to_string(), "a 3x3 board has 9 squares, got 8");
    for pips in [0, 7] {
        let mut setup = cephalopod::Setup::empty(3, 3);
        setup.dice[5] = Some((Player::White, pips));
        assert_eq!(setup.validate(), Err(cephalopod::SetupError::Pips(sq("c2"), pips)));
    }
    assert_eq!(Cephalopod::new(3, 4).unwrap(), cephalopod::Setup::empty(3, 4).validate().unwrap());
    assert_eq!(Cephalopod::new(1, 4).unwrap_err(), Error::invalid("rows must be from 2 to 8, got 1"));
}

#[test]
fn cephalopod_notation_errors_keep_their_order_and_wording() {
    let cases = [
        ("9x9 ../.. x", "cephalopod position: rows must be from 2 to 8, got 9"),
        ("2x2 ../.. x", "cephalopod position: side to move must be 'b' or 'w', got \"x\""),
        ("2x2 ../../.. b", "cephalopod position: a 2x2 board has 2 rows, got 3"),
        ("2x2 ../7b. b", "cephalopod position: row 2: cells are '.' or pips 1-6 then 'b' or 'w', got \"7b.\""),
        ("2x2 ../... b", "cephalopod position: row 2 must have 2 squares, got 3"),
        ("5 ../.. b", "cephalopod position: the size must look like '5x5', got \"5\""),
    ];
    for (text, message) in cases {
        assert_eq!(Cephalopod::from_notation(text), Err(Error::notation(message)), "{text}");
    }
}

#[test]
fn cephalopod_positions_round_trip_through_setup_and_keys() {
    for (rows, cols) in [(2, 2), (3, 3), (3, 4), (5, 5)] {
        let start = Cephalopod::new(rows, cols).unwrap();
        for p in random_game(start, u64::from(rows * cols)) {
            let setup = p.to_setup();
            assert_eq!(setup.clone().validate(), Ok(p));
            let key = p.compact_key();
            assert_eq!(p.from_compact_key(key), p);
            assert_eq!(cephalopod::key_to_move(key), p.to_move());
            let cells: Vec<i8> = cephalopod::key_cells(key, setup.dice.len()).collect();
            let expected: Vec<i8> = setup
                .dice
                .iter()
                .map(|die| match die {
                    None => 0,
                    Some((Player::Black, pips)) => *pips as i8,
                    Some((Player::White, pips)) => -(*pips as i8),
                })
                .collect();
            assert_eq!(cells, expected);
        }
    }
}

#[test]
fn cephalopod_sizes_parse_by_form_only() {
    assert_eq!(cephalopod::parse_size("5x3"), Some((5, 3)));
    assert_eq!(cephalopod::parse_size("9x9"), Some((9, 9))); // allowed sizes are the setup's rule
    for bad in ["05x5", "+5x5", "5x", "5", "x5", "5x5x5", "10x2"] {
        assert_eq!(cephalopod::parse_size(bad), None, "{bad}");
    }
}

/// The position readers refuse a pip or label digit outside 1-6 and a capture count of 0 by their
/// grammar (docs/design.md, "Setup, then validate"); a `Setup` built directly, from a position the
/// reader accepts, reaches `validate` without the reader and is held to the same rules there.
#[test]
fn validate_holds_the_rules_the_notation_grammar_also_refuses() {
    let dice = Cephalopod::from_notation("2x2 1b./.2w w").unwrap();
    for pips in [0, 7, 9] {
        let mut setup = dice.to_setup();
        setup.dice[0] = Some((Player::Black, pips));
        assert_eq!(setup.validate(), Err(cephalopod::SetupError::Pips(sq("a1"), pips)), "pips {pips}");
    }

    let covered = "up-to 22/2b2/22 w";
    assert!(strands::parse_setup(covered).unwrap().validate().is_ok());
    for label in [0, 7, 9] {
        let mut setup = strands::parse_setup(covered).unwrap();
        setup.rows[1][0] = strands::Cell::Label(label);
        assert_eq!(setup.validate(), Err(strands::SetupError::Label(label)), "label {label}");
        assert!(Strands::from_notation(&format!("up-to 22/{label}b2/22 w")).is_err());
    }

    let under_way = Rive::from_notation("5@0 bwbwb b single capture=a3:2").unwrap();
    let mut setup: rive::Setup = under_way.setup();
    assert_eq!(setup.validate().unwrap(), under_way);
    setup.capture = Some(Pending { placed: 2, remaining: 0 });
    assert_eq!(
        setup.validate().unwrap_err(),
        Error::invalid("capture: a capture under way has at least one stone to remove")
    );
    assert!(Rive::from_notation("5@0 bwbwb b single capture=a3:0").is_err());
}
