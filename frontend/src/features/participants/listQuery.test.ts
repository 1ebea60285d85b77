import { describe, expect, it } from 'vitest';
import {
  activeFilterCount,
  clearFilters,
  DEFAULT_LIST_STATE,
  listQueryParams,
  parseListState,
  toggleSort,
  toSearchParams,
  withFilters,
} from './listQuery';

describe('participant list state', () => {
  it('reads every filter, paging and sorting from the address bar', () => {
    const state = parseListState(
      new URLSearchParams(
        'MentorProgramId=3&RoleCode=Mentor&FullName=%20ann%20&Status=Active&DistrictSetType=Senate&DistrictId=12' +
          '&WorkplaceSettingIds=1,2&WorkplaceSettingIds=2&LanguageIds=4&EducationLevelIds=5&PermitLevelIds=6,x' +
          '&Page=3&Size=50&SortBy=email&SortDescending=true',
      ),
    );
    expect(state).toEqual({
      mentorProgramId: 3,
      roleCode: 'Mentor',
      fullName: 'ann',
      status: 'Active',
      districtSetType: 'Senate',
      districtId: 12,
      workplaceSettingIds: [1, 2],
      languageIds: [4],
      educationLevelIds: [5],
      permitLevelIds: [6],
      page: 3,
      size: 50,
      sortBy: 'email',
      sortDescending: true,
    });
  });

  it('falls back to defaults for junk', () => {
    const state = parseListState(new URLSearchParams('Page=-1&Size=7&MentorProgramId=abc&DistrictId=0'));
    expect(state.page).toBe(1);
    expect(state.size).toBe(25);
    expect(state.mentorProgramId).toBeUndefined();
    expect(state.districtId).toBeUndefined();
    expect(parseListState(new URLSearchParams())).toEqual(DEFAULT_LIST_STATE);
  });

  it('sends only set filters, id lists comma-separated, paging always', () => {
    const state = { ...DEFAULT_LIST_STATE, fullName: '  ', languageIds: [3, 1], status: 'Active' };
    expect(listQueryParams(state)).toEqual({ Status: 'Active', LanguageIds: '3,1', Page: '1', Size: '25' });
    expect(listQueryParams(toggleSort(state, 'fullName'))).toMatchObject({ SortBy: 'fullName', SortDescending: 'false' });
  });

  it('round-trips through the address bar without defaults', () => {
    const state = { ...DEFAULT_LIST_STATE, mentorProgramId: 2, permitLevelIds: [1, 6], page: 2, sortBy: 'status', sortDescending: true };
    const search = toSearchParams(state);
    expect(search.toString()).toBe('MentorProgramId=2&PermitLevelIds=1%2C6&Page=2&SortBy=status&SortDescending=true');
    expect(parseListState(search)).toEqual(state);
    expect(toSearchParams(DEFAULT_LIST_STATE).toString()).toBe('');
  });

  it('a filter change goes back to page 1; a district number needs its kind', () => {
    const state = { ...DEFAULT_LIST_STATE, page: 4, districtSetType: 'Assembly', districtId: 7 };
    expect(withFilters(state, { status: 'Inactive' })).toMatchObject({ page: 1, status: 'Inactive', districtId: 7 });
    expect(withFilters(state, { districtSetType: undefined }).districtId).toBeUndefined();
  });

  it('clearing keeps size and sort', () => {
    const state = { ...DEFAULT_LIST_STATE, size: 10, sortBy: 'email', roleCode: 'Mentor', languageIds: [1], page: 3 };
    expect(clearFilters(state)).toEqual({ ...DEFAULT_LIST_STATE, size: 10, sortBy: 'email' });
    expect(activeFilterCount(state)).toBe(2);
    expect(activeFilterCount(DEFAULT_LIST_STATE)).toBe(0);
  });

  it('sorting: a new column ascending, the same column flips', () => {
    const byName = toggleSort({ ...DEFAULT_LIST_STATE, page: 5 }, 'fullName');
    expect(byName).toMatchObject({ sortBy: 'fullName', sortDescending: false, page: 1 });
    expect(toggleSort(byName, 'fullName').sortDescending).toBe(true);
    expect(toggleSort(toggleSort(byName, 'fullName'), 'email').sortDescending).toBe(false);
  });
});
