//! Approval checks, pure: what blocks an approval (errors) and what the
//! approver must acknowledge (warnings). The handler gathers the facts in the approval's
//! transaction; `approve/validate` and `approve` both call `assess`.

use chrono::{Days, NaiveDate};

use crate::text::day;
use serde::Serialize;
use utoipa::ToSchema;

use crate::forms::{FormType, Limits};
use crate::settings::year_lock::{self, Charge};
use crate::{
    error::{ApiError, Checks},
    money::Money,
};

/// One finding, with the body field it is about when there is one.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Issue {
    /// Stable key for the UI: `amountNotPositive`, `amountAboveRequested`, `amountAboveLimit`,
    /// `approvalCodeUnknown`, `approvalCodeOtherType`, `fundUnknown`, `expenseAccountUnknown`,
    /// `noFiscalYear`, `yearClosed`, `selfApproval`, `budgetNegative`, `noBudgetLine`, `lateSubmission`, `likelyDuplicate`.
    pub code: &'static str,
    pub field: Option<&'static str>,
    pub message: String,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, ToSchema)]
pub struct Verdict {
    pub errors: Vec<Issue>,
    pub warnings: Vec<Issue>,
}

/// The approver's choice.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Proposal {
    pub approved_amount: Money,
    pub approval_code_id: i32,
    pub fund_id: i32,
    pub expense_account_id: i32,
}

/// What the database says about the request and the proposal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Facts {
    pub form_type: FormType,
    pub requested_amount: Money,
    pub limits: Limits,
    /// The approval code's request type; `None` when no active code has that id.
    pub approval_code_type: Option<FormType>,
    pub fund_exists: bool,
    pub expense_account_exists: bool,
    /// Date of first submission.
    pub submitted_on: Option<NaiveDate>,
    /// Name of the fiscal year covering `submitted_on`, if any.
    pub fiscal_year: Option<String>,
    /// Whether that year is closed: nothing more is approved in it.
    pub fiscal_year_closed: bool,
    /// Budgeted − already approved on the line (program × fund × account × year);
    /// `None` when the year has no such line.
    pub budget_remaining: Option<Money>,
    /// Last day of the activity paid for.
    pub activity_end: Option<NaiveDate>,
    /// Ids of other live requests with the same payee, form type, amount and activity dates.
    pub duplicates: Vec<i32>,
    pub created_by: Option<i32>,
    pub submitted_by: Option<i32>,
    pub approver: i32,
    /// The approver changed the amount, the payee or the details after the last submission.
    pub edited_by_approver: bool,
}

fn issue(code: &'static str, field: Option<&'static str>, message: impl Into<String>) -> Issue {
    Issue { code, field, message: message.into() }
}

pub fn assess(p: &Proposal, f: &Facts) -> Verdict {
    let mut v = Verdict::default();
    let amount = p.approved_amount;
    if amount.cents() <= 0 {
        v.errors.push(issue(
            "amountNotPositive",
            Some("approvedAmount"),
            "The approved amount must be more than 0.",
        ));
    } else if amount > f.requested_amount {
        v.errors.push(issue(
            "amountAboveRequested",
            Some("approvedAmount"),
            format!(
                "The approved amount must not exceed the requested amount ({}).",
                f.requested_amount
            ),
        ));
    } else if amount > f.limits.max_amount {
        v.errors.push(issue(
            "amountAboveLimit",
            Some("approvedAmount"),
            format!(
                "The approved amount must not exceed the form's maximum ({}).",
                f.limits.max_amount
            ),
        ));
    }
    match f.approval_code_type {
        None => v.errors.push(issue(
            "approvalCodeUnknown",
            Some("approvalCodeId"),
            "No active approval code has this id.",
        )),
        Some(t) if t != f.form_type => v.errors.push(issue(
            "approvalCodeOtherType",
            Some("approvalCodeId"),
            format!(
                "The approval code is for {} requests, not {}.",
                t.as_str(),
                f.form_type.as_str()
            ),
        )),
        Some(_) => {}
    }
    if !f.fund_exists {
        v.errors.push(issue("fundUnknown", Some("fundId"), "No active fund has this id."));
    }
    if !f.expense_account_exists {
        v.errors.push(issue(
            "expenseAccountUnknown",
            Some("expenseAccountId"),
            "No active expense account has this id.",
        ));
    }
    if f.fiscal_year.is_none() {
        let when = f.submitted_on.map_or("the submission date".to_owned(), day);
        v.errors.push(issue(
            "noFiscalYear",
            None,
            format!("No fiscal year covers {when}; create it before approving."),
        ));
    }
    if let Some(year) = f.fiscal_year.as_deref().filter(|_| f.fiscal_year_closed) {
        v.errors.push(issue("yearClosed", None, year_lock::refusal(Charge::ApproveRequest, year)));
    }
    if is_own(f.approver, f.created_by, f.submitted_by) {
        v.errors.push(issue(
            "selfApproval",
            None,
            "Nobody approves a request they created or submitted.",
        ));
    }

    if f.edited_by_approver {
        v.errors.push(issue(
            "editedByApprover",
            None,
            "You changed this request's amount, payee or details after it was submitted, so another approver must approve it.",
        ));
    }

    if let Some(year) = &f.fiscal_year {
        let remaining = f.budget_remaining.unwrap_or(Money::ZERO);
        let after = remaining.checked_sub(amount).unwrap_or(Money(i64::MIN));
        if after.cents() < 0 {
            let line = if f.budget_remaining.is_none() {
                " (there is no budget line for this program, fund and account)"
            } else {
                ""
            };
            v.warnings.push(issue(
                if f.budget_remaining.is_none() { "noBudgetLine" } else { "budgetNegative" },
                None,
                format!("The budget line of {year} would go negative: {remaining} remaining, {amount} to approve{line}."),
            ));
        }
    }
    if let (Some(submitted), Some(end)) = (f.submitted_on, f.activity_end) {
        v.warnings.extend(late_submission(submitted, end, f.limits.submission_window_days));
    }
    if !f.duplicates.is_empty() {
        let ids: Vec<String> = f.duplicates.iter().map(i32::to_string).collect();
        v.warnings.push(issue(
            "likelyDuplicate",
            None,
            format!(
                "Likely duplicate of request(s) {}: same payee, form, amount and dates.",
                ids.join(", ")
            ),
        ));
    }
    v
}

