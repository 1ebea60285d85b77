import { useFiscalYearsQuery, useReferenceListQuery } from '../../lib/referenceLists';
import type { RefItem } from '../../api/wire';
import { listsOf, rulesOf, type FormRules, type ListName } from './formRules';

/** The items of the reference lists a form picks from, by list. */
export type FormLists = Partial<Record<ListName, RefItem[]>>;

/** The rules of one form type (GET /payment-requests/types, read once for every page). */
export function useFormRules(formType: string) {
  const types = useReferenceListQuery('/payment-requests/types');
  return { rules: rulesOf(types.data, formType), types: types.data, loading: types.isLoading };
}

/** The reference lists the form's rules name, and only those. */
export function useFormLists(rules: FormRules | undefined): FormLists {
  const need = listsOf(rules);
  const skip = (list: ListName) => ({ skip: !need.has(list) });
  const colleges = useReferenceListQuery('/colleges', skip('colleges'));
  const institutions = useReferenceListQuery('/payment-requests/institutions', skip('institutions'));
  const trainingTypes = useReferenceListQuery('/payment-requests/training-types', skip('training_types'));
  const jobCategories = useReferenceListQuery('/payment-requests/job-categories', skip('job_categories'));
  const travelPurposes = useReferenceListQuery('/payment-requests/travel-purposes', skip('travel_purposes'));
  const transitTypes = useReferenceListQuery('/payment-requests/transit-types', skip('transit_types'));
  const fiscalYears = useFiscalYearsQuery(undefined, skip('fiscal_years'));
  return {
    colleges: colleges.data,
    institutions: institutions.data,
    training_types: trainingTypes.data,
    job_categories: jobCategories.data,
    travel_purposes: travelPurposes.data,
    transit_types: transitTypes.data,
    fiscal_years: fiscalYears.data?.map((y) => ({ id: y.id, name: y.name, isActive: true })),
  };
}
