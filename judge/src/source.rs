//! Source files given as a command (`--cmd sol.cpp`): C, C++ and Rust are compiled once and
//! cached by content under `target/judge-build/`; Java is compiled there too and run with `java`;
//! Python is run with `python3`. Compiling happens before any case runs, so its time is never
//! counted in a case's time.

use std::path::{Path, PathBuf};
use std::process::Command;

/// How a source file is turned into a program.
enum Kind {
    /// Compiled to one executable: the compiler, its options before `-o OUT SRC`, and after.
    Native(
        &'static str,
        &'static [&'static str],
        &'static [&'static str],
    ),
    Java,
    Python,
}

fn kind(path: &Path) -> Option<Kind> {
    Some(match path.extension()?.to_str()? {
        "cpp" | "cc" | "cxx" => Kind::Native("g++", &["-O2", "-std=c++17"], &[]),
        "c" => Kind::Native("gcc", &["-O2"], &["-lm"]),
        "rs" => Kind::Native("rustc", &["-O", "--edition", "2021"], &[]),
        "java" => Kind::Java,
        "py" => Kind::Python,
        _ => return None,
    })
}

/// The shell command that runs `command` if it is a source file (one word naming an existing
/// file with a known extension), compiling it first when needed; `None` for any other command.
///
/// # Errors
/// The compiler cannot be run or rejects the file: its whole output is in the message.
pub fn command(command: &str) -> Option<Result<String, String>> {
    let path = Path::new(command.trim());
    if command.split_whitespace().count() != 1 || !path.is_file() {
        return None;
    }
    Some(match kind(path)? {
        Kind::Python => Ok(format!("python3 {}", crate::program::quote(path))),
        Kind::Native(compiler, before, after) => native(path, compiler, before, after),
        Kind::Java => java(path),
    })
}

fn native(src: &Path, compiler: &str, before: &[&str], after: &[&str]) -> Result<String, String> {
    let out = cached(src, compiler)?;
    if !out.exists() {
        let partial = out.with_extension("partial");
        let mut cmd = Command::new(compiler);
        cmd.args(before)
            .arg("-o")
            .arg(&partial)
            .arg(src)
            .args(after);
        compile(cmd, src)?;
        rename(&partial, &out)?;
    }
    Ok(crate::program::quote(&out))
}

fn java(src: &Path) -> Result<String, String> {
    let out = cached(src, "javac")?;
    let class = src
        .file_stem()
        .and_then(|s| s.to_str())
        .ok_or_else(|| format!("{}: not a usable class name", src.display()))?;
    if !out.exists() {
        let partial = out.with_extension("partial");
        let mut cmd = Command::new("javac");
        cmd.arg("-d").arg(&partial).arg(src);
        compile(cmd, src)?;
        rename(&partial, &out)?;
    }
    Ok(format!("java -cp {} {class}", crate::program::quote(&out)))
}

/// Where the build of `src` with `tool` is kept: `target/judge-build/STEM-HASH`, the hash of the
/// tool and the file's content.
fn cached(src: &Path, tool: &str) -> Result<PathBuf, String> {
    let bytes = std::fs::read(src).map_err(|e| format!("{}: {e}", src.display()))?;
    let hash = fnv1a(tool.as_bytes().iter().chain(&[0]).chain(&bytes));
    let stem = src.file_stem().unwrap_or_default().to_string_lossy();
    let root = crate::program::manifest()
        .and_then(|m| m.parent().map(Path::to_path_buf))
        .unwrap_or_else(|| PathBuf::from("."));
    let dir = root.join("target/judge-build");
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    Ok(dir.join(format!("{stem}-{hash:016x}")))
}

fn compile(mut cmd: Command, src: &Path) -> Result<(), String> {
    let program = cmd.get_program().to_string_lossy().into_owned();
    let o = cmd
        .output()
        .map_err(|e| format!("cannot run {program} to compile {}: {e}", src.display()))?;
    if o.status.success() {
        return Ok(());
    }
    let mut said = String::from_utf8_lossy(&o.stdout).into_owned();
    said += &String::from_utf8_lossy(&o.stderr);
    Err(format!(
        "{program} could not compile {}:\n{}",
        src.display(),
        said.trim_end()
    ))
}

fn rename(from: &Path, to: &Path) -> Result<(), String> {
    std::fs::rename(from, to).map_err(|e| format!("{}: {e}", to.display()))
}

/// FNV-1a, 64 bits: a hash that stays the same across Rust versions.
fn fnv1a<'a>(bytes: impl Iterator<Item = &'a u8>) -> u64 {
    bytes.fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}
