//! OpenAPI paths of the view + export pairs, generated from the same `ReportInfo`s the
//! routes and the catalogue come from (the handlers are generic, so they carry no
//! `#[utoipa::path]` of their own). Each parameter's schema is the one derived on
//! [`ReportQuery`] (bounds, enums, formats), narrowed per report: only the filters it
//! reads, `SortBy` among its sortable columns, `ReportFormat` required on exports.

use utoipa::{
    openapi::{
        path::{HttpMethod, OperationBuilder, Parameter, ParameterIn},
        security::SecurityRequirement,
        ContentBuilder, ObjectBuilder, Ref, Required, ResponseBuilder, Type,
    },
    IntoParams, Modify,
};

use super::{catalogue::ReportInfo, query::ReportQuery, runner::RowReport};
use crate::routes::{json_response, problem};

pub struct ReportPaths;

/// The derived parameter `name` of [`ReportQuery`].
fn param(all: &[Parameter], name: &str) -> Parameter {
    all.iter()
        .find(|p| p.name == name)
        .cloned()
        .unwrap_or_else(|| panic!("ReportQuery has no parameter {name}"))
}

/// `SortBy` as the report checks it: one of its sortable keys (any case; empty = default).
fn sort_by(all: &[Parameter], sortable: &[&str]) -> Parameter {
    let mut p = param(all, "SortBy");
    p.schema = Some(crate::web::string_enum(sortable.iter().copied()));
    p.description = Some(format!("One of: {}", sortable.join(", ")));
    p
}

/// `CustomColumnSetToInclude`: a comma list of the report's column keys.
fn column_set(all: &[Parameter], keys: &[String]) -> Parameter {
    let mut p = param(all, "CustomColumnSetToInclude");
    let key = format!("({})", keys.join("|"));
    p.schema = Some(
        ObjectBuilder::new()
            .schema_type(Type::String)
            .pattern(Some(format!("^ *{key} *(, *{key} *)*$")))
            .into(),
    );
    p
}

/// What a report's view and export share: tag, security, the refusals, its filters and sort.
// A plain function, not a closure called twice: the release build (thin LTO, rustc 1.95)
// miscompiled that closure into a builder that reused the first call's freed tag list
// (double free on GET /api/v1/openapi.json; debug builds were fine).
fn common(info: &ReportInfo, all: &[Parameter]) -> OperationBuilder {
    let mut op = OperationBuilder::new()
        .tag("reports")
        .security(SecurityRequirement::new("bearer", Vec::<String>::new()))
        .response(
            "400",
            problem("A parameter that does not parse or is out of its range, naming it"),
        )
        .response("401", problem("No valid access token"))
        .response("403", problem(&format!("Without `{}`", info.permission.code())));
    if info.filters.contains(&"EndDate") {
        op = op.response("422", problem("EndDate before StartDate"));
    }
    for f in info.filters {
        op = op.parameter(param(all, f));
    }
    op.parameter(param(all, "MinutesOffset"))
        .parameter(sort_by(all, info.sortable))
        .parameter(param(all, "SortDescending"))
}

impl Modify for ReportPaths {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let all = ReportQuery::into_params(|| Some(ParameterIn::Query));
        // "E-mail these participants" reads the participants report's filters, nothing else.
        if let Some(op) = openapi
            .paths
            .paths
            .get_mut("/api/v1/reports/participants/emails")
            .and_then(|item| item.get.as_mut())
        {
            let names =
                super::participants::Participants::INFO.filters.iter().chain(&["MinutesOffset"]);
            op.parameters = Some(names.map(|n| param(&all, n)).collect());
        }
        for (info, columns) in
            super::all().into_iter().filter(|(info, _)| super::SERVED_BY_RUNNER.contains(&info.key))
        {
            let view = common(&info, &all)
                .operation_id(Some(format!("report_{}", info.key.replace('-', "_"))))
                .summary(Some(format!("{}: one page with totals over every row", info.title)))
                .parameter(param(&all, "Page"))
                .parameter(param(&all, "Size"))
                .response(
                    "200",
                    json_response(info.description, Ref::from_schema_name("ReportPage")),
                );
            openapi.paths.add_path_operation(
                format!("/api/v1{}", info.path),
                vec![HttpMethod::Get],
                view.build(),
            );
            let mut format = param(&all, "ReportFormat");
            format.required = Required::True;
            let export = common(&info, &all)
                .operation_id(Some(format!("report_{}_retrieve", info.key.replace('-', "_"))))
                .summary(Some(format!("{}: every row as CSV, XLSX or PDF, streamed", info.title)))
                .parameter(format)
                .response("200", ResponseBuilder::new().description("The file, with Content-Disposition: attachment; filename=\"<report>-<YYYY-MM-DD>.<ext>\"").build());
            let export = if info.key == super::participants::Participants::INFO.key {
                let keys: Vec<String> = columns.iter().map(|c| c.key.to_string()).collect();
                export.parameter(column_set(&all, &keys))
            } else {
                export
            };
            openapi.paths.add_path_operation(
                format!("/api/v1{}/retrieve", info.path),
                vec![HttpMethod::Get],
                export.build(),
            );
        }
    }
}

/// Every export (`…/retrieve`) answers 200 with a file in one of the formats' content types;
/// documented once here for all of them, whichever module declares the route.
pub struct ExportFiles;

impl Modify for ExportFiles {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        use super::export::Format;
        for (path, item) in
            openapi.paths.paths.iter_mut().filter(|(path, _)| {
                path.starts_with("/api/v1/reports/") && path.ends_with("/retrieve")
            })
        {
            let Some(ok) = item.get.as_mut().and_then(|op| op.responses.responses.get_mut("200"))
            else {
                continue;
            };
            let utoipa::openapi::RefOr::T(ok) = ok else {
                panic!("{path}: the export's 200 is a reference")
            };
            ok.content.clear();
            for format in [Format::Csv, Format::Xlsx, Format::Pdf] {
                let media =
                    format.content_type().split(';').next().unwrap_or_default().trim().to_owned();
                let file = ObjectBuilder::new().schema_type(Type::String).format(Some(
                    utoipa::openapi::SchemaFormat::KnownFormat(
                        utoipa::openapi::KnownFormat::Binary,
                    ),
                ));
                ok.content.insert(media, ContentBuilder::new().schema(Some(file)).build());
            }
        }
    }
}
