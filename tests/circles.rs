//! No module imports itself through others: the import graph of every crate of the workspace has
//! no circle, so that each module can be read (and each puzzle bundled) from its dependencies up.
//!
//! Each `.rs` file under the packages' source folders is a module, named by its path (`a/b.rs`
//! and `a/b/mod.rs` are `a::b`; `lib.rs`, `main.rs` and `bin/NAME.rs` are crate roots). A module
//! depends on another when its code, outside comments, string literals and `#[cfg(test)]` items,
//! names a path `crate::…` or `super::…` (use trees included: `crate::a::{b, c::{d, e}}`) whose
//! longest prefix that is a module is that other module. Paths to the module itself or to one of
//! its ancestors are not dependencies: a parent declares its children and re-exports their items.
//! A circle is a strongly connected component of two or more modules.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::fs;
use std::path::Path;

use crate::util::root;

/// The source folders checked, relative to the workspace root: one per package.
const SOURCE_FOLDERS: [&str; 5] = [
    "src",
    "play/src",
    "judge/src",
    "judge-process/src",
    "web/src",
];

/// The attribute that marks a test-only item, as rustfmt writes it.
const CFG_TEST: &str = "#[cfg(test)]";

/// One source file: its folder (a package's `src`), its path within it with `/` separators, and
/// its text.
struct SourceFile {
    folder: String,
    path: String,
    text: String,
}

/// A crate: its source folder and the file of its root within that folder.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
struct Crate {
    folder: String,
    root: String,
}

/// A module that is a file: its crate and its path from the crate root (empty for the root).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
struct Module {
    krate: Crate,
    path: Vec<String>,
}

/// `a::b`, or `crate` for a crate root.
impl fmt::Display for Module {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.is_empty() {
            f.write_str("crate")
        } else {
            f.write_str(&self.path.join("::"))
        }
    }
}

/// The dependencies between modules: each module (every one is a key) and those it depends on.
#[derive(Debug, Default)]
struct Graph {
    edges: BTreeMap<Module, BTreeSet<Module>>,
}

/// Modules that depend on each other, directly or through one another, with the dependencies
/// between them (each of the modules is a key).
#[derive(Debug, PartialEq, Eq)]
struct Circle {
    edges: BTreeMap<Module, BTreeSet<Module>>,
}

impl Circle {
    /// The circle's crate (all its modules share it).
    fn krate(&self) -> &Crate {
        &self
            .edges
            .keys()
            .next()
            .expect("a circle has modules")
            .krate
    }

    /// The modules' names, in order.
    fn names(&self) -> BTreeSet<String> {
        self.edges.keys().map(Module::to_string).collect()
    }
}

/// `FOLDER (ROOT): {a, b}`, then one line `a -> b, c` per module.
impl fmt::Display for Circle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<String> = self.names().into_iter().collect();
        let krate = self.krate();
        writeln!(
            f,
            "{} ({}): {{{}}}",
            krate.folder,
            krate.root,
            names.join(", ")
        )?;
        for (module, targets) in &self.edges {
            let targets: Vec<String> = targets.iter().map(Module::to_string).collect();
            writeln!(f, "    {module} -> {}", targets.join(", "))?;
        }
        Ok(())
    }
}

#[test]
fn no_module_imports_itself_through_others() {
    let files = workspace_sources();
    let graph = Graph::of(&files);
    for folder in SOURCE_FOLDERS {
        let edges = graph.edges.iter().filter(|(m, _)| m.krate.folder == folder);
        assert!(
            edges.flat_map(|(_, targets)| targets).next().is_some(),
            "no dependency found in {folder}: the detector reads nothing"
        );
    }
    let circles = graph.circles();
    let report: String = circles.iter().map(Circle::to_string).collect();
    assert!(
        circles.is_empty(),
        "{} circle(s) of modules that import each other; move the type that closes each one to \
         where it belongs:\n{report}",
        circles.len()
    );
}

