//! The payment request state machine, pure: which action may move a request
//! from which status to which, and with which permission.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

pub use crate::entities::codes::Status;
use crate::{auth::Permission, settings::year_lock::Charge};

/// Statuses whose approved amount is charged to the budget.
pub const CHARGED: [Status; 3] = [Status::Approved, Status::ReadyForProcessing, Status::Processed];

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub enum Action {
    Edit,
    Delete,
    Submit,
    MoveToDraft,
    SendForRevision,
    Approve,
    MoveBackToSubmitted,
    MoveToReadyForProcessing,
    /// Done by generating a vendor payment report.
    Process,
}

impl Action {
    pub const ALL: [Action; 9] = [
        Action::Edit,
        Action::Delete,
        Action::Submit,
        Action::MoveToDraft,
        Action::SendForRevision,
        Action::Approve,
        Action::MoveBackToSubmitted,
        Action::MoveToReadyForProcessing,
        Action::Process,
    ];

    pub fn permission(self) -> Permission {
        match self {
            Action::Edit => Permission::RequestEdit,
            Action::Delete => Permission::RequestDelete,
            Action::Submit => Permission::RequestSubmit,
            Action::MoveToDraft => Permission::RequestMoveBackToDraft,
            Action::SendForRevision => Permission::RequestSendForRevision,
            Action::Approve => Permission::RequestApprove,
            Action::MoveBackToSubmitted => Permission::RequestMoveBackToSubmitted,
            Action::MoveToReadyForProcessing => Permission::RequestMoveToReadyForProcessing,
            Action::Process => Permission::ReportGenerateVendorPayment,
        }
    }

    /// Statuses the action may start from for a holder of `has(permission)`.
    pub fn sources(self, has: impl Fn(Permission) -> bool) -> Vec<Status> {
        use Status::*;
        match self {
            // Approvers may correct a submitted request before approving it.
            Action::Edit if has(Permission::RequestApprove) => {
                vec![Draft, RevisionRequested, Submitted]
            }
            Action::Edit => vec![Draft, RevisionRequested],
            Action::Delete => vec![Draft],
            Action::Submit => vec![Draft, RevisionRequested],
            Action::MoveToDraft => vec![Submitted, RevisionRequested],
            Action::SendForRevision | Action::Approve => vec![Submitted],
            Action::MoveBackToSubmitted | Action::MoveToReadyForProcessing => vec![Approved],
            Action::Process => vec![ReadyForProcessing],
        }
    }

    /// Whether a route performs the action on one request: `Process` happens only to
    /// all the requests of a generated vendor payment report (src/vendor_payments).
    pub fn is_per_request(self) -> bool {
        self != Action::Process
    }

    /// What the action would charge to the request's fiscal year: a closed year refuses it
    /// (`settings::year_lock`), and no list or page offers it there.
    pub fn charge(self) -> Option<Charge> {
        match self {
            Action::Edit => Some(Charge::EditRequest),
            Action::Submit => Some(Charge::SubmitRequest),
            Action::Approve => Some(Charge::ApproveRequest),
            Action::MoveBackToSubmitted => Some(Charge::MoveBackRequest),
            _ => None,
        }
    }

