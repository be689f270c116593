//! Source files and submission folders given as programs (`--cmd sol.cpp`, a package's
//! submissions and validators): C, C++, Rust, Java and Kotlin are compiled once and cached by
//! content; Python and JavaScript are run by their interpreter. The language comes from the
//! extension and, for Python, from the first line (`#!/usr/bin/env python2` is Python 2), as
//! problemtools does. A folder is one program: its C or C++ files compiled together, its Java or
//! Kotlin files compiled together, or its one main file of another language. Compiling happens
//! before any case runs, so its time is never counted in a case's time.
//!
//! The builds are kept under the repository's `target/judge-build/` when the judge runs inside
//! it, else under `$XDG_CACHE_HOME/judge` (or `~/.cache/judge`); without a home, in a folder
//! private to the user (see `private_dir`).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;

use crate::compiler::BuildError;

/// The languages the judge can build or run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Language {
    C,
    Cpp,
    Rust,
    Java,
    Kotlin,
    Python3,
    Python2,
    JavaScript,
}

impl Language {
    /// The language of `path` from its extension (and first line, for Python).
    #[must_use]
    pub fn of(path: &Path) -> Option<Language> {
        Some(match path.extension()?.to_str()? {
            "cpp" | "cc" | "cxx" | "c++" | "C" => Language::Cpp,
            "c" => Language::C,
            "rs" => Language::Rust,
            "java" => Language::Java,
            "kt" => Language::Kotlin,
            "js" => Language::JavaScript,
            "py" | "py3" => python_of(path),
            "py2" => Language::Python2,
            _ => return None,
        })
    }

    /// Its name in messages.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Language::C => "C",
            Language::Cpp => "C++",
            Language::Rust => "Rust",
            Language::Java => "Java",
            Language::Kotlin => "Kotlin",
            Language::Python3 => "Python 3",
            Language::Python2 => "Python 2",
            Language::JavaScript => "JavaScript",
        }
    }

    /// The tool that builds or runs it, and the arguments that make it say its version.
    fn tool(self) -> (&'static str, &'static str) {
        match self {
            Language::C => ("gcc", "--version"),
            Language::Cpp => ("g++", "--version"),
            Language::Rust => ("rustc", "--version"),
            Language::Java => ("javac", "-version"),
            Language::Kotlin => ("kotlinc", "-version"),
            Language::Python3 => ("python3", "--version"),
            Language::Python2 => ("python2", "--version"),
            Language::JavaScript => ("node", "--version"),
        }
    }
}

/// `#!...python2` on the first line makes a `.py` file Python 2 (only a regular file is read,
/// and only its start).
fn python_of(path: &Path) -> Language {
    let mut first = Vec::new();
    if let Ok(file) = crate::regular::open(path) {
        let _ = std::io::Read::read_to_end(&mut std::io::Read::take(file, 4096), &mut first);
    }
    let first = first.split(|&b| b == b'\n').next().unwrap_or_default();
    let first = String::from_utf8_lossy(first);
    if first.starts_with("#!") && first.contains("python2") {
        Language::Python2
    } else {
        Language::Python3
    }
}

/// The shell command that runs `command` if it is a source file or a folder of sources (one
/// word naming an existing file with a known extension, or a folder), compiling it first when
/// needed; `None` for any other command.
///
/// # Errors
/// The compiler cannot be run or rejects the file: its whole output is in the message.
pub fn command(command: &str) -> Option<Result<String, String>> {
    let path = Path::new(command.trim());
    if command.split_whitespace().count() != 1 {
        return None;
    }
    let source_file = path.is_file() && Language::of(path).is_some();
    if !source_file && !path.is_dir() {
        return None;
    }
    Some(build(path).map_err(BuildError::message))
}

/// The shell command that runs the program in `path` (a source file or a folder), built.
///
/// # Errors
/// The language is unknown or unavailable here, or the build fails.
pub fn build(path: &Path) -> Result<String, BuildError> {
    build_from(path, None)
}

