import { Alert, Button, CloseButton, Group, Stack, Text, VisuallyHidden } from '@mantine/core';
import { formatBytes } from './download';
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
      {state.kind === 'failed' && (
        <Alert color="red" variant="light" p="xs" w={300} role="alert" title={`${label} failed`}>
          <Group gap="xs" wrap="nowrap" align="flex-start">
            <Text size="xs" style={{ flex: 1 }}>
              {state.message}
            </Text>
            <CloseButton size="sm" aria-label="Dismiss" onClick={dismiss} />
          </Group>
        </Alert>
      )}
    </Stack>
  );
}
