//! Pure rules of the reference lists: what a new item must look like, and filters.

use super::{
    dto::{RefCreate, RefUpdate},
    fixed::parse_payment_request_type,
    lists::{Extra, RefList},
};
use crate::error::{ApiError, Checks};

pub const MAX_CODE_CHARS: usize = 20;

/// A checked `POST` body.
#[derive(Debug, PartialEq, Eq)]
pub struct NewItem {
    pub name: String,
    pub code: String,
    pub college_ids: Vec<i32>,
    pub payment_request_type: Option<&'static str>,
}

pub fn check_create(list: &RefList, body: &RefCreate) -> Result<NewItem, ApiError> {
    let mut checks = Checks::default();
    let name = checks.name("name", &body.name);
    checks.plain("code", &body.code);
    let code = body.code.trim().to_owned();
    if code.is_empty() {
        checks.add("code", "is required");
    } else if code.chars().count() > MAX_CODE_CHARS {
        checks.add("code", format!("must be at most {MAX_CODE_CHARS} characters"));
    } else if code.chars().any(char::is_whitespace) {
        checks.add("code", "must not contain spaces");
    }
    let mut college_ids = Vec::new();
    match (&body.college_ids, list.extra) {
        (Some(ids), Extra::CollegeIds) => {
            for id in ids {
                if !college_ids.contains(id) {
                    college_ids.push(*id);
                }
            }
        }
        (Some(_), _) => checks.add("collegeIds", "is not accepted by this list"),
        (None, _) => {}
    }
    let payment_request_type = match (&body.payment_request_type, list.extra) {
        (Some(raw), Extra::PaymentRequestType) => parse_payment_request_type(raw).or_else(|| {
            checks.add("paymentRequestType", "must be one of F1..F14");
            None
        }),
        (None, Extra::PaymentRequestType) => {
            checks.add("paymentRequestType", "is required");
            None
        }
        (Some(_), _) => {
            checks.add("paymentRequestType", "is not accepted by this list");
            None
        }
        (None, _) => None,
    };
    checks.finish()?;
    Ok(NewItem { name, code, college_ids, payment_request_type })
}

/// A checked `PUT` body: `None` leaves that part as it is.
#[derive(Debug, PartialEq, Eq)]
pub struct ItemChange {
    pub name: Option<String>,
    pub is_active: Option<bool>,
    pub college_ids: Option<Vec<i32>>,
}

pub fn check_update(list: &RefList, body: &RefUpdate) -> Result<ItemChange, ApiError> {
    let mut checks = Checks::default();
    let name = body.name.as_deref().map(|n| checks.name("name", n));
    let college_ids = match (&body.college_ids, list.extra) {
        (Some(ids), Extra::CollegeIds) => {
            let mut unique = Vec::with_capacity(ids.len());
            for id in ids {
                if !unique.contains(id) {
                    unique.push(*id);
                }
            }
            Some(unique)
        }
        (Some(_), _) => {
            checks.add("collegeIds", "is not accepted by this list");
            None
        }
        (None, _) => None,
    };
    if name.is_none() && body.is_active.is_none() && college_ids.is_none() {
        checks.add("name", "give a new name, isActive or collegeIds: nothing would change");
    }
    checks.finish()?;
    Ok(ItemChange { name, is_active: body.is_active, college_ids })
}

/// The `PaymentRequestType` filter, checked.
pub fn type_filter(raw: Option<&str>) -> Result<Option<&'static str>, ApiError> {
    match raw.map(str::trim).filter(|r| !r.is_empty()) {
        None => Ok(None),
        Some(r) => parse_payment_request_type(r)
            .map(Some)
            .ok_or_else(|| ApiError::bad_field("PaymentRequestType", "must be one of F1..F14")),
    }
}