/// As [`build`], with the folder `path`'s main file named by `entry` when given (a file's
/// name, or its name without extension, or a Java class: a package's `entrypoint`).
///
/// # Errors
/// As [`build`]; `entry` names no file of the folder.
pub fn build_from(path: &Path, entry: Option<&str>) -> Result<String, BuildError> {
    if path.is_dir() && (path.join("build").is_file() || path.join("run").is_file()) {
        return scripts(path);
    }
    let (language, files, main) = sources(path, entry)?;
    let identity = available(language)?;
    let tool = (language.tool().0, identity.as_str());
    let q = |p: &Path| crate::shell::quote(&absolute(p));
    // A folder run by an interpreter is named in the command (as the interpreter's path for
    // modules), so that the box shows the program's other files, which its main file imports.
    // `exec` (here and through `env`) leaves no shell between the judge and the program, which
    // would hold its pipes open past the program's own closing of them.
    let run = |interpreter: &str, modules: &str| {
        let script = format!("{interpreter} {}", q(&main));
        if path.is_dir() {
            format!("exec env {modules}={} {script}", q(path))
        } else {
            script
        }
    };
    match language {
        Language::Python3 => Ok(run(&interpreter("python3"), "PYTHONPATH")),
        Language::Python2 => Ok(run(&interpreter("python2"), "PYTHONPATH")),
        Language::JavaScript => Ok(run("node", "NODE_PATH")),
        Language::C => native(&files, tool, &c_flags("-std=gnu11"), &["-lm"], path),
        Language::Cpp => native(&files, tool, &c_flags("-std=gnu++17"), &[], path),
        Language::Rust => native(&[main], tool, &["-O", "--edition", "2021"], &[], path),
        Language::Java => java(&files, &main, tool),
        Language::Kotlin => kotlin(&files, tool),
    }
}

/// The flags of gcc and g++ before the files: `-O2`, the language's `standard`, and
/// `-fuse-ld=gold` where `ld.gold` is on `PATH` (see [`quick_linker`]).
fn c_flags(standard: &'static str) -> Vec<&'static str> {
    let mut flags = vec!["-O2", standard];
    flags.extend(quick_linker());
    flags
}

/// `-fuse-ld=gold` where `ld.gold` is on `PATH`, else nothing: gold links a contest program
/// (one object file and the C or C++ library) in a third of the time of gcc's default
/// `ld.bfd`, into the same program. Looked for once per judge.
fn quick_linker() -> Option<&'static str> {
    static GOLD: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    GOLD.get_or_init(|| crate::compiler::on_path("ld.gold").is_some())
        .then_some("-fuse-ld=gold")
}

/// The language of `path`, the files to build, and the main file (of a folder: the one `entry`
/// names, if given).
fn sources(
    path: &Path,
    entry: Option<&str>,
) -> Result<(Language, Vec<PathBuf>, PathBuf), BuildError> {
    if path.is_file() {
        let language = Language::of(path).ok_or_else(|| {
            BuildError::Failed(format!(
                "{}: a language the judge does not know",
                path.display()
            ))
        })?;
        return Ok((language, vec![path.to_path_buf()], path.to_path_buf()));
    }
    let mut files: Vec<(Language, PathBuf)> = Vec::new();
    let listed = std::fs::read_dir(path)
        .map_err(|e| BuildError::Failed(format!("{}: {e}", path.display())))?;
    for entry in listed.flatten() {
        let p = entry.path();
        if let Some(l) = Language::of(&p).filter(|_| p.is_file()) {
            files.push((l, p));
        }
    }
    files.sort_by(|a, b| a.1.cmp(&b.1));
    let language = match files.iter().map(|f| f.0).collect::<Vec<_>>().as_slice() {
        [] => {
            return Err(BuildError::Failed(format!(
                "{}: no source file of a known language",
                path.display()
            )))
        }
        ls if ls.iter().all(|l| matches!(l, Language::C | Language::Cpp)) => {
            if ls.contains(&Language::Cpp) {
                Language::Cpp
            } else {
                Language::C
            }
        }
        [first, rest @ ..] if rest.iter().all(|l| l == first) => *first,
        _ => {
            return Err(BuildError::Failed(format!(
                "{}: source files of several languages",
                path.display()
            )))
        }
    };
    let paths: Vec<PathBuf> = files.into_iter().map(|f| f.1).collect();
    let main = match entry {
        Some(entry) => paths
            .iter()
            .find(|f| {
                f.file_name().is_some_and(|n| n == entry)
                    || f.file_stem().is_some_and(|n| n == entry)
            })
            .cloned()
            .ok_or_else(|| {
                BuildError::Failed(format!(
                    "{}: its entrypoint {entry:?} names none of its files",
                    path.display()
                ))
            })?,
        None => main_file(language, &paths, path)?,
    };
    Ok((language, paths, main))
}

