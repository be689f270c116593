use super::file::{self, seal};
use super::*;

/// The settings of a 17 x 17 grid with K = 3, as the final walk makes them.
fn settings(grid: (usize, usize, usize)) -> Settings {
    let rows = grid.0.max(grid.1);
    Settings {
        grid,
        unit_rows: 2,
        part_rows: rows - 3,
        pruned: true,
    }
}

/// A checkpoint in a file of its own (removed when dropped).
struct TempFile(PathBuf);

impl TempFile {
    fn new(name: &str) -> Self {
        let path =
            std::env::temp_dir().join(format!("maxblack-ck-{}-{name}.ckpt", std::process::id()));
        let _ = fs::remove_file(&path);
        TempFile(path)
    }

    fn open(&self, grid: (usize, usize, usize)) -> Result<Checkpoint, String> {
        Checkpoint::open(&self.0, settings(grid), Duration::ZERO).map_err(|e| e.to_string())
    }

    fn write(&self, text: &str) {
        fs::write(&self.0, text).expect("written");
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = fs::remove_file(&self.0);
    }
}

use std::fs;

/// A checkpoint of the 17 x 17 pass at 146 as a run writes it.
fn sample() -> Checkpoint {
    let mut c = Checkpoint::none(settings((17, 17, 3)));
    c.maxima = vec![
        0, 12, 24, 29, 37, 48, 54, 62, 72, 79, 87, 96, 104, 112, 121, 130, 138,
    ];
    c.start_pass(146, 40000).expect("a new pass");
    c.done.insert(&[1]);
    c.done.insert(&[3, 2]);
    c
}

#[test]
fn text_round_trips() {
    let c = sample();
    let file = TempFile::new("round-trip");
    file.write(&c.text());
    let mut d = file.open((17, 17, 3)).expect("reads back");
    assert_eq!((&d.maxima, d.pass, d.max_known), (&c.maxima, c.pass, false));
    assert_eq!((&d.done, d.units), (&c.done, Some(40000)));
    assert!(d.start_pass(146, 40000).is_ok());
    assert!(d.start_pass(146, 40001).is_err());
    let other = file.open((17, 17, 4)).expect_err("another puzzle");
    assert!(
        other.ends_with("line 2: for another puzzle, not 17 17 4"),
        "{other}"
    );
}

/// Every change of one byte of a file is refused (FNV-1a changes with any one byte), naming the
/// file, whatever the byte becomes.
#[test]
fn a_file_changed_anywhere_is_refused() {
    let text = sample().text();
    let file = TempFile::new("changed");
    let name = file.0.display().to_string();
    for i in 0..text.len() {
        for to in [b'0', b'7', b' ', b'\n', b'x'] {
            let mut bytes = text.clone().into_bytes();
            if bytes[i] == to {
                continue;
            }
            bytes[i] = to;
            fs::write(&file.0, &bytes).expect("written");
            let error = file.open((17, 17, 3)).expect_err("a changed file");
            assert!(
                error.starts_with(&format!("checkpoint {name}: ")),
                "{error}"
            );
        }
    }
    // Cut short anywhere.
    for len in 0..text.len() {
        file.write(&text[..len]);
        assert!(file.open((17, 17, 3)).is_err(), "cut at {len}");
    }
}

/// A file written before checkpoints had a checksum cannot be verified: it is refused, with a
/// word on how to start afresh.
#[test]
fn an_unchecked_file_is_refused() {
    let file = TempFile::new("unchecked");
    file.write("maxblack checkpoint\ngrid 17 17 3\nmaxima 12 24\npass 146\ndone 0-33219\n");
    let error = file.open((17, 17, 3)).expect_err("no checksum");
    assert!(
        error.ends_with("without a checksum, and cannot be verified: it is not trusted: remove it to start afresh"),
        "{error}"
    );
}

