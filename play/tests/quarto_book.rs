//! `quarto-book`: its limits and the conversion between the book's two forms.

use predicates::prelude::*;

use crate::util::bin;

/// Depths beyond 5 are refused before any work, and 5 without `--non-draws`, `--shard` or
/// `--measure` (a whole book stops at 4 pieces placed).
#[test]
fn depth_is_limited() {
    for depth in ["0", "6", "99"] {
        bin("quarto-book")
            .args(["--depth", depth])
            .assert()
            .code(2)
            .stderr(predicate::str::contains("--depth"));
    }
    let err = error(&["--depth", "5", "--text"].map(std::ffi::OsStr::new), 2);
    assert!(
        err.contains("--depth 5: a whole book stops at 4 pieces placed"),
        "{err}"
    );
    assert!(err.contains("--non-draws"), "{err}");
}

/// `--non-draws` writes the deepest level's wins and losses but the wins in 1, and nothing
/// else; known by those exceptions, the level gives every position's entry as the whole level
/// does (the built-in book's level with 4 placed: 2,959 wins in 6 kept of 91,558 positions).
#[test]
fn non_draws_know_the_level() {
    use cp_puzzles::quarto::{Book, Piece};
    let built_in = Book::embedded();
    let level = level_lines(&built_in, 4);
    let dir = tempfile::tempdir().unwrap();
    let cp = dir.path().join("level4.txt");
    write_checkpoint(&cp, &level, "");
    let out = bin("quarto-book")
        .args([
            "--depth",
            "4",
            "--non-draws",
            "--text",
            "--no-search",
            "--from",
        ])
        .arg(&cp)
        .assert()
        .success();
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    let kept: Vec<&String> = (level.iter())
        .filter(|l| !l.ends_with(" d") && !l.ends_with(" w 1"))
        .collect();
    assert_eq!((kept.len(), level.len()), (2959, 91558));
    assert_eq!(text.lines().collect::<Vec<_>>(), kept);
    let known = Book::parse(&text).unwrap().with_draws_at(4);
    let hand = Piece::new(0).unwrap();
    for (c, e) in built_in.entries() {
        if c.occupied.count_ones() == 4 {
            assert_eq!(known.entry(&c.board(), hand), Some(e), "{c:?}");
        }
    }
}

/// Converting the built-in book to text and back gives the same bytes; a book that cannot be
/// read is refused with its name.
#[test]
fn conversion_is_reproducible() {
    let book = cp_puzzles::quarto::book::EMBEDDED;
    let dir = tempfile::tempdir().unwrap();
    let (bin_file, text_file) = (dir.path().join("book.bin"), dir.path().join("book.txt"));
    std::fs::write(&bin_file, book).unwrap();
    let text = bin("quarto-book")
        .args(["--text", "--convert"])
        .arg(&bin_file)
        .assert()
        .success();
    std::fs::write(&text_file, &text.get_output().stdout).unwrap();
    bin("quarto-book")
        .arg("--convert")
        .arg(&text_file)
        .assert()
        .success()
        .stdout(predicate::eq(book));
    bin("quarto-book")
        .args(["--convert", "/dev/zero"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "/dev/zero: expected a regular file, found a character device",
        ));
}

/// The depth-3 book: the built-in book's positions with 1 to 3 pieces placed, in the binary
/// form. Every level of a book is made the same way whatever its depth (the deepest by search,
/// each shallower one from the next), so these are the bytes of one `quarto-book --depth 3`
/// run: the reference the pieced-together runs below must reproduce byte for byte.
fn embedded() -> Vec<u8> {
    let built_in = cp_puzzles::quarto::Book::embedded();
    let mut book = cp_puzzles::quarto::Book::default();
    for (c, v) in built_in.entries() {
        if c.occupied.count_ones() <= 3 {
            book.insert(c, v);
        }
    }
    book.to_bytes()
}

