import { useFiscalYearsQuery, useReferenceListQuery } from '../../lib/referenceLists';
import { refsOf, type ViewLookups } from './detailsView';

/** Only the reference lists this form's details name. */
export function useViewLookups(formType: string): ViewLookups {
  const need = new Set(refsOf(formType));
  const skip = (key: keyof ViewLookups) => ({ skip: !need.has(key) });
  const colleges = useReferenceListQuery('/colleges', skip('colleges'));
  const institutions = useReferenceListQuery('/payment-requests/institutions', skip('institutions'));
  const trainingTypes = useReferenceListQuery('/payment-requests/training-types', skip('trainingTypes'));
  const jobCategories = useReferenceListQuery('/payment-requests/job-categories', skip('jobCategories'));
  const fiscalYears = useFiscalYearsQuery(undefined, skip('fiscalYears'));
  const travelPurposes = useReferenceListQuery('/payment-requests/travel-purposes', skip('travelPurposes'));
  const transitTypes = useReferenceListQuery('/payment-requests/transit-types', skip('transitTypes'));
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
