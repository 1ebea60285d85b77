//! An approval code, valid for one payment request type (`F1`..`F14`).

use super::codes::FormType;

reference_entity!("approval_codes" { pub payment_request_type: FormType, });