#[test]
fn the_detector_finds_circles_in_a_small_crate() {
    let files = [
        (
            "lib.rs",
            "pub mod a;\npub mod b;\npub mod c;\npub mod d;\n#[cfg(test)]\nmod tests;\n",
        ),
        (
            "a.rs",
            "//! Names `crate::c` in comments only.\n\
             use crate::b::{inner::{Thing, Other as O}, self};\n\
             const RAW: &str = r#\"crate::c \"quoted\" \"#;\n\
             /* use crate::c; */\n\
             pub fn f() {}\n",
        ),
        (
            "b.rs",
            "pub fn g<'a>(x: &'a str) -> &'a str {\n    super::a::f();\n    x\n}\n",
        ),
        (
            "c.rs",
            "#[cfg(test)]\nmod tests {\n    const OPEN: char = '{';\n    use crate::a;\n}\n\
             use crate::d::{e::{self, Z}};\n",
        ),
        ("d/mod.rs", "pub mod e;\nuse crate::a::f;\n"),
        (
            "d/e.rs",
            "use super::super::c::Y;\nuse super::Thing;\npub(in crate::d) fn h() {}\n",
        ),
        ("tests.rs", "use crate::c;\n"),
    ];
    let files: Vec<SourceFile> = files
        .iter()
        .map(|(path, text)| SourceFile {
            folder: "demo/src".to_string(),
            path: path.to_string(),
            text: text.to_string(),
        })
        .collect();
    let graph = Graph::of(&files);
    let edges: Vec<String> = graph
        .edges
        .iter()
        .flat_map(|(m, targets)| targets.iter().map(move |t| format!("{m} -> {t}")))
        .collect();
    assert_eq!(
        edges,
        ["a -> b", "b -> a", "c -> d::e", "d -> a", "d::e -> c"]
    );
    let circles: Vec<String> = graph.circles().iter().map(Circle::to_string).collect();
    assert_eq!(
        circles,
        [
            "demo/src (lib.rs): {a, b}\n    a -> b\n    b -> a\n",
            "demo/src (lib.rs): {c, d::e}\n    c -> d::e\n    d::e -> c\n",
        ]
    );
}

/// Every `.rs` file of the source folders.
fn workspace_sources() -> Vec<SourceFile> {
    let mut files = Vec::new();
    for folder in SOURCE_FOLDERS {
        let base = root().join(folder);
        for path in rust_files(&base) {
            let relative = path.strip_prefix(&base).expect("a file under its folder");
            files.push(SourceFile {
                folder: folder.to_string(),
                path: relative.to_string_lossy().replace('\\', "/"),
                text: fs::read_to_string(&path).expect("a readable source file"),
            });
        }
    }
    files
}

