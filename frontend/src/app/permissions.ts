// The permission codes the UI checks (SPEC §6, lower-case `resource:action`).
// The full list is the server's (GET /identity/permissions); only the ones
// that gate menus and pages are named here, in one place.
export const Permission = {
  ParticipantRead: 'participant:read',
  ParticipantCreate: 'participant:create',
  ParticipantEdit: 'participant:edit',
  ParticipantDelete: 'participant:delete',
  CoordinatorCreate: 'coordinator:create',
  RequestRead: 'request:read',
  RequestCreate: 'request:create',
  RequestEdit: 'request:edit',
  RequestApprove: 'request:approve',
  BudgetRead: 'budget:read',
  SettingViewMenu: 'setting:viewmenu',
  SettingRead: 'setting:read',
  ReportRead: 'report:read',
  ReportReimbursement: 'report:readreimbursement',
  ReportParticipants: 'report:readparticipants',
  ReportApprovalByAccount: 'report:readapprovalbyaccount',
  ReportAllApprovals: 'report:readallapprovals',
  ReportApprovalsByRequestType: 'report:readapprovalsbyrequesttype',
  ReportActualVsBudget: 'report:readactualvsbudget',
  ReportPaymentRequestsByType: 'report:readpaymentrequestsbytype',
  ReportHistoricalBonuses: 'report:readhistoricalbonuses',
  ReportVendorPaymentsHistory: 'report:readvendorpaymentshistory',
  ReportGenerateVendorPayment: 'report:generatevendorpayment',
} as const;
