import { ReportView } from './ReportView';

export default function ApprovalsByAccountsReportPage() {
  return <ReportView reportKey="approvals-by-accounts" />;
}
