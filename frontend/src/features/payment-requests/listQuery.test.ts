import { describe, expect, it } from 'vitest';
import {
  clearRequestFilters,
  hasRequestFilters,
  pageTotalsCents,
  parseRequestListState,
  requestListParams,
  toggleRequestSort,
  withRequestFilters,
} from './listQuery';

describe('request list state', () => {
  it('reads the address bar and writes the same names back', () => {
    const s = parseRequestListState(
      new URLSearchParams('MentorProgramId=3&FormStatus=Approved,Submitted&FormType=F1&IsApprovedAmountSortedAscending=false&Page=2&Size=50'),
    );
    expect(s).toMatchObject({
      mentorProgramId: 3,
      formStatus: ['Approved', 'Submitted'],
      formType: ['F1'],
      sortBy: 'approvedAmount',
      sortDescending: true,
      page: 2,
      size: 50,
    });
    expect(requestListParams(s)).toEqual({
      MentorProgramId: '3',
      FormStatus: 'Approved,Submitted',
      FormType: 'F1',
      IsApprovedAmountSortedAscending: 'false',
      Page: '2',
      Size: '50',
    });
  });

  it('ignores junk', () => {
    const s = parseRequestListState(new URLSearchParams('Page=-1&Size=7&ApprovedStart=yesterday&MentorProgramId=x'));
    expect(s).toMatchObject({ page: 1, size: 25, approvedStart: undefined, mentorProgramId: undefined });
  });

  it('cycles a column through ascending, descending, none and resets the page', () => {
    let s = parseRequestListState(new URLSearchParams('Page=4'));
    s = toggleRequestSort(s, 'submittedOn');
    expect(requestListParams(s)).toMatchObject({ IsSubmittedOnSortedAscending: 'true', Page: '1' });
    s = toggleRequestSort(s, 'submittedOn');
    expect(requestListParams(s).IsSubmittedOnSortedAscending).toBe('false');
    s = toggleRequestSort(s, 'submittedOn');
    expect(s.sortBy).toBeUndefined();
    expect(toggleRequestSort(s, 'description')).toBe(s);
  });

  it('goes back to page 1 when a filter changes', () => {
    const s = parseRequestListState(new URLSearchParams('Page=3'));
    expect(withRequestFilters(s, { formType: ['F3'] })).toMatchObject({ page: 1, formType: ['F3'] });
  });

  it('clears every filter but keeps size and sorting', () => {
    const s = parseRequestListState(
      new URLSearchParams('MentorProgramId=3&ParticipationId=9&FormStatus=Draft&FormType=F2,F3&ApprovedStart=2026-01-01&ApprovedEnd=2026-02-01&PlacementEndDate=2026-03-01&IsSubmittedOnSortedAscending=true&Page=3&Size=50'),
    );
    expect(hasRequestFilters(s)).toBe(true);
    const cleared = clearRequestFilters(s);
    expect(requestListParams(cleared)).toEqual({ IsSubmittedOnSortedAscending: 'true', Page: '1', Size: '50' });
    expect(hasRequestFilters(cleared)).toBe(false);
    // Paging and sorting are not filters.
    expect(hasRequestFilters(parseRequestListState(new URLSearchParams('Page=2&IsApprovedAmountSortedAscending=false')))).toBe(false);
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
