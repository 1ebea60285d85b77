import { describe, expect, it } from 'vitest';
import { activeFilterCount, parseParams, parseTable, toggleSort, toSearch, viewParams, withFilters } from '../../components/urlState';
import { pageTotalsCents, REQUEST_FILTERS, REQUEST_LIST_SHAPE } from './listQuery';

const read = (query: string) => {
  const search = new URLSearchParams(query);
  return { values: parseParams(REQUEST_FILTERS, search), table: parseTable(search, REQUEST_LIST_SHAPE) };
};

describe('request list state', () => {
  it('reads the address bar and writes the same names back', () => {
    const s = read('MentorProgramId=3&FormStatus=Approved,Submitted&FormType=F1&IsApprovedAmountSortedAscending=false&Page=2&Size=50');
    expect(s.values).toEqual({ MentorProgramId: '3', FormStatus: 'Approved,Submitted', FormType: 'F1' });
    expect(s.table).toEqual({ page: 2, size: 50, sortBy: 'approvedAmount', sortDescending: true });
    expect(viewParams(s.values, s.table, REQUEST_LIST_SHAPE)).toEqual({
      MentorProgramId: '3',
      FormStatus: 'Approved,Submitted',
      FormType: 'F1',
      IsApprovedAmountSortedAscending: 'false',
      Page: '2',
      Size: '50',
    });
  });

  it('keeps the waiting-for-me filter under its own name', () => {
    const s = read('WaitingForMe=true&FormType=F3');
    expect(s.values).toEqual({ FormType: 'F3', WaitingForMe: 'true' });
    expect(toSearch(s.values, s.table, REQUEST_LIST_SHAPE).toString()).toBe('FormType=F3&WaitingForMe=true');
  });

  it('ignores junk', () => {
    const s = read('Page=-1&Size=7&ApprovedStart=yesterday&MentorProgramId=x&SortBy=submittedOn');
    expect(s.values).toEqual({});
    expect(s.table).toEqual({ page: 1, size: 25, sortBy: undefined, sortDescending: false });
  });

  it('cycles a column through ascending, descending, none and resets the page', () => {
    let t = read('Page=4').table;
    t = toggleSort(t, 'submittedOn', REQUEST_LIST_SHAPE);
    expect(viewParams({}, t, REQUEST_LIST_SHAPE)).toMatchObject({ IsSubmittedOnSortedAscending: 'true', Page: '1' });
    t = toggleSort(t, 'submittedOn', REQUEST_LIST_SHAPE);
    expect(viewParams({}, t, REQUEST_LIST_SHAPE).IsSubmittedOnSortedAscending).toBe('false');
    t = toggleSort(t, 'submittedOn', REQUEST_LIST_SHAPE);
    expect(t.sortBy).toBeUndefined();
    expect(toggleSort(t, 'description', REQUEST_LIST_SHAPE)).toBe(t);
  });

  it('keeps the sort flag in the address bar, without the defaults', () => {
    const s = read('FormType=F2&IsPlacementEndDateSortedAscending=true&Page=1&Size=25');
    expect(toSearch(s.values, s.table, REQUEST_LIST_SHAPE).toString()).toBe('FormType=F2&IsPlacementEndDateSortedAscending=true');
  });

  it('counts filters, not paging or sorting', () => {
    const s = read('MentorProgramId=3&ParticipationId=9&FormStatus=Draft&FormType=F2,F3&ApprovedStart=2026-01-01&ApprovedEnd=2026-02-01&PlacementEndDate=2026-03-01&IsSubmittedOnSortedAscending=true&Page=3');
    expect(activeFilterCount(s.values)).toBe(7);
    expect(activeFilterCount(withFilters(s.values, { FormType: undefined, FormStatus: '' }))).toBe(5);
    expect(activeFilterCount(read('Page=2&IsApprovedAmountSortedAscending=false').values)).toBe(0);
  });

  it('sums a page in cents, leaving unapproved rows out of the approved sum', () => {
    const rows = [
      { requestedAmount: 0.1, approvedAmount: null },
      { requestedAmount: 0.2, approvedAmount: 0.2 },
      { requestedAmount: 1234.5, approvedAmount: 1000 },
    ];
    expect(pageTotalsCents(rows)).toEqual({ requested: 123480, approved: 100020 });
    expect(pageTotalsCents([])).toEqual({ requested: 0, approved: 0 });
  });
});
