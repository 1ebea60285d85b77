import type { components } from './schema';

/** The server's wire shapes, generated from its OpenAPI document by openapi-typescript
 * (scripts/api-types.sh writes schema.d.ts; `make test` fails when it drifts). Features
 * alias these instead of describing the wire by hand. */
export type Schemas = components['schemas'];
