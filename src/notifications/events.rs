//! What is worth telling, and to whom: pure rules over a request's move.

use serde::{Deserialize, Serialize};

use crate::entities::codes::{FormType, Status};

/// A move of a request that someone must hear of.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Happened {
    Submitted,
    /// A step of its approval chain was taken and the next one waits.
    StepApproved,
    SentForRevision,
    Approved,
    ReadyForProcessing,
    Processed,
}

/// Who hears of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Audience {
    /// Every active user who may take the request's current approval step.
    Approvers,
    /// Whoever created the request.
    Creator,
}

impl Happened {
    /// The event of a move from `from` to `to`, if it is one people hear of. A submission is
    /// a move out of the creator's hands (draft or sent back) into review; a request moved
    /// back to submitted by an approver is not news to the approvers.
    pub fn of_move(from: Option<Status>, to: Status) -> Option<Self> {
        use Status as S;
        match (from, to) {
            (Some(S::Draft | S::RevisionRequested), S::Submitted) => Some(Self::Submitted),
            (_, S::RevisionRequested) => Some(Self::SentForRevision),
            (_, S::Approved) => Some(Self::Approved),
            (_, S::ReadyForProcessing) => Some(Self::ReadyForProcessing),
            (_, S::Processed) => Some(Self::Processed),
            _ => None,
        }
    }

    pub fn audience(self) -> Audience {
        match self {
            Self::Submitted | Self::StepApproved => Audience::Approvers,
            _ => Audience::Creator,
        }
    }

    /// What happened, as a phrase after "was".
    pub fn phrase(self) -> &'static str {
        match self {
            Self::Submitted => "submitted for approval",
            Self::StepApproved => "approved at one step and waits for the next",
            Self::SentForRevision => "sent back for revision",
            Self::Approved => "approved",
            Self::ReadyForProcessing => "released for processing",
            Self::Processed => "processed for payment",
        }
    }
}

/// The request a mail is about, as people read it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RequestFacts {
    pub id: i32,
    pub form: FormType,
    pub payee: String,
    pub amount_cents: i64,
}

/// What a mail says: kept with the mail in the outbox and rendered when it is sent.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum Event {
    #[serde(rename_all = "camelCase")]
    RequestMoved {
        happened: Happened,
        request: RequestFacts,
        /// Who did it, by name.
        actor: String,
        /// The reason given when sending back.
        reason: Option<String>,
    },
    /// Approval steps that have waited too long, gathered for one person in one mail: a
    /// reminder to whoever may take them, or an escalation to an Administrator. The longest
    /// waiting first; past the first `LISTED` only counted in `more`, so a long backlog makes
    /// one readable mail, not thousands.
    #[serde(rename_all = "camelCase")]
    StepsWaiting {
        waiting: Vec<Waiting>,
        #[serde(default)]
        more: usize,
        escalation: bool,
    },
    /// One step waiting, as mails queued by earlier versions still read: sent as a list of one.
    #[serde(rename_all = "camelCase")]
    StepWaiting { waiting: Waiting, escalation: bool },
    /// What waits for one user today. Steps waiting too long come again under `overdue`
    /// (the daily digest is a digest reader's reminder), and an Administrator's escalations
    /// since her last digest under `escalated`.
    #[serde(rename_all = "camelCase")]
    Digest {
        to_approve: Vec<RequestFacts>,
        sent_back: Vec<RequestFacts>,
        #[serde(default)]
        overdue: Vec<Waiting>,
        #[serde(default)]
        escalated: Vec<Waiting>,
    },
    /// An account made for someone (or her invitation sent again): the one-time link to
    /// choose a password. The token is a secret: once the mail is settled it is wiped from
    /// the stored event (`without_secret`).
    #[serde(rename_all = "camelCase")]
    Invitation {
        email: String,
        token: String,
        /// How long the link lives, in words.
        valid_for: String,
        again: bool,
    },
}

/// How many waiting steps a reminder or an escalation lists by name.
pub const LISTED: usize = 50;

/// A request whose current approval step has waited `days` whole days.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Waiting {
    pub request: RequestFacts,
    /// The step's name.
    pub step: String,
    pub days: i64,
}

impl Event {
    /// The reminder (or escalation) of `waiting` for one person: the longest waiting first,
    /// the first `LISTED` by name.
    pub fn steps_waiting(mut waiting: Vec<Waiting>, escalation: bool) -> Event {
        waiting.sort_by(|a, b| b.days.cmp(&a.days).then(a.request.id.cmp(&b.request.id)));
        let more = waiting.len().saturating_sub(LISTED);
        waiting.truncate(LISTED);
        Event::StepsWaiting { waiting, more, escalation }
    }

    /// The event as kept once its mail is settled: an invitation loses its token, which is
    /// worth nothing to the outbox any more. `None` for events that hold no secret.
    pub fn without_secret(&self) -> Option<Event> {
        match self {
            Self::Invitation { email, valid_for, again, .. } => Some(Self::Invitation {
                email: email.clone(),
                token: String::new(),
                valid_for: valid_for.clone(),
                again: *again,
            }),
            _ => None,
        }
    }

