//! What a packet says, in words, from the facts of a request or of a vendor payment: pure,
//! tested without a database. The PDF writer lays these out; nothing here knows of pages.

use std::collections::HashMap;

use chrono::{DateTime, NaiveDate, Utc};

use crate::{
    entities::{activity_log, payment_request as pr, uploaded_file},
    money::Money,
    payment_requests::payee::Payee,
    reports::export::local,
};

/// Everything a request's packet shows, loaded by `facts`.
pub struct RequestFacts {
    pub request: pr::Model,
    /// As approved once the request is, else as the participant stands.
    pub payee: Payee,
    pub program: Option<String>,
    pub college: Option<String>,
    pub fiscal_year: Option<String>,
    pub approval_code: Option<String>,
    pub fund: Option<String>,
    pub expense_account: Option<String>,
    /// Names of the people the request and its log name, by user id.
    pub people: HashMap<i32, String>,
    /// The form's own fields: label and printed value, in the form's order.
    pub details: Vec<(String, String)>,
    /// Oldest first.
    pub activity: Vec<activity_log::Model>,
    pub receipts: Vec<uploaded_file::Model>,
    /// The vendor payment report that paid it.
    pub paid_in: Option<i32>,
    /// Its approval chain, in order (none before it is submitted).
    pub steps: Vec<crate::entities::request_step::Model>,
}

/// A receipt to append: its stored id, name and type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Receipt {
    pub file_id: String,
    pub name: String,
    pub content_type: String,
}

/// How the packet shows one receipt.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shown {
    /// Its own pages, appended.
    Pages,
    /// Scaled onto a page of its own.
    Picture,
    /// Named on a page that says it cannot be shown.
    Named,
}

impl Receipt {
    pub fn shown(&self) -> Shown {
        match self.content_type.as_str() {
            "application/pdf" => Shown::Pages,
            "image/png" | "image/jpeg" => Shown::Picture,
            _ => Shown::Named,
        }
    }
}

/// A request's packet in words.
#[derive(Debug, Clone, PartialEq)]
pub struct Sheet {
    /// `F2-123`: the file name's and the footer's name of the request.
    pub key: String,
    pub title: String,
    pub summary: String,
    pub request: Vec<(String, String)>,
    pub form: Vec<(String, String)>,
    pub approval: Vec<(String, String)>,
    /// When, who, what, status, comment.
    pub activity: Vec<Vec<String>>,
    pub receipts: Vec<Receipt>,
}

pub const ACTIVITY_HEADERS: [&str; 5] = ["When", "Who", "What", "Status", "Comment"];
pub const ACTIVITY_WIDTHS: [f32; 5] = [1.75, 1.5, 1.7, 2.2, 2.3];

/// `F2 #123`, as people name the request everywhere.
pub fn key(r: &pr::Model) -> String {
    crate::text::request_ref(r.form_type.as_str(), r.id.into())
}

/// The download name of a request's packet (`request-F2-123.pdf`: no space or `#` in a file name).
pub fn file_name(r: &pr::Model) -> String {
    format!("request-{}-{}.pdf", r.form_type.as_str(), r.id)
}

/// An activity entry's action in words (the log stores stable codes).
pub fn action_words(action: &str) -> String {
    let known = match action {
        "created" => "Created",
        "edited" => "Edited",
        "deleted" => "Deleted",
        "submitted" => "Submitted",
        "moved-to-draft" => "Moved back to draft",
        "sent-for-revision" => "Sent back for revision",
        "approved" => "Approved",
        "step-approved" => "Approval step taken",
        "approval-reminded" => "Approvers reminded (the step waits too long)",
        "approval-escalated" => "Escalated to the Administrators (the step waits too long)",
        "moved-back-to-submitted" => "Approval undone (back to submitted)",
        "moved-to-ready-for-processing" => "Released for processing",
        "processed" => "Processed (vendor payment report)",
        "file-deleted" => "Receipt removed",
        other => {
            let words = other.replace(['-', '_'], " ");
            let mut chars = words.chars();
            return chars
                .next()
                .map_or_else(String::new, |c| c.to_uppercase().chain(chars).collect());
        }
    };
    known.to_owned()
}

