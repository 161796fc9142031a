//! Strands: move counts, counting = generating = unranking, layouts against the data file.

use boardcore_engine::rng::SplitMix64;
use boardcore_engine::strands::{named_layout, Cover, Strands, LAYOUTS};
use boardcore_engine::{Outcome, Player, Position};

fn start(name: &str, cover: Cover) -> Strands {
    Strands::new(&named_layout(name).unwrap(), cover).unwrap()
}

fn after_opening(name: &str, cover: Cover) -> Strands {
    let mut s = start(name, cover);
    let first = s.legal_moves().next().unwrap();
    s.play_unchecked(first);
    s
}

#[test]
fn whites_first_turn_on_hex6_has_the_published_number_of_moves() {
    for (cover, expected) in [(Cover::UpTo, 58_472u64), (Cover::Exact, 45_125)] {
        let s = after_opening("hex6", cover);
        assert_eq!(s.count_moves(), expected);
        assert_eq!(s.legal_moves().count() as u64, expected);
    }
}

#[test]
fn unranking_gives_the_moves_in_generation_order() {
    let mut rng = SplitMix64::new(3);
    for cover in [Cover::UpTo, Cover::Exact] {
        let mut s = start("hex5", cover);
        while !s.is_over() {
            let moves: Vec<_> = s.legal_moves().collect();
            assert_eq!(moves.len() as u64, s.count_moves());
            assert!(moves.iter().all(|&m| s.is_legal(m)));
            // sample_move draws below(count) and unranks it: the same draw indexes the list.
            let mut probe = SplitMix64::new(42);
            let mut copy = probe.clone();
            let sampled = s.sample_move(&mut probe).unwrap();
            assert_eq!(sampled, moves[copy.below(moves.len() as u64) as usize]);
            let mv = s.sample_move(&mut rng).unwrap();
            s.play_unchecked(mv);
        }
        assert!(s.outcome().is_some());
    }
}

#[test]
fn every_index_unranks_to_its_move_in_generation_order() {
    let mut rng = SplitMix64::new(5);
    for (name, cover) in [("hex4", Cover::UpTo), ("hex4", Cover::Exact), ("hex5", Cover::UpTo)] {
        let mut s = start(name, cover);
        while !s.is_over() {
            let moves: Vec<_> = s.legal_moves().collect();
            let unranked: Vec<_> = (0..moves.len() as u64).map(|i| s.nth_move(i).unwrap()).collect();
            assert_eq!(unranked, moves);
            assert_eq!(s.nth_move(moves.len() as u64), None);
            s.play_unchecked(s.sample_move(&mut rng).unwrap());
        }
    }
}

#[test]
fn layouts_match_the_data_file() {
    let text =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/data/strands_layouts.json")).unwrap();
    for (name, rows) in LAYOUTS {
        let joined: Vec<String> =
            rows.iter().map(|r| r.chars().map(String::from).collect::<Vec<_>>().join(" ")).collect();
        let block = format!("\"{name}\": {{");
        let at = text.find(&block).unwrap_or_else(|| panic!("{name} not in the data file"));
        for row in joined {
            assert!(text[at..].contains(&format!("\"{row}\"")), "{name}: row {row}");
        }
    }
}

/// The rule as written: sorted group sizes, compared position by position, a missing group 0.
fn winner_by_the_rule(s: &Strands) -> Outcome {
    let (mut black, mut white) = (s.group_sizes(Player::Black), s.group_sizes(Player::White));
    let len = black.len().max(white.len());
    black.resize(len, 0);
    white.resize(len, 0);
    match black.cmp(&white) {
        std::cmp::Ordering::Greater => Outcome::Winner(Player::Black),
        std::cmp::Ordering::Less => Outcome::Winner(Player::White),
        std::cmp::Ordering::Equal => Outcome::Draw,
    }
}

#[test]
fn the_outcome_and_random_playouts_follow_the_group_size_rule() {
    // The outcome stops scanning groups once the comparison is certain, and play_out keeps its
    // counts incrementally: both must agree with the plain forms on every layout and rule.
    for &(name, _) in LAYOUTS {
        for cover in [Cover::UpTo, Cover::Exact] {
            for seed in 0..40 {
                let start = start(name, cover);
                let mut played = start;
                played.play_out(&mut SplitMix64::new(seed));
                let mut stepped = start;
                let mut rng = SplitMix64::new(seed);
                while let Some(mv) = stepped.sample_move(&mut rng) {
                    stepped.play_unchecked(mv);
                }
                assert_eq!(played, stepped, "{name} {cover:?} seed {seed}");
                assert_eq!(played.outcome(), Some(winner_by_the_rule(&played)), "{name} {cover:?} seed {seed}");
            }
        }
    }
}
