import { useState } from 'react';
import { REIMBURSEMENTS_REPORT_COLUMNS_KEY } from '../../api/storage';
import { useGetReportCatalogueQuery } from './api';
import { ColumnPicker } from './ColumnPicker';
import { loadColumnChoice, saveColumnChoice } from './participantsReport';
import { DEFAULT_REIMBURSEMENT_COLUMNS } from './reportColumns';
import { ReportView } from './ReportView';

const KEY = 'mentor-program-reimbursements';

/** The mentor program reimbursements: a few columns by default, so the amounts are on screen at
 * 1280 px; the user may show more (kept in local storage); the exports carry every column. */
export default function MentorProgramReimbursementsReportPage() {
  const known = useGetReportCatalogueQuery().data?.find((r) => r.key === KEY)?.columns.map((c) => c.key);
  const [picked, setPicked] = useState<string[] | null>(null);
  const columns = picked ?? (known ? loadColumnChoice(known, REIMBURSEMENTS_REPORT_COLUMNS_KEY, DEFAULT_REIMBURSEMENT_COLUMNS) : undefined);
  const choose = (keys: string[]) => {
    saveColumnChoice(keys, REIMBURSEMENTS_REPORT_COLUMNS_KEY);
    setPicked(keys);
  };
  return (
    <ReportView
      reportKey={KEY}
      visibleColumns={columns}
      actions={(ctx) =>
        columns && (
          <ColumnPicker
            title="Columns in the table (the exports carry every one)"
            columns={ctx.report.columns}
            chosen={columns}
            onChange={choose}
            onReset={() => choose(DEFAULT_REIMBURSEMENT_COLUMNS.filter((k) => known?.includes(k)))}
          />
        )
      }
    />
  );
}