/// One entry of a request's history, oldest first, as the edit rule reads it.
pub struct Step<'a> {
    pub action: &'a str,
    pub actor: Option<i32>,
    /// An edit that changed the amount, the payee or the details.
    pub material: bool,
}

/// Whether `approver` made a material edit since the request was last submitted: whoever
/// changes what is paid, or to whom, is the second pair of eyes no longer.
pub fn edited_since_submission(history: &[Step], approver: i32) -> bool {
    let since = history.iter().rposition(|s| s.action == SUBMITTED).map_or(0, |i| i + 1);
    history[since..].iter().any(|s| s.action == EDITED && s.material && s.actor == Some(approver))
}

/// The names of the history entries the edit rule reads.
pub const SUBMITTED: &str = "submitted";
pub const EDITED: &str = "edited";

/// Nobody approves a request they created or submitted.
pub fn is_own(user: i32, created_by: Option<i32>, submitted_by: Option<i32>) -> bool {
    created_by == Some(user) || submitted_by == Some(user)
}

/// The submission-window rule, once for both callers: the approver's warning and the
/// submitter's (`submit/validate`, before a late request goes in).
pub fn late_submission(
    submitted: NaiveDate,
    activity_end: NaiveDate,
    window_days: i32,
) -> Option<Issue> {
    let days = u64::try_from(window_days.max(0)).unwrap_or(0);
    let deadline = activity_end.checked_add_days(Days::new(days))?;
    (submitted > deadline).then(|| {
        issue(
            "lateSubmission",
            None,
            format!(
                "Submitted on {}, after the {days}-day submission window that ended {} (the activity ended {}).",
                day(submitted),
                day(deadline),
                day(activity_end)
            ),
        )
    })
}

