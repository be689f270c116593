//! The solver work (analyses, bot moves, no-guess boards, Quarto values, maxblack), run on the
//! blocking threads, at most a fixed number at a time: a request waits a bounded time for its
//! turn, then is told the server is busy.

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::Semaphore;

use crate::error::ApiError;

/// The bound on work in flight.
#[derive(Clone)]
pub struct Work {
    permits: Arc<Semaphore>,
    wait: Duration,
}

impl Work {
    /// At most `workers` (at least 1) jobs at a time; a job waits at most `wait` to start.
    #[must_use]
    pub fn new(workers: usize, wait: Duration) -> Work {
        Work {
            permits: Arc::new(Semaphore::new(workers.max(1))),
            wait,
        }
    }

    /// Runs `job` on a blocking thread once a worker is free.
    ///
    /// # Errors
    /// [`ApiError::busy`] if no worker is free within the wait; [`ApiError::internal`] if the job
    /// panicked.
    pub async fn run<T, F>(&self, job: F) -> Result<T, ApiError>
    where
        T: Send + 'static,
        F: FnOnce() -> T + Send + 'static,
    {
        let permit = tokio::time::timeout(self.wait, Arc::clone(&self.permits).acquire_owned())
            .await
            .map_err(|_| ApiError::busy())?
            .map_err(|_| ApiError::busy())?;
        tokio::task::spawn_blocking(move || {
            let _permit = permit;
            job()
        })
        .await
        .map_err(|e| ApiError::internal(format!("the work failed: {e}")))
    }
}
