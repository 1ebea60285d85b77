/**
 * The values of an enum of the OpenAPI document, for a picker. schema.d.ts holds types only, so
 * the values are written out here, but against the generated type: `enumValues<Schemas['X']>({...})`
 * refuses a missing or an unknown value, so the type check fails when the server's list changes.
 */
export function enumValues<T extends string>(all: Record<T, true>): T[] {
  return Object.keys(all) as T[];
}