impl Verdict {
    /// What `approve` does with the verdict: errors are a 422 naming the fields; warnings
    /// not acknowledged are a 422 on `acknowledgeWarnings`.
    pub fn gate(&self, acknowledged: bool) -> Result<(), ApiError> {
        let mut errors = Checks::default();
        for e in &self.errors {
            errors.add(e.field.unwrap_or("approval"), e.message.clone());
        }
        if errors.is_empty() && !acknowledged {
            for w in &self.warnings {
                errors.add("acknowledgeWarnings", w.message.clone());
            }
        }
        let detail = if self.errors.is_empty() {
            "The approval has warnings; confirm them with acknowledgeWarnings: true.".to_owned()
        } else {
            "The approval is not possible.".to_owned()
        };
        errors.finish_as(detail)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn date(s: &str) -> NaiveDate {
        NaiveDate::parse_from_str(s, "%Y-%m-%d").unwrap()
    }

    fn proposal() -> Proposal {
        Proposal {
            approved_amount: Money(10_000),
            approval_code_id: 1,
            fund_id: 1,
            expense_account_id: 1,
        }
    }

    fn facts() -> Facts {
        Facts {
            form_type: FormType::F3,
            requested_amount: Money(10_000),
            limits: Limits {
                max_amount: Money(50_000),
                submission_window_days: 30,
                max_miles_per_trip: None,
                max_hours: None,
                max_nights: None,
            },
            approval_code_type: Some(FormType::F3),
            fund_exists: true,
            expense_account_exists: true,
            submitted_on: Some(date("2025-10-20")),
            fiscal_year: Some("2025-26".into()),
            fiscal_year_closed: false,
            budget_remaining: Some(Money(100_000)),
            activity_end: Some(date("2025-10-01")),
            duplicates: vec![],
            created_by: Some(7),
            submitted_by: Some(7),
            approver: 1,
            edited_by_approver: false,
        }
    }

    #[test]
    fn an_approver_who_changed_what_is_paid_since_submission_may_not_approve() {
        let step = |action, actor, material| Step { action, actor: Some(actor), material };
        // (history oldest first, approver 1) -> may she approve?
        let cases = [
            (vec![step(SUBMITTED, 7, false)], true),
            (vec![step(SUBMITTED, 7, false), step(EDITED, 1, true)], false),
            (vec![step(SUBMITTED, 7, false), step(EDITED, 1, false)], true),
            (vec![step(SUBMITTED, 7, false), step(EDITED, 2, true)], true),
            (vec![step(EDITED, 1, true), step(SUBMITTED, 7, false)], true),
            (
                vec![step(SUBMITTED, 7, false), step(EDITED, 1, true), step(SUBMITTED, 7, false)],
                true,
            ),
            (
                vec![
                    step(SUBMITTED, 7, false),
                    step("moved-back", 1, false),
                    step(EDITED, 1, true),
                ],
                false,
            ),
        ];
        for (i, (history, ok)) in cases.iter().enumerate() {
            assert_eq!(!edited_since_submission(history, 1), *ok, "case {i}");
        }
        let v = assess(&proposal(), &Facts { edited_by_approver: true, ..facts() });
        assert_eq!(codes(&v.errors), ["editedByApprover"]);
    }

    fn codes(issues: &[Issue]) -> Vec<&'static str> {
        issues.iter().map(|i| i.code).collect()
    }

    #[test]
    fn clean_approval_has_nothing() {
        let v = assess(&proposal(), &facts());
        assert_eq!(v, Verdict::default());
        assert!(v.gate(false).is_ok());
    }

    #[test]
    fn amount_errors() {
        for (cents, code) in
            [(0, "amountNotPositive"), (-1, "amountNotPositive"), (10_001, "amountAboveRequested")]
        {
            let v = assess(&Proposal { approved_amount: Money(cents), ..proposal() }, &facts());
            assert_eq!(codes(&v.errors), vec![code], "{cents}");
            assert_eq!(v.errors[0].field, Some("approvedAmount"));
        }
        // Limits lowered after submission: the form's maximum still binds.
        let f = Facts { limits: Limits { max_amount: Money(9_999), ..facts().limits }, ..facts() };
        assert_eq!(codes(&assess(&proposal(), &f).errors), vec!["amountAboveLimit"]);
        // Approving less than requested is fine.
        assert!(assess(&Proposal { approved_amount: Money(1), ..proposal() }, &facts())
            .errors
            .is_empty());
    }

    #[test]
    fn approval_code_must_exist_and_be_of_this_type() {
        let v = assess(&proposal(), &Facts { approval_code_type: None, ..facts() });
        assert_eq!(codes(&v.errors), vec!["approvalCodeUnknown"]);
        let v = assess(&proposal(), &Facts { approval_code_type: Some(FormType::F4), ..facts() });
        assert_eq!(codes(&v.errors), vec!["approvalCodeOtherType"]);
        assert_eq!(v.errors[0].field, Some("approvalCodeId"));
        assert!(assess(&proposal(), &facts()).errors.is_empty());
    }

    #[test]
    fn fund_and_account_must_exist() {
        let v = assess(
            &proposal(),
            &Facts { fund_exists: false, expense_account_exists: false, ..facts() },
        );
        assert_eq!(codes(&v.errors), vec!["fundUnknown", "expenseAccountUnknown"]);
    }

