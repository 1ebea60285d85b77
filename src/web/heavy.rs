//! Heavy reads get a bounded share of the server. Report pages and exports scan many rows;
//! left alone, thirty of them at once take every pooled connection and both cores, and a
//! one-row list waits behind them. Each kind passes a gate of its own (a few slots, and a
//! bounded wait for one), so the rest of the API always finds connections and CPU free,
//! and a caller who cannot get a slot in time hears "busy, retry after" (503) instead of
//! waiting on an exhausted pool. The route table says which routes are heavy
//! (`Routes::heavy`); the guard in routes.rs holds the slot until the answer's last byte
//! has left, so a streamed export counts for as long as it runs.

use std::{
    pin::Pin,
    sync::Arc,
    task::{Context, Poll},
    time::Duration,
};

use actix_web::body::{BodySize, BoxBody, MessageBody};
use actix_web::web::Bytes;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use crate::error::{ApiError, ApiResult};

/// The two kinds of heavy route.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Heavy {
    /// A report's page on screen: short, so it waits for a slot only briefly.
    View,
    /// A file built from every row (`…/retrieve`, `…/packet`): long, and it holds its slot
    /// while it streams.
    Export,
}

impl Heavy {
    /// Exports are the routes that answer with a file; every other heavy route is a view.
    pub fn of(path: &str) -> Self {
        if path.ends_with("/retrieve") || path.ends_with("/packet") {
            Heavy::Export
        } else {
            Heavy::View
        }
    }
}

/// How many heavy calls of each kind run at once, and how long each kind waits for a slot.
#[derive(Debug, Clone, Copy)]
pub struct Shares {
    pub views: usize,
    pub exports: usize,
    pub view_wait: Duration,
    pub export_wait: Duration,
}

/// The gates every heavy route passes.
#[derive(Clone)]
pub struct Gates {
    views: Arc<Semaphore>,
    exports: Arc<Semaphore>,
    shares: Shares,
}

impl Gates {
    pub fn new(shares: Shares) -> Self {
        Self {
            views: Arc::new(Semaphore::new(shares.views.max(1))),
            exports: Arc::new(Semaphore::new(shares.exports.max(1))),
            shares,
        }
    }

    /// A slot for a call of `kind`, or 503 with `Retry-After` when none came free in time.
    pub async fn enter(&self, kind: Heavy) -> ApiResult<Slot> {
        let (gate, wait) = match kind {
            Heavy::View => (&self.views, self.shares.view_wait),
            Heavy::Export => (&self.exports, self.shares.export_wait),
        };
        match tokio::time::timeout(wait, gate.clone().acquire_owned()).await {
            Ok(Ok(permit)) => Ok(Slot { _permit: permit }),
            // Timed out (a closed semaphore cannot happen: nothing closes it).
            _ => Err(ApiError::Busy {
                detail: match kind {
                    Heavy::View => "Other reports are being prepared. Try again in a moment.",
                    Heavy::Export => "Other exports are being prepared. Try again in a moment.",
                }
                .into(),
                retry_after_secs: wait.as_secs().clamp(1, 30),
            }),
        }
    }
}

/// A taken slot: given back when dropped.
pub struct Slot {
    _permit: OwnedSemaphorePermit,
}

/// An answer's body that keeps its slot until the body is done (or dropped: the client
/// went away).
pub struct Holding {
    body: BoxBody,
    _slot: Slot,
}

impl Holding {
    pub fn new(body: BoxBody, slot: Slot) -> Self {
        Self { body, _slot: slot }
    }
}

impl MessageBody for Holding {
    type Error = <BoxBody as MessageBody>::Error;

    fn size(&self) -> BodySize {
        self.body.size()
    }

    fn poll_next(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Bytes, Self::Error>>> {
        Pin::new(&mut self.get_mut().body).poll_next(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_routes_are_exports_and_the_rest_views() {
        assert_eq!(Heavy::of("/reports/all-approvals/retrieve"), Heavy::Export);
        assert_eq!(Heavy::of("/reports/vendor-payments/history/{id}/packet"), Heavy::Export);
        assert_eq!(Heavy::of("/reports/all-approvals"), Heavy::View);
    }

    #[tokio::test]
    async fn a_full_gate_answers_busy_with_retry_after_and_frees_on_drop() {
        let wait = Duration::from_millis(50);
        let gates = Gates::new(Shares { views: 1, exports: 1, view_wait: wait, export_wait: wait });
        let slot = gates.enter(Heavy::Export).await.expect("the first slot");
        match gates.enter(Heavy::Export).await {
            Err(ApiError::Busy { retry_after_secs, .. }) => assert_eq!(retry_after_secs, 1),
            _ => panic!("a second export must wait, then hear busy"),
        }
        // The other kind has its own slots.
        assert!(gates.enter(Heavy::View).await.is_ok());
        drop(slot);
        assert!(gates.enter(Heavy::Export).await.is_ok());
    }
}
