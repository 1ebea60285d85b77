import {
  useGetRequestCollegesQuery,
  useGetInstitutionsQuery,
  useGetTrainingTypesQuery,
  useGetJobCategoriesQuery,
  useGetRequestFiscalYearsQuery,
  useGetTravelPurposesQuery,
  useGetTransitTypesQuery,
} from './api';
import { refsOf, type ViewLookups } from './detailsView';

/** Only the reference lists this form's details name. */
export function useViewLookups(formType: string): ViewLookups {
  const need = new Set(refsOf(formType));
  const skip = (key: keyof ViewLookups) => ({ skip: !need.has(key) });
  const colleges = useGetRequestCollegesQuery(undefined, skip('colleges'));
  const institutions = useGetInstitutionsQuery(undefined, skip('institutions'));
  const trainingTypes = useGetTrainingTypesQuery(undefined, skip('trainingTypes'));
  const jobCategories = useGetJobCategoriesQuery(undefined, skip('jobCategories'));
  const fiscalYears = useGetRequestFiscalYearsQuery(undefined, skip('fiscalYears'));
  const travelPurposes = useGetTravelPurposesQuery(undefined, skip('travelPurposes'));
  const transitTypes = useGetTransitTypesQuery(undefined, skip('transitTypes'));
  return {
    colleges: colleges.data,
    institutions: institutions.data,
    trainingTypes: trainingTypes.data,
    jobCategories: jobCategories.data,
    fiscalYears: fiscalYears.data?.map((y) => ({ id: y.id, name: y.name, isActive: true })),
    travelPurposes: travelPurposes.data,
    transitTypes: transitTypes.data,
  };
}
