import { api } from '../../api/api';
import type { Page, Schemas } from '../../api/wire';

// Wire shapes of the payment request calls (src/payment_requests/dto.rs is the source).

/** What the caller may do with a request now (camelCase wire names). */
export type Action = Schemas['Action'];

export type PaymentRequestListItem = Schemas['PaymentRequestListItem'];

/**
 * One request with its details. The form code reads `details` by field name (genericForms.ts
 * describes each form as data), so they are loosened here; the document's F1Details…F14Details
 * are the contract the server checks.
 */
export type PaymentRequest = Omit<Schemas['PaymentRequestDto'], 'details'> & { details: Record<string, unknown> };

/** One step of the request's chain (copied at submission), its state and who took it. */
export type ApprovalStepView = Schemas['ApprovalStepDto'];
export type StepState = Schemas['StepState'];
/** The step an approval acts on: `index` from 0, of `count`. */
export type StepRef = Schemas['StepInfo'];

/** POST /fileupload/generate-upload-urls answers one of these per announced file. */
type UploadUrl = Schemas['UploadUrl'];

/** POST / PUT body; `details` as the form builds them (see PaymentRequest). */
export type WriteBody = Omit<Schemas['WriteRequest'], 'details'> & { details: Record<string, unknown> };

type StatusSummary = Schemas['StatusSummary'];

/** The receipt types the preview route serves (receipts.rs `PREVIEW_TYPES`); others are only downloaded. */
export const PREVIEW_TYPES = ['image/png', 'image/jpeg', 'application/pdf'];

/** Home's totals per status. */
export interface Summary {
  statuses: StatusSummary[];
}

const readSummary = (statuses: StatusSummary[]): Summary => ({ statuses });

type ActivityEntry = Schemas['ActivityEntryDto'];

export type ApproveBody = Schemas['ApproveBody'];

export type ValidationResult = Schemas['ValidationResult'];
/** approve/validate's answer: the verdict, the current step and whether it is the last. */
export type ApprovalValidation = Schemas['ApprovalValidation'];

/** GET /mentor-programs/mine. */
export type MyPrograms = Schemas['MyPrograms'];

/** A payee choice: one participation with its participant's name (GET /payment-requests/participant-list). */
export type PayeeOption = Schemas['ParticipantListItem'];

/** GET /payment-requests query, under the server's own PascalCase names. */
type ListParams = Record<string, string | number | boolean | string[] | undefined>;

