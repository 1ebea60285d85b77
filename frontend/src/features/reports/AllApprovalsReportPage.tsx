import { ReportView } from './ReportView';

export default function AllApprovalsReportPage() {
  return <ReportView reportKey="all-approvals" />;
}
