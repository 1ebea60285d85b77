//! Stopping without failing a request: on SIGTERM or Ctrl-C the server stops accepting,
//! waits until every request in flight has sent its whole answer (exports stream theirs),
//! and only then stops its workers. Stopping the workers first would drop a worker's runtime
//! while another worker's request still uses a pooled PostgreSQL connection that runtime
//! opened ("a Tokio context … is being shutdown"). The background tasks (the mail worker,
//! upkeep) are then asked to stop and awaited while the runtime still runs: left to be
//! dropped with it, one in the middle of a transaction returned its pooled connection where
//! no runtime was left, and the process panicked on its way out.

use std::{
    pin::Pin,
    sync::{
        atomic::{AtomicBool, AtomicUsize, Ordering},
        Arc,
    },
    task::{Context, Poll},
    time::{Duration, Instant},
};

use actix_web::{
    body::{BodySize, BoxBody, MessageBody},
    dev::Server,
    web::Bytes,
};

/// How long a stop waits for requests in flight before it stops anyway.
pub const GRACE: Duration = Duration::from_secs(10);

/// Requests whose answers are not yet fully sent.
#[derive(Clone, Default)]
pub struct InFlight(Arc<AtomicUsize>);

impl InFlight {
    /// Counts a request until the returned guard is dropped.
    pub fn enter(&self) -> Guard {
        self.0.fetch_add(1, Ordering::AcqRel);
        Guard(self.0.clone())
    }

    pub fn count(&self) -> usize {
        self.0.load(Ordering::Acquire)
    }
}

pub struct Guard(Arc<AtomicUsize>);

impl Drop for Guard {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

/// Asks the background tasks to stop: each finishes what it is doing (a transaction, a mail
/// handed to the relay) and ends at its next pause.
#[derive(Clone, Default)]
pub struct Stop(Arc<(AtomicBool, tokio::sync::Notify)>);

impl Stop {
    pub fn request(&self) {
        self.0 .0.store(true, Ordering::Release);
        self.0 .1.notify_waiters();
    }

    pub fn requested(&self) -> bool {
        self.0 .0.load(Ordering::Acquire)
    }

    /// Waits `pause`, or less when a stop is asked for; then says whether to go on.
    pub async fn pause(&self, pause: Duration) -> bool {
        let asked = self.0 .1.notified();
        tokio::pin!(asked);
        asked.as_mut().enable();
        if !self.requested() {
            tokio::select! {
                _ = tokio::time::sleep(pause) => {}
                _ = asked => {}
            }
        }
        !self.requested()
    }
}

/// Background tasks started beside a server, to end before its runtime does.
#[derive(Default)]
pub struct Background {
    pub stop: Stop,
    pub tasks: Vec<tokio::task::JoinHandle<()>>,
}

impl Background {
    /// Asks every task to stop and waits for them (up to `GRACE`), then ends the ones still
    /// running: inside the runtime, so what they hold is given back properly.
    pub async fn end(self) {
        self.stop.request();
        let deadline = tokio::time::Instant::now() + GRACE;
        for mut task in self.tasks {
            if tokio::time::timeout_at(deadline, &mut task).await.is_err() {
                task.abort();
                let _ = task.await;
            }
        }
    }
}

/// A response body that keeps its request counted until the last byte is sent (or the
/// client goes away and the body is dropped).
pub struct Counted {
    body: BoxBody,
    _guard: Guard,
}

impl Counted {
    pub fn new(body: BoxBody, guard: Guard) -> Counted {
        Counted { body, _guard: guard }
    }
}

impl MessageBody for Counted {
    type Error = Box<dyn std::error::Error>;

    fn size(&self) -> BodySize {
        self.body.size()
    }

    fn poll_next(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Bytes, Self::Error>>> {
        Pin::new(&mut self.body).poll_next(cx)
    }
}

/// Runs `server` until a stop signal, then drains as described above.
pub async fn run_until_stopped(server: Server, in_flight: InFlight) -> std::io::Result<()> {
    let handle = server.handle();
    actix_web::rt::spawn(async move {
        stop_signal().await;
        tracing::info!(
            in_flight = in_flight.count(),
            "stop signal: taking no new connections, finishing requests in flight"
        );
        handle.pause().await;
        let deadline = Instant::now() + GRACE;
        while in_flight.count() > 0 && Instant::now() < deadline {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        handle.stop(true).await;
    });
    server.await
}

#[cfg(unix)]
async fn stop_signal() {
    use tokio::signal::unix::{signal, SignalKind};
    match signal(SignalKind::terminate()) {
        Ok(mut term) => {
            tokio::select! {
                _ = term.recv() => {}
                _ = tokio::signal::ctrl_c() => {}
            }
        }
        Err(_) => {
            let _ = tokio::signal::ctrl_c().await;
        }
    }
}

#[cfg(not(unix))]
async fn stop_signal() {
    let _ = tokio::signal::ctrl_c().await;
}
