import type { Schemas } from '../api/wire';

/**
 * A permission code (lower-case `resource:action`), as the server's OpenAPI document
 * lists them: gates name codes as literals and the type check refuses one the server does not know.
 */
export type PermissionCode = Schemas['Permission'];
