//! What each report is (key, title, permission, filters, sort, totals), and the cards
//! `GET /reports` lists (`catalogue_api`).

use std::collections::BTreeMap;

use serde::Serialize;
use utoipa::ToSchema;

use super::export::{Column, Kind};
use crate::auth::Permission;

/// Every report card `GET /reports` lists, in display order: this area's reports, then the
/// cards of the areas above it (which the app hands in, so the reports name none of them).
pub struct Catalogue(pub Vec<(ReportInfo, Vec<Column>)>);

impl Catalogue {
    pub fn with(more: Vec<(ReportInfo, Vec<Column>)>) -> Catalogue {
        Catalogue(super::all().into_iter().chain(more).collect())
    }
}

/// A report's description, declared once in its module.
#[derive(Debug, Clone, Copy)]
pub struct ReportInfo {
    /// Catalogue key and export file stem.
    pub key: &'static str,
    pub title: &'static str,
    pub description: &'static str,
    /// The UI route of the report's screen.
    pub route: &'static str,
    /// The API path under /api/v1 (the view; exports add `/retrieve`).
    pub path: &'static str,
    pub permission: Permission,
    /// The query names it understands.
    pub filters: &'static [&'static str],
    /// Column keys `SortBy` accepts.
    pub sortable: &'static [&'static str],
    /// (`SortBy`, `SortDescending`) without parameters.
    pub default_sort: (&'static str, bool),
    /// Column keys with a total.
    pub totals: &'static [&'static str],
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CatalogueColumn {
    pub key: String,
    pub header: String,
    pub kind: Kind,
    pub sortable: bool,
    /// For a column of codes (statuses, roles, district types): each code's label, what
    /// screens show and files print; the rows carry the code.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<std::collections::BTreeMap<String, String>>)]
    pub labels: Option<BTreeMap<&'static str, &'static str>>,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DefaultSort {
    pub sort_by: &'static str,
    pub sort_descending: bool,
}

/// One card of the /reports screen.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CatalogueEntry {
    pub key: &'static str,
    pub title: &'static str,
    pub description: &'static str,
    pub route: &'static str,
    /// `/api/v1/reports/...`
    pub path: String,
    pub permission: &'static str,
    pub filters: &'static [&'static str],
    pub formats: Vec<&'static str>,
    pub columns: Vec<CatalogueColumn>,
    pub totals: &'static [&'static str],
    pub default_sort: DefaultSort,
}

pub fn entry(info: &ReportInfo, columns: Vec<Column>) -> CatalogueEntry {
    CatalogueEntry {
        key: info.key,
        title: info.title,
        description: info.description,
        route: info.route,
        path: format!("/api/v1{}", info.path),
        permission: info.permission.code(),
        filters: info.filters,
        formats: vec!["Csv", "Xlsx", "Pdf"],
        columns: columns
            .into_iter()
            .map(|c| CatalogueColumn {
                sortable: info.sortable.contains(&c.key.as_ref()),
                key: c.key.into_owned(),
                header: c.header.into_owned(),
                kind: c.kind,
                labels: c.labels.map(|l| l.iter().copied().collect()),
            })
            .collect(),
        totals: info.totals,
        default_sort: DefaultSort {
            sort_by: info.default_sort.0,
            sort_descending: info.default_sort.1,
        },
    }
}
