//! Wire types of notifications.

use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::entities::{
    codes::{NotificationMode, OutboxStatus},
    outbox_mail as om,
};

/// How the signed-in user hears of work: `instant` (a mail at each event), `daily` (one digest a
/// day at the configured hour) or `off`.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct NotificationSettings {
    pub mode: NotificationMode,
}

#[derive(Debug, Deserialize, IntoParams)]
#[serde(rename_all = "lowercase")]
#[into_params(parameter_in = Query)]
pub struct OutboxQuery {
    /// Only mails in this state: pending (waiting: between retries, or being sent and not yet
    /// accepted), sending (only those being sent), sent, failed.
    #[param(rename = "Status")]
    pub status: Option<OutboxStatus>,
    #[param(rename = "Page", minimum = 1, maximum = 1000000)]
    pub page: Option<i64>,
    #[param(rename = "Size", minimum = 1, maximum = 500)]
    pub size: Option<i64>,
}

/// One mail of the outbox. Its recipient and subject, never its body.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct OutboxMail {
    pub id: i32,
    pub recipient: String,
    pub subject: String,
    pub status: OutboxStatus,
    pub attempts: i32,
    pub created_at: chrono::DateTime<chrono::Utc>,
    /// When it is tried next: a pending mail's next attempt; for one being sent, when its claim
    /// lapses and it is tried again should its sender have stopped.
    pub next_attempt_at: Option<chrono::DateTime<chrono::Utc>>,
    pub sent_at: Option<chrono::DateTime<chrono::Utc>>,
    /// `smtp`, or `log` where no relay is configured.
    pub delivered_by: Option<String>,
    /// The relay's last answer, for mails not sent.
    pub last_error: Option<String>,
}

impl From<om::Model> for OutboxMail {
    fn from(m: om::Model) -> Self {
        OutboxMail {
            id: m.id,
            recipient: m.recipient,
            subject: m.subject,
            status: m.status,
            attempts: m.attempts,
            created_at: m.created_at,
            next_attempt_at: match m.status {
                OutboxStatus::Pending => Some(m.next_attempt_at),
                OutboxStatus::Sending => m.claimed_until,
                OutboxStatus::Sent | OutboxStatus::Failed => None,
            },
            sent_at: m.sent_at,
            delivered_by: m.delivered_by,
            last_error: m.last_error,
        }
    }
}

/// A page of the outbox and how many mails wait in all.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct OutboxPage {
    pub items: Vec<OutboxMail>,
    pub page: u64,
    pub size: u64,
    pub total_count: u64,
    /// How many mails the `pending` filter lists (waiting or being sent), whatever the filter.
    pub waiting: u64,
}
