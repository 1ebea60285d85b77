import { describe, expect, it } from 'vitest';
import { effectiveSort, exportUrl, reportSchema, viewQuery } from './reportQuery';
import { formatValue } from './format';

describe('reportSchema', () => {
  it('takes the catalogue filters this UI can pick, with their kinds', () => {
    expect(reportSchema({ filters: ['MentorProgramId', 'StartDate', 'RoleCode', 'Unknown'] })).toEqual({
      MentorProgramId: 'id',
      StartDate: 'date',
      RoleCode: 'code',
    });
    expect(reportSchema(undefined)).toEqual({});
  });
});

describe('queries', () => {
  const table = { page: 2, size: 50, sortDescending: false };
  it('falls back to the report default sort', () => {
    expect(effectiveSort(table, { defaultSort: { sortBy: 'approvedAt', sortDescending: false } })).toMatchObject({ sortBy: 'approvedAt' });
    expect(effectiveSort({ ...table, sortBy: 'payee', sortDescending: true }, { defaultSort: { sortBy: 'approvedAt', sortDescending: false } })).toMatchObject({
      sortBy: 'payee',
      sortDescending: true,
    });
  });
  it('sends paging, sort and the time offset to the view', () => {
    expect(viewQuery({ FiscalYearId: '3' }, { ...table, sortBy: 'fund', sortDescending: true }, 480)).toEqual({
      FiscalYearId: '3',
      Page: '2',
      Size: '50',
      SortBy: 'fund',
      SortDescending: 'true',
      MinutesOffset: '480',
    });
  });
  it('builds the export address from the view path, without paging', () => {
    const url = exportUrl('/api/v1/reports/participants', 'Xlsx', { RoleCode: 'Mentor' }, { sortBy: 'email', sortDescending: false }, { CustomColumnSetToInclude: 'fullName,email' }, -60);
    const parsed = new URL(url);
    expect(parsed.pathname).toBe('/api/v1/reports/participants/retrieve');
    expect(Object.fromEntries(parsed.searchParams)).toEqual({
      RoleCode: 'Mentor',
      SortBy: 'email',
      SortDescending: 'false',
      CustomColumnSetToInclude: 'fullName,email',
      ReportFormat: 'Xlsx',
      MinutesOffset: '-60',
    });
  });
});

describe('formatValue', () => {
  it('prints each kind one way', () => {
    expect(formatValue('money', 3349.95)).toBe('$3,349.95');
    expect(formatValue('money', -5)).toBe('-$5.00');
    expect(formatValue('int', 12345)).toBe('12,345');
    expect(formatValue('number', 3)).toBe('3.00');
    expect(formatValue('number', 7.25)).toBe('7.25');
    expect(formatValue('percent', 45.5)).toBe('45.5%');
    expect(formatValue('date', '2026-11-23')).toBe('Nov 23, 2026');
    expect(formatValue('text', null)).toBe('');
    expect(formatValue('percent', null)).toBe('');
    expect(formatValue('timestamp', '2026-11-23T17:04:05Z')).toMatch(/^Nov 2[34], 2026, \d{1,2}:\d{2} [AP]M$/);
  });
});
