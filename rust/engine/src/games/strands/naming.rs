//! Strands' moves named without their position (`naming::MoveNaming`): on a hex board.

use super::Strands;

crate::naming::hex_naming!(StrandsNaming, Strands, super, |mv| mv.cells, |_| 0);
