//! OpenAPI paths of the view + export pairs, generated from the same `ReportInfo`s the
//! routes and the catalogue come from (the handlers are generic, so they carry no
//! `#[utoipa::path]` of their own).

use utoipa::{
    openapi::{
        path::{HttpMethod, OperationBuilder, ParameterBuilder, ParameterIn},
        security::SecurityRequirement,
        ContentBuilder, Object, Ref, Required, ResponseBuilder, Type,
    },
    Modify,
};

pub struct ReportPaths;

fn problem(description: &str) -> utoipa::openapi::Response {
    ResponseBuilder::new()
        .description(description)
        .content("application/json", ContentBuilder::new().schema(Some(Ref::from_schema_name("ProblemBody"))).build())
        .build()
}

fn param(name: &str, ty: Type, description: &str) -> utoipa::openapi::path::Parameter {
    ParameterBuilder::new()
        .name(name)
        .parameter_in(ParameterIn::Query)
        .required(Required::False)
        .description(Some(description))
        .schema(Some(Object::with_type(ty)))
        .build()
}

fn filter_type(name: &str) -> Type {
    if name.ends_with("Id") { Type::Integer } else { Type::String }
}

impl Modify for ReportPaths {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        for (info, _) in super::all().into_iter().filter(|(info, _)| info.exports) {
            let common = |op: OperationBuilder| {
                let mut op = op
                    .tag("reports")
                    .security(SecurityRequirement::new("bearer", Vec::<String>::new()))
                    .response("400", problem("Bad filter, naming it"))
                    .response("401", problem("No valid access token"))
                    .response("403", problem(&format!("Without `{}`", info.permission.code())));
                for f in info.filters {
                    op = op.parameter(param(f, filter_type(f), "Filter (docs/reports-api.md)"));
                }
                op.parameter(param("MinutesOffset", Type::Integer, "getTimezoneOffset() of the browser: local days for StartDate/EndDate"))
                    .parameter(param("SortBy", Type::String, &format!("One of: {}", info.sortable.join(", "))))
                    .parameter(param("SortDescending", Type::Boolean, "Default false"))
            };
            let view = common(OperationBuilder::new())
                .operation_id(Some(format!("report_{}", info.key.replace('-', "_"))))
                .summary(Some(format!("{}: one page with totals over every row", info.title)))
                .parameter(param("Page", Type::Integer, "From 1"))
                .parameter(param("Size", Type::Integer, "1 to 500, default 25"))
                .response(
                    "200",
                    ResponseBuilder::new()
                        .description(info.description)
                        .content("application/json", ContentBuilder::new().schema(Some(Ref::from_schema_name("ReportPage"))).build())
                        .build(),
                );
            openapi.paths.add_path_operation(format!("/api/v1{}", info.path), vec![HttpMethod::Get], view.build());
            let export = common(OperationBuilder::new())
                .operation_id(Some(format!("report_{}_retrieve", info.key.replace('-', "_"))))
                .summary(Some(format!("{}: every row as CSV, XLSX or PDF, streamed", info.title)))
                .parameter(
                    ParameterBuilder::new()
                        .name("ReportFormat")
                        .parameter_in(ParameterIn::Query)
                        .required(Required::True)
                        .description(Some("Csv, Xlsx or Pdf"))
                        .schema(Some(Object::with_type(Type::String)))
                        .build(),
                )
                .response("200", ResponseBuilder::new().description("The file, with Content-Disposition: attachment; filename=\"<report>-<YYYY-MM-DD>.<ext>\"").build());
            let export = if info.key == "participants" {
                export.parameter(param("CustomColumnSetToInclude", Type::String, "Comma list of column keys, order kept"))
            } else {
                export
            };
            openapi.paths.add_path_operation(format!("/api/v1{}/retrieve", info.path), vec![HttpMethod::Get], export.build());
        }
    }
}
