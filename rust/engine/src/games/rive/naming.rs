//! Rive's moves named without their position (`naming::MoveNaming`): on a hex board.

use super::Rive;

crate::naming::hex_naming!(RiveNaming, Rive, super, |mv| mv.placed().map_or(0, |cell| 1u128 << cell), |mv| mv
    .removed());