/// A file with a good checksum is still refused when made with other settings, or when its
/// numbers cannot be maxima or a pass.
#[test]
fn a_sealed_file_with_other_settings_or_impossible_numbers_is_refused() {
    let file = TempFile::new("sealed");
    let refused = |text: &str, grid: (usize, usize, usize)| {
        file.write(&seal(text.to_string()));
        file.open(grid).expect_err(text)
    };
    let head = "maxblack checkpoint 2\ngrid 6 6 3\nwalk 2 3 pruned\n";
    assert!(refused(&format!("{head}maxima 4 8 10 13 10\n"), (6, 6, 3))
        .contains("the maxima 13 and 10 cannot follow"));
    assert!(refused(&format!("{head}maxima 4 8 10 15 17\n"), (6, 6, 3))
        .contains("the maximum of 4 rows (15) exceeds those of 1 and 3 rows together"));
    assert!(refused(&format!("{head}maxima 4 8 10 13\n"), (6, 6, 3)).contains("4 maxima, not 5"));
    assert!(refused(&format!("{head}maxima 4 11 14 16 20\n"), (6, 6, 3))
        .contains("the maxima 4 and 11 cannot follow"));
    let maxima = "maxima 4 8 10 13 17\n";
    assert!(
        refused(&format!("{head}{maxima}pass 25\ndone\n"), (6, 6, 3))
            .contains("a pass at 25 outside what the maxima allow")
    );
    assert!(
        refused(&format!("{head}{maxima}pass 16\ndone\n"), (6, 6, 3))
            .contains("a pass at 16 outside what the maxima allow")
    );
    assert!(refused(&format!("{head}done 0-3\n"), (6, 6, 3))
        .contains("units or parts done without a pass"));
    let other_walk = "maxblack checkpoint 2\ngrid 6 6 3\nwalk 2 3 all\n";
    assert!(refused(other_walk, (6, 6, 3)).contains("made with another walk"));
    assert!(
        refused("maxblack checkpoint 2\nwalk 2 3 pruned\n", (6, 6, 3))
            .ends_with("no \"grid\" line: not a checkpoint")
    );
    assert!(refused("maxblack checkpoint 2\ngrid 6 6 3\n", (6, 6, 3))
        .ends_with("no \"walk\" line: not a checkpoint"));
    // The same numbers, possible ones, are read.
    file.write(&seal(format!("{head}{maxima}pass 20\ndone 0-2\n")));
    let c = file.open((6, 6, 3)).expect("possible numbers");
    assert_eq!((c.pass, c.done.contains(&[2])), (Some(20), true));
}

/// What is not a regular file, or is larger than any checkpoint, is refused without being read
/// whole.
#[test]
fn odd_files_are_refused() {
    let dir = TempFile::new("a-folder");
    fs::create_dir(&dir.0).expect("a folder");
    let error = dir.open((6, 6, 3)).expect_err("a folder");
    let _ = fs::remove_dir(&dir.0);
    assert!(error.ends_with("is not a regular file"), "{error}");
    #[cfg(unix)]
    {
        let c = Checkpoint::open(Path::new("/dev/zero"), settings((6, 6, 3)), Duration::ZERO);
        let error = c.expect_err("a device").to_string();
        assert!(
            error.ends_with("/dev/zero: is not a regular file"),
            "{error}"
        );
    }
    let big = TempFile::new("big");
    let f = fs::File::create(&big.0).expect("created");
    f.set_len((256 << 20) + 1).expect("a sparse file");
    let error = big.open((6, 6, 3)).expect_err("too large");
    assert!(error.contains("is larger than a checkpoint"), "{error}");
}

/// Writing goes to a new file created exclusively, then renamed: a symbolic link in place of the
/// file, or of any temporary name, is never written through.
#[cfg(unix)]
#[test]
fn writes_never_go_through_a_link() {
    let victim = TempFile::new("victim");
    victim.write("precious\n");
    let file = TempFile::new("linked");
    std::os::unix::fs::symlink(&victim.0, &file.0).expect("a link");
    // Links at the next temporary names too.
    let links: Vec<PathBuf> = (0..file::TEMPORARY_NAMES - 1)
        .map(|n| {
            let mut name = file.0.clone().into_os_string();
            name.push(format!(".tmp.{}.{n}", std::process::id()));
            let link = PathBuf::from(name);
            let _ = fs::remove_file(&link);
            std::os::unix::fs::symlink(&victim.0, &link).expect("a link");
            link
        })
        .collect();
    let mut c = Checkpoint::open(&file.0, settings((6, 6, 3)), Duration::ZERO);
    assert!(c.is_err(), "the link's target is no checkpoint");
    c = Ok(Checkpoint {
        path: Some(file.0.clone()),
        ..Checkpoint::none(settings((6, 6, 3)))
    });
    c.as_mut().expect("a checkpoint").save().expect("saved");
    for link in &links {
        let _ = fs::remove_file(link);
    }
    assert_eq!(fs::read_to_string(&victim.0).expect("read"), "precious\n");
    let meta = fs::symlink_metadata(&file.0).expect("the file");
    assert!(meta.file_type().is_file(), "the link is replaced by a file");
    assert!(file.open((6, 6, 3)).is_ok());
}

/// Snapshots written out of order leave the file at the latest one: an older snapshot is not
/// written over a newer one.
#[test]
fn an_older_snapshot_is_not_written_over_a_newer_one() {
    let file = TempFile::new("snapshots");
    let mut c = Checkpoint {
        path: Some(file.0.clone()),
        ..Checkpoint::none(settings((6, 6, 3)))
    };
    c.maxima = vec![0, 4, 8, 10, 13, 17];
    let older = c.snapshot().expect("a snapshot");
    c.start_pass(20, 39).expect("a pass");
    c.done.insert(&[3]);
    let newer = c.snapshot().expect("a snapshot");
    newer.write().expect("written");
    older.write().expect("skipped");
    let read = file.open((6, 6, 3)).expect("reads");
    assert_eq!((read.pass, read.done.contains(&[3])), (Some(20), true));
}
