import { Alert, Anchor, Button, FileButton, Group, List, Progress, Stack, Text } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import type { ApiError } from '../../../api/errors';
import { DownloadButton } from '../../../components/DownloadButton';
import { apiUrl, formatBytes } from '../../../components/download';
import { asApiError, ErrorDisplay } from '../../../components/ErrorDisplay';
import { PageCard } from '../../../components/PageCard';
import { PermissionGate } from '../../../components/PermissionGate';
import { useImportParticipantsMutation, type ImportReport } from '../api';
import { fileProblem, MAX_BYTES, refusedReport, rowsInError, summaryText } from './importReport';
import { ImportPreview } from './ImportPreview';

const ACCEPT = '.csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const TEMPLATE = '/participants/import/template';

/** Importing writes participants as well as creating them: both permissions, as the server asks. */
export default function ParticipantImportPage() {
  return (
    <PermissionGate permission="participant:edit">
      <ImportScreen />
    </PermissionGate>
  );
}

/**
 * Participants from a spreadsheet: the file is checked as soon as it is chosen (a dry run that
 * writes nothing), the preview lists the problems first and then what each row will do, and
 * only a clean preview can be imported, in one go.
 */
function ImportScreen() {
  const [file, setFile] = useState<File | null>(null);
  /** The last answer: a dry run's preview, a real run's result, or a real run refused for its rows. */
  const [report, setReport] = useState<ImportReport | null>(null);
  /** A file refused as a whole (unreadable, wrong columns, too large), in the server's words. */
  const [problem, setProblem] = useState<ApiError | null>(null);
  const [running, setRunning] = useState<'checking' | 'importing' | null>(null);
  /** Answers so far: each new report is shown from its first page. */
  const [answers, setAnswers] = useState(0);
  const [sendImport] = useImportParticipantsMutation();
  // Cleared after each choice, so choosing the same (corrected) file again is seen.
  const resetPicker = useRef<() => void>(null);
  const picker = useRef<HTMLButtonElement>(null);
  const finished = useRef<HTMLDivElement>(null);
  // The picker is disabled while a file is read, which drops the focus: after each answer it
  // goes where the next step is, the outcome of an import or else the picker.
  useEffect(() => {
    if (answers === 0) return;
    if (finished.current) finished.current.focus();
    else if (document.activeElement === document.body) picker.current?.focus();
  }, [answers]);

  const run = async (chosen: File, dryRun: boolean) => {
    setRunning(dryRun ? 'checking' : 'importing');
    setProblem(null);
    const result = await sendImport({ file: chosen, dryRun });
    setRunning(null);
    setAnswers((n) => n + 1);
    if (result.data) return setReport(result.data);
    const refused = refusedReport(result.error);
    setReport(refused ?? null);
    if (!refused) setProblem(asApiError(result.error));
  };

  const choose = (chosen: File | null) => {
    resetPicker.current?.();
    setFile(chosen);
    setReport(null);
    setProblem(null);
    if (!chosen) return;
    const tooMuch = fileProblem(chosen);
    if (tooMuch) return setProblem({ status: 0, title: 'This file cannot be imported', detail: tooMuch });
    void run(chosen, true);
  };

  const ready = report !== null && report.dryRun && report.errors.length === 0 && report.rows > 0;
  const done = report !== null && !report.dryRun && report.errors.length === 0;

  return (
    <PageCard
      title="Import participants"
      actions={
        <Anchor component={Link} to="/participant/list" size="sm">
          Participant list
        </Anchor>
      }
    >
      <Stack gap="xs">
        <Text size="sm">
          Fill in the template, one participant a row, then choose the file. Rows are matched to existing participants by e-mail: new
          ones are created, changed ones updated. Programs are given by name or code; lists (languages, permit levels…) are names
          separated by “;”. Dates are written in the office&apos;s format, set in General settings, or as YYYY-MM-DD. The Excel template
          offers the allowed values in drop-down lists and its Notes sheet says how to write each column.
        </Text>
        <Group gap="sm" align="flex-start">
          <DownloadButton label="Template (CSV)" fallbackName="participant-import.csv" url={() => apiUrl(TEMPLATE, { ReportFormat: 'Csv' })} />
          <DownloadButton label="Template (Excel)" fallbackName="participant-import.xlsx" url={() => apiUrl(TEMPLATE, { ReportFormat: 'Xlsx' })} />
        </Group>
      </Stack>

      <Group gap="sm">
        <FileButton onChange={choose} accept={ACCEPT} resetRef={resetPicker} disabled={running !== null}>
          {(props) => (
            <Button {...props} ref={picker} variant={file ? 'default' : 'filled'}>
              {file ? 'Choose another file…' : 'Choose a file…'}
            </Button>
          )}
        </FileButton>
        <Text size="sm" c="dimmed" data-testid="import-file">
          {file ? `${file.name} (${formatBytes(file.size)})` : `CSV or XLSX, up to ${MAX_BYTES / (1024 * 1024)} MB and 10,000 rows`}
        </Text>
        {file && !running && (report || problem) && !done && (
          <Button variant="subtle" onClick={() => void run(file, true)}>
            Check again
          </Button>
        )}
      </Group>

      {running && <Progress value={100} animated striped size="lg" aria-hidden data-testid="import-progress" />}
      {/* One live region, there from the start: it says when a run starts and how it ended. */}
      <Text size="sm" role="status" fw={500} data-testid="import-status">
        {running && file && `${running === 'checking' ? 'Checking' : 'Importing'} ${file.name}… a long file takes a few seconds.`}
        {!running && report && summaryText(report)}
      </Text>

      {problem && <ErrorDisplay error={problem} title={problem.status ? 'The file was not accepted' : problem.title} />}
      {report && report.errors.length > 0 && !running && (
        <Alert color="red" variant="light" role="alert" title={report.dryRun ? 'Nothing can be imported yet' : 'Nothing was imported'}>
          <List size="sm">
            <List.Item>
              {rowsInError(report).toLocaleString('en-US')} of {report.rows.toLocaleString('en-US')} rows have errors, listed below by row and column.
            </List.Item>
            <List.Item>Correct them in the file, save it, and choose it again.</List.Item>
          </List>
        </Alert>
      )}
      {done && (
        <Alert ref={finished} tabIndex={-1} color="green" variant="light" title="Import finished">
          <Text size="sm">
            {summaryText(report)}{' '}
            {/* The brand blue reads at 4.3:1 on the alert's green: a darker shade, underlined since it sits in a sentence. */}
            <Anchor component={Link} to="/participant/list" c="brand.8" underline="always">
              See the participant list
            </Anchor>
          </Text>
        </Alert>
      )}
      {ready && file && (
        <Group justify="flex-end">
          <Button onClick={() => void run(file, false)} loading={running === 'importing'} disabled={running === 'checking'}>
            Import {report.rows.toLocaleString('en-US')} rows
          </Button>
        </Group>
      )}

      {report && (
        <section aria-label={report.dryRun ? 'Preview' : 'Result'} aria-busy={running !== null}>
          <ImportPreview key={answers} report={report} />
        </section>
      )}
    </PageCard>
  );
}