/// The file that starts the program: the only one; else `main.*`; else (Java) the class with
/// `main`, (Python) the file with `__main__`.
fn main_file(language: Language, files: &[PathBuf], dir: &Path) -> Result<PathBuf, BuildError> {
    if let [only] = files {
        return Ok(only.clone());
    }
    let stem_main = files.iter().find(|f| {
        f.file_stem()
            .is_some_and(|s| s.eq_ignore_ascii_case("main"))
    });
    if let Some(m) = stem_main {
        return Ok(m.clone());
    }
    let marker = match language {
        Language::Java => "static void main",
        Language::Python2 | Language::Python3 => "__main__",
        _ => return Ok(files[0].clone()),
    };
    let holding: Vec<&PathBuf> = files
        .iter()
        .filter(|f| std::fs::read_to_string(f).is_ok_and(|t| t.contains(marker)))
        .collect();
    match holding.as_slice() {
        [one] => Ok((*one).clone()),
        _ => Err(BuildError::Failed(format!(
            "{}: cannot tell the main file (name it main.*, or give one file `{marker}`)",
            dir.display()
        ))),
    }
}

/// The Python interpreter's own path (quoted), found once, so that a version manager's shim
/// (pyenv's is a shell script) is not timed with every run; the name itself if not found.
fn interpreter(name: &'static str) -> String {
    static FOUND: Mutex<Option<HashMap<&'static str, String>>> = Mutex::new(None);
    let mut found = FOUND.lock().unwrap_or_else(|e| e.into_inner());
    found
        .get_or_insert_with(HashMap::new)
        .entry(name)
        .or_insert_with(|| {
            let asked = Command::new(name)
                .args(["-c", "import sys; print(sys.executable)"])
                .output();
            match asked {
                Ok(o) if o.status.success() => {
                    let path = String::from_utf8_lossy(&o.stdout).trim().to_string();
                    if Path::new(&path).is_absolute() {
                        crate::shell::quote(Path::new(&path))
                    } else {
                        name.to_string()
                    }
                }
                _ => name.to_string(),
            }
        })
        .clone()
}

/// The identity of the tool for `language` (see [`crate::compiler::identity`]), if it runs
/// here; asked once per language.
fn available(language: Language) -> Result<String, BuildError> {
    let (tool, version) = language.tool();
    crate::compiler::identity(tool, version).ok_or_else(|| {
        BuildError::Unavailable(format!(
            "{}: `{tool}` does not run on this machine",
            language.name()
        ))
    })
}

/// A folder with a `build` script (run once in a copy of the folder) and a `run` script (the
/// program, run from that copy).
fn scripts(dir: &Path) -> Result<String, BuildError> {
    let mut files = Vec::new();
    listed_files(dir, &mut files)?;
    let entry = cache_entry(&files, ("build-run", ""), &[], dir)?;
    let out = &entry.out;
    let locked = entry.lock().map_err(BuildError::Failed)?;
    if !locked.fresh() {
        let build = locked.start().map_err(BuildError::Failed)?;
        copy_tree(dir, &build.out)?;
        if build.out.join("build").is_file() {
            let mut cmd = Command::new("sh");
            cmd.arg("-c")
                .arg("chmod +x build && ./build")
                .current_dir(&build.out);
            crate::compiler::run(cmd, &dir.join("build"))?;
        }
        let read: Vec<PathBuf> = files.iter().map(|f| absolute(f)).collect();
        locked.commit(build, &read).map_err(BuildError::Failed)?;
    }
    drop(locked);
    let run = out.join("run");
    if !run.is_file() {
        return Err(BuildError::Failed(format!(
            "{}: no run script (nor one written by build)",
            dir.join("run").display()
        )));
    }
    let failed = |e: std::io::Error| BuildError::Failed(format!("{}: {e}", run.display()));
    let mut mode = std::fs::metadata(&run).map_err(failed)?.permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut mode, 0o755);
    std::fs::set_permissions(&run, mode).map_err(failed)?;
    Ok(format!("cd {} && ./run", crate::shell::quote(out)))
}

