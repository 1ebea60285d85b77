import { describe, expect, it } from 'vitest';
import { parseParams, viewParams, withFilters } from '../../components/urlState';
import { PARTICIPANT_FILTERS, participantFilterPatch } from './listQuery';

describe('participant list state', () => {
  it('reads every filter from the address bar, junk dropped', () => {
    const values = parseParams(
      PARTICIPANT_FILTERS,
      new URLSearchParams(
        'MentorProgramId=3&RoleCode=Mentor&FullName=%20ann%20&Status=Active&DistrictSetType=Senate&DistrictId=12' +
          '&WorkplaceSettingIds=1,2&LanguageIds=4&EducationLevelIds=5&PermitLevelIds=6,x%20y&Page=3',
      ),
    );
    expect(values).toEqual({
      MentorProgramId: '3',
      RoleCode: 'Mentor',
      FullName: 'ann',
      Status: 'Active',
      DistrictSetType: 'Senate',
      DistrictId: '12',
      WorkplaceSettingIds: '1,2',
      LanguageIds: '4',
      EducationLevelIds: '5',
    });
    expect(parseParams(PARTICIPANT_FILTERS, new URLSearchParams('MentorProgramId=abc&DistrictId=0&FullName=a%01b'))).toEqual({});
  });

  it('sends only set filters, with paging and the sort', () => {
    const values = withFilters(parseParams(PARTICIPANT_FILTERS, new URLSearchParams('Status=Active')), { FullName: '', LanguageIds: '3,1' });
    expect(viewParams(values, { page: 2, size: 25, sortBy: 'email', sortDescending: true })).toEqual({
      Status: 'Active',
      LanguageIds: '3,1',
      Page: '2',
      Size: '25',
      SortBy: 'email',
      SortDescending: 'true',
    });
  });

  it('clears the district number with its kind', () => {
    expect(withFilters({ DistrictSetType: 'Senate', DistrictId: '4' }, participantFilterPatch({ DistrictSetType: undefined }))).toEqual({});
    expect(participantFilterPatch({ DistrictId: '5' })).toEqual({ DistrictId: '5' });
  });
});
