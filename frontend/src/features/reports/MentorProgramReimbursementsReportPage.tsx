import { ReportView } from './ReportView';

export default function MentorProgramReimbursementsReportPage() {
  return <ReportView reportKey="mentor-program-reimbursements" />;
}
