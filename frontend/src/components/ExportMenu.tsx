import { Button, Group, Menu, Progress, Stack, Text, VisuallyHidden } from '@mantine/core';
import { formatBytes, type ReportFormat } from './download';
import { DownloadFailed } from './DownloadFailed';
import { useDownload } from './useDownload';

export type { ReportFormat } from './download';

export const FORMAT_LABELS: Record<ReportFormat, string> = { Csv: 'CSV', Xlsx: 'Excel (XLSX)', Pdf: 'PDF' };
const EXTENSIONS: Record<ReportFormat, string> = { Csv: 'csv', Xlsx: 'xlsx', Pdf: 'pdf' };
/** Every format the document's ReportFormat names (the labels are keyed by it, so none is missed). */
export const ALL_FORMATS = Object.keys(FORMAT_LABELS) as ReportFormat[];

interface Props {
  /** The export's address for one format (see `apiUrl` in ./download). */
  url: (format: ReportFormat) => string;
  /** File name stem used only when the server names no file. */
  fallbackName: string;
  formats?: readonly ReportFormat[];
  /** Button text; also names the menu for screen readers. */
  label?: string;
  disabled?: boolean;
}

/**
 * "Export" menu of a report (CSV, Excel, PDF). The file is fetched with the session's token;
 * while it streams the received bytes show (a bar when the size is known) with a Cancel, and the
 * file is saved under the name the server gives in Content-Disposition.
 */
export function ExportMenu({ url, fallbackName, formats = ALL_FORMATS, label = 'Export', disabled = false }: Props) {
  const { state, start, cancel, dismiss } = useDownload<ReportFormat>('The export failed.');
  const choose = (format: ReportFormat) => void start(url(format), `${fallbackName}.${EXTENSIONS[format]}`, format);

  const running = state.kind === 'running';
  return (
    <Stack gap={6} align="flex-end" data-testid="export-menu">
      <Menu position="bottom-end" withinPortal disabled={disabled || running}>
        <Menu.Target>
          <Button variant="light" disabled={disabled || running} aria-haspopup="menu">
            {label}
          </Button>
        </Menu.Target>
        <Menu.Dropdown aria-label={label}>
          {formats.map((format) => (
            <Menu.Item key={format} onClick={() => choose(format)}>
              {FORMAT_LABELS[format]}
            </Menu.Item>
          ))}
        </Menu.Dropdown>
      </Menu>
      {state.kind === 'running' && (
        <Group gap="xs" wrap="nowrap" w={300} data-testid="export-progress">
          <Stack gap={2} style={{ flex: 1 }}>
            <Text size="xs" aria-hidden>
              {`Downloading ${FORMAT_LABELS[state.what]}… ${formatBytes(state.progress.received)}`}
              {state.progress.total ? ` of ${formatBytes(state.progress.total)}` : ''}
            </Text>
            <Progress
              size="sm"
              value={state.progress.total ? Math.min(100, (100 * state.progress.received) / state.progress.total) : 100}
              animated={!state.progress.total}
              striped={!state.progress.total}
              aria-label="Download progress"
            />
          </Stack>
          <Button size="compact-xs" variant="subtle" color="gray" onClick={cancel}>
            Cancel
          </Button>
        </Group>
      )}
      {/* One live region, there before anything is said in it (a region that appears with its
          text is not reliably read out); it says the start and the end, not every byte. */}
      <Text size="xs" c="dimmed" role="status" data-testid={state.kind === 'saved' ? 'export-saved' : undefined}>
        {state.kind === 'running' && <VisuallyHidden component="span">{`Downloading ${FORMAT_LABELS[state.what]}…`}</VisuallyHidden>}
        {state.kind === 'saved' && `Saved ${state.fileName}`}
      </Text>
      {state.kind === 'failed' && <DownloadFailed title="The export failed" message={state.message} onDismiss={dismiss} />}
    </Stack>
  );
}
