import { api } from '../../api/api';
import type { Schemas } from '../../api/wire';

// Vendor payment calls (src/vendor_payments/dto.rs is the source).

/** One payment: previewed live, or frozen in a history entry. */
export type VendorPaymentRow = Schemas['VendorPaymentRow'];

export type VendorPaymentEntry = Schemas['HistoryEntry'];

/** The range a preview, an export and a generation share (the screen's query, not a wire schema). */
export interface VendorPaymentRange {
  fiscalYearId: number;
  startDate: string;
  endDate: string;
  minutesOffset: number;
}

const withTags = api.enhanceEndpoints({ addTagTypes: ['VendorPaymentPreview', 'VendorPaymentHistory'] });

export const vendorPaymentApi = withTags.injectEndpoints({
  endpoints: (build) => ({
    getVendorPaymentPreview: build.query<Schemas['PreviewPage'], VendorPaymentRange & { page: number; size: number }>({
      query: ({ fiscalYearId, startDate, endDate, minutesOffset, page, size }) => ({
        url: '/reports/vendor-payments',
        params: { FiscalYearId: fiscalYearId, StartDate: startDate, EndDate: endDate, MinutesOffset: minutesOffset, Page: page, Size: size },
      }),
      providesTags: ['VendorPaymentPreview'],
    }),
    getVendorPaymentReady: build.query<Schemas['ReadyYear'][], void>({
      query: () => ({ url: '/reports/vendor-payments/ready' }),
      providesTags: ['VendorPaymentPreview'],
    }),
    // Errors (409 changed preview, 422 nothing to pay) are shown on the page itself.
    generateVendorPayment: build.mutation<VendorPaymentEntry, Schemas['GenerateBody']>({
      query: (body) => ({ url: '/reports/vendor-payments', method: 'POST', body }),
      extraOptions: { quiet: true },
      invalidatesTags: ['VendorPaymentPreview', 'VendorPaymentHistory'],
    }),
    getVendorPaymentHistory: build.query<Schemas['HistoryPage'], { page: number; size: number }>({
      query: ({ page, size }) => ({ url: '/reports/vendor-payments/history', params: { Page: page, Size: size } }),
      providesTags: ['VendorPaymentHistory'],
    }),
    getVendorPaymentDetails: build.query<Schemas['HistoryDetails'], { id: number; page: number; size: number }>({
      query: ({ id, page, size }) => ({ url: `/reports/vendor-payments/history/${id}`, params: { Page: page, Size: size } }),
      providesTags: ['VendorPaymentHistory'],
    }),
  }),
});

export const {
  useGetVendorPaymentPreviewQuery,
  useGetVendorPaymentReadyQuery,
  useGenerateVendorPaymentMutation,
  useGetVendorPaymentHistoryQuery,
  useGetVendorPaymentDetailsQuery,
} = vendorPaymentApi;
