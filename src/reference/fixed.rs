//! Lists defined in code rather than tables: the payment-request form types (from the form
//! catalogue) and the participant enumerations, served through the same generic reference calls.

use super::dto::RefItem;
use crate::forms::FormType;

macro_rules! wire_enum {
    ($(#[$doc:meta])* $name:ident { $($variant:ident => $code:literal / $label:literal,)* }) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub enum $name { $($variant,)* }

        impl $name {
            pub const ALL: &'static [$name] = &[$($name::$variant,)*];

            /// The wire value.
            pub const fn code(self) -> &'static str {
                match self { $($name::$variant => $code,)* }
            }

            pub const fn label(self) -> &'static str {
                match self { $($name::$variant => $label,)* }
            }

            /// Case-insensitive; None for unknown values.
            pub fn parse(raw: &str) -> Option<Self> {
                Self::ALL.iter().copied().find(|v| v.code().eq_ignore_ascii_case(raw.trim()))
            }

            pub fn codes() -> String {
                Self::ALL.iter().map(|v| v.code()).collect::<Vec<_>>().join(", ")
            }

            /// The values in words, for messages a clerk reads ("Director mentor", not
            /// `DirectorMentor`); the API's schema lists the codes.
            pub fn labels() -> String {
                Self::ALL.iter().map(|v| v.label()).collect::<Vec<_>>().join(", ")
            }
        }

        /// The wire codes as an OpenAPI enum (the fields stay text).
        impl utoipa::PartialSchema for $name {
            fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
                crate::web::string_enum(Self::ALL.iter().map(|v| v.code()))
            }
        }

        impl utoipa::ToSchema for $name {}
    };
}

wire_enum!(
    /// A participant's role (and a participation's role in its program).
    ParticipantRole {
        Mentor => "Mentor" / "Mentor",
        DirectorMentor => "DirectorMentor" / "Director mentor",
        Coordinator => "Coordinator" / "Coordinator",
        Administrator => "Administrator" / "Administrator",
    }
);

wire_enum!(
    ParticipantStatus {
        Active => "Active" / "Active",
        Inactive => "Inactive" / "Inactive",
        Pending => "Pending" / "Pending",
    }
);

wire_enum!(
    /// Which set of California legislative districts `districtId` counts in.
    DistrictSetType {
        Assembly => "Assembly" / "Assembly",
        Senate => "Senate" / "Senate",
        Congressional => "Congressional" / "Congressional",
    }
);

impl DistrictSetType {
    /// California has 80 Assembly, 40 Senate and 52 Congressional districts.
    pub const fn max_district(self) -> i32 {
        match self {
            Self::Assembly => 80,
            Self::Senate => 40,
            Self::Congressional => 52,
        }
    }
}

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
        })
        .collect()
}

pub fn payment_request_types() -> Vec<RefItem> {
    numbered(FormType::ALL.map(|f| (f.as_str(), f.name())))
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
