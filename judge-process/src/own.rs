//! The judge's own executable, which the judge runs again for its helpers.

/// This very executable, to run as a helper, the zygote or the network holder:
/// `/proc/self/exe`, which names the running file even if a newer build has replaced it on disk
/// since, or where `/proc` is not mounted, the path the executable was started from.
///
/// # Errors
/// Neither can be found.
pub fn executable() -> std::io::Result<std::path::PathBuf> {
    let proc = std::path::Path::new("/proc/self/exe");
    if proc.exists() {
        return Ok(proc.to_path_buf());
    }
    std::env::current_exe()
}
