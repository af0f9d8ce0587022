//! No two source files import each other, directly or through others: the
//! modules form layers (model → formats and backends → solver → check,
//! generate → command line), each readable without the ones above it.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The `.rs` files under `dir`, recursively.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The module path a file defines: `src/sat/encode.rs` is `sat::encode`,
/// and in the binary, whose root is `src/cli/main.rs`, `src/cli/solve.rs` is
/// `solve`; `mod.rs`, `lib.rs` and `main.rs` stand for their directory.
fn module_of(file: &Path) -> Vec<String> {
    let root = if file.starts_with("src/cli") { "src/cli" } else { "src" };
    let mut parts: Vec<String> =
        file.strip_prefix(root).unwrap().with_extension("").iter().map(|p| p.to_string_lossy().into()).collect();
    if matches!(parts.last().map(String::as_str), Some("mod" | "lib" | "main")) {
        parts.pop();
    }
    parts
}

/// The files one file refers to: through `crate::a::b`, `super::a`, and
/// the names inside `super::{…}` or `crate::{…}`; a module's own file also
/// through `child::` for each child it declares.
fn references(file: &Path, modules: &BTreeMap<Vec<String>, PathBuf>) -> BTreeSet<PathBuf> {
    let text = std::fs::read_to_string(file).unwrap();
    let text = text.split("#[cfg(test)]\nmod tests").next().unwrap();
    let code: String = text.lines().filter(|l| !l.trim_start().starts_with("//")).map(|l| format!("{l}\n")).collect();
    let me = module_of(file);
    let parent = me[..me.len().saturating_sub(1)].to_vec();
    let words = |s: &str| -> Vec<String> {
        s.split("::").map(|w| w.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect()).collect()
    };
    let mut paths: Vec<Vec<String>> = Vec::new();
    for (base, prefix) in [(Vec::new(), "crate::"), (parent, "super::")] {
        for (at, _) in code.match_indices(prefix) {
            let rest = &code[at + prefix.len()..];
            if let Some(group) = rest.strip_prefix('{') {
                let inner = &group[..group.find('}').unwrap()];
                paths.extend(inner.split(',').map(|item| [base.clone(), words(item.trim())].concat()));
            } else {
                paths.push([base.clone(), words(rest.split_whitespace().next().unwrap_or(""))].concat());
            }
        }
    }
    let own = matches!(file.file_name().and_then(|n| n.to_str()), Some("mod.rs" | "lib.rs" | "main.rs"));
    for line in code.lines().filter(|_| own) {
        let line = line.trim_start().trim_start_matches("pub(crate) ").trim_start_matches("pub ");
        if let Some(child) = line.strip_prefix("mod ").and_then(|l| l.strip_suffix(';')) {
            if code.contains(&format!("{child}::")) {
                paths.push([me.clone(), vec![child.to_string()]].concat());
            }
        }
    }
    paths
        .into_iter()
        .filter_map(|path| (0..=path.len()).rev().find_map(|k| modules.get(&path[..k])))
        .filter(|target| target.as_path() != file)
        .cloned()
        .collect()
}

/// A cycle in `graph`, if there is one.
fn find_cycle(graph: &BTreeMap<PathBuf, BTreeSet<PathBuf>>) -> Option<Vec<PathBuf>> {
    fn visit(
        node: &PathBuf,
        graph: &BTreeMap<PathBuf, BTreeSet<PathBuf>>,
        done: &mut BTreeSet<PathBuf>,
        path: &mut Vec<PathBuf>,
    ) -> Option<Vec<PathBuf>> {
        if let Some(start) = path.iter().position(|p| p == node) {
            return Some(path[start..].to_vec());
        }
        if !done.insert(node.clone()) {
            return None;
        }
        path.push(node.clone());
        let found = graph[node].iter().find_map(|next| visit(next, graph, done, path));
        path.pop();
        found
    }
    let mut done = BTreeSet::new();
    graph.keys().find_map(|node| visit(node, graph, &mut done, &mut Vec::new()))
}

/// The import graph of one crate: the library, or the binary with its
/// command-line modules.
fn graph(binary: bool) -> BTreeMap<PathBuf, BTreeSet<PathBuf>> {
    let mut files = Vec::new();
    rust_files(Path::new("src"), &mut files);
    let is_binary = |f: &PathBuf| f.starts_with("src/cli");
    files.retain(|f| is_binary(f) == binary);
    let modules: BTreeMap<Vec<String>, PathBuf> = files.iter().map(|f| (module_of(f), f.clone())).collect();
    files.iter().map(|f| (f.clone(), references(f, &modules))).collect()
}

#[test]
fn no_source_file_imports_itself_through_others() {
    for binary in [false, true] {
        let graph = graph(binary);
        assert!(graph.len() > 8, "the scan finds the sources");
        assert!(find_cycle(&graph).is_none(), "import cycle: {:?}", find_cycle(&graph).unwrap());
    }
}

#[test]
fn the_scan_sees_the_imports_it_must() {
    let graph = graph(false);
    let refs = |file: &str| &graph[Path::new(file)];
    assert!(refs("src/solver/mod.rs").contains(Path::new("src/native/mod.rs")), "crate:: paths");
    assert!(refs("src/sat/encode.rs").contains(Path::new("src/sat/diagram.rs")), "super:: paths");
    assert!(refs("src/sat/mod.rs").contains(Path::new("src/sat/encode.rs")), "a module's children");
    assert!(refs("src/format/kenken.rs").contains(Path::new("src/puzzle/mod.rs")), "crate::{{…}} groups");
    let cyclic = BTreeMap::from([
        (PathBuf::from("a"), BTreeSet::from([PathBuf::from("b")])),
        (PathBuf::from("b"), BTreeSet::from([PathBuf::from("a")])),
    ]);
    assert_eq!(find_cycle(&cyclic), Some(vec![PathBuf::from("a"), PathBuf::from("b")]));
}

/// The library's layers, lowest first: a folder of `src/` may use its own
/// files and those of the layers below it, never one beside or above it.
const LAYERS: &[&[&str]] = &[&["puzzle"], &["format", "native", "sat"], &["solver"], &["setter", "crosscheck"]];

/// The layer of a library file, and its folder; `None` for `lib.rs`.
fn layer_of(file: &Path) -> Option<(usize, String)> {
    let folder = file.strip_prefix("src").unwrap().iter().next()?.to_string_lossy().into_owned();
    let layer = LAYERS.iter().position(|layer| layer.contains(&folder.as_str()));
    assert!(layer.is_some() || folder == "lib.rs", "{} is in no layer: add its folder to LAYERS", file.display());
    layer.map(|layer| (layer, folder))
}

#[test]
fn each_layer_uses_only_the_layers_below_it() {
    let graph = graph(false);
    for (file, targets) in &graph {
        let Some((layer, folder)) = layer_of(file) else { continue };
        for target in targets {
            let (their_layer, their_folder) = layer_of(target).expect("nothing uses lib.rs");
            assert!(
                their_folder == folder || their_layer < layer,
                "{} (layer {layer}) uses {} (layer {their_layer})",
                file.display(),
                target.display()
            );
        }
    }
    assert!(
        graph[Path::new("src/setter/analysis.rs")].contains(Path::new("src/solver/mod.rs")),
        "the scan sees the layers"
    );
}
