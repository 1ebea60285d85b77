import { apiUrl, minutesOffset, type ReportFormat } from '../../components/download';
import type { ParamKind, ParamSchema, TableState } from '../../components/urlState';
import { relativeApiPath, type ReportInfo } from './api';

// What a report page sends: its filters (named by the catalogue, checked by kind here), paging,
// sort and the browser's MinutesOffset. Pure: tested in reportQuery.test.ts.

/** Every report filter and how its value looks in the address bar. */
export const FILTER_KINDS: Readonly<Record<string, ParamKind>> = {
  MentorProgramId: 'id',
  FiscalYearId: 'id',
  FundId: 'id',
  ApprovalCodeId: 'id',
  PayeeId: 'id',
  CaucusRegionId: 'id',
  DistrictId: 'id',
  PaymentRequestType: 'code',
  RoleCode: 'code',
  StartDate: 'date',
  EndDate: 'date',
  UpdatedAt: 'date',
};

/** The address-bar schema of a report: its catalogue filters that this UI knows how to pick. */
export function reportSchema(report: Pick<ReportInfo, 'filters'> | undefined): ParamSchema {
  const schema: Record<string, ParamKind> = {};
  for (const name of report?.filters ?? []) if (FILTER_KINDS[name]) schema[name] = FILTER_KINDS[name];
  return schema;
}

/** The sort actually in force: the address bar's, else the report's default. */
export function effectiveSort(table: TableState, report: Pick<ReportInfo, 'defaultSort'> | undefined): TableState {
  if (table.sortBy || !report?.defaultSort) return table;
  return { ...table, sortBy: report.defaultSort.sortBy, sortDescending: report.defaultSort.sortDescending };
}

/** Sort parameters of view and export; none when the server's default order applies. */
export function sortParams(table: Pick<TableState, 'sortBy' | 'sortDescending'>): Record<string, string> {
  return table.sortBy ? { SortBy: table.sortBy, SortDescending: String(table.sortDescending) } : {};
}

/** A view's query: the filters (read in local time), the page, the sort. */
export function viewQuery(filters: Record<string, string>, table: TableState, offset = minutesOffset()): Record<string, string> {
  return { ...filters, Page: String(table.page), Size: String(table.size), ...sortParams(table), MinutesOffset: String(offset) };
}

/** `…/retrieve` of a view with the same filters and sort, every row, in `format`. */
export function exportUrl(
  path: string,
  format: ReportFormat,
  filters: Record<string, string>,
  table: Pick<TableState, 'sortBy' | 'sortDescending'>,
  extra: Record<string, string> = {},
  offset = minutesOffset(),
): string {
  return apiUrl(`${relativeApiPath(path)}/retrieve`, { ...filters, ...sortParams(table), ...extra, ReportFormat: format, MinutesOffset: offset });
}