fn status_words(code: &str) -> String {
    crate::payment_requests::workflow::Status::parse(code)
        .map_or_else(|| code.to_owned(), |s| s.label().to_owned())
}

fn when(t: DateTime<Utc>, offset: i32) -> String {
    crate::text::moment(local(t, offset))
}

fn day(d: Option<NaiveDate>) -> String {
    d.map(crate::text::day).unwrap_or_default()
}

fn or_none(v: Option<String>) -> String {
    v.filter(|s| !s.trim().is_empty()).unwrap_or_else(|| "—".to_owned())
}

/// The pages' words of a request, timestamps in the caller's local time (`offset`:
/// the browser's `getTimezoneOffset()`).
pub fn sheet(f: &RequestFacts, offset: i32) -> Sheet {
    let r = &f.request;
    let person = |id: Option<i32>| {
        id.map(|id| f.people.get(&id).cloned().unwrap_or_else(|| format!("User #{id}")))
    };
    let payee = match &f.payee.email {
        Some(email) => format!("{} <{email}>", f.payee.name),
        None => f.payee.name.clone(),
    };
    let mut request = vec![
        ("Request".to_owned(), key(r)),
        ("Form".to_owned(), r.form_type.label().to_owned()),
        ("Status".to_owned(), r.status.label().to_owned()),
        ("Payee".to_owned(), payee),
        ("Payee address".to_owned(), or_none(f.payee.address.clone())),
        ("Mentor program".to_owned(), or_none(f.program.clone())),
        ("College".to_owned(), or_none(f.college.clone())),
        ("Description".to_owned(), or_none(r.description.clone())),
        ("Requested amount".to_owned(), Money(r.requested_cents).dollars()),
        ("Fiscal year".to_owned(), or_none(f.fiscal_year.clone())),
        ("Submitted on".to_owned(), or_none(Some(day(r.submitted_on)))),
        ("Submitted by".to_owned(), or_none(person(r.submitted_by))),
        (
            "Created".to_owned(),
            format!("{} by {}", when(r.created_at, offset), or_none(person(r.created_by))),
        ),
        (
            "Last changed".to_owned(),
            format!("{} by {}", when(r.updated_at, offset), or_none(person(r.updated_by))),
        ),
    ];
    if let Some(report) = f.paid_in {
        request.push(("Paid in".to_owned(), format!("Vendor payment report #{report}")));
    }
    let mut approval = match r.approved_cents {
        Some(cents) => vec![
            ("Approved amount".to_owned(), Money(cents).dollars()),
            ("Approved by".to_owned(), or_none(person(r.approved_by))),
            ("Approved on".to_owned(), or_none(r.approved_at.map(|t| when(t, offset)))),
            ("Approval code".to_owned(), or_none(f.approval_code.clone())),
            ("Fund".to_owned(), or_none(f.fund.clone())),
            ("Expense account".to_owned(), or_none(f.expense_account.clone())),
        ],
        None => vec![("Approval".to_owned(), "Not approved".to_owned())],
    };
    // The chain: each step, who took it and when.
    let count = f.steps.len();
    for (i, step) in f.steps.iter().enumerate() {
        let label = format!("Step {} of {count}: {} ({})", i + 1, step.name, step.role);
        let state = match (step.by_user_id, step.at) {
            (Some(by), Some(at)) => {
                let behalf = step
                    .on_behalf_of
                    .map(|o| format!(" on behalf of {}", or_none(person(Some(o)))))
                    .unwrap_or_default();
                let amount = step.approved_cents.map(|c| format!(", {}", Money(c).dollars()));
                format!(
                    "Approved by {}{behalf} on {}{}",
                    or_none(person(Some(by))),
                    when(at, offset),
                    amount.unwrap_or_default()
                )
            }
            _ if step.state == "current" => "Waiting for approval".to_owned(),
            _ => "Not reached yet".to_owned(),
        };
        approval.push((label, state));
    }
    let activity = f
        .activity
        .iter()
        .map(|e| {
            let status = match (&e.from_status, &e.to_status) {
                (Some(a), Some(b)) if a != b => {
                    format!("{} → {}", status_words(a), status_words(b))
                }
                (_, Some(b)) => status_words(b),
                _ => String::new(),
            };
            vec![
                when(e.created_at, offset),
                or_none(person(e.actor_user_id)),
                action_words(&e.action),
                status,
                e.comment.clone().unwrap_or_default(),
            ]
        })
        .collect();
    let receipts = f
        .receipts
        .iter()
        .map(|u| Receipt {
            file_id: u.id.clone(),
            name: u.file_name.clone(),
            content_type: u.content_type.clone(),
        })
        .collect();
    Sheet {
        key: key(r),
        title: format!("Payment request {}", key(r)),
        summary: format!("{} · {} · {}", r.form_type.name(), r.status.label(), f.payee.name),
        request,
        form: f.details.clone(),
        approval,
        activity,
        receipts,
    }
}

