import { Alert, CloseButton, Group, Text } from '@mantine/core';

/** Why a download failed, in an alert the user dismisses (the export menu and the download button). */
export function DownloadFailed({ title, message, onDismiss }: { title: string; message: string; onDismiss: () => void }) {
  return (
    <Alert color="red" variant="light" p="xs" w={300} role="alert" title={title}>
      <Group gap="xs" wrap="nowrap" align="flex-start">
        <Text size="xs" style={{ flex: 1 }}>
          {message}
        </Text>
        <CloseButton size="sm" aria-label="Dismiss" onClick={onDismiss} />
      </Group>
    </Alert>
  );
}
