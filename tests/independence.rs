//! The native and SAT backends share nothing but the puzzle model: neither
//! may reach into the other, the checker, the cross-check or any other part
//! of the crate, so that a bug in one cannot hide in the other.

use std::path::Path;

fn sources(dir: &Path) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            out.extend(sources(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push((path.display().to_string(), std::fs::read_to_string(&path).unwrap()));
        }
    }
    out
}

#[test]
fn backends_use_nothing_of_the_crate_but_the_puzzle_model() {
    for dir in ["src/native", "src/sat"] {
        let files = sources(Path::new(dir));
        assert!(!files.is_empty(), "{dir} has no sources");
        for (path, text) in files {
            for (at, _) in text.match_indices("crate::") {
                let rest = &text[at + "crate::".len()..];
                assert!(rest.starts_with("puzzle"), "{path} uses crate::{}", rest.lines().next().unwrap());
            }
            for name in ["super::super", "cagey::"] {
                assert!(!text.contains(name), "{path} reaches outside its module through {name}");
            }
        }
    }
}
