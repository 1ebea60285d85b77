import { Anchor, Box, Group, Text } from '@mantine/core';
import type { ColumnDef } from '@tanstack/react-table';
import { useMemo, type ReactNode } from 'react';
import { Link } from 'react-router';
import { DataTable } from '../../components/DataTable';
import { asApiError, ErrorDisplay } from '../../components/ErrorDisplay';
import { ALL_FORMATS, ExportMenu } from '../../components/ExportMenu';
import { PageCard } from '../../components/PageCard';
import { QueryStatus } from '../../components/QueryStatus';
import { useUrlState } from '../../components/useUrlState';
import { EmptyList } from '../../components/EmptyList';
import { useGetReportCatalogueQuery, useGetReportViewQuery, type ReportColumn, type ReportInfo, type ReportRow } from './api';
import { requestRef } from '../../lib/labels';
import { formatValue, NUMERIC_KINDS } from './format';
import { ReportFilters } from './ReportFilters';
import { effectiveSort, exportUrl, reportSchema, viewQuery } from './reportQuery';
import { hasTotals, identifyingCount, identifyingFirst } from './reportColumns';

/** What a report page's extras (chart, column picker, e-mail action) get to work with. */
export interface ReportContext {
  report: ReportInfo;
  /** The filters set, as the API names them. */
  filters: Record<string, string>;
}

interface Props {
  /** The report's key in GET /reports. */
  reportKey: string;
  /** Column keys to show, in order (default: every column of the catalogue). */
  visibleColumns?: readonly string[];
  /** More export parameters (the participants report's CustomColumnSetToInclude). */
  exportParams?: Record<string, string>;
  /** Header actions beside the export menu. */
  actions?: (ctx: ReportContext) => ReactNode;
  /** Shown between the filters and the table (charts). */
  aboveTable?: (ctx: ReportContext) => ReactNode;
}


/** Rows carry their own id where they have one (an approval, a request, a participant). */
const rowKey = (row: ReportRow) => String(row.approvalId ?? row.requestId ?? row.id ?? JSON.stringify(row));

function cellOf(column: ReportColumn, row: ReportRow): ReactNode {
  const value = row[column.key];
  // A code of a closed set reads as its label; the row keeps the code.
  const shown = typeof value === 'string' ? (column.labels?.[value] ?? value) : value;
  const text = formatValue(column.kind, shown);
  // The request reads "F2 #601" and opens the request (its form type is on the same row).
  if (column.key === 'requestId' && text && typeof row.formType === 'string' && /^F\d+$/.test(row.formType)) {
    return (
      <Anchor component={Link} to={`/payment-request/${row.formType}/${String(row.requestId)}/details`} size="sm" style={{ whiteSpace: 'nowrap' }}>
        {requestRef(row.formType, String(row.requestId))}
      </Anchor>
    );
  }
  if (NUMERIC_KINDS.has(column.kind)) return <Box ta="right" style={{ whiteSpace: 'nowrap' }}>{text}</Box>;
  if (column.kind === 'date' || column.kind === 'timestamp') return <span style={{ whiteSpace: 'nowrap' }}>{text}</span>;
  return text;
}

/** The table's columns from the catalogue, the identifying ones first (they stay in place
 * while the rest scrolls sideways); the footer row holds the totals of every matching row,
 * when the server gives them (never for rows of several fiscal years). */
export function reportColumns(report: ReportInfo, visible: readonly string[] | undefined, totals: Record<string, number | null> | undefined): ColumnDef<ReportRow, unknown>[] {
  const byKey = new Map(report.columns.map((c) => [c.key, c]));
  const picked = visible ? visible.map((k) => byKey.get(k)).filter((c): c is ReportColumn => Boolean(c)) : report.columns;
  const shown = identifyingFirst(picked.map((c) => c.key)).map((k) => byKey.get(k) as ReportColumn);
  const withTotals = hasTotals(report, totals);
  return shown.map((column, index) => ({
    id: column.key,
    header: column.header,
    enableSorting: Boolean(column.sortable),
    cell: ({ row }) => cellOf(column, row.original),
    footer: !withTotals
      ? undefined
      : () => {
          if (report.totals.includes(column.key)) {
            const text = formatValue(column.kind, totals?.[column.key]);
            return (
              <Box ta="right" style={{ whiteSpace: 'nowrap' }} data-total={column.key}>
                {text}
              </Box>
            );
          }
          return index === 0 ? 'Total' : '';
        },
  }));
}

/**
 * One report screen: its filters (address bar), a server-paged and server-sorted table with the
 * totals of every matching row, and the export menu for the same rows. Built from the report's
 * entry in GET /reports, so columns and totals are the server's.
 */
export function ReportView({ reportKey, visibleColumns, exportParams, actions, aboveTable }: Props) {
  const catalogue = useGetReportCatalogueQuery();
  const report = catalogue.data?.find((r) => r.key === reportKey);
  return (
    <QueryStatus isLoading={catalogue.isLoading} error={catalogue.error}>
      {report ? (
        <LoadedReport report={report} visibleColumns={visibleColumns} exportParams={exportParams} actions={actions} aboveTable={aboveTable} />
      ) : (
        <ErrorDisplay title="This report is not available" message="It is not among the reports your role may read." />
      )}
    </QueryStatus>
  );
}

function LoadedReport({ report, visibleColumns, exportParams, actions, aboveTable }: Omit<Props, 'reportKey'> & { report: ReportInfo }) {
  const schema = useMemo(() => reportSchema(report), [report]);
  const state = useUrlState(schema);
  const table = effectiveSort(state.table, report);
  const view = useGetReportViewQuery({ path: report.path, params: viewQuery(state.filters, table) });
  const columns = useMemo(() => reportColumns(report, visibleColumns, view.data?.totals), [report, visibleColumns, view.data?.totals]);
  const ctx: ReportContext = { report, filters: state.filters };
  const filtered = Object.keys(state.filters).length > 0;
  const formats = ALL_FORMATS.filter((f) => report.formats.some((g) => g.toLowerCase() === f.toLowerCase()));

  return (
    <PageCard
      title={report.title}
      actions={
        <Group gap="sm" align="flex-start" wrap="wrap">
          {actions?.(ctx)}
          <ExportMenu
            formats={formats}
            fallbackName={report.key}
            url={(format) => exportUrl(report.path, format, state.filters, table, exportParams)}
          />
        </Group>
      }
    >
      {report.description && (
        <Text size="sm" c="dimmed">
          {report.description}
        </Text>
      )}
      <ReportFilters names={Object.keys(schema)} values={state.values} onChange={state.setFilters} onClear={state.clearFilters} />
      {aboveTable?.(ctx)}
      {view.error ? (
        <ErrorDisplay error={asApiError(view.error)} />
      ) : (
        <>
          <DataTable
            label={report.title}
            columns={columns}
            rows={view.data?.items ?? []}
            rowKey={rowKey}
            {...state.pagedTable(view, { shown: table })}
            stickyColumns={identifyingCount(columns.map((c) => String(c.id)))}
            empty={<EmptyList filtered={filtered} none="Nothing to report yet." noMatch="No rows match these filters." />}
          />
          {report.totals.length > 0 && view.data && view.data.items.length > 0 && !hasTotals(report, view.data.totals) && (
            <Text size="sm" c="dimmed" data-testid="report-totals-note">
              No totals: these rows are of more than one fiscal year, and amounts of different fiscal years are never added. Choose a
              fiscal year to see them.
            </Text>
          )}
        </>
      )}
    </PageCard>
  );
}
