//! The closed sets stored as text: each column holds the code, the entity field holds the
//! enum (sea-orm reads and writes the code), so a value is parsed once, where it comes in.
//! Their rules live with their areas (`payment_requests::workflow`, `forms`, `participants`).

use sea_orm::{DeriveActiveEnum, EnumIter};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

// The form catalogue (`forms`) says what each form is; its tables match on every variant, so a
// form added here and not there does not compile.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[derive(Serialize, Deserialize, ToSchema, EnumIter, DeriveActiveEnum)]
#[sea_orm(rs_type = "String", db_type = "Text", rename_all = "PascalCase")]
pub enum FormType {
    F1,
    F2,
    F3,
    F4,
    F5,
    F6,
    F7,
    F8,
    F9,
    F10,
    F11,
    F12,
    F13,
    F14,
}

impl FormType {
    pub const COUNT: usize = 14;
    pub const ALL: [FormType; FormType::COUNT] = {
        use FormType::*;
        [F1, F2, F3, F4, F5, F6, F7, F8, F9, F10, F11, F12, F13, F14]
    };

    pub const fn as_str(self) -> &'static str {
        match self {
            FormType::F1 => "F1",
            FormType::F2 => "F2",
            FormType::F3 => "F3",
            FormType::F4 => "F4",
            FormType::F5 => "F5",
            FormType::F6 => "F6",
            FormType::F7 => "F7",
            FormType::F8 => "F8",
            FormType::F9 => "F9",
            FormType::F10 => "F10",
            FormType::F11 => "F11",
            FormType::F12 => "F12",
            FormType::F13 => "F13",
            FormType::F14 => "F14",
        }
    }

    /// `F3` or `f3`.
    pub fn parse(text: &str) -> Option<FormType> {
        FormType::ALL.into_iter().find(|f| f.as_str().eq_ignore_ascii_case(text.trim()))
    }
}

// A payment request's status; the workflow (`payment_requests::workflow`) says how it moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[derive(Serialize, Deserialize, ToSchema, EnumIter, DeriveActiveEnum)]
#[sea_orm(rs_type = "String", db_type = "Text", rename_all = "PascalCase")]
pub enum Status {
    Draft,
    Submitted,
    RevisionRequested,
    Approved,
    ReadyForProcessing,
    Processed,
}

impl Status {
    pub const ALL: [Status; 6] = [
        Status::Draft,
        Status::Submitted,
        Status::RevisionRequested,
        Status::Approved,
        Status::ReadyForProcessing,
        Status::Processed,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Status::Draft => "Draft",
            Status::Submitted => "Submitted",
            Status::RevisionRequested => "RevisionRequested",
            Status::Approved => "Approved",
            Status::ReadyForProcessing => "ReadyForProcessing",
            Status::Processed => "Processed",
        }
    }

    /// In words, as people read it (screens, files, e-mails); the code stays on the wire.
    pub const fn label(self) -> &'static str {
        match self {
            Status::Draft => "Draft",
            Status::Submitted => "Submitted",
            Status::RevisionRequested => "Revision requested",
            Status::Approved => "Approved",
            Status::ReadyForProcessing => "Ready for processing",
            Status::Processed => "Processed",
        }
    }

    /// Every code with its label.
    pub const LABELLED: &'static [(&'static str, &'static str)] = &[
        ("Draft", "Draft"),
        ("Submitted", "Submitted"),
        ("RevisionRequested", "Revision requested"),
        ("Approved", "Approved"),
        ("ReadyForProcessing", "Ready for processing"),
        ("Processed", "Processed"),
    ];

    /// Any case (query filters).
    pub fn parse(text: &str) -> Option<Status> {
        Status::ALL.into_iter().find(|s| s.as_str().eq_ignore_ascii_case(text))
    }
}

macro_rules! wire_enum {
    ($(#[$doc:meta])* $name:ident { $($variant:ident => $code:literal / $label:literal,)* }) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, sea_orm::EnumIter, sea_orm::DeriveActiveEnum)]
        #[sea_orm(rs_type = "String", db_type = "Text")]
        pub enum $name { $(#[sea_orm(string_value = $code)] $variant,)* }

        impl $name {
            pub const ALL: &'static [$name] = &[$($name::$variant,)*];

            /// Every code with its label.
            pub const LABELLED: &'static [(&'static str, &'static str)] = &[$(($code, $label),)*];

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

        /// As its wire code (activity entries name it so).
        impl serde::Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(self.code())
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

/// How a user hears of work waiting for them: a mail at once, one digest a day, or nothing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[derive(Serialize, Deserialize, ToSchema, EnumIter, DeriveActiveEnum)]
#[sea_orm(rs_type = "String", db_type = "Text", rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub enum NotificationMode {
    #[default]
    Instant,
    Daily,
    Off,
}

/// Where an outbox mail stands: waiting (also between retries), being sent by a worker that
/// claimed it, accepted by the relay (or written to the log), or refused for good.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[derive(Serialize, Deserialize, ToSchema, EnumIter, DeriveActiveEnum)]
#[sea_orm(rs_type = "String", db_type = "Text", rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub enum OutboxStatus {
    Pending,
    Sending,
    Sent,
    Failed,
}

#[cfg(test)]
mod tests {
    use sea_orm::ActiveEnum;

    use super::*;

    /// The stored strings are the codes the rows already hold: no data migration.
    #[test]
    fn every_value_is_stored_as_its_code() {
        for f in FormType::ALL {
            assert_eq!(f.to_value(), f.as_str());
            assert_eq!(FormType::try_from_value(&f.as_str().to_owned()).unwrap(), f);
        }
        for s in Status::ALL {
            assert_eq!(s.to_value(), s.as_str());
            assert!(Status::LABELLED.contains(&(s.as_str(), s.label())), "{s:?}");
        }
        assert_eq!(Status::LABELLED.len(), Status::ALL.len());
        for r in ParticipantRole::ALL {
            assert_eq!(r.to_value(), r.code());
        }
        for s in ParticipantStatus::ALL {
            assert_eq!(s.to_value(), s.code());
        }
        for d in DistrictSetType::ALL {
            assert_eq!(d.to_value(), d.code());
        }
        assert!(Status::try_from_value(&"draft".to_owned()).is_err(), "stored text is exact");
    }
}
