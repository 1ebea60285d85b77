import { useState } from 'react';
import { useHasPermission } from '../../lib/hooks';
import { useGetReportCatalogueQuery } from './api';
import { ColumnPicker } from './ColumnPicker';
import { EmailParticipants } from './EmailParticipants';
import { DEFAULT_PARTICIPANT_COLUMNS, loadColumnChoice, saveColumnChoice } from './participantsReport';
import { ReportView } from './ReportView';

/** The participants report: its columns are the user's choice (kept in local storage) for the
 * table and the exports alike (CustomColumnSetToInclude). */
export default function ParticipantsReportPage() {
  const canEmail = useHasPermission('report:sendemail');
  const catalogue = useGetReportCatalogueQuery();
  const known = catalogue.data?.find((r) => r.key === 'participants')?.columns.map((c) => c.key);
  const [picked, setPicked] = useState<string[] | null>(null);
  const columns = picked ?? (known ? loadColumnChoice(known) : undefined);
  const choose = (keys: string[]) => {
    saveColumnChoice(keys);
    setPicked(keys);
  };

  return (
    <ReportView
      reportKey="participants"
      visibleColumns={columns}
      exportParams={columns ? { CustomColumnSetToInclude: columns.join(',') } : undefined}
      actions={(ctx) => (
        <>
          {canEmail && <EmailParticipants filters={ctx.filters} />}
          {columns && (
            <ColumnPicker
              columns={ctx.report.columns}
              chosen={columns}
              onChange={choose}
              onReset={() => choose(DEFAULT_PARTICIPANT_COLUMNS.filter((k) => known?.includes(k)))}
            />
          )}
        </>
      )}
    />
  );
}
