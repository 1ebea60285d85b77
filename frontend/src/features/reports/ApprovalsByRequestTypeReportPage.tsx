import { approvedByFormType } from './charts';
import { ReportChart } from './ReportChart';
import { ReportView } from './ReportView';

const SERIES = [{ key: 'approvedSum', label: 'Approved amount', color: 'brand.6' }];

export default function ApprovalsByRequestTypeReportPage() {
  return (
    <ReportView
      reportKey="approvals-by-request-type"
      aboveTable={(ctx) => (
        <ReportChart {...ctx} title="Approved amount per form" series={SERIES} toCategories={approvedByFormType} testId="request-type-chart" />
      )}
    />
  );
}
