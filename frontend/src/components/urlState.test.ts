import { describe, expect, it } from 'vitest';
import { activeFilterCount, parseParams, parseTable, toggleSort, toSearch, viewParams, withFilters, type ParamSchema } from './urlState';

const schema = {
  MentorProgramId: 'id',
  FiscalYearId: 'id',
  StartDate: 'date',
  RoleCode: 'code',
  DistrictId: 'int',
  CustomColumnSetToInclude: 'list',
} as const satisfies ParamSchema;

describe('parseParams', () => {
  it('keeps well-formed values under their API names, whatever the case of the key', () => {
    const p = parseParams(schema, new URLSearchParams('mentorprogramid=4&StartDate=2026-07-01&RoleCode=DirectorMentor&DistrictId=12&CustomColumnSetToInclude=email,fullName'));
    expect(p).toEqual({ MentorProgramId: '4', StartDate: '2026-07-01', RoleCode: 'DirectorMentor', DistrictId: '12', CustomColumnSetToInclude: 'email,fullName' });
  });
  it('drops junk from a hand-edited link instead of sending it', () => {
    const p = parseParams(schema, new URLSearchParams('MentorProgramId=0&FiscalYearId=abc&StartDate=2026-13-45&RoleCode=a%20b&DistrictId=1.5&CustomColumnSetToInclude=a,,b&Other=1'));
    expect(p).toEqual({});
  });
});

describe('table state', () => {
  it('reads page, size and sort with safe defaults', () => {
    expect(parseTable(new URLSearchParams('Page=3&Size=50&SortBy=approvedOn&SortDescending=true'))).toEqual({ page: 3, size: 50, sortBy: 'approvedOn', sortDescending: true });
    expect(parseTable(new URLSearchParams('Page=-1&Size=7&SortDescending=true'))).toEqual({ page: 1, size: 25, sortBy: undefined, sortDescending: false });
  });
  it('sorts a new column ascending, flips the same one, and goes to page 1', () => {
    const t = { page: 4, size: 25, sortDescending: false };
    const a = toggleSort(t, 'payee');
    expect(a).toEqual({ page: 1, size: 25, sortBy: 'payee', sortDescending: false });
    expect(toggleSort({ ...a, page: 2 }, 'payee')).toEqual({ page: 1, size: 25, sortBy: 'payee', sortDescending: true });
  });
});

describe('query and address bar', () => {
  it('sends filters, paging and sort to the view', () => {
    expect(viewParams({ MentorProgramId: '4' }, { page: 2, size: 10, sortBy: 'approved', sortDescending: true })).toEqual({
      MentorProgramId: '4',
      Page: '2',
      Size: '10',
      SortBy: 'approved',
      SortDescending: 'true',
    });
  });
  it('leaves defaults out of the address bar and round-trips', () => {
    const search = toSearch({ FiscalYearId: '2' }, { page: 1, size: 25, sortBy: 'fund', sortDescending: false });
    expect(search.toString()).toBe('FiscalYearId=2&SortBy=fund');
    expect(parseParams(schema, search)).toEqual({ FiscalYearId: '2' });
    expect(parseTable(search)).toEqual({ page: 1, size: 25, sortBy: 'fund', sortDescending: false });
  });
  it('clears a filter given an empty value and counts the ones set', () => {
    const v = withFilters<typeof schema>({ MentorProgramId: '4', FiscalYearId: '2' }, { MentorProgramId: '', StartDate: '2026-01-01' });
    expect(v).toEqual({ FiscalYearId: '2', StartDate: '2026-01-01' });
    expect(activeFilterCount(v)).toBe(2);
  });

  it('takes typed text as it is, trimmed, but no control characters', () => {
    const schema = { FullName: 'text' } as const;
    expect(parseParams(schema, new URLSearchParams('FullName=%20Ann%20Lee%20'))).toEqual({ FullName: 'Ann Lee' });
    expect(parseParams(schema, new URLSearchParams('FullName=a%00b'))).toEqual({});
    expect(parseParams(schema, new URLSearchParams(`FullName=${'x'.repeat(201)}`))).toEqual({});
  });
});