/// What the cover of a vendor payment's packet says.
pub struct CoverFacts {
    pub report_id: i32,
    pub fiscal_year: String,
    pub start: NaiveDate,
    pub end: NaiveDate,
    pub row_count: i64,
    pub total: Money,
    pub created_by: String,
    pub created_at: DateTime<Utc>,
    pub printed_by: String,
    pub printed_at: DateTime<Utc>,
    /// Request key, payee, amount: the vendor payment's rows in order.
    pub rows: Vec<[String; 3]>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Cover {
    pub title: String,
    pub fields: Vec<(String, String)>,
    pub rows: Vec<Vec<String>>,
}

pub const COVER_HEADERS: [&str; 4] = ["#", "Request", "Payee", "Amount"];
pub const COVER_WIDTHS: [f32; 4] = [0.5, 1.2, 3.5, 1.3];

pub fn cover(f: &CoverFacts, offset: i32) -> Cover {
    Cover {
        title: format!("Vendor payment report #{}", f.report_id),
        fields: vec![
            ("Fiscal year".to_owned(), f.fiscal_year.clone()),
            ("Approved between".to_owned(), format!("{} – {}", f.start, f.end)),
            ("Requests".to_owned(), f.row_count.to_string()),
            ("Total".to_owned(), f.total.dollars()),
            ("Generated".to_owned(), format!("{} by {}", when(f.created_at, offset), f.created_by)),
            (
                "Packet printed".to_owned(),
                format!("{} by {}", when(f.printed_at, offset), f.printed_by),
            ),
        ],
        rows: f
            .rows
            .iter()
            .enumerate()
            .map(|(i, [key, payee, amount])| {
                vec![(i + 1).to_string(), key.clone(), payee.clone(), amount.clone()]
            })
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{forms::FormType, payment_requests::workflow::Status};
    use chrono::TimeZone;

    fn facts() -> RequestFacts {
        let at = Utc.with_ymd_and_hms(2026, 3, 2, 18, 5, 0).unwrap();
        RequestFacts {
            request: pr::Model {
                id: 123,
                form_type: FormType::F2,
                status: Status::Approved,
                participation_id: 1,
                mentor_program_id: 1,
                participant_id: 1,
                description: Some("Books".into()),
                requested_cents: 12_345,
                approved_cents: Some(12_000),
                approval_code_id: Some(1),
                fund_id: Some(1),
                expense_account_id: Some(1),
                fiscal_year_id: Some(1),
                submitted_on: NaiveDate::from_ymd_opt(2026, 3, 1),
                submitted_by: Some(7),
                approved_at: Some(at),
                approved_by: Some(8),
                placement_end_date: None,
                activity_start: None,
                activity_end: None,
                details: "{}".into(),
                version: 3,
                created_at: at,
                created_by: Some(7),
                updated_at: at,
                updated_by: Some(8),
                deleted_at: None,
                current_step_role: None,
                current_step_index: None,
                payee_name: None,
                payee_address: None,
                payee_email: None,
            },
            payee: Payee {
                name: "Pat Lee".into(),
                email: Some("pat@example.org".into()),
                address: None,
            },
            program: Some("North Bay".into()),
            college: None,
            fiscal_year: Some("FY 2025-26".into()),
            approval_code: Some("AC1 Books".into()),
            fund: Some("General".into()),
            expense_account: Some("Supplies".into()),
            people: HashMap::from([(7, "Cory Coordinator".into()), (8, "Ann Approver".into())]),
            details: vec![("Items".into(), "2026-03-01 Books $123.45".into())],
            activity: vec![activity_log::Model {
                id: 1,
                entity_type: "payment_request".into(),
                entity_id: 123,
                action: "approved".into(),
                actor_user_id: Some(8),
                from_status: Some("Submitted".into()),
                to_status: Some("Approved".into()),
                comment: Some("fine".into()),
                data: None,
                created_at: at,
            }],
            receipts: vec![],
            paid_in: None,
            steps: vec![],
        }
    }

    #[test]
    fn the_packet_lists_the_approval_steps_with_who_and_when() {
        let mut f = facts();
        let at = Utc.with_ymd_and_hms(2026, 3, 1, 15, 0, 0).unwrap();
        let row = |i: i32, name: &str, state: &str, by: Option<i32>| {
            crate::entities::request_step::Model {
                id: i,
                payment_request_id: 123,
                step_index: i,
                name: name.into(),
                role: "Finance".into(),
                from_cents: 0,
                state: state.into(),
                by_user_id: by,
                at: by.map(|_| at),
                on_behalf_of: None,
                approved_cents: by.map(|_| 12_000),
                began_at: Some(at),
                reminded_on: None,
                escalated_on: None,
            }
        };
        f.steps = vec![row(0, "Review", "done", Some(8)), row(1, "Finance", "current", None)];
        let s = sheet(&f, 480);
        assert_eq!(
            value(&s.approval, "Step 1 of 2: Review (Finance)"),
            "Approved by Ann Approver on Mar 1, 2026, 7:00 AM, $120.00"
        );
        assert_eq!(value(&s.approval, "Step 2 of 2: Finance (Finance)"), "Waiting for approval");
    }

    fn value<'a>(rows: &'a [(String, String)], label: &str) -> &'a str {
        &rows.iter().find(|(l, _)| l == label).unwrap_or_else(|| panic!("{label}")).1
    }

