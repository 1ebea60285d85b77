//! Lists defined in code rather than tables: the payment-request form types (from the form
//! catalogue, with each form's rules) and the participant enumerations, served through the
//! same generic reference calls.

use super::dto::RefItem;
pub use crate::entities::codes::{DistrictSetType, ParticipantRole, ParticipantStatus};
use crate::forms::FormType;

/// `F1`..`F14` in canonical spelling, or None.
pub fn parse_payment_request_type(raw: &str) -> Option<&'static str> {
    FormType::parse(raw).map(FormType::as_str)
}

/// Items numbered from 1 in the given order; `code` is the wire value.
fn numbered(pairs: impl IntoIterator<Item = (&'static str, &'static str)>) -> Vec<RefItem> {
    pairs
        .into_iter()
        .enumerate()
        .map(|(i, (code, name))| RefItem {
            id: i as i32 + 1,
            name: name.to_owned(),
            code: Some(code.to_owned()),
            is_active: true,
            payment_request_type: None,
            form: None,
        })
        .collect()
}

/// The forms with their rules: the UI's form pages read them instead of repeating them.
pub fn payment_request_types() -> Vec<RefItem> {
    let mut items = numbered(FormType::ALL.map(|f| (f.as_str(), f.name())));
    for (item, form) in items.iter_mut().zip(FormType::ALL) {
        item.form = Some(form.rules());
    }
    items
}

pub fn participant_roles() -> Vec<RefItem> {
    numbered(ParticipantRole::ALL.iter().map(|r| (r.code(), r.label())))
}

pub fn participant_statuses() -> Vec<RefItem> {
    numbered(ParticipantStatus::ALL.iter().map(|s| (s.code(), s.code())))
}

pub fn district_set_types() -> Vec<RefItem> {
    numbered(DistrictSetType::ALL.iter().map(|d| (d.code(), d.code())))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fourteen_form_types() {
        let items = payment_request_types();
        assert_eq!(items.len(), 14);
        assert_eq!(items[0].code.as_deref(), Some("F1"));
        assert_eq!(items[13].name, "Completion bonus");
        assert_eq!(items[13].id, 14);
    }

    /// The UI's unit tests read the form rules from a copy of this list; it must not drift.
    #[test]
    fn the_frontend_copy_is_the_served_catalogue() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/frontend/src/test/formTypes.json");
        let served = serde_json::to_value(payment_request_types()).unwrap();
        let copy: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(path).unwrap_or_default())
                .unwrap_or_default();
        assert!(
            copy == served,
            "{path} differs from the served form types; write there:\n{}",
            serde_json::to_string_pretty(&served).unwrap()
        );
    }

    #[test]
    fn form_types_parse_case_insensitively() {
        assert_eq!(parse_payment_request_type(" f10 "), Some("F10"));
        for bad in ["F0", "F15", "", "10", "F1x"] {
            assert_eq!(parse_payment_request_type(bad), None, "{bad}");
        }
    }

    #[test]
    fn participant_enums() {
        let roles: Vec<_> = participant_roles().into_iter().map(|r| r.code.unwrap()).collect();
        assert_eq!(roles, ["Mentor", "DirectorMentor", "Coordinator", "Administrator"]);
        assert_eq!(participant_statuses().len(), 3);
        assert_eq!(district_set_types()[2].code.as_deref(), Some("Congressional"));
    }
}