    #[test]
    fn a_closed_year_is_an_error_in_words() {
        let v = assess(&proposal(), &Facts { fiscal_year_closed: true, ..facts() });
        let closed = v.errors.iter().find(|e| e.code == "yearClosed").expect("yearClosed");
        assert!(closed.message.contains("2025-26 is closed"), "{}", closed.message);
        assert!(!assess(&proposal(), &facts()).errors.iter().any(|e| e.code == "yearClosed"));
    }

    #[test]
    fn no_fiscal_year_is_an_error_and_skips_the_budget() {
        let v =
            assess(&proposal(), &Facts { fiscal_year: None, budget_remaining: None, ..facts() });
        assert_eq!(codes(&v.errors), vec!["noFiscalYear"]);
        assert!(v.warnings.is_empty());
    }

    #[test]
    fn nobody_approves_what_they_created_or_submitted() {
        for f in
            [Facts { created_by: Some(1), ..facts() }, Facts { submitted_by: Some(1), ..facts() }]
        {
            assert_eq!(codes(&assess(&proposal(), &f).errors), vec!["selfApproval"]);
        }
    }

    #[test]
    fn budget_warnings() {
        let v = assess(&proposal(), &Facts { budget_remaining: Some(Money(9_999)), ..facts() });
        assert_eq!(codes(&v.warnings), vec!["budgetNegative"]);
        // Exactly to zero is fine.
        assert!(assess(&proposal(), &Facts { budget_remaining: Some(Money(10_000)), ..facts() })
            .warnings
            .is_empty());
        let v = assess(&proposal(), &Facts { budget_remaining: None, ..facts() });
        assert_eq!(codes(&v.warnings), vec!["noBudgetLine"]);
        // Already overspent lines warn too.
        let v = assess(&proposal(), &Facts { budget_remaining: Some(Money(-5)), ..facts() });
        assert_eq!(codes(&v.warnings), vec!["budgetNegative"]);
    }

    #[test]
    fn late_submission_warns() {
        // Activity ended 2025-10-01, window 30 days: 2025-10-31 is the last day.
        assert!(assess(&proposal(), &Facts { submitted_on: Some(date("2025-10-31")), ..facts() })
            .warnings
            .is_empty());
        let v = assess(&proposal(), &Facts { submitted_on: Some(date("2025-11-01")), ..facts() });
        assert_eq!(codes(&v.warnings), vec!["lateSubmission"]);
        assert_eq!(
            v.warnings[0].message,
            "Submitted on Nov 1, 2025, after the 30-day submission window that ended Oct 31, 2025 (the activity ended Oct 1, 2025)."
        );
        // The submitter's check is the same rule.
        assert_eq!(
            late_submission(date("2025-11-01"), date("2025-10-01"), 30),
            Some(v.warnings[0].clone())
        );
        assert_eq!(late_submission(date("2025-10-31"), date("2025-10-01"), 30), None);
        // Forms without activity dates have no window.
        assert!(assess(
            &proposal(),
            &Facts { activity_end: None, submitted_on: Some(date("2030-01-01")), ..facts() }
        )
        .warnings
        .is_empty());
        // A huge window does not overflow.
        let f = Facts {
            limits: Limits { submission_window_days: i32::MAX, ..facts().limits },
            ..facts()
        };
        assert!(assess(&proposal(), &f).warnings.is_empty());
    }

    #[test]
    fn duplicates_warn_naming_them() {
        let v = assess(&proposal(), &Facts { duplicates: vec![4, 9], ..facts() });
        assert_eq!(codes(&v.warnings), vec!["likelyDuplicate"]);
        assert!(v.warnings[0].message.contains("4, 9"));
    }

    #[test]
    fn gate_errors_then_warnings() {
        let both = assess(
            &Proposal { approved_amount: Money(0), ..proposal() },
            &Facts { duplicates: vec![2], ..facts() },
        );
        match both.gate(true).unwrap_err() {
            ApiError::Unprocessable { errors, .. } => {
                assert!(errors.contains_key("approvedAmount"));
                assert!(!errors.contains_key("acknowledgeWarnings"));
            }
            other => panic!("{other:?}"),
        }
        let warn = assess(&proposal(), &Facts { duplicates: vec![2], ..facts() });
        match warn.gate(false).unwrap_err() {
            ApiError::Unprocessable { errors, .. } => {
                assert!(errors.contains_key("acknowledgeWarnings"))
            }
            other => panic!("{other:?}"),
        }
        assert!(warn.gate(true).is_ok());
        let unfielded = assess(&proposal(), &Facts { fiscal_year: None, ..facts() });
        assert!(
            matches!(unfielded.gate(true), Err(ApiError::Unprocessable { errors, .. }) if errors.contains_key("approval"))
        );
    }
}