    #[test]
    fn a_request_reads_in_words_and_local_time() {
        let s = sheet(&facts(), 480);
        assert_eq!(s.key, "F2 #123");
        assert_eq!(file_name(&facts().request), "request-F2-123.pdf");
        assert_eq!(value(&s.request, "Form"), "F2 Expense reimbursement");
        assert_eq!(value(&s.request, "Payee"), "Pat Lee <pat@example.org>");
        assert_eq!(value(&s.request, "College"), "—");
        assert_eq!(value(&s.request, "Requested amount"), "$123.45");
        assert_eq!(value(&s.approval, "Approved amount"), "$120.00");
        assert_eq!(value(&s.approval, "Approved by"), "Ann Approver");
        assert_eq!(value(&s.approval, "Approved on"), "Mar 2, 2026, 10:05 AM");
        assert_eq!(
            s.activity[0],
            ["Mar 2, 2026, 10:05 AM", "Ann Approver", "Approved", "Submitted → Approved", "fine"]
        );
    }

    #[test]
    fn unapproved_requests_say_so_and_unknown_actions_become_words() {
        let mut f = facts();
        f.request.approved_cents = None;
        assert_eq!(sheet(&f, 0).approval, [("Approval".to_owned(), "Not approved".to_owned())]);
        assert_eq!(action_words("budget-line_moved"), "Budget line moved");
        assert_eq!(action_words("sent-for-revision"), "Sent back for revision");
    }

    #[test]
    fn receipts_show_by_their_type() {
        let r = |t: &str| Receipt { file_id: "x".into(), name: "r".into(), content_type: t.into() };
        assert_eq!(r("application/pdf").shown(), Shown::Pages);
        assert_eq!(r("image/png").shown(), Shown::Picture);
        assert_eq!(r("image/jpeg").shown(), Shown::Picture);
        assert_eq!(r("image/heic").shown(), Shown::Named);
    }
}