    /// Where the action leads; `None` keeps the status (edit) or removes the request (delete).
    pub fn target(self) -> Option<Status> {
        match self {
            Action::Edit | Action::Delete => None,
            Action::Submit | Action::MoveBackToSubmitted => Some(Status::Submitted),
            Action::MoveToDraft => Some(Status::Draft),
            Action::SendForRevision => Some(Status::RevisionRequested),
            Action::Approve => Some(Status::Approved),
            Action::MoveToReadyForProcessing => Some(Status::ReadyForProcessing),
            Action::Process => Some(Status::Processed),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// 403: the caller lacks the permission.
    Forbidden(Permission),
    /// 409: the request is not in a status the action starts from.
    WrongStatus { action: Action, status: Status },
}

/// Checks an action; permission first (403), then status (409). Returns the new status
/// (unchanged for edit and delete).
pub fn check(
    action: Action,
    status: Status,
    has: impl Fn(Permission) -> bool + Copy,
) -> Result<Status, Refusal> {
    if !has(action.permission()) {
        return Err(Refusal::Forbidden(action.permission()));
    }
    if !action.sources(has).contains(&status) {
        return Err(Refusal::WrongStatus { action, status });
    }
    Ok(action.target().unwrap_or(status))
}

/// What the caller may do to a request in `status` (the UI shows just these): only
/// actions a request's own routes perform.
pub fn available(status: Status, has: impl Fn(Permission) -> bool + Copy) -> Vec<Action> {
    Action::ALL
        .into_iter()
        .filter(|a| a.is_per_request() && check(*a, status, has).is_ok())
        .collect()
}

/// `actions` without those a closed fiscal year refuses, when the request's year is closed.
pub fn in_year(actions: Vec<Action>, year_closed: bool) -> Vec<Action> {
    if !year_closed {
        return actions;
    }
    actions.into_iter().filter(|a| a.charge().is_none()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use Action::*;
    use Status::*;

    /// The whole table: (action, from, to) for a caller holding every permission.
    const TABLE: &[(Action, Status, Status)] = &[
        (Edit, Draft, Draft),
        (Edit, RevisionRequested, RevisionRequested),
        (Edit, Submitted, Submitted),
        (Delete, Draft, Draft),
        (Submit, Draft, Submitted),
        (Submit, RevisionRequested, Submitted),
        (MoveToDraft, Submitted, Draft),
        (MoveToDraft, RevisionRequested, Draft),
        (SendForRevision, Submitted, RevisionRequested),
        (Approve, Submitted, Approved),
        (MoveBackToSubmitted, Approved, Submitted),
        (MoveToReadyForProcessing, Approved, ReadyForProcessing),
        (Process, ReadyForProcessing, Processed),
    ];

    #[test]
    fn every_action_from_every_status_with_every_permission() {
        for action in Action::ALL {
            for status in Status::ALL {
                let expected = TABLE
                    .iter()
                    .find(|(a, from, _)| *a == action && *from == status)
                    .map(|(_, _, to)| *to);
                match (check(action, status, |_| true), expected) {
                    (Ok(to), Some(want)) => assert_eq!(to, want, "{action:?} from {status:?}"),
                    (Err(Refusal::WrongStatus { .. }), None) => {}
                    (got, want) => panic!("{action:?} from {status:?}: got {got:?}, want {want:?}"),
                }
            }
        }
    }

    #[test]
    fn every_action_without_its_permission_is_forbidden_in_every_status() {
        for action in Action::ALL {
            for status in Status::ALL {
                let missing = action.permission();
                assert_eq!(
                    check(action, status, |p| p != missing),
                    Err(Refusal::Forbidden(missing)),
                    "{action:?} {status:?}"
                );
            }
        }
    }

    #[test]
    fn only_approvers_edit_submitted_requests() {
        let coordinator = |p: Permission| p != Permission::RequestApprove;
        assert!(matches!(check(Edit, Submitted, coordinator), Err(Refusal::WrongStatus { .. })));
        assert_eq!(check(Edit, Draft, coordinator), Ok(Draft));
        assert_eq!(check(Edit, Submitted, |_| true), Ok(Submitted));
    }

    #[test]
    fn processing_is_offered_by_no_request_route() {
        // Ready requests are paid by generating a vendor payment report, not one by one.
        assert!(available(ReadyForProcessing, |_| true).is_empty());
        assert_eq!(check(Process, ReadyForProcessing, |_| true), Ok(Processed));
    }

    #[test]
    fn nothing_leaves_processed() {
        assert!(available(Processed, |_| true).is_empty());
    }

    #[test]
    fn available_actions_follow_status_and_permission() {
        let coordinator =
            |p: Permission| crate::auth::permissions::COORDINATOR_DEFAULTS.contains(&p);
        assert_eq!(available(Draft, coordinator), vec![Edit, Delete, Submit]);
        assert_eq!(available(Submitted, coordinator), Vec::<Action>::new());
        assert_eq!(available(RevisionRequested, coordinator), vec![Edit, Submit]);
        assert_eq!(
            available(Submitted, |_| true),
            vec![Edit, MoveToDraft, SendForRevision, Approve]
        );
        assert_eq!(
            available(Approved, |_| true),
            vec![MoveBackToSubmitted, MoveToReadyForProcessing]
        );
    }

    #[test]
    fn a_closed_year_leaves_only_what_charges_nothing() {
        assert_eq!(
            in_year(available(Submitted, |_| true), true),
            vec![MoveToDraft, SendForRevision]
        );
        assert_eq!(in_year(available(Approved, |_| true), true), vec![MoveToReadyForProcessing]);
        assert_eq!(in_year(available(Draft, |_| true), true), vec![Delete]);
        assert_eq!(in_year(available(Submitted, |_| true), false), available(Submitted, |_| true));
    }

    #[test]
    fn status_names_round_trip() {
        for s in Status::ALL {
            assert_eq!(Status::parse(s.as_str()), Some(s));
            assert_eq!(
                serde_json::to_value(s).unwrap(),
                serde_json::Value::String(s.as_str().into())
            );
        }
        assert_eq!(Status::parse("deleted"), None);
    }
}