/// The `.rs` files under `dir`, at any depth, in order.
fn rust_files(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut entries: Vec<_> = fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|entry| entry.expect("a directory entry").path())
        .collect();
    entries.sort();
    let mut files = Vec::new();
    for path in entries {
        if path.is_dir() {
            files.extend(rust_files(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
    files
}

impl SourceFile {
    /// The module this file is. `lib.rs`, `main.rs` and `bin/NAME.rs` are crate roots; every other
    /// file is a module of the library (no binary of the workspace has modules of its own).
    fn module(&self) -> Module {
        let mut parts: Vec<String> = self
            .path
            .trim_end_matches(".rs")
            .split('/')
            .map(str::to_string)
            .collect();
        let is_root = matches!(parts.as_slice(), [only] if only == "lib" || only == "main")
            || matches!(parts.as_slice(), [bin, _] if bin == "bin");
        let krate = |root: &str| Crate {
            folder: self.folder.clone(),
            root: root.to_string(),
        };
        if is_root {
            return Module {
                krate: krate(&self.path),
                path: Vec::new(),
            };
        }
        if parts.last().is_some_and(|last| last == "mod") {
            parts.pop();
        }
        Module {
            krate: krate("lib.rs"),
            path: parts,
        }
    }
}

/// What the detector reads of one file: its module, the children it declares test-only
/// (`#[cfg(test)] mod NAME;`) and the `crate::`/`super::` paths its other code names.
struct Parsed {
    module: Module,
    test_children: Vec<String>,
    paths: Vec<Vec<String>>,
}

impl Parsed {
    /// Reads `file`.
    fn of(file: &SourceFile) -> Parsed {
        let (code, test_children) = without_test_items(&code_only(&file.text));
        Parsed {
            module: file.module(),
            test_children,
            paths: anchored_paths(&tokens(&code)),
        }
    }

    /// The module `path` names, as seen from this file: the longest prefix of the path, once
    /// resolved from the crate root, that is a module of `modules`. `None` for the module itself,
    /// one of its ancestors, or a path that climbs above the crate root.
    fn target(&self, path: &[String], modules: &BTreeSet<Module>) -> Option<Module> {
        let from = &self.module.path;
        let (base, rest) = match path.first().map(String::as_str) {
            Some("crate") => (&[][..], &path[1..]),
            _ => {
                let ups = path.iter().take_while(|s| *s == "super").count();
                (&from[..from.len().checked_sub(ups)?], &path[ups..])
            }
        };
        let full: Vec<String> = base.iter().chain(rest).cloned().collect();
        let target = (0..=full.len()).rev().find_map(|k| {
            let module = Module {
                krate: self.module.krate.clone(),
                path: full[..k].to_vec(),
            };
            modules.contains(&module).then_some(module)
        })?;
        (!from.starts_with(&target.path)).then_some(target)
    }
}

impl Graph {
    /// The graph of `files`, without the files that a test-only declaration brings in.
    fn of(files: &[SourceFile]) -> Graph {
        let parsed: Vec<Parsed> = files.iter().map(Parsed::of).collect();
        let test_only: Vec<Module> = parsed
            .iter()
            .flat_map(|p| {
                p.test_children.iter().map(|child| Module {
                    krate: p.module.krate.clone(),
                    path: [p.module.path.clone(), vec![child.clone()]].concat(),
                })
            })
            .collect();
        let is_test_only = |m: &Module| {
            test_only
                .iter()
                .any(|t| t.krate == m.krate && m.path.starts_with(&t.path))
        };
        let kept: Vec<&Parsed> = parsed.iter().filter(|p| !is_test_only(&p.module)).collect();
        let modules: BTreeSet<Module> = kept.iter().map(|p| p.module.clone()).collect();
        let mut graph = Graph::default();
        for file in kept {
            let targets = file
                .paths
                .iter()
                .filter_map(|path| file.target(path, &modules));
            graph
                .edges
                .entry(file.module.clone())
                .or_default()
                .extend(targets);
        }
        graph
    }

    /// The circles: the strongly connected components of two or more modules (Tarjan's
    /// algorithm), in the order of their first module.
    fn circles(&self) -> Vec<Circle> {
        let mut tarjan = Tarjan::default();
        for module in self.edges.keys() {
            if !tarjan.index.contains_key(module) {
                tarjan.visit(self, module);
            }
        }
        let mut circles: Vec<Circle> = tarjan
            .components
            .into_iter()
            .filter(|component| component.len() > 1)
            .map(|component| self.circle(&component))
            .collect();
        circles.sort_by(|a, b| a.edges.keys().next().cmp(&b.edges.keys().next()));
        circles
    }

    /// The circle of the modules of `component`, with the dependencies among them.
    fn circle(&self, component: &BTreeSet<Module>) -> Circle {
        let edges = component
            .iter()
            .map(|m| {
                let inside = self.edges[m].intersection(component).cloned().collect();
                (m.clone(), inside)
            })
            .collect();
        Circle { edges }
    }
}

/// The state of Tarjan's strongly connected components algorithm.
#[derive(Default)]
struct Tarjan {
    /// Each visited module's visit number.
    index: BTreeMap<Module, usize>,
    /// The smallest visit number reachable from each module through the stack.
    low: BTreeMap<Module, usize>,
    stack: Vec<Module>,
    on_stack: BTreeSet<Module>,
    components: Vec<BTreeSet<Module>>,
}

impl Tarjan {
    /// Visits `module` and what it reaches, closing each component whose root it meets.
    fn visit(&mut self, graph: &Graph, module: &Module) {
        let number = self.index.len();
        self.index.insert(module.clone(), number);
        self.low.insert(module.clone(), number);
        self.stack.push(module.clone());
        self.on_stack.insert(module.clone());
        for target in &graph.edges[module] {
            if !self.index.contains_key(target) {
                self.visit(graph, target);
                self.lower(module, self.low[target]);
            } else if self.on_stack.contains(target) {
                self.lower(module, self.index[target]);
            }
        }
        if self.low[module] == number {
            self.close(module);
        }
    }

    /// Lowers `module`'s low link to `to` if that is smaller.
    fn lower(&mut self, module: &Module, to: usize) {
        let low = self.low.get_mut(module).expect("a visited module");
        *low = (*low).min(to);
    }

    /// Pops the component whose root is `root` off the stack.
    fn close(&mut self, root: &Module) {
        let mut component = BTreeSet::new();
        loop {
            let module = self.stack.pop().expect("the root is on the stack");
            self.on_stack.remove(&module);
            let done = module == *root;
            component.insert(module);
            if done {
                break;
            }
        }
        self.components.push(component);
    }
}

/// `text` with its comments and the insides of its string and character literals blanked out
/// (newlines kept), so that only code is left to read.
fn code_only(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut code = String::with_capacity(text.len());
    let mut i = 0;
    while i < chars.len() {
        match skipped_end(&chars, i) {
            Some(end) => {
                code.extend(
                    chars[i..end]
                        .iter()
                        .map(|&c| if c == '\n' { c } else { ' ' }),
                );
                i = end;
            }
            None => {
                code.push(chars[i]);
                i += 1;
            }
        }
    }
    code
}

/// The end of the comment or literal that starts at `chars[i]`, if one does.
fn skipped_end(chars: &[char], i: usize) -> Option<usize> {
    let at = |k: usize| chars.get(k).copied();
    let ident_at = |k: usize| at(k).is_some_and(is_ident_char);
    // `r` starts a raw string on its own or after a lone `b` (`br"…"`), not inside a word.
    let in_word = i > 0 && ident_at(i - 1) && !(chars[i - 1] == 'b' && (i < 2 || !ident_at(i - 2)));
    match (chars[i], at(i + 1), at(i + 2)) {
        ('/', Some('/'), _) => Some(line_end(chars, i)),
        ('/', Some('*'), _) => Some(block_comment_end(chars, i)),
        ('"', _, _) => Some(string_end(chars, i + 1)),
        ('r', Some('"' | '#'), _) if !in_word => raw_string_end(chars, i + 1),
        ('\'', Some('\\'), _) => Some(position(chars, i + 3, '\'') + 1),
        ('\'', Some(_), Some('\'')) => Some(i + 3),
        _ => None,
    }
}

/// Whether `c` can be part of an identifier.
fn is_ident_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The index of the first `c` at or after `from`, or the end of `chars`.
fn position(chars: &[char], from: usize, c: char) -> usize {
    (from..chars.len())
        .find(|&k| chars[k] == c)
        .unwrap_or(chars.len())
}

/// The end of the line comment at `start` (its newline is not part of it).
fn line_end(chars: &[char], start: usize) -> usize {
    position(chars, start, '\n')
}

/// The end of the block comment at `start`, nested comments included.
fn block_comment_end(chars: &[char], start: usize) -> usize {
    let mut depth = 0;
    let mut i = start;
    while i + 1 < chars.len() {
        match (chars[i], chars[i + 1]) {
            ('/', '*') => depth += 1,
            ('*', '/') => depth -= 1,
            _ => {
                i += 1;
                continue;
            }
        }
        i += 2;
        if depth == 0 {
            return i;
        }
    }
    chars.len()
}

/// The end of the string whose contents start at `from` (after its opening quote).
fn string_end(chars: &[char], from: usize) -> usize {
    let mut i = from;
    while i < chars.len() {
        match chars[i] {
            '\\' => i += 2,
            '"' => return i + 1,
            _ => i += 1,
        }
    }
    chars.len()
}

/// The end of the raw string whose hashes start at `from` (after its `r`), if it is one.
fn raw_string_end(chars: &[char], from: usize) -> Option<usize> {
    let hashes = chars[from..].iter().take_while(|&&c| c == '#').count();
    if chars.get(from + hashes) != Some(&'"') {
        return None;
    }
    let closing: Vec<char> = std::iter::once('"')
        .chain(std::iter::repeat_n('#', hashes))
        .collect();
    let body = from + hashes + 1;
    let end = (body..chars.len())
        .find(|&k| chars[k..].starts_with(&closing))
        .map_or(chars.len(), |k| k + closing.len());
    Some(end)
}

/// `code` with each `#[cfg(test)]` item blanked out (the attribute, up to the end of the item's
/// first block or its `;`), and the names of the modules so declared in files of their own.
fn without_test_items(code: &str) -> (String, Vec<String>) {
    let mut chars: Vec<char> = code.chars().collect();
    let attribute: Vec<char> = CFG_TEST.chars().collect();
    let mut children = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        if !chars[i..].starts_with(&attribute) {
            i += 1;
            continue;
        }
        let item = i + attribute.len();
        let end = item_end(&chars, item);
        let text: String = chars[item..end].iter().collect();
        children.extend(file_module(&text));
        for c in &mut chars[i..end] {
            if *c != '\n' {
                *c = ' ';
            }
        }
        i = end;
    }
    (chars.into_iter().collect(), children)
}

/// The end of the item (or statement) that starts at `start`: after its first `;` or its first
/// block outside parentheses and brackets.
fn item_end(chars: &[char], start: usize) -> usize {
    let mut depth = 0_i32;
    for (i, &c) in chars.iter().enumerate().skip(start) {
        match c {
            '(' | '[' => depth += 1,
            ')' | ']' => depth -= 1,
            ';' if depth == 0 => return i + 1,
            '{' if depth == 0 => return block_end(chars, i),
            _ => {}
        }
    }
    chars.len()
}

/// The end of the block whose `{` is at `open`.
fn block_end(chars: &[char], open: usize) -> usize {
    let mut depth = 0;
    for (i, &c) in chars.iter().enumerate().skip(open) {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    return i + 1;
                }
            }
            _ => {}
        }
    }
    chars.len()
}

