//! The games the binding knows, listed once. Every dispatch on a game (by its name, by its
//! Python class or by its engine type) expands from `for_each_game!`, so a fifth game is one
//! line here and a module of its own (CONTRIBUTING.md, "Adding a game").

/// Calls `$callback!` with the arguments given, then every game as
/// `(Variant, "name", module, PyClass)`: the variant of `GameName`, the name Python passes, the
/// module (`boardcore_engine::module` the engine, `crate::module` the binding) and the class of
/// the game in the binding's module.
macro_rules! for_each_game {
    ($($callback:ident)::+ ! ($($args:tt)*)) => {
        $($callback)::+! {
            $($args)*;
            (Reversi, "reversi", reversi, PyReversi),
            (Cephalopod, "cephalopod", cephalopod, PyCephalopod),
            (Rive, "rive", rive, PyRive),
            (Strands, "strands", strands, PyStrands)
        }
    };
}
pub(crate) use for_each_game;

/// The `GameName` enum: one variant a game, with its name and the list of all.
macro_rules! define_game_names {
    (; $(($Variant:ident, $name:literal, $module:ident, $Py:ident)),+) => {
        /// One of the games, as `VectorEnv`, `selfplay` and `Evaluator` name them.
        #[derive(Clone, Copy, PartialEq, Eq, Debug)]
        pub enum GameName {
            $($Variant),+
        }

        impl GameName {
            pub const ALL: &'static [GameName] = &[$(GameName::$Variant),+];

            pub fn as_str(self) -> &'static str {
                match self {
                    $(GameName::$Variant => $name),+
                }
            }
        }
    };
}
for_each_game!(define_game_names!());

/// `with_engine!(name, |G| body)`: `body` with the type `G` the engine's position type of the
/// game `name` (a `GameName`), for each game in a `match`.
macro_rules! with_engine {
    ($game:expr, |$G:ident| $body:expr) => {
        $crate::registry::for_each_game!(crate::registry::game_arms!(engine, $game, $G, $body))
    };
}

/// `with_class!(name, |P| body)`: `body` with the type `P` the binding's class of the game
/// `name` (a `GameName`), for each game in a `match`.
macro_rules! with_class {
    ($game:expr, |$P:ident| $body:expr) => {
        $crate::registry::for_each_game!(crate::registry::game_arms!(class, $game, $P, $body))
    };
}

/// The `match` of `with_engine!` and `with_class!`: one arm a game, `$T` its engine type or class.
macro_rules! game_arms {
    ($kind:ident, $game:expr, $T:ident, $body:expr; $(($Variant:ident, $name:literal, $module:ident, $Py:ident)),+) => {
        match $game {
            $($crate::registry::GameName::$Variant => {
                type $T = crate::registry::game_type!($kind, $Variant, $module, $Py);
                $body
            })+
        }
    };
}

/// A game's engine position type (`engine`) or binding class (`class`).
macro_rules! game_type {
    (engine, $Variant:ident, $module:ident, $Py:ident) => {
        boardcore_engine::$module::$Variant
    };
    (class, $Variant:ident, $module:ident, $Py:ident) => {
        $crate::$module::$Py
    };
}
pub(crate) use {game_arms, game_type, with_class, with_engine};

/// A game module's `register`, adding its classes to the Python module (`register_games!`).
macro_rules! register_classes {
    ($($Class:ty),+ $(,)?) => {
        /// Adds the game's classes to the module (`registry::register_games!`).
        pub fn register(m: &pyo3::Bound<'_, pyo3::types::PyModule>) -> pyo3::PyResult<()> {
            use pyo3::types::PyModuleMethods;
            $(m.add_class::<$Class>()?;)+
            Ok(())
        }
    };
}
pub(crate) use register_classes;

/// Registers every game's classes: each game module's `register`.
macro_rules! register_games {
    ($m:expr; $(($Variant:ident, $name:literal, $module:ident, $Py:ident)),+) => {{
        $($crate::$module::register($m)?;)+
    }};
}
pub(crate) use register_games;

/// For each game's class `P`, in turn: `body` (a block that returns when `P` is the one it
/// wants), then falls through. Where a function takes "any game" object (`return_for_game!`,
/// `bc.mcts.search`), this is how it tries them.
macro_rules! each_class {
    (|$P:ident| $body:block) => {
        $crate::registry::for_each_game!(crate::registry::each_class_arms!($P, $body))
    };
}
macro_rules! each_class_arms {
    ($P:ident, $body:block; $(($Variant:ident, $name:literal, $module:ident, $Py:ident)),+) => {
        $({
            type $P = $crate::$module::$Py;
            $body
        })+
    };
}
pub(crate) use {each_class, each_class_arms};
