import type { components } from './schema';

/** The server's wire shapes, generated from its OpenAPI document by openapi-typescript
 * (scripts/api-types.sh writes schema.d.ts; `make test` fails when it drifts). Features
 * alias these instead of describing the wire by hand. */
export type Schemas = components['schemas'];

/** One page of a server-paged list (`Page_…` in the document; every list pages alike). */
export type Page<T> = Omit<Schemas['Page_UserDto'], 'items'> & { items: T[] };

export type FiscalYear = Schemas['FiscalYearDto'];

/** One entry of any reference list; fixed enumerations carry their wire value in `code`. */
export type RefItem = Schemas['RefItem'];

/**
 * A request body as a form sends it: the named choice fields (enums in the document) carry what
 * the picker holds, possibly empty, and the server answers a missing or unknown one with that
 * field's error (the form shows it there).
 */
export type Unchecked<T, K extends keyof T> = Omit<T, K> & { [P in K]: string | Extract<T[P], null | undefined> };
