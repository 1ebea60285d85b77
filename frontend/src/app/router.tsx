import { Center, Loader } from '@mantine/core';
import { createBrowserRouter, type RouteObject } from 'react-router';
import { AppFrame } from './AppFrame';
import { AnonymousOnly, RequireAuth, RouteErrorRedirect } from './guards';
import { PublicLayout, type PublicPageHandle } from './layouts/PublicLayout';
import { lazyPage } from './lazyPage';

// Every screen's route. Pages are loaded on demand (one chunk each) and
// gated by the permission named beside them.

const publicRoutes: RouteObject[] = [
  { path: 'login', handle: { title: 'Sign in' } satisfies PublicPageHandle, lazy: lazyPage(() => import('../features/auth/LoginPage')) },
  {
    path: 'forgot-password',
    handle: { title: 'Forgot password' } satisfies PublicPageHandle,
    lazy: lazyPage(() => import('../features/auth/ForgotPasswordPage')),
  },
  {
    path: 'set-password',
    handle: { title: 'Set password' } satisfies PublicPageHandle,
    lazy: lazyPage(() => import('../features/auth/SetPasswordPage')),
  },
];

const participantForm = () => import('../features/participants/ParticipantFormPage');
const requestForm = () => import('../features/payment-requests/PaymentRequestFormPage');
const vendorPaymentReport = () => import('../features/reports/VendorPaymentReportPage');

