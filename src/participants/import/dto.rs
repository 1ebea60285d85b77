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
    #[param(rename = "ReportFormat", value_type = Option<TemplateFormat>, inline)]
    pub reportformat: Option<String>,
}

/// The template's formats as the document lists them (any case parses).
pub struct TemplateFormat;

impl utoipa::PartialSchema for TemplateFormat {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        crate::web::string_enum(["Csv", "Xlsx"])
    }
}

impl utoipa::ToSchema for TemplateFormat {}

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

/// The 422 answers of an import, as the document describes them: a real run refused for its
/// rows carries the report; a file the import cannot read (not CSV or XLSX, no rows, unknown
/// columns) is a problem naming `file`. Only describes the answer; never built.
#[derive(Serialize, ToSchema)]
#[serde(untagged)]
#[allow(dead_code)]
pub enum ImportRefusal {
    Report(ImportReport),
    Problem(crate::error::ProblemBody),
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
