//! Pure budget rules: line totals, the search filter and the bulk-update check.

use std::collections::HashSet;

use crate::{entities::codes::Status, error::ApiError, error::Checks, money::Money};

/// What is left of a line (or a total): negative when approvals overspend it.
pub fn remaining(budgeted: i64, approved: i64) -> i64 {
    budgeted - approved
}

/// (budgeted, approved) summed over lines.
pub fn totals(lines: impl IntoIterator<Item = (i64, i64)>) -> (i64, i64) {
    lines.into_iter().fold((0, 0), |(b, a), (lb, la)| (b + lb, a + la))
}

/// `GET /budgets?query=`: fiscal year names containing the text, any case; blank = all.
pub fn name_matches(name: &str, query: Option<&str>) -> bool {
    match query.map(str::trim).filter(|q| !q.is_empty()) {
        None => true,
        Some(q) => name.to_lowercase().contains(&q.to_lowercase()),
    }
}

pub fn check_amount(field: &str, amount: Money) -> Result<i64, ApiError> {
    if amount.cents() < 0 {
        return Err(ApiError::bad_field(field, "must not be negative"));
    }
    Ok(amount.cents())
}

/// A roll-over's percent change in hundredths of a percent: from -100 % (every amount zero)
/// to +1000 %.
pub fn check_percent_change(hundredths: i64) -> Result<i64, ApiError> {
    if !(-10_000..=100_000).contains(&hundredths) {
        return Err(ApiError::bad_field("percentChange", "must be between -100 and 1000"));
    }
    Ok(hundredths)
}

/// The amounts of a roll-over: each source amount changed by the percentage, rounded per
/// line; `None` when one overflows the largest amount.
pub fn rolled_over(amounts: &[i64], percent_hundredths: i64) -> Option<Vec<i64>> {
    amounts
        .iter()
        .map(|&cents| {
            Money(cents)
                .changed_by_percent(percent_hundredths)
                .map(Money::cents)
                .filter(|c| *c <= crate::money::MAX_CENTS)
        })
        .collect()
}

/// One line of a bulk update, as sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LineKey {
    pub mentor_program_id: i32,
    pub fund_id: i32,
    pub expense_account_id: i32,
}

/// The ids that exist, per reference list.
#[derive(Debug, Default)]
pub struct KnownIds {
    pub mentor_programs: HashSet<i32>,
    pub funds: HashSet<i32>,
    pub expense_accounts: HashSet<i32>,
}

/// Every line names existing ids, a non-negative amount, and appears once; errors are
/// named `lines[3].fundId`. Returns the amounts in cents, in order.
pub fn check_bulk(lines: &[(LineKey, Money)], known: &KnownIds) -> Result<Vec<i64>, ApiError> {
    let mut c = Checks::default();
    let mut seen: Vec<LineKey> = Vec::with_capacity(lines.len());
    let mut amounts = Vec::with_capacity(lines.len());
    for (i, (key, amount)) in lines.iter().enumerate() {
        let field = |name: &str| format!("lines[{i}].{name}");
        if !known.mentor_programs.contains(&key.mentor_program_id) {
            c.add(
                field("mentorProgramId"),
                format!("no mentor program has id {}", key.mentor_program_id),
            );
        }
        if !known.funds.contains(&key.fund_id) {
            c.add(field("fundId"), format!("no fund has id {}", key.fund_id));
        }
        if !known.expense_accounts.contains(&key.expense_account_id) {
            c.add(
                field("expenseAccountId"),
                format!("no expense account has id {}", key.expense_account_id),
            );
        }
        if amount.cents() < 0 {
            c.add(field("amount"), "must not be negative");
        }
        if let Some(first) = seen.iter().position(|k| k == key) {
            c.add(
                format!("lines[{i}]"),
                format!("repeats lines[{first}] (same program, fund and expense account)"),
            );
        }
        seen.push(*key);
        amounts.push(amount.cents());
    }
    // Every one of these is about stored data or the other lines: rules, 422.
    c.finish_rules()?;
    Ok(amounts)
}

/// What closing a fiscal year does to its requests of `status`, in words (what a closed year
/// refuses is `payment_requests::workflow::in_year`); `None` for a paid request, which nothing
/// changes.
pub fn after_close(status: Status) -> Option<&'static str> {
    Some(match status {
        Status::Draft => "They stay drafts: they can be deleted, not edited or submitted.",
        Status::Submitted => {
            "They cannot be approved or edited; they can still be sent back for revision or moved to Draft."
        }
        Status::RevisionRequested => {
            "They cannot be edited or submitted again; they can still be moved to Draft."
        }
        Status::Approved => {
            "Their approval stands and cannot be moved back; they can still be made ready for processing and paid."
        }
        Status::ReadyForProcessing => "They are still paid by the next vendor payment.",
        Status::Processed => return None,
    })
}