/// The lines of the built-in book's deepest level (3 pieces placed), in canonical order: the
/// level's values, one checkpoint line each.
fn deepest_lines() -> Vec<String> {
    let book = cp_puzzles::quarto::Book::from_bytes(&embedded()).unwrap();
    let lines = level_lines(&book, 3);
    assert_eq!(lines.len(), 3382);
    lines
}

/// The text lines of `book`'s positions with `placed` pieces placed, in canonical order.
fn level_lines(book: &cp_puzzles::quarto::Book, placed: u32) -> Vec<String> {
    (book.to_text().lines())
        .filter(|l| u16::from_str_radix(&l[..4], 16).unwrap().count_ones() == placed)
        .map(str::to_string)
        .collect()
}

/// The lines of `text` (a checkpoint), sorted, each checked to end with a newline.
fn sorted_lines(text: &str) -> Vec<String> {
    assert!(text.is_empty() || text.ends_with('\n'), "{text:?}");
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    lines.sort();
    lines
}

/// Writes `lines` (each with its newline) and then `tail` to `path`.
fn write_checkpoint(path: &std::path::Path, lines: &[String], tail: &str) {
    let mut text: String = lines.iter().map(|l| format!("{l}\n")).collect();
    text.push_str(tail);
    std::fs::write(path, text).unwrap();
}

/// The binary's stderr on `args`, which must fail with `code`: one line naming the program.
fn error(args: &[&std::ffi::OsStr], code: i32) -> String {
    let out = bin("quarto-book").args(args).assert().code(code);
    let err = String::from_utf8(out.get_output().stderr.clone()).unwrap();
    let last = err.lines().last().unwrap_or_default().to_string();
    assert!(last.starts_with("quarto-book: "), "{args:?}: {err}");
    assert!(!err.contains("panicked"), "{args:?}: {err}");
    last
}

/// A run resumed from a checkpoint that lacks four positions, in another order, and ends with
/// the unfinished line of one of them (as a killed run leaves it), searches only those four and
/// writes the single run's bytes; the checkpoint then holds the whole level, the unfinished line
/// cut off; a last run with `--no-search` finds everything and gives the same bytes in text.
#[test]
fn resumed_run_gives_the_single_run_bytes() {
    let all = deepest_lines();
    let missing = [0, 1000, 2000, 3381];
    let mut have: Vec<String> = (all.iter().enumerate())
        .filter(|(i, _)| !missing.contains(i))
        .map(|(_, l)| l.clone())
        .collect();
    have.reverse();
    let dir = tempfile::tempdir().unwrap();
    let cp = dir.path().join("level3.txt");
    write_checkpoint(&cp, &have, &all[1000][..9]);
    let out = bin("quarto-book")
        .args(["--depth", "3", "--threads", "2", "--checkpoint"])
        .arg(&cp)
        .assert()
        .success();
    assert_eq!(out.get_output().stdout, embedded());
    let err = String::from_utf8(out.get_output().stderr.clone()).unwrap();
    assert!(err.contains("line 3379 is unfinished"), "{err}");
    assert!(err.contains("3378 in checkpoints, 4 to search"), "{err}");
    assert!(err.contains("3382/3382 done, 4 searched"), "{err}");
    let written = std::fs::read_to_string(&cp).unwrap();
    assert_eq!(sorted_lines(&written), all);
    let text = bin("quarto-book")
        .args(["--depth", "3", "--text", "--no-search", "--checkpoint"])
        .arg(&cp)
        .assert()
        .success();
    let book = cp_puzzles::quarto::Book::from_bytes(&embedded()).unwrap();
    assert_eq!(text.get_output().stdout, book.to_text().as_bytes());
    assert_eq!(std::fs::read_to_string(&cp).unwrap(), written);
}

