import { Button, Group, Stack, Text, VisuallyHidden } from '@mantine/core';
import { formatBytes } from './download';
import { DownloadFailed } from './DownloadFailed';
import { useDownload } from './useDownload';

interface Props {
  /** The file's address (see `apiUrl` in ./download), asked when the button is pressed. */
  url: () => string;
  /** Used only when the server names no file. */
  fallbackName: string;
  /** The button's text, which is also its accessible name. */
  label: string;
  disabled?: boolean;
}

/**
 * A button that downloads one document (a packet): fetched with the session's token, the bytes
 * received shown while it streams with a Cancel, saved under the server's name; the start and
 * the end said in one live region, a failure in an alert.
 */
export function DownloadButton({ url, fallbackName, label, disabled = false }: Props) {
  const { state, start, cancel, dismiss } = useDownload<null>('The download failed.');
  const running = state.kind === 'running';
  return (
    <Stack gap={4} align="flex-end">
      <Button variant="light" disabled={disabled || running} onClick={() => void start(url(), fallbackName, null)}>
        {label}
      </Button>
      {state.kind === 'running' && (
        <Group gap="xs" wrap="nowrap">
          <Text size="xs" aria-hidden>
            {`Preparing… ${formatBytes(state.progress.received)}`}
          </Text>
          <Button size="compact-xs" variant="subtle" color="gray" onClick={cancel}>
            Cancel
          </Button>
        </Group>
      )}
      <Text size="xs" c="dimmed" role="status">
        {running && <VisuallyHidden component="span">{`Preparing ${label.toLowerCase()}…`}</VisuallyHidden>}
        {state.kind === 'saved' && `Saved ${state.fileName}`}
      </Text>
      {state.kind === 'failed' && <DownloadFailed title={`${label} failed`} message={state.message} onDismiss={dismiss} />}
    </Stack>
  );
}
