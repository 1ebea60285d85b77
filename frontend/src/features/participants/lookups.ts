import {
  useGetCaucusRegionsQuery,
  useGetDistrictSetTypesQuery,
  useGetEducationLevelsQuery,
  useGetLanguagesQuery,
  useGetMentorProgramsQuery,
  useGetParticipantRolesQuery,
  useGetParticipantStatusesQuery,
  useGetPermitLevelsQuery,
  useGetWorkplaceSettingsQuery,
} from './api';

/** Every list the participant filters and form pick from, loaded together. */
export function useParticipantLookups({ caucusRegions = false }: { caucusRegions?: boolean } = {}) {
  const roles = useGetParticipantRolesQuery();
  const statuses = useGetParticipantStatusesQuery();
  const districtTypes = useGetDistrictSetTypesQuery();
  const programs = useGetMentorProgramsQuery();
  const workplaceSettings = useGetWorkplaceSettingsQuery();
  const languages = useGetLanguagesQuery();
  const educationLevels = useGetEducationLevelsQuery();
  const permitLevels = useGetPermitLevelsQuery();
  const regions = useGetCaucusRegionsQuery(undefined, { skip: !caucusRegions });
  const all = [roles, statuses, districtTypes, programs, workplaceSettings, languages, educationLevels, permitLevels, regions];
  return {
    roles: roles.data,
    statuses: statuses.data,
    districtTypes: districtTypes.data,
    programs: programs.data,
    workplaceSettings: workplaceSettings.data,
    languages: languages.data,
    educationLevels: educationLevels.data,
    permitLevels: permitLevels.data,
    caucusRegions: regions.data,
    loading: all.some((q) => q.isLoading),
    error: all.find((q) => q.error)?.error,
  };
}

export type ParticipantLookups = ReturnType<typeof useParticipantLookups>;