/// A LIKE pattern matching `part` anywhere, with `\` escaping the wildcards; lower-cased
/// so that comparing with a lower-cased column is case-insensitive on every backend.
pub fn contains_pattern(part: &str) -> String {
    let mut out = String::with_capacity(part.len() + 2);
    out.push('%');
    for c in part.trim().to_lowercase().chars() {
        if matches!(c, '%' | '_' | '\\') {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('%');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reference::lists::LISTS;

    fn list(path: &str) -> &'static RefList {
        LISTS.iter().find(|l| l.path == path).unwrap()
    }

    fn body(name: &str, code: &str) -> RefCreate {
        RefCreate {
            name: name.into(),
            code: code.into(),
            college_ids: None,
            payment_request_type: None,
        }
    }

    #[test]
    fn names_and_codes_are_trimmed_and_required() {
        let item = check_create(list("/funds"), &body(" General ", " GF ")).unwrap();
        assert_eq!((item.name.as_str(), item.code.as_str()), ("General", "GF"));
        for (name, code, field) in [
            ("", "GF", "name"),
            ("Fund", " ", "code"),
            ("Fund", "A B", "code"),
            ("Fund", &"X".repeat(21), "code"),
        ] {
            match check_create(list("/funds"), &body(name, code)).unwrap_err() {
                ApiError::BadRequest { errors, .. } => {
                    assert!(errors.contains_key(field), "{errors:?}")
                }
                other => panic!("{other:?}"),
            }
        }
    }

    #[test]
    fn college_ids_only_for_programs() {
        let b = RefCreate { college_ids: Some(vec![3, 3, 1]), ..body("P", "P") };
        assert_eq!(check_create(list("/mentor-programs"), &b).unwrap().college_ids, [3, 1]);
        assert!(check_create(list("/funds"), &b).is_err());
    }

    #[test]
    fn approval_codes_need_a_form_type() {
        let l = list("/approval-codes");
        assert!(check_create(l, &body("A", "A")).is_err());
        let b = RefCreate { payment_request_type: Some("f3".into()), ..body("A", "A") };
        assert_eq!(check_create(l, &b).unwrap().payment_request_type, Some("F3"));
        let b = RefCreate { payment_request_type: Some("F99".into()), ..body("A", "A") };
        assert!(check_create(l, &b).is_err());
        let b = RefCreate { payment_request_type: Some("F3".into()), ..body("A", "A") };
        assert!(check_create(list("/funds"), &b).is_err());
    }

    #[test]
    fn updates_rename_deactivate_and_relink() {
        let change = check_update(
            list("/funds"),
            &RefUpdate { name: Some(" New name ".into()), ..Default::default() },
        )
        .unwrap();
        assert_eq!(
            change,
            ItemChange { name: Some("New name".into()), is_active: None, college_ids: None }
        );
        let change = check_update(
            list("/funds"),
            &RefUpdate { is_active: Some(false), ..Default::default() },
        )
        .unwrap();
        assert_eq!(change.is_active, Some(false));
        let b = RefUpdate { college_ids: Some(vec![2, 2, 5]), ..Default::default() };
        assert_eq!(
            check_update(list("/mentor-programs"), &b).unwrap().college_ids,
            Some(vec![2, 5])
        );
        for (l, bad) in [
            ("/funds", RefUpdate::default()),
            ("/funds", RefUpdate { name: Some("  ".into()), ..Default::default() }),
            ("/expense-accounts", RefUpdate { college_ids: Some(vec![1]), ..Default::default() }),
        ] {
            assert!(
                matches!(check_update(list(l), &bad), Err(ApiError::BadRequest { .. })),
                "{bad:?}"
            );
        }
    }

    #[test]
    fn type_filters() {
        assert_eq!(type_filter(None).unwrap(), None);
        assert_eq!(type_filter(Some("")).unwrap(), None);
        assert_eq!(type_filter(Some("f2")).unwrap(), Some("F2"));
        assert!(type_filter(Some("X")).is_err());
    }

    #[test]
    fn like_patterns_escape_wildcards() {
        assert_eq!(contains_pattern(" Bay "), "%bay%");
        assert_eq!(contains_pattern("50%_a\\"), "%50\\%\\_a\\\\%");
    }
}