/// The name of the module that `item` declares in a file of its own (`mod NAME;`), if it does.
fn file_module(item: &str) -> Option<String> {
    let declaration = item.trim().strip_suffix(';')?;
    let words: Vec<&str> = declaration.split_whitespace().collect();
    match words.as_slice() {
        [.., "mod", name] => Some((*name).to_string()),
        _ => None,
    }
}

/// A token of code: an identifier or keyword, `::`, or any other character.
#[derive(Debug, PartialEq, Eq)]
enum Token {
    Word(String),
    PathSeparator,
    Other(char),
}

/// The tokens of `code` (numbers are words too; whitespace separates).
fn tokens(code: &str) -> Vec<Token> {
    let chars: Vec<char> = code.chars().collect();
    let mut tokens = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if is_ident_char(c) {
            let end = (i..chars.len())
                .find(|&k| !is_ident_char(chars[k]))
                .unwrap_or(chars.len());
            tokens.push(Token::Word(chars[i..end].iter().collect()));
            i = end;
        } else if c == ':' && chars.get(i + 1) == Some(&':') {
            tokens.push(Token::PathSeparator);
            i += 2;
        } else {
            if !c.is_whitespace() {
                tokens.push(Token::Other(c));
            }
            i += 1;
        }
    }
    tokens
}