    pub fn subject(&self) -> String {
        match self {
            Self::Invitation { again: false, .. } => "MentorPay: your account".into(),
            Self::Invitation { again: true, .. } => "MentorPay: your invitation, again".into(),
            Self::RequestMoved { happened, request, .. } => {
                format!(
                    "{} request {} was {}",
                    request.form.name(),
                    crate::text::request_ref(request.form.as_str(), request.id.into()),
                    happened.phrase()
                )
            }
            Self::StepWaiting { waiting, escalation } => {
                Self::steps_waiting(vec![waiting.clone()], *escalation).subject()
            }
            Self::StepsWaiting { waiting, more, escalation } => match (&waiting[..], more) {
                ([w], 0) if !escalation => format!(
                    "Reminder: {} request {} has waited {} for approval",
                    w.request.form.name(),
                    crate::text::request_ref(w.request.form.as_str(), w.request.id.into()),
                    days(w.days)
                ),
                ([w], 0) => format!(
                    "Escalation: {} request {} has waited {} at the step {}",
                    w.request.form.name(),
                    crate::text::request_ref(w.request.form.as_str(), w.request.id.into()),
                    days(w.days),
                    w.step
                ),
                _ if !escalation => format!(
                    "Reminder: {} requests have waited for your approval longer than the office allows",
                    crate::text::count((waiting.len() + more) as u64)
                ),
                _ => format!(
                    "Escalation: {} requests have waited for approval longer than the office allows",
                    crate::text::count((waiting.len() + more) as u64)
                ),
            },
            Self::Digest { to_approve, sent_back, .. } => format!(
                "MentorPay: {} to approve, {} sent back to you",
                to_approve.len(),
                sent_back.len()
            ),
        }
    }
}

/// "1 day", "5 days".
pub fn days(n: i64) -> String {
    if n == 1 {
        "1 day".into()
    } else {
        format!("{n} days")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Status as S;

    #[test]
    fn moves_people_hear_of() {
        assert_eq!(Happened::of_move(Some(S::Draft), S::Submitted), Some(Happened::Submitted));
        assert_eq!(
            Happened::of_move(Some(S::RevisionRequested), S::Submitted),
            Some(Happened::Submitted)
        );
        assert_eq!(Happened::of_move(Some(S::Approved), S::Submitted), None);
        assert_eq!(
            Happened::of_move(Some(S::Submitted), S::RevisionRequested),
            Some(Happened::SentForRevision)
        );
        assert_eq!(Happened::of_move(Some(S::Submitted), S::Approved), Some(Happened::Approved));
        assert_eq!(
            Happened::of_move(Some(S::Approved), S::ReadyForProcessing),
            Some(Happened::ReadyForProcessing)
        );
        assert_eq!(
            Happened::of_move(Some(S::ReadyForProcessing), S::Processed),
            Some(Happened::Processed)
        );
        assert_eq!(Happened::of_move(Some(S::Submitted), S::Draft), None);
        assert_eq!(Happened::of_move(None, S::Draft), None);
    }

    #[test]
    fn submissions_go_to_approvers_the_rest_to_the_creator() {
        assert_eq!(Happened::Submitted.audience(), Audience::Approvers);
        for h in [
            Happened::SentForRevision,
            Happened::Approved,
            Happened::ReadyForProcessing,
            Happened::Processed,
        ] {
            assert_eq!(h.audience(), Audience::Creator);
        }
    }

    #[test]
    fn the_event_survives_the_outbox() {
        let e = Event::RequestMoved {
            happened: Happened::SentForRevision,
            request: RequestFacts {
                id: 7,
                form: FormType::F2,
                payee: "Ann Lee".into(),
                amount_cents: 12_345,
            },
            actor: "Bo Approver".into(),
            reason: Some("Receipt missing".into()),
        };
        let text = serde_json::to_string(&e).unwrap();
        assert_eq!(serde_json::from_str::<Event>(&text).unwrap(), e);
        assert_eq!(e.subject(), "Expense reimbursement request F2 #7 was sent back for revision");
    }

    #[test]
    fn a_digest_queued_before_reminders_still_reads() {
        let old = r#"{"kind":"digest","toApprove":[],"sentBack":[]}"#;
        let e: Event = serde_json::from_str(old).unwrap();
        assert_eq!(
            e,
            Event::Digest {
                to_approve: vec![],
                sent_back: vec![],
                overdue: vec![],
                escalated: vec![]
            }
        );
    }

    #[test]
    fn reminders_and_escalations_say_how_long_and_where() {
        let waiting = Waiting {
            request: RequestFacts {
                id: 9,
                form: FormType::F2,
                payee: "Ann Lee".into(),
                amount_cents: 100,
            },
            step: "Finance".into(),
            days: 1,
        };
        let reminder = Event::StepWaiting { waiting: waiting.clone(), escalation: false };
        assert_eq!(
            reminder.subject(),
            "Reminder: Expense reimbursement request F2 #9 has waited 1 day for approval"
        );
        let escalation =
            Event::StepWaiting { waiting: Waiting { days: 8, ..waiting }, escalation: true };
        assert_eq!(
            escalation.subject(),
            "Escalation: Expense reimbursement request F2 #9 has waited 8 days at the step Finance"
        );
        let text = serde_json::to_string(&escalation).unwrap();
        assert_eq!(serde_json::from_str::<Event>(&text).unwrap(), escalation);
    }
}
