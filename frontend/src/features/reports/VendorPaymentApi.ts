import { api } from '../../api/api';

// Vendor payment calls (DESIGN §6; src/reports/vendor_payments/dto.rs is the source).

/** One payment: previewed live, or frozen in a history entry. */
export interface VendorPaymentRow {
  /** The vendor for F9, otherwise the participant paid. */
  payee: string;
  payeeAddress: string | null;
  requestId: number;
  formType: string;
  /** UTC; the report's date column ("Approved on"). */
  approvedAt: string;
  approvalCode: string | null;
  fund: string | null;
  expenseAccount: string | null;
  amount: number;
}

interface RowsPage {
  items: VendorPaymentRow[];
  page: number;
  size: number;
  totalCount: number;
  totals: { amount: number };
}

export type VendorPaymentPreview = RowsPage;

export interface VendorPaymentEntry {
  id: number;
  createdAt: string;
  createdBy: number;
  createdByName: string;
  fiscalYearId: number;
  fiscalYearName: string | null;
  startDate: string;
  endDate: string;
  rowCount: number;
  totalAmount: number;
}

export interface VendorPaymentHistory {
  items: VendorPaymentEntry[];
  page: number;
  size: number;
  totalCount: number;
  totals: { rowCount: number; totalAmount: number };
}

export interface VendorPaymentDetails extends RowsPage {
  entry: VendorPaymentEntry;
}

export interface VendorPaymentRange {
  fiscalYearId: number;
  startDate: string;
  endDate: string;
  minutesOffset: number;
}

export interface VendorPaymentFiscalYear {
  id: number;
  name: string;
  startDate: string;
  endDate: string;
}

export interface GenerateVendorPaymentBody extends VendorPaymentRange {
  expectedCount: number;
  expectedTotal: number;
}

const withTags = api.enhanceEndpoints({ addTagTypes: ['VendorPaymentPreview', 'VendorPaymentHistory'] });

export const vendorPaymentApi = withTags.injectEndpoints({
  endpoints: (build) => ({
    getVendorPaymentFiscalYears: build.query<VendorPaymentFiscalYear[], void>({ query: () => '/system-settings/fiscal-years' }),
    getVendorPaymentPreview: build.query<VendorPaymentPreview, VendorPaymentRange & { page: number; size: number }>({
      query: ({ fiscalYearId, startDate, endDate, minutesOffset, page, size }) => ({
        url: '/reports/vendor-payments',
        params: { FiscalYearId: fiscalYearId, StartDate: startDate, EndDate: endDate, MinutesOffset: minutesOffset, Page: page, Size: size },
      }),
      providesTags: ['VendorPaymentPreview'],
    }),
    // Errors (409 changed preview, 422 nothing to pay) are shown on the page itself.
    generateVendorPayment: build.mutation<VendorPaymentEntry, GenerateVendorPaymentBody>({
      query: (body) => ({ url: '/reports/vendor-payments', method: 'POST', body }),
      extraOptions: { quiet: true },
      invalidatesTags: ['VendorPaymentPreview', 'VendorPaymentHistory'],
    }),
    getVendorPaymentHistory: build.query<VendorPaymentHistory, { page: number; size: number }>({
      query: ({ page, size }) => ({ url: '/reports/vendor-payments/history', params: { Page: page, Size: size } }),
      providesTags: ['VendorPaymentHistory'],
    }),
    getVendorPaymentDetails: build.query<VendorPaymentDetails, { id: number; page: number; size: number }>({
      query: ({ id, page, size }) => ({ url: `/reports/vendor-payments/history/${id}`, params: { Page: page, Size: size } }),
      providesTags: ['VendorPaymentHistory'],
    }),
  }),
});

export const {
  useGetVendorPaymentFiscalYearsQuery,
  useGetVendorPaymentPreviewQuery,
  useGenerateVendorPaymentMutation,
  useGetVendorPaymentHistoryQuery,
  useGetVendorPaymentDetailsQuery,
} = vendorPaymentApi;