/// Every file below `dir`, sorted, for the cache's hash.
fn listed_files(dir: &Path, into: &mut Vec<PathBuf>) -> Result<(), BuildError> {
    let read = std::fs::read_dir(dir)
        .map_err(|e| BuildError::Failed(format!("{}: {e}", dir.display())))?;
    let mut paths: Vec<PathBuf> = read.flatten().map(|e| e.path()).collect();
    paths.sort();
    for p in paths {
        if p.is_dir() {
            listed_files(&p, into)?;
        } else {
            into.push(p);
        }
    }
    Ok(())
}

fn copy_tree(from: &Path, to: &Path) -> Result<(), BuildError> {
    let failed = |p: &Path, e: std::io::Error| BuildError::Failed(format!("{}: {e}", p.display()));
    std::fs::create_dir_all(to).map_err(|e| failed(to, e))?;
    for entry in std::fs::read_dir(from)
        .map_err(|e| failed(from, e))?
        .flatten()
    {
        let (src, dst) = (entry.path(), to.join(entry.file_name()));
        if src.is_dir() {
            copy_tree(&src, &dst)?;
        } else {
            std::fs::copy(&src, &dst).map_err(|e| failed(&src, e))?;
        }
    }
    Ok(())
}

fn native(
    files: &[PathBuf],
    tool: (&str, &str),
    before: &[&str],
    after: &[&str],
    src: &Path,
) -> Result<String, BuildError> {
    let compiler = tool.0;
    let include = absolute(src);
    let mut flags: Vec<&str> = before.iter().chain(after).copied().collect();
    if src.is_dir() {
        flags.extend(["-I", path_str(&include)]);
    }
    let entry = cache_entry(files, tool, &flags, src)?;
    let locked = entry.lock().map_err(BuildError::Failed)?;
    if !locked.fresh() {
        let build = locked.start().map_err(BuildError::Failed)?;
        let (partial, deps) = (&build.out, &build.deps);
        let mut cmd = Command::new(compiler);
        // Absolute paths: a file named `-x.c` is never read as an option.
        cmd.args(before).arg("-o").arg(partial);
        // What the compiler reads, for the cache: `-MD` for gcc and g++ on one file, dep-info
        // for rustc. (With several files gcc keeps only the last one's: see below.)
        if compiler == "rustc" {
            let mut emit = std::ffi::OsString::from("--emit=link,dep-info=");
            emit.push(deps);
            cmd.arg(emit);
        } else if files.len() == 1 {
            cmd.arg("-MD").arg("-MF").arg(deps);
        }
        cmd.args(files.iter().map(|f| absolute(f))).args(after);
        if src.is_dir() {
            cmd.arg("-I").arg(&include);
        }
        crate::compiler::run(cmd, src)?;
        let mut read = Vec::new();
        let several = compiler != "rustc" && files.len() > 1;
        for f in files.iter().filter(|_| several) {
            // Each file's dependencies, by the preprocessor alone.
            let mut cmd = Command::new(compiler);
            cmd.args(before)
                .arg("-M")
                .arg("-MF")
                .arg(deps)
                .arg(absolute(f));
            cmd.arg("-I").arg(&include);
            crate::compiler::run(cmd, f)?;
            read.extend(dep_file(deps)?);
        }
        if !several {
            read = dep_file(deps)?;
        }
        for f in files.iter().map(|f| absolute(f)) {
            if !read.contains(&f) {
                read.push(f);
            }
        }
        locked.commit(build, &read).map_err(BuildError::Failed)?;
    }
    Ok(crate::shell::quote(&entry.out))
}

/// The files named in the dependency file at `path`.
fn dep_file(path: &Path) -> Result<Vec<PathBuf>, BuildError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| BuildError::Failed(format!("{}: {e}", path.display())))?;
    Ok(crate::build_cache::dependencies(&text))
}

