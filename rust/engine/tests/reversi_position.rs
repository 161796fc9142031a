//! The `Position` trait's provided methods on Reversi: sampling and notation.

use boardcore_engine::reversi::{Board, Classic8, Frame10, Reversi, Shape, Variant};
use boardcore_engine::rng::SplitMix64;
use boardcore_engine::{Player, Position};

fn start(shape: Shape) -> Reversi {
    Variant::new(shape, vec![], 0, Player::Black).unwrap().start()
}

#[test]
fn sampled_moves_are_legal_and_cover_every_move() {
    let s = start(Shape::Square(8));
    let legal: Vec<_> = s.legal_moves().collect();
    let mut seen = vec![0u32; legal.len()];
    let mut rng = SplitMix64::new(9);
    for _ in 0..4000 {
        let mv = s.sample_move(&mut rng).unwrap();
        seen[legal.iter().position(|&m| m == mv).unwrap()] += 1;
    }
    // Uniform over 4 moves: each about 1000 times.
    assert!(seen.iter().all(|&n| (850..1150).contains(&n)), "{seen:?}");
}

#[test]
fn a_finished_game_has_nothing_to_sample() {
    let over = Reversi::from_notation("4 bbbb/bbbb/bbbb/bbbb b").unwrap();
    assert_eq!(over.sample_move(&mut SplitMix64::new(1)), None);
}

#[test]
fn positions_round_trip_through_notation_in_every_frame() {
    for shape in [Shape::Square(4), Shape::Square(8), Shape::Square(10), Shape::Octagon] {
        let s = start(shape);
        assert_eq!(Reversi::from_notation(&s.to_notation()).unwrap(), s);
    }
    let classic = Board::<Classic8>::from_notation(&start(Shape::Square(8)).to_notation()).unwrap();
    assert_eq!(Reversi::Classic(classic), start(Shape::Square(8)));
    // A concrete frame refuses notation of a board that lives in another frame.
    assert!(Board::<Frame10>::from_notation(&start(Shape::Square(8)).to_notation()).is_err());
}