/// What closing the year `name` with `open` requests not yet paid does, in one sentence.
pub fn close_summary(name: &str, open: i64) -> String {
    match open {
        0 => format!("Every request charged to {name} is paid: closing it leaves nothing waiting."),
        1 => format!("1 request charged to {name} is not paid yet. Closing the year keeps it as it is, and nothing more can be approved, edited, submitted or moved back in {name} until it is reopened."),
        n => format!("{n} requests charged to {name} are not paid yet. Closing the year keeps them as they are, and nothing more can be approved, edited, submitted or moved back in {name} until it is reopened."),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn remaining_and_totals() {
        assert_eq!(remaining(10_000, 2_500), 7_500);
        assert_eq!(remaining(0, 0), 0);
        assert_eq!(remaining(1_000, 1_500), -500, "overspending shows as negative");
        assert_eq!(totals([(100, 10), (250, 0), (0, 5)]), (350, 15));
        assert_eq!(totals([]), (0, 0));
    }

    #[test]
    fn closing_says_what_happens_to_every_status_but_paid() {
        use crate::payment_requests::workflow::{available, in_year};
        for status in Status::ALL {
            let refused = available(status, |_| true).len()
                > in_year(available(status, |_| true), true).len();
            match after_close(status) {
                None => assert_eq!(status, Status::Processed),
                Some(words) => assert_eq!(
                    refused,
                    words.contains("cannot") || words.contains("not edited"),
                    "{status:?}: {words}"
                ),
            }
        }
    }

    #[test]
    fn search_by_name() {
        assert!(name_matches("FY 2025-26", None));
        assert!(name_matches("FY 2025-26", Some("  ")));
        assert!(name_matches("FY 2025-26", Some("fy 2025")));
        assert!(name_matches("FY 2025-26", Some("-26")));
        assert!(!name_matches("FY 2025-26", Some("2027")));
    }

    #[test]
    fn roll_over_rounds_each_line() {
        assert!(check_percent_change(-10_000).is_ok());
        assert!(check_percent_change(100_000).is_ok());
        assert!(check_percent_change(-10_001).is_err());
        assert!(check_percent_change(100_001).is_err());
        // Three lines of $0.50 raised by 5 %: each is $0.525 -> $0.53 (total $1.59, not $1.58).
        assert_eq!(rolled_over(&[50, 50, 50], 500).unwrap(), [53, 53, 53]);
        assert_eq!(rolled_over(&[12_345, 0], 0).unwrap(), [12_345, 0]);
        assert_eq!(rolled_over(&[12_345], -10_000).unwrap(), [0]);
        assert!(rolled_over(&[crate::money::MAX_CENTS], 100).is_none());
    }

    #[test]
    fn amounts() {
        assert_eq!(check_amount("amount", Money(0)).unwrap(), 0);
        assert_eq!(check_amount("amount", Money(12_345)).unwrap(), 12_345);
        assert!(check_amount("amount", Money(-1)).is_err());
    }

    fn key(mp: i32, f: i32, ea: i32) -> LineKey {
        LineKey { mentor_program_id: mp, fund_id: f, expense_account_id: ea }
    }

    fn known() -> KnownIds {
        KnownIds {
            mentor_programs: [1, 2].into(),
            funds: [10].into(),
            expense_accounts: [100, 101].into(),
        }
    }

    #[test]
    fn bulk_lines() {
        let ok = [(key(1, 10, 100), Money(500)), (key(2, 10, 101), Money(0))];
        assert_eq!(check_bulk(&ok, &known()).unwrap(), [500, 0]);
        assert!(check_bulk(&[], &known()).unwrap().is_empty());

        let bad = [
            (key(1, 10, 100), Money(1)),
            (key(9, 10, 100), Money(1)),
            (key(1, 11, 100), Money(1)),
            (key(1, 10, 102), Money(-1)),
            (key(1, 10, 100), Money(2)),
        ];
        // Unknown ids, repeats and amounts are rules on stored data and other lines: 422.
        match check_bulk(&bad, &known()).unwrap_err() {
            ApiError::Unprocessable { errors, .. } => {
                let names: Vec<&str> = errors.keys().map(String::as_str).collect();
                assert_eq!(
                    names,
                    [
                        "lines[1].mentorProgramId",
                        "lines[2].fundId",
                        "lines[3].amount",
                        "lines[3].expenseAccountId",
                        "lines[4]"
                    ]
                );
                assert!(errors["lines[4]"][0].contains("lines[0]"));
            }
            other => panic!("{other:?}"),
        }
    }
}
