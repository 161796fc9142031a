//! Learned evaluations: a linear function of a few features of the position, with one weight
//! vector per phase of the game, fitted by `tools/train_eval.py` from positions the library
//! labels itself (docs/engine.md, "Evaluations"). The weights ship in the Python package
//! (`boardcore/data/eval/*.json`) and are handed to [`Linear`]; nothing here needs a
//! deep-learning framework.

use super::tuples::Tuples;
use super::{Evaluate, Searchable};
use crate::error::Result;
use crate::game::{Player, Position};
use crate::interrupt::{every, Stop};
use crate::puct::{Batch, Evaluator};
use crate::reversi::patterns::Patterns;
use crate::steps::Steps;
use rayon::prelude::*;
use std::sync::Arc;

/// What every game's feature tests share: the features of a position given in notation (every
/// one written: a NaN left over would fail the comparison), and the features named, so that a
/// failing comparison says which one differs.
#[cfg(test)]
pub(crate) mod testing {
    use super::Features;
    use crate::game::Position;

    pub fn features_of<P: Features + Position>(notation: &str) -> Vec<f32> {
        let position = P::from_notation(notation).unwrap();
        let mut out = vec![f32::NAN; P::COUNT];
        position.features(&mut out);
        out
    }

    pub fn named<P: Features>(values: &[f32]) -> Vec<(&'static str, f32)> {
        P::NAMES.iter().copied().zip(values.iter().copied()).collect()
    }

    /// Asserts that `values` are the `expected` features, compared by name (so that a failure
    /// says which feature differs).
    #[track_caller]
    pub fn assert_named<P: Features>(values: &[f32], expected: &[f32]) {
        assert_eq!(named::<P>(values), named::<P>(expected));
    }

    /// Asserts that the position `notation` has the `expected` features (`assert_named`).
    #[track_caller]
    pub fn assert_features<P: Features + Position>(notation: &str, expected: &[f32]) {
        assert_named::<P>(&features_of::<P>(notation), expected);
    }

    #[test]
    fn phases_by_share_follow_the_covered_cells() {
        fn phase<P: Features + Position>(notation: &str) -> usize {
            P::from_notation(notation).unwrap().phase()
        }
        use crate::{cephalopod::Cephalopod, rive::Rive, strands::Strands};
        assert_eq!(phase::<Cephalopod>("5x5 ...../...../...../...../..... b"), 0);
        assert_eq!(phase::<Cephalopod>("3x3 6w1b./1b../..5b w"), 3); // 4 of 9
        assert_eq!(phase::<Cephalopod>("3x3 1b1b1b/1b1w1w/1w1w. w"), Cephalopod::PHASES - 1);
        assert_eq!(phase::<Rive>("hex3 .../..../...../..../... b"), 0);
        assert_eq!(phase::<Rive>("hex3 bbb/wwww/...../..../... b"), 2); // 7 of 19
        assert_eq!(phase::<Rive>("hex3 bbb/bbbb/bb.ww/wwww/www w"), Rive::PHASES - 1);
        assert_eq!(phase::<Strands>("up-to bb/w2w/b2 w"), 5); // 5 of 7
    }

    #[test]
    fn reversis_features_fit_a_u64_mask() {
        const { assert!(crate::reversi::Reversi::COUNT <= 64) };
    }
}

/// The phase of a position whose board has `cells` cells, `covered` of them, in a game of
/// `phases` phases cut by the share of the board covered (Cephalopod, Rive, Strands): equal
/// shares, the full board in the last.
pub fn phase_by_share(covered: u32, cells: usize, phases: usize) -> usize {
    (covered as usize * phases / cells).min(phases - 1)
}

/// Features of a game's positions for the learned evaluation: a fixed number per game, each
/// from the side to move's point of view, the same for every board of the game (so one
/// weight file serves every size) and cheap to compute.
pub trait Features: Searchable {
    /// The features' names, in order (for the weight files and the docs).
    const NAMES: &'static [&'static str];
    /// Features per position: one per name.
    const COUNT: usize = Self::NAMES.len();
    /// Phases of the game, each with its own weights.
    const PHASES: usize;

    /// The phase of this position, below `PHASES` (how far the game has gone).
    fn phase(&self) -> usize;

    /// Writes the `COUNT` features into `out`.
    fn features(&self, out: &mut [f32]);

    /// The margin, in points, by the pattern weights that read this position, if any do
    /// (Reversi's boards with patterns of their own: reversi/patterns.rs).
    fn pattern_margin(&self, _patterns: &[Arc<Patterns>]) -> Option<f32> {
        None
    }

    /// The margin, in points, by the local-pattern weights of the game (search/tuples.rs), if it
    /// has local patterns.
    fn tuple_margin(&self, _tuples: &Tuples) -> Option<f32> {
        None
    }

    /// Multi-ProbCut's error for a `depth`-ply search of this position, in hundredths of a
    /// point, from the pattern weights that read it and were fitted with one.
    fn probcut_sigma(&self, _patterns: &[Arc<Patterns>], _depth: i32) -> Option<i32> {
        None
    }

    /// The features as a new vector (for the binding and the tests; the search writes into a
    /// buffer of its own).
    fn feature_vector(&self) -> Vec<f32> {
        let mut out = vec![0.0; Self::COUNT];
        self.features(&mut out);
        out
    }
}

/// A linear evaluation: `SCALE * (w[phase] . features)`, clamped to the game's range.
#[derive(Debug, Clone)]
pub struct Linear {
    /// `PHASES * (COUNT + 1)` weights: per phase, a bias then one weight per feature.
    weights: Vec<f32>,
}

