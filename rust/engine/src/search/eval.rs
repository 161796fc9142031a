//! Learned evaluations: a linear function of a few features of the position, with one weight
//! vector per phase of the game, fitted by `tools/train_eval.py` from positions the library
//! labels itself (docs/engine.md, "Evaluations"). The weights ship in the Python package
//! (`boardcore/data/eval/*.json`) and are handed to [`Linear`]; nothing here needs a
//! deep-learning framework.

use super::{Evaluate, Searchable};

/// Features of a game's positions for the learned evaluation: a fixed number per game, each
/// from the side to move's point of view, the same for every board of the game (so one
/// weight file serves every size) and cheap to compute.
pub trait Features: Searchable {
    /// Features per position.
    const COUNT: usize;
    /// Their names, in order (for the weight files and the docs).
    const NAMES: &'static [&'static str];
    /// Phases of the game, each with its own weights.
    const PHASES: usize;

    /// The phase of this position, below `PHASES` (how far the game has gone).
    fn phase(&self) -> usize;

    /// Writes the `COUNT` features into `out`.
    fn features(&self, out: &mut [f32]);

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