/// A shard run killed while it searches, then run again, ends with exactly its positions in its
/// checkpoint (index 1 modulo 300 in canonical order), each once, with the single run's values;
/// the second run searched only what the first had not recorded.
#[test]
fn killed_shard_resumes() {
    let all = deepest_lines();
    let shard: Vec<String> = (all.iter().enumerate())
        .filter(|(i, _)| i % 300 == 1)
        .map(|(_, l)| l.clone())
        .collect();
    let dir = tempfile::tempdir().unwrap();
    let cp = dir.path().join("shard.txt");
    let args = [
        "--depth",
        "3",
        "--shard",
        "1/300",
        "--threads",
        "1",
        "--checkpoint",
    ];
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_quarto-book"))
        .args(args)
        .arg(&cp)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let start = std::time::Instant::now();
    while std::fs::read_to_string(&cp).map_or(0, |t| t.lines().count()) < 1
        && start.elapsed() < std::time::Duration::from_secs(120)
        && child.try_wait().unwrap().is_none()
    {
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let before = sorted_lines(&std::fs::read_to_string(&cp).unwrap());
    assert!(
        !before.is_empty() && before.len() < shard.len(),
        "{before:?}"
    );
    assert!(before.iter().all(|l| shard.contains(l)), "{before:?}");
    let out = bin("quarto-book").args(args).arg(&cp).assert().success();
    assert!(out.get_output().stdout.is_empty());
    let err = String::from_utf8(out.get_output().stderr.clone()).unwrap();
    let expected = format!(
        "{} canonical positions, {} in checkpoints, {} to search",
        shard.len(),
        before.len(),
        shard.len() - before.len()
    );
    assert!(err.contains(&expected), "{err}");
    assert_eq!(
        sorted_lines(&std::fs::read_to_string(&cp).unwrap()),
        sorted_lines(&(shard.join("\n") + "\n"))
    );
}

/// Three shards, each started from a checkpoint holding all but its last two positions, search
/// those two each and write no book; merged with `--from`, they give the single run's bytes.
#[test]
fn shards_merge_to_the_single_run_bytes() {
    let all = deepest_lines();
    let dir = tempfile::tempdir().unwrap();
    let mut files = Vec::new();
    for k in 0..3 {
        let shard: Vec<String> = (all.iter().enumerate())
            .filter(|(i, _)| i % 3 == k)
            .map(|(_, l)| l.clone())
            .collect();
        let cp = dir.path().join(format!("shard{k}.txt"));
        write_checkpoint(&cp, &shard[..shard.len() - 2], "");
        let out = bin("quarto-book")
            .args([
                "--depth",
                "3",
                "--threads",
                "1",
                "--shard",
                &format!("{k}/3"),
            ])
            .arg("--checkpoint")
            .arg(&cp)
            .assert()
            .success();
        assert!(out.get_output().stdout.is_empty());
        let written = std::fs::read_to_string(&cp).unwrap();
        assert_eq!(
            sorted_lines(&written),
            sorted_lines(&(shard.join("\n") + "\n"))
        );
        files.push(cp);
    }
    let mut merge = bin("quarto-book");
    merge.args(["--depth", "3", "--no-search", "--from"]);
    merge.args(files.iter().rev());
    merge.assert().success().stdout(predicate::eq(embedded()));
    let mut merge = bin("quarto-book");
    for f in &files {
        merge.arg("--from").arg(f);
    }
    merge
        .arg("--depth=3")
        .assert()
        .success()
        .stdout(predicate::eq(embedded()));
}

/// A checkpoint read with `--from` may end with an unfinished line: it is ignored, and the file
/// is left as it was (only the run's own `--checkpoint` is cut and appended to).
#[test]
fn unfinished_last_line_of_a_merged_checkpoint_is_ignored() {
    let all = deepest_lines();
    let dir = tempfile::tempdir().unwrap();
    let cp = dir.path().join("level3.txt");
    write_checkpoint(&cp, &all, "0007 000000");
    let before = std::fs::read(&cp).unwrap();
    bin("quarto-book")
        .args(["--depth", "3", "--from"])
        .arg(&cp)
        .assert()
        .success()
        .stdout(predicate::eq(embedded()))
        .stderr(predicate::str::contains("line 3383 is unfinished"));
    assert_eq!(std::fs::read(&cp).unwrap(), before);
}

/// Bad checkpoints are refused before any search, exit 2, one line naming the file and line: a
/// line that is not an entry (also one cut short before the last), a position of another depth,
/// a position that is not of the level, and two values for one position (in one file or two,
/// naming both).
#[test]
fn bad_checkpoints_are_refused() {
    let all = deepest_lines();
    let dir = tempfile::tempdir().unwrap();
    let file = |name: &str, lines: &[&str]| {
        let path = dir.path().join(name);
        let owned: Vec<String> = lines.iter().map(|l| (*l).to_string()).collect();
        write_checkpoint(&path, &owned, "");
        path
    };
    let flip = |line: &str| {
        let v = if line.ends_with('d') { 'w' } else { 'd' };
        format!("{} {v}", &line[..21])
    };
    let refuse = |path: &std::path::Path, more: &[&std::path::Path], expected: &str| {
        let mut args: Vec<&std::ffi::OsStr> = ["--depth", "3", "--no-search", "--checkpoint"]
            .iter()
            .map(std::ffi::OsStr::new)
            .collect();
        args.push(path.as_os_str());
        for m in more {
            args.push("--from".as_ref());
            args.push(m.as_os_str());
        }
        let err = error(&args, 2);
        assert!(err.contains(expected), "{err} lacks {expected}");
    };
    let bad = file("bad.txt", &[&all[0], &all[1], "hello"]);
    refuse(
        &bad,
        &[],
        &format!("checkpoint {} line 3: expected \"OOOO", bad.display()),
    );
    let cut = file("cut.txt", &[&all[0], &all[1][..10], &all[2]]);
    refuse(
        &cut,
        &[],
        &format!("checkpoint {} line 2: expected", cut.display()),
    );
    let depth2 = "0003 0000000000000010 d";
    let other = file("other.txt", &[&all[5], depth2]);
    refuse(
        &other,
        &[],
        &format!(
            "checkpoint {} line 2: a position with 2 pieces placed, not 3",
            other.display()
        ),
    );
    let foreign = file("foreign.txt", &["0007 0000000000000120 d"]);
    refuse(
        &foreign,
        &[],
        &format!(
            "checkpoint {} line 1: not a canonical position with 3 pieces placed",
            foreign.display()
        ),
    );
    let flipped = flip(&all[7]);
    let twice = file("twice.txt", &[&all[7], &all[8], &flipped]);
    refuse(
        &twice,
        &[],
        &format!(
            "checkpoint {0} line 3: {1} is {2} there, but {3} in checkpoint {0} line 1",
            twice.display(),
            &all[7][..21],
            &flipped[22..],
            &all[7][22..]
        ),
    );
    let a = file("a.txt", &[&all[9], &all[7]]);
    let b = file("b.txt", &[&all[10], &flipped]);
    refuse(
        &a,
        &[&b],
        &format!(
            "checkpoint {} line 2: {} is {} there, but {} in checkpoint {} line 2",
            b.display(),
            &all[7][..21],
            &flipped[22..],
            &all[7][22..],
            a.display()
        ),
    );
}

/// A merge that lacks positions says how many and exits 1 without searching: with
/// `--no-search`, and with `--from` alone (no checkpoint to record a search in).
#[test]
fn merge_with_missing_positions_does_not_search() {
    let all = deepest_lines();
    let dir = tempfile::tempdir().unwrap();
    let cp = dir.path().join("part.txt");
    write_checkpoint(&cp, &all[..3000], "");
    let no_search = error(
        &["--depth", "3", "--no-search", "--from"]
            .map(std::ffi::OsStr::new)
            .iter()
            .copied()
            .chain([cp.as_os_str()])
            .collect::<Vec<_>>(),
        1,
    );
    assert!(no_search.contains("382 of the 3382 positions with 3 pieces placed are in no checkpoint (without --no-search they would be searched)"), "{no_search}");
    let from_only = error(
        &[
            std::ffi::OsStr::new("--depth=3"),
            "--from".as_ref(),
            cp.as_os_str(),
        ],
        1,
    );
    assert!(from_only.contains("382 of the 3382 positions with 3 pieces placed are in no checkpoint (add --checkpoint FILE"), "{from_only}");
}

/// Bad usage of the new flags is one line and exit 2.
#[test]
fn bad_shard_usage_is_refused() {
    let cases: [&[&str]; 6] = [
        &["--shard", "3/2", "--checkpoint", "x"],
        &["--shard", "x", "--checkpoint", "x"],
        &["--shard", "1/0", "--checkpoint", "x"],
        &["--shard=-1/2", "--checkpoint", "x"],
        &["--shard", "0/2"],
        &["--shard", "0/2", "--checkpoint", "x", "--no-search"],
    ];
    for args in cases {
        let os: Vec<&std::ffi::OsStr> = args.iter().map(std::ffi::OsStr::new).collect();
        let out = bin("quarto-book").args(&os).assert().code(2);
        let err = String::from_utf8(out.get_output().stderr.clone()).unwrap();
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with("quarto-book: "), "{args:?}: {err}");
        assert!(
            err.contains("--shard") || err.contains("--checkpoint"),
            "{args:?}: {err}"
        );
    }
}