/// `path` as text for a cache key (lossy: the key only needs to differ when paths differ).
fn path_str(path: &Path) -> &str {
    path.to_str().unwrap_or("?")
}

fn java(files: &[PathBuf], main: &Path, tool: (&str, &str)) -> Result<String, BuildError> {
    let entry = cache_entry(files, tool, &[], main)?;
    let class = main.file_stem().and_then(|s| s.to_str()).ok_or_else(|| {
        BuildError::Failed(format!("{}: not a usable class name", main.display()))
    })?;
    let locked = entry.lock().map_err(BuildError::Failed)?;
    if !locked.fresh() {
        let build = locked.start().map_err(BuildError::Failed)?;
        let mut cmd = Command::new("javac");
        // No annotation processor runs, and the class path is the (empty) output folder, not
        // the folder the judge runs in (javac's default) nor `CLASSPATH`: only the submission's
        // code is read. The compiler's own JVM compiles its hot code with the quick JIT alone
        // and collects with one thread: half the CPU time of a short compile, the same classes.
        cmd.args(["-J-XX:TieredStopAtLevel=1", "-J-XX:+UseSerialGC"])
            .arg("-proc:none")
            .arg("-cp")
            .arg(&build.out)
            .arg("-d")
            .arg(&build.out)
            .args(files.iter().map(|f| absolute(f)));
        crate::compiler::run(cmd, main)?;
        locked
            .commit(build, &read_by_jvm_compiler(files, main))
            .map_err(BuildError::Failed)?;
    }
    // Quoted: the class comes from a file name, which may hold any character.
    Ok(format!(
        "java -Xss64m -cp {} {}",
        crate::shell::quote(&entry.out),
        crate::shell::quote(Path::new(class))
    ))
}

fn kotlin(files: &[PathBuf], tool: (&str, &str)) -> Result<String, BuildError> {
    let entry = cache_entry(files, tool, &["-include-runtime"], &files[0])?;
    let jar = entry.out.join("program.jar");
    let locked = entry.lock().map_err(BuildError::Failed)?;
    if !locked.fresh() {
        let build = locked.start().map_err(BuildError::Failed)?;
        let partial = &build.out;
        std::fs::create_dir_all(partial)
            .map_err(|e| BuildError::Failed(format!("{}: {e}", partial.display())))?;
        let mut cmd = Command::new("kotlinc");
        cmd.args(files.iter().map(|f| absolute(f)))
            .arg("-include-runtime")
            .arg("-d")
            .arg(partial.join("program.jar"));
        crate::compiler::run(cmd, &files[0])?;
        locked
            .commit(build, &read_by_jvm_compiler(files, &files[0]))
            .map_err(BuildError::Failed)?;
    }
    Ok(format!("java -Xss64m -jar {}", crate::shell::quote(&jar)))
}

/// What `javac` or `kotlinc` may have read: the files given and every file of the main file's
/// folder.
fn read_by_jvm_compiler(files: &[PathBuf], main: &Path) -> Vec<PathBuf> {
    let folder = absolute(main)
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_default();
    let mut read: Vec<PathBuf> = files.iter().map(|f| absolute(f)).collect();
    for f in crate::build_cache::folder_files(&folder) {
        if !read.contains(&f) {
            read.push(f);
        }
    }
    read
}

fn absolute(p: &Path) -> PathBuf {
    std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf())
}

/// The cache entry of the build of `files` with `tool` (its name and identity) and `flags`
/// (see `build_cache`), in the cache folder (see the module's documentation).
fn cache_entry(
    files: &[PathBuf],
    tool: (&str, &str),
    flags: &[&str],
    src: &Path,
) -> Result<crate::build_cache::Entry, BuildError> {
    crate::build_cache::Entry::new(&cache_dir()?, files, tool, flags, src)
        .map_err(BuildError::Failed)
}

