import type { ParamSchema, ParamValues } from '../../components/urlState';

// The participant list's filters under the PascalCase names GET /participants takes; the page keeps
// them, with paging and SortBy/SortDescending, in the address bar through useUrlState.

export const PARTICIPANT_FILTERS = {
  FullName: 'text',
  MentorProgramId: 'id',
  RoleCode: 'code',
  Status: 'code',
  DistrictSetType: 'code',
  DistrictId: 'id',
  WorkplaceSettingIds: 'list',
  LanguageIds: 'list',
  EducationLevelIds: 'list',
  PermitLevelIds: 'list',
} as const satisfies ParamSchema;

export type ParticipantFilterValues = ParamValues<typeof PARTICIPANT_FILTERS>;

/** A filter change as sent to the address bar: a district number means nothing without its kind. */
export function participantFilterPatch(patch: ParticipantFilterValues): ParticipantFilterValues {
  return 'DistrictSetType' in patch && !patch.DistrictSetType ? { ...patch, DistrictId: undefined } : patch;
}