/// Every path that starts with `crate::` or `super::`, use trees expanded: `crate::a::{b, c}`
/// gives `crate::a::b` and `crate::a::c`. Each path is its segments, `crate` or the `super`s
/// first.
fn anchored_paths(tokens: &[Token]) -> Vec<Vec<String>> {
    let mut paths = Vec::new();
    for i in 0..tokens.len() {
        let anchored = matches!(&tokens[i], Token::Word(w) if w == "crate" || w == "super")
            && tokens.get(i + 1) == Some(&Token::PathSeparator)
            && (i == 0 || tokens[i - 1] != Token::PathSeparator);
        if anchored {
            use_tree(tokens, i, Vec::new(), &mut paths);
        }
    }
    paths
}

/// Reads the path or use tree at `tokens[i..]`, each of its paths added to `prefix`, into
/// `paths`; returns the index after it. `self` in braces names the prefix itself; `as NAME` is
/// skipped; a path ends at anything but `::`.
fn use_tree(
    tokens: &[Token],
    mut i: usize,
    mut prefix: Vec<String>,
    paths: &mut Vec<Vec<String>>,
) -> usize {
    loop {
        match tokens.get(i) {
            Some(Token::Word(word)) => {
                if word != "self" {
                    prefix.push(word.clone());
                }
                i += 1;
                if tokens.get(i) == Some(&Token::PathSeparator) {
                    i += 1;
                    continue;
                }
                if matches!(tokens.get(i), Some(Token::Word(w)) if w == "as") {
                    i += 2;
                }
                paths.push(prefix);
                return i;
            }
            Some(Token::Other('{')) => return use_trees(tokens, i + 1, &prefix, paths),
            Some(Token::Other('*')) => {
                paths.push(prefix);
                return i + 1;
            }
            _ => {
                paths.push(prefix);
                return i;
            }
        }
    }
}

/// Reads the comma-separated use trees from `tokens[i..]` up to their closing `}`, each added to
/// `prefix`; returns the index after the `}`.
fn use_trees(
    tokens: &[Token],
    mut i: usize,
    prefix: &[String],
    paths: &mut Vec<Vec<String>>,
) -> usize {
    while i < tokens.len() {
        match &tokens[i] {
            Token::Other('}') => return i + 1,
            Token::Other(',') => i += 1,
            _ => {
                let next = use_tree(tokens, i, prefix.to_vec(), paths);
                i = next.max(i + 1);
            }
        }
    }
    i
}