/// `target/judge-build` of the repository when the judge runs inside it, else
/// `$XDG_CACHE_HOME/judge` or `~/.cache/judge`; without either, a folder private to the user
/// (see [`private_dir`]). The folder is kept out of the programs' sight (each sees its own
/// build alone).
pub(crate) fn cache_dir() -> Result<PathBuf, BuildError> {
    let dir = cache_folder()?;
    if std::fs::create_dir_all(&dir).is_ok() {
        judge_process::keep_hidden(&dir);
    }
    Ok(dir)
}

fn cache_folder() -> Result<PathBuf, BuildError> {
    if let Some(root) = crate::manifest::find().and_then(|m| m.parent().map(Path::to_path_buf)) {
        return Ok(root.join("target/judge-build"));
    }
    let absolute = |v: Option<std::ffi::OsString>| v.map(PathBuf::from).filter(|p| p.is_absolute());
    let xdg = absolute(std::env::var_os("XDG_CACHE_HOME"));
    let home = absolute(std::env::var_os("HOME")).map(|h| h.join(".cache"));
    match xdg.or(home) {
        Some(dir) => Ok(dir.join("judge")),
        None => private_dir().map_err(BuildError::Failed),
    }
}

/// The cache folder when there is no home: `$XDG_RUNTIME_DIR/judge` (the user's own runtime
/// folder), else `judge-build-UID` in the system's temporary folder, made with mode 0700 and
/// used only if it is a folder (not a link) of the user's that no one else can enter: never
/// one shared with, or planted by, another user of the machine.
fn private_dir() -> Result<PathBuf, String> {
    use std::os::unix::fs::{DirBuilderExt, MetadataExt};
    let runtime = std::env::var_os("XDG_RUNTIME_DIR").map(PathBuf::from);
    if let Some(dir) = runtime.filter(|p| p.is_absolute() && p.is_dir()) {
        return Ok(dir.join("judge"));
    }
    let uid = std::fs::metadata("/proc/self")
        .map_err(|e| format!("/proc/self: {e} (the user is needed for a private cache)"))?
        .uid();
    let dir = std::env::temp_dir().join(format!("judge-build-{uid}"));
    match std::fs::DirBuilder::new().mode(0o700).create(&dir) {
        Err(e) if e.kind() != std::io::ErrorKind::AlreadyExists => {
            return Err(format!("{}: {e}", dir.display()));
        }
        _ => {}
    }
    let meta = std::fs::symlink_metadata(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    if !meta.is_dir() || meta.uid() != uid || meta.mode() & 0o077 != 0 {
        return Err(format!(
            "{}: not a folder private to this user (owner {}, mode {:o}), so not used as the \
             compile cache; set HOME or XDG_CACHE_HOME",
            dir.display(),
            meta.uid(),
            meta.mode() & 0o7777
        ));
    }
    Ok(dir)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_language_comes_from_the_extension_and_a_python_shebang() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let file = |name: &str, text: &str| {
            let path = dir.path().join(name);
            std::fs::write(&path, text).expect("a file");
            path
        };
        assert_eq!(Language::of(&file("a.cpp", "")), Some(Language::Cpp));
        assert_eq!(Language::of(&file("a.kt", "")), Some(Language::Kotlin));
        assert_eq!(Language::of(&file("a.txt", "")), None);
        let two = file("two.py", "#!/usr/bin/env python2\nprint 1\n");
        assert_eq!(Language::of(&two), Some(Language::Python2));
        let three = file("three.py", "#!/usr/bin/env python3\nprint(1)\n");
        assert_eq!(Language::of(&three), Some(Language::Python3));
    }

    #[test]
    fn a_folder_has_one_main_file() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        std::fs::write(dir.path().join("util.py"), "def f(): return 1\n").expect("a file");
        std::fs::write(
            dir.path().join("sol.py"),
            "if __name__ == '__main__':\n    pass\n",
        )
        .expect("a file");
        let (language, files, main) = sources(dir.path(), None).expect("sources");
        assert_eq!(language, Language::Python3);
        assert_eq!(files.len(), 2);
        assert_eq!(main, dir.path().join("sol.py"));
        std::fs::write(dir.path().join("x.java"), "class X {}\n").expect("a file");
        assert!(
            matches!(sources(dir.path(), None), Err(BuildError::Failed(m)) if m.contains("several languages"))
        );
    }
}