const mainRoutes: RouteObject[] = [
  { index: true, lazy: lazyPage(() => import('../features/payment-requests/PaymentRequestListPage')) },
  {
    path: 'payment-requests/details',
    lazy: lazyPage(() => import('../features/payment-requests/PaymentRequestDetailsListPage'), { permission: 'request:read' }),
  },
  { path: 'payment-request/:formType/create', lazy: lazyPage(requestForm, { permission: 'request:create', props: { mode: 'create' } }) },
  {
    path: 'payment-request/:formType/:paymentRequestId/details',
    lazy: lazyPage(requestForm, { permission: 'request:read', props: { mode: 'view' } }),
  },
  {
    path: 'payment-request/:formType/:paymentRequestId/edit',
    lazy: lazyPage(requestForm, { permission: 'request:edit', props: { mode: 'edit' } }),
  },
  {
    path: 'payment-request/:formType/:paymentRequestId/approve',
    lazy: lazyPage(requestForm, { permission: 'request:approve', props: { mode: 'approve' } }),
  },

  { path: 'participant/list', lazy: lazyPage(() => import('../features/participants/ParticipantListPage'), { permission: 'participant:read' }) },
  { path: 'participant/create', lazy: lazyPage(participantForm, { permission: 'participant:create', props: { mode: 'create' } }) },
  // The page asks for participant:edit as well (an import updates too).
  { path: 'participant/import', lazy: lazyPage(() => import('../features/participants/import/ParticipantImportPage'), { permission: 'participant:create' }) },
  { path: 'participant/:participantId/details', lazy: lazyPage(participantForm, { permission: 'participant:read', props: { mode: 'view' } }) },
  { path: 'participant/:participantId/edit', lazy: lazyPage(participantForm, { permission: 'participant:edit', props: { mode: 'edit' } }) },

  { path: 'settings', lazy: lazyPage(() => import('../features/settings/SettingsPage'), { permission: 'setting:viewmenu' }) },
  { path: 'settings/general', lazy: lazyPage(() => import('../features/settings/GeneralSettingsPage'), { permission: 'setting:read' }) },
  {
    path: 'settings/template-validation',
    lazy: lazyPage(() => import('../features/settings/TemplateValidationPage'), { permission: 'setting:read' }),
  },
  {
    path: 'settings/approval-rules',
    lazy: lazyPage(() => import('../features/settings/ApprovalRulesPage'), { permission: 'setting:read' }),
  },
  {
    path: 'settings/notification-banner',
    lazy: lazyPage(() => import('../features/settings/NotificationBannerPage'), { permission: 'setting:read' }),
  },
  { path: 'settings/outbox', lazy: lazyPage(() => import('../features/settings/OutboxPage'), { permission: 'setting:read' }) },
  { path: 'settings/audit-log', lazy: lazyPage(() => import('../features/audit-log/AuditLogPage'), { permission: 'audit:read' }) },
  { path: 'settings/sign-on', lazy: lazyPage(() => import('../features/settings/SignOnPage'), { permission: 'setting:read' }) },
  { path: 'settings/security', lazy: lazyPage(() => import('../features/settings/SecurityPolicyPage'), { permission: 'setting:read' }) },
  { path: 'settings/block-login', lazy: lazyPage(() => import('../features/settings/BlockLoginPage'), { permission: 'setting:read' }) },
  { path: 'settings/reference', lazy: lazyPage(() => import('../features/settings/ReferenceListsPage'), { permission: 'setting:viewmenu' }) },
  { path: 'settings/reference/:list', lazy: lazyPage(() => import('../features/settings/ReferenceListsPage'), { permission: 'setting:viewmenu' }) },
  // User and role management (identity API).
  { path: 'settings/users', lazy: lazyPage(() => import('../features/identity/UsersPage'), { permission: 'user:read' }) },
  { path: 'settings/roles', lazy: lazyPage(() => import('../features/identity/RolesPage'), { permission: 'role:read' }) },

  { path: 'budget/list', lazy: lazyPage(() => import('../features/budgets/BudgetListPage'), { permission: 'budget:read' }) },
  { path: 'budget/:fiscalYearId/details', lazy: lazyPage(() => import('../features/budgets/BudgetDetailsPage'), { permission: 'budget:read' }) },

  { path: 'reports', lazy: lazyPage(() => import('../features/reports/ReportsPage'), { permission: 'report:read' }) },
  {
    path: 'reports/mentor-program-reimbursements',
    lazy: lazyPage(() => import('../features/reports/MentorProgramReimbursementsReportPage'), { permission: 'report:readreimbursement' }),
  },
  {
    path: 'reports/participants',
    lazy: lazyPage(() => import('../features/reports/ParticipantsReportPage'), { permission: 'report:readparticipants' }),
  },
  {
    path: 'reports/approvals-by-accounts',
    lazy: lazyPage(() => import('../features/reports/ApprovalsByAccountsReportPage'), { permission: 'report:readapprovalbyaccount' }),
  },
  {
    path: 'reports/all-approvals',
    lazy: lazyPage(() => import('../features/reports/AllApprovalsReportPage'), { permission: 'report:readallapprovals' }),
  },
  {
    path: 'reports/approvals-by-request-type',
    lazy: lazyPage(() => import('../features/reports/ApprovalsByRequestTypeReportPage'), {
      permission: 'report:readapprovalsbyrequesttype',
    }),
  },
  {
    path: 'reports/actual-vs-budget',
    lazy: lazyPage(() => import('../features/reports/ActualVsBudgetReportPage'), { permission: 'report:readactualvsbudget' }),
  },
  {
    path: 'reports/all-payments-requests',
    lazy: lazyPage(() => import('../features/reports/AllPaymentRequestsReportPage'), { permission: 'report:readpaymentrequestsbytype' }),
  },
  {
    path: 'reports/historical-bonuses',
    lazy: lazyPage(() => import('../features/reports/HistoricalBonusesReportPage'), { permission: 'report:readhistoricalbonuses' }),
  },
  {
    path: 'reports/vendor-payment/list',
    lazy: lazyPage(() => import('../features/reports/VendorPaymentListPage'), { permission: 'report:readvendorpaymentshistory' }),
  },
  {
    path: 'reports/vendor-payment/:reportHistoryId/details',
    lazy: lazyPage(vendorPaymentReport, { permission: 'report:readvendorpaymentshistory', props: { mode: 'view' } }),
  },
  {
    path: 'reports/vendor-payment/generate',
    lazy: lazyPage(vendorPaymentReport, { permission: 'report:generatevendorpayment', props: { mode: 'create' } }),
  },
];

function PageLoader() {
  return (
    <Center h="100vh">
      <Loader aria-label="Loading" />
    </Center>
  );
}

export const routes: RouteObject[] = [
  {
    path: '/',
    Component: AppFrame,
    // Unknown paths (404) and route errors both end up here and go Home.
    errorElement: <RouteErrorRedirect />,
    HydrateFallback: PageLoader,
    children: [
      { Component: AnonymousOnly, children: [{ Component: PublicLayout, children: publicRoutes }] },
      // The signed-in layout (menus, idle sign-out) is a chunk of its own too: /login loads none of it.
      { Component: RequireAuth, children: [{ lazy: lazyPage(() => import('./layouts/MainLayout')), children: mainRoutes }] },
    ],
  },
];

/** Created after the chunk-error handler is installed: the first page starts loading at once. */
export const createAppRouter = () => createBrowserRouter(routes);
