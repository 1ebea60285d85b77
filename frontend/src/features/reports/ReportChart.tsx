import { Loader, Stack, Text, Title } from '@mantine/core';
import { MoneyBarChart, type MoneyCategory, type MoneySeries } from '../../components/MoneyBarChart';
import { DEFAULT_TABLE } from '../../components/urlState';
import { useGetReportViewQuery, type ReportInfo, type ReportRow } from './api';
import { viewQuery } from './reportQuery';
import type { ReportContext } from './ReportView';

/** Rows a chart reads: every matching row up to the API's page limit, in the report's default order. */
const CHART_ROWS = 500;

interface Props extends ReportContext {
  title: string;
  series: MoneySeries[];
  /** The chart's bars from the rows; the report's columns name codes (form labels). */
  toCategories: (rows: ReportRow[], report: ReportInfo) => MoneyCategory[];
  bars?: 'horizontal' | 'vertical';
  testId: string;
}

/** A chart above a report's table, over the same filters (not just the page shown). */
export function ReportChart({ report, filters, title, series, toCategories, bars, testId }: Props) {
  const view = useGetReportViewQuery({ path: report.path, params: viewQuery(filters, { ...DEFAULT_TABLE, size: CHART_ROWS }) });
  const rows = view.data?.items ?? [];
  return (
    <Stack gap="xs">
      <Title order={2} size="h5">
        {title}
      </Title>
      {view.isLoading ? (
        <Loader size="sm" aria-label="Loading chart" />
      ) : view.error ? (
        <Text size="sm" c="red.7">
          The chart could not be loaded.
        </Text>
      ) : (
        <>
          <MoneyBarChart label={title} testId={testId} series={series} categories={toCategories(rows, report)} bars={bars} empty={<Text c="dimmed" size="sm">Nothing to chart for these filters.</Text>} />
          {(view.data?.totalCount ?? 0) > rows.length && (
            <Text size="xs" c="dimmed">
              The chart shows the first {rows.length} of {view.data?.totalCount} rows.
            </Text>
          )}
        </>
      )}
    </Stack>
  );
}
