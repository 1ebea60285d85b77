//! Wire shapes of the participant import, camelCase.

use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use super::rules::{Outcome, RowError};

#[derive(Debug, Deserialize, IntoParams)]
#[serde(rename_all = "lowercase")]
#[into_params(parameter_in = Query)]
pub struct ImportQuery {
    /// `true` (the default): report what would happen and write nothing.
    #[param(rename = "DryRun")]
    pub dryrun: Option<bool>,
}

#[derive(Debug, Deserialize, IntoParams)]
#[serde(rename_all = "lowercase")]
#[into_params(parameter_in = Query)]
pub struct TemplateQuery {
    /// `Csv` (the default) or `Xlsx`, any case.
    #[param(rename = "ReportFormat", value_type = Option<String>)]
    pub reportformat: Option<String>,
}

/// The multipart body: one field `file`.
#[derive(Debug, ToSchema)]
#[allow(dead_code)] // describes the upload for the OpenAPI document
pub struct ImportUpload {
    /// CSV (UTF-8, with or without a byte-order mark) or XLSX, at most 10 MB and 10,000 rows.
    #[schema(value_type = String, format = Binary)]
    pub file: Vec<u8>,
}

/// One row that passed its checks, and what it does.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ImportItem {
    pub row: usize,
    pub email: String,
    pub full_name: String,
    pub outcome: Outcome,
}

/// What an import did (or, on a dry run, would do).
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ImportReport {
    /// Data rows read (blank rows left out).
    pub rows: usize,
    pub created: usize,
    pub updated: usize,
    pub unchanged: usize,
    /// Every problem, by row and column; a real run with any writes nothing (422).
    pub errors: Vec<RowError>,
    /// Every row without errors, in sheet order.
    pub items: Vec<ImportItem>,
    pub dry_run: bool,
}