/** A failed file answer's body: its problem JSON, or its text when it is not JSON. */
async function errorBody(response: Response): Promise<unknown> {
  const text = await response.text();
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

const quiet = { quiet: true };
const withTags = api.enhanceEndpoints({ addTagTypes: ['PaymentRequest', 'PaymentRequestList', 'PaymentRequestActivity'] });
const ref = (id: number, formType: string) => [{ type: 'PaymentRequest' as const, id: `${formType}-${id}` }, 'PaymentRequestList' as const];

export const paymentRequestsApi = withTags.injectEndpoints({
  endpoints: (build) => ({
    getPaymentRequests: build.query<Page<PaymentRequestListItem>, ListParams>({
      query: (params) => ({ url: '/payment-requests', params }),
      providesTags: ['PaymentRequestList'],
    }),
    getPaymentRequestSummary: build.query<Summary, number | undefined>({
      query: (mentorProgramId) => ({ url: '/payment-requests/summary', params: mentorProgramId ? { mentorProgramId } : undefined }),
      transformResponse: readSummary,
      providesTags: ['PaymentRequestList'],
    }),
    getPaymentRequest: build.query<PaymentRequest, { formType: string; id: number }>({
      query: ({ formType, id }) => `/payment-requests/${formType}/${id}`,
      providesTags: (_r, _e, { formType, id }) => [{ type: 'PaymentRequest', id: `${formType}-${id}` }],
    }),
    createPaymentRequest: build.mutation<PaymentRequest, { formType: string; body: WriteBody }>({
      query: ({ formType, body }) => ({ url: `/payment-requests/${formType}`, method: 'POST', body }),
      extraOptions: quiet,
      invalidatesTags: ['PaymentRequestList'],
    }),
    updatePaymentRequest: build.mutation<PaymentRequest, { formType: string; id: number; body: WriteBody }>({
      query: ({ formType, id, body }) => ({ url: `/payment-requests/${formType}/${id}`, method: 'PUT', body }),
      extraOptions: quiet,
      invalidatesTags: (_r, error, { formType, id }) => (error?.status === 409 ? [] : ref(id, formType)),
    }),
    deletePaymentRequest: build.mutation<void, { formType: string; id: number }>({
      query: ({ formType, id }) => ({ url: `/payment-requests/${formType}/${id}`, method: 'DELETE' }),
      invalidatesTags: ['PaymentRequestList'],
    }),
    /** submit, move-to-draft, send-for-revision {reason}, move-back-to-submitted, move-to-ready-for-processing, approve. */
    paymentRequestAction: build.mutation<PaymentRequest, { formType: string; id: number; action: string; body?: unknown }>({
      query: ({ formType, id, action, body }) => ({ url: `/payment-requests/${formType}/${id}/${action}`, method: 'POST', body: body ?? {} }),
      invalidatesTags: (_r, _e, { formType, id }) => [...ref(id, formType), 'PaymentRequestActivity'],
    }),
    approvePaymentRequest: build.mutation<PaymentRequest, { formType: string; id: number; body: ApproveBody }>({
      query: ({ formType, id, body }) => ({ url: `/payment-requests/${formType}/${id}/approve`, method: 'POST', body }),
      extraOptions: quiet,
      invalidatesTags: (_r, _e, { formType, id }) => [...ref(id, formType), 'PaymentRequestActivity'],
    }),
    validateApproval: build.mutation<ApprovalValidation, { formType: string; id: number; body: ApproveBody }>({
      query: ({ formType, id, body }) => ({ url: `/payment-requests/${formType}/${id}/approve/validate`, method: 'POST', body }),
      extraOptions: quiet,
    }),
    /** The submitter's dry run: warnings (a late submission) to confirm before submitting. */
    validateSubmit: build.mutation<ValidationResult, { formType: string; id: number }>({
      query: ({ formType, id }) => ({ url: `/payment-requests/${formType}/${id}/submit/validate`, method: 'POST', body: {} }),
    }),
    moveToReadyForProcessingBatch: build.mutation<{ moved: number[] }, number[]>({
      query: (ids) => ({ url: '/payment-requests/move-to-statuses/ready-for-processing/batch', method: 'POST', body: { ids } }),
      invalidatesTags: ['PaymentRequestList'],
    }),
    generateUploadUrls: build.mutation<UploadUrl[], { fileName: string; contentType: string; size: number }[]>({
      query: (files) => ({ url: '/fileupload/generate-upload-urls', method: 'POST', body: { files } }),
      extraOptions: quiet,
    }),
    /** A receipt's bytes (bearer needed, so no plain link): answered as an object URL the caller
     * opens and revokes, so no Blob (not serialisable) reaches the store. */
    downloadReceipt: build.mutation<string, { id: number; fileId: string }>({
      query: ({ id, fileId }) => ({
        url: `/payment-requests/F2/${id}/files/${encodeURIComponent(fileId)}`,
        cache: 'no-store',
        responseHandler: async (response: Response) => {
          if (response.ok) return URL.createObjectURL(await response.blob());
          return errorBody(response);
        },
      }),
      extraOptions: quiet,
    }),
    /** A receipt shown in the page: an image or a PDF (the server refuses other types), as an
     * object URL typed by the server's answer, revoked when the cache lets the entry go. */
    previewReceipt: build.query<string, { id: number; fileId: string }>({
      query: ({ id, fileId }) => ({
        url: `/payment-requests/F2/${id}/files/${encodeURIComponent(fileId)}/preview`,
        responseHandler: async (response: Response) => {
          const type = response.headers.get('Content-Type') ?? '';
          if (response.ok && PREVIEW_TYPES.includes(type)) return URL.createObjectURL(new Blob([await response.arrayBuffer()], { type }));
          return errorBody(response);
        },
      }),
      extraOptions: quiet,
      keepUnusedDataFor: 30,
      async onCacheEntryAdded(_arg, { cacheDataLoaded, cacheEntryRemoved }) {
        try {
          const { data } = await cacheDataLoaded;
          await cacheEntryRemoved;
          URL.revokeObjectURL(data);
        } catch {
          // Removed before it loaded: no URL was made.
        }
      },
    }),
    getPaymentRequestActivity: build.query<ActivityEntry[], { formType: string; id: number }>({
      query: ({ formType, id }) => ({ url: '/payment-requests/activity-log', params: { PaymentRequestId: id, PaymentRequestType: formType } }),
      extraOptions: quiet,
      providesTags: ['PaymentRequestActivity'],
    }),

    // Reference lists of the forms (named apart from other features' injections).
    // The caller's own programs (its coordinator scope), to offer only those.
    getMyPrograms: build.query<MyPrograms, void>({ query: () => '/mentor-programs/mine', extraOptions: quiet }),
    getPayees: build.query<PayeeOption[], { mentorProgramId?: number; formType?: string; formId?: number; participationIds?: number[] }>({
      query: ({ mentorProgramId, formType, formId, participationIds }) => ({
        url: '/payment-requests/participant-list',
        params: {
          MentorProgramId: mentorProgramId,
          FormType: formType,
          FormId: formId,
          ParticipationIds: participationIds?.length ? participationIds.join(',') : undefined,
          // A list row may name a payee deleted since.
          ShowDeleted: participationIds?.length ? true : undefined,
        },
      }),
    }),
    // The rates the server applies now, what F3 (per mile) and F12 (per meal) are computed with
    // (request:read, so Coordinators get them too; the general settings would need setting:read).
    getPaymentRequestRates: build.query<Schemas['CurrentRates'], void>({ query: () => '/payment-requests/rates', extraOptions: quiet }),
  }),
});

export const {
  useGetPaymentRequestsQuery,
  useLazyGetPaymentRequestsQuery,
  useGetPaymentRequestSummaryQuery,
  useGetPaymentRequestQuery,
  useCreatePaymentRequestMutation,
  useUpdatePaymentRequestMutation,
  useDeletePaymentRequestMutation,
  usePaymentRequestActionMutation,
  useApprovePaymentRequestMutation,
  useValidateApprovalMutation,
  useValidateSubmitMutation,
  useMoveToReadyForProcessingBatchMutation,
  useGetPaymentRequestActivityQuery,
  useGenerateUploadUrlsMutation,
  useDownloadReceiptMutation,
  usePreviewReceiptQuery,
  useGetMyProgramsQuery,
  useGetPaymentRequestRatesQuery,
  useGetPayeesQuery,
} = paymentRequestsApi;