/// What is not a regular file is refused as a checkpoint (`--checkpoint`, with or without
/// `--no-search`, and `--from`) or a book (`--convert`), exit 2 with one line naming it, before
/// any search: `/dev/null` as the checkpoint took every line and kept none (a run "resumed"
/// from it searched everything again), and a named pipe blocked the run for good.
#[cfg(unix)]
#[test]
fn what_is_not_a_regular_file_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("pipe");
    assert!(std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap()
        .success());
    let folder = dir.path().to_path_buf();
    let (fifo, folder) = (fifo.to_str().unwrap(), folder.to_str().unwrap());
    for (path, found) in [
        ("/dev/null", "a character device"),
        (fifo, "a named pipe"),
        (folder, "a folder"),
    ] {
        for args in [
            &["--depth", "1", "--checkpoint", path][..],
            &["--depth", "1", "--no-search", "--checkpoint", path],
            &["--depth", "1", "--from", path],
        ] {
            let out = bin("quarto-book")
                .args(args)
                .timeout(std::time::Duration::from_secs(20))
                .assert()
                .code(2)
                .stdout("");
            let err = String::from_utf8(out.get_output().stderr.clone()).unwrap();
            assert_eq!(
                err,
                format!("quarto-book: checkpoint {path}: expected a regular file, found {found}\n"),
                "{args:?}"
            );
        }
        let out = bin("quarto-book")
            .args(["--convert", path])
            .timeout(std::time::Duration::from_secs(20))
            .assert()
            .code(2)
            .stdout("");
        let err = String::from_utf8(out.get_output().stderr.clone()).unwrap();
        assert_eq!(
            err,
            format!("quarto-book: {path}: expected a regular file, found {found}\n")
        );
    }
}

/// A checkpoint another run is writing (its lock held) is refused, exit 2, and left as it was.
#[test]
fn a_checkpoint_in_use_is_refused() {
    let all = deepest_lines();
    let dir = tempfile::tempdir().unwrap();
    let cp = dir.path().join("busy.txt");
    write_checkpoint(&cp, &all[..10], "0007 00");
    let holder = std::fs::File::open(&cp).unwrap();
    holder.lock().unwrap();
    let args = ["--depth", "3", "--checkpoint"].map(std::ffi::OsStr::new);
    let err = error(&[&args[..], &[cp.as_os_str()]].concat(), 2);
    assert!(
        err.contains(&format!(
            "checkpoint {}: another run is using it",
            cp.display()
        )),
        "{err}"
    );
    let text = std::fs::read_to_string(&cp).unwrap();
    assert!(text.ends_with("0007 00"), "{text}");
}
