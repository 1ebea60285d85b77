import { api } from '../../api/api';
import type { Schemas } from '../../api/wire';

export type AuditEntry = Schemas['AuditEntry'];
export type AuditPage = Schemas['AuditPage'];
export type AuditVerdict = Schemas['AuditVerdict'];

// The trail only grows, and a page is read as asked: no tags to keep.
const auditLogApi = api.injectEndpoints({
  endpoints: (build) => ({
    getAuditLog: build.query<AuditPage, Record<string, string>>({ query: (params) => ({ url: '/audit-log', params }) }),
    // Recomputes the whole chain: asked for on request, never cached as an answer for later.
    verifyAuditLog: build.query<AuditVerdict, void>({ query: () => '/audit-log/verify', keepUnusedDataFor: 0 }),
  }),
});

export const { useGetAuditLogQuery, useLazyVerifyAuditLogQuery } = auditLogApi;