impl Linear {
    /// Weights for game `P`, or why they do not fit it.
    pub fn new<P: Features>(weights: Vec<f32>) -> crate::Result<Linear> {
        let expected = P::PHASES * (P::COUNT + 1);
        if weights.len() != expected {
            return Err(crate::Error::invalid(format!(
                "{} weights given, the evaluation needs {expected} ({} phases of a bias and {} features)",
                weights.len(),
                P::PHASES,
                P::COUNT
            )));
        }
        if weights.iter().any(|w| !w.is_finite()) {
            return Err(crate::Error::invalid("weights must be finite numbers"));
        }
        Ok(Linear { weights })
    }

    /// The estimated final margin, in points, of `position` for its side to move.
    pub fn margin<P: Features>(&self, position: &P) -> f32 {
        let mut features = [0f32; 64];
        let features = &mut features[..P::COUNT];
        position.features(features);
        let phase = position.phase().min(P::PHASES - 1);
        let w = &self.weights[phase * (P::COUNT + 1)..(phase + 1) * (P::COUNT + 1)];
        w[0] + w[1..].iter().zip(features.iter()).map(|(a, b)| a * b).sum::<f32>()
    }
}

impl<P: Features> Evaluate<P> for Linear {
    fn evaluate(&self, position: &P) -> i32 {
        (super::SCALE as f32 * self.margin(position)).clamp(-1e7, 1e7) as i32
    }
}

/// A game's learned evaluation: the pattern weights of the boards that have them (Reversi's,
/// reversi/patterns.rs), the local patterns of the games that have them (search/tuples.rs),
/// and the linear one for every other board of the game.
#[derive(Debug, Clone)]
pub struct Learned {
    pub linear: Linear,
    pub patterns: Vec<Arc<Patterns>>,
    pub tuples: Option<Arc<Tuples>>,
}

impl Learned {
    pub fn linear(linear: Linear) -> Learned {
        Learned { linear, patterns: Vec::new(), tuples: None }
    }

    /// The estimated final margin, in points, of `position` for its side to move.
    #[inline]
    pub fn margin<P: Features>(&self, position: &P) -> f32 {
        if let Some(margin) = position.pattern_margin(&self.patterns) {
            return margin;
        }
        if let Some(margin) = self.tuples.as_ref().and_then(|tuples| position.tuple_margin(tuples)) {
            return margin;
        }
        self.linear.margin(position)
    }
}

impl<P: Features> Evaluate<P> for Learned {
    fn evaluate(&self, position: &P) -> i32 {
        (super::SCALE as f32 * self.margin(position)).clamp(-1e7, 1e7) as i32
    }

    fn probcut_sigma(&self, position: &P, depth: i32) -> Option<i32> {
        position.probcut_sigma(&self.patterns, depth)
    }

    fn orders_solves(&self) -> bool {
        true
    }
}

/// A learned evaluation guiding the model-guided search (`puct::search`) natively, with no
/// Python call per leaf: `bc.mcts.search(game, evaluator=bc.ai.evaluator(game))`.
///
/// A leaf's value is `tanh(margin / s)` for its side to move, and each action's logit is the
/// margin its child is worth to the mover, over `s`: a softmax over one-ply evaluations, the
/// prior a value-only model gives. `s` is an eighth of the board's cells (at least one point),
/// so that a margin of an eighth of the board is worth `tanh(1) = 0.76` on every size. A finished
/// game is worth its exact margin. Step forms are judged by their position (for a Strands turn
/// under way, the position at the start of the turn: its steps share one prior).
#[derive(Debug, Clone)]
pub struct Guide {
    learned: Learned,
}

impl Guide {
    pub fn new(learned: Learned) -> Guide {
        Guide { learned }
    }

    /// The margin, in points, of `state` for `player`: exact once the game is over.
    fn margin_for<S: Steps>(&self, state: &S, player: Player) -> f32
    where
        S::Position: Features,
    {
        let position = state.position();
        let margin = match position.outcome() {
            Some(_) => position.final_margin() as f32,
            None => self.learned.margin(position),
        };
        if position.to_move() == player {
            margin
        } else {
            -margin
        }
    }

    /// One leaf's logits (a row of `num_actions`) and value.
    fn evaluate_one<S: Steps>(&self, state: &S, logits: &mut [f32]) -> f32
    where
        S::Position: Features,
    {
        let scale = (state.num_cells() as f32 / 8.0).max(1.0);
        let mover = state.to_move();
        logits.fill(0.0);
        state.for_each_legal_action(|action| {
            let mut child = state.clone();
            child.apply_action_unchecked(action);
            logits[action] = self.margin_for(&child, mover) / scale;
        });
        (self.margin_for(state, mover) / scale).tanh()
    }
}

impl<S: Steps> Evaluator<S> for Guide
where
    S::Position: Features,
{
    fn evaluate(&mut self, batch: &Batch<'_, S>, logits: &mut [f32], values: &mut [f32], stop: &Stop) -> Result<()> {
        let Some(first) = batch.states.first() else { return Ok(()) };
        let num_actions = first.num_actions();
        let this = &*self;
        let one = |(i, ((state, row), value)): (usize, ((&S, &mut [f32]), &mut f32))| {
            if every(i as u64, 64) {
                stop.check()?;
            }
            *value = this.evaluate_one(state, row);
            Ok(())
        };
        let rows = batch.states.iter().zip(logits.chunks_mut(num_actions)).zip(values.iter_mut()).enumerate();
        match batch.pool {
            Some(pool) if batch.states.len() > 1 => {
                let rows: Vec<_> = rows.collect();
                stop.install(pool, || rows.into_par_iter().try_for_each(one))?
            }
            _ => rows.into_iter().try_for_each(one),
        }
    }
}
