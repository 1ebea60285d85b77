import { useReferenceListQuery } from '../../lib/referenceLists';

/** Every list the participant filters and form pick from, loaded together. */
export function useParticipantLookups({ caucusRegions = false }: { caucusRegions?: boolean } = {}) {
  const roles = useReferenceListQuery('/participants/roles');
  const statuses = useReferenceListQuery('/participants/statuses');
  const districtTypes = useReferenceListQuery('/participants/distric-types');
  const programs = useReferenceListQuery('/mentor-programs');
  const workplaceSettings = useReferenceListQuery('/workplace-settings');
  const languages = useReferenceListQuery('/languages');
  const educationLevels = useReferenceListQuery('/education-levels');
  const permitLevels = useReferenceListQuery('/permit-levels');
  const regions = useReferenceListQuery('/caucus-regions', { skip: !caucusRegions });
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
