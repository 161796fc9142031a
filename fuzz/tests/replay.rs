//! Replays the committed corpus (`fuzz/corpus/TARGET/*`) through the same properties the fuzz
//! targets check, on stable Rust: `cargo test --manifest-path fuzz/Cargo.toml --no-default-features`.
//! A regression case is a file added to the corpus of its target (docs/reliability.md).

use std::path::Path;

#[test]
fn the_committed_corpus_passes_every_property() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus");
    for (name, check) in boardcore_fuzz::TARGETS {
        let dir = root.join(name);
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|entry| entry.expect("a corpus entry").path())
            .collect();
        files.sort();
        assert!(!files.is_empty(), "the {name} corpus is empty");
        for file in files {
            let data = std::fs::read(&file).expect("a readable corpus file");
            let outcome = std::panic::catch_unwind(|| check(&data));
            assert!(
                outcome.is_ok(),
                "{name}: {} fails (replay it with `cargo fuzz run {name} {}`)",
                file.display(),
                file.display()
            );
        }
    }
}
