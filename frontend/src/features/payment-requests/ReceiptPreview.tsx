import { Alert, Box, Button, Group, Loader, Stack, Text } from '@mantine/core';
import { useId, type ReactNode } from 'react';
import { asApiError } from '../../components/ErrorDisplay';
import { PREVIEW_TYPES, usePreviewReceiptQuery } from './api';
import type { ReceiptFile } from './receiptRules';

// A receipt shown in the page, beside the form or the approval fields. The bytes come from the
// preview route with the bearer token (an <img> or <iframe> cannot send it), as an object URL
// the api slice makes from the server's type: an image, or a PDF in the browser's viewer. A
// download link is always beside it, for a viewer that shows nothing and for other types.

const PREVIEW_HEIGHT = '70vh';

/** One receipt's preview: the image, the PDF, or why it cannot be shown; `download` beside it. */
function Preview({ requestId, file, download }: { requestId: number; file: ReceiptFile; download: ReactNode }) {
  const shown = PREVIEW_TYPES.includes(file.contentType);
  const preview = usePreviewReceiptQuery({ id: requestId, fileId: file.id }, { skip: !shown });
  if (!shown) {
    return (
      <Alert color="gray" variant="light" title="No preview for this file">
        <Stack gap={4}>
          <Text size="sm">Browsers cannot show {file.contentType === 'image/heic' ? 'HEIC photos' : 'this type of file'} in the page; download it to open it.</Text>
          {download}
        </Stack>
      </Alert>
    );
  }
  if (preview.error) {
    return (
      <Alert color="red" variant="light" title="The preview could not be loaded">
        <Stack gap={4}>
          <Text size="sm">{asApiError(preview.error).detail}</Text>
          {download}
        </Stack>
      </Alert>
    );
  }
  if (!preview.data) {
    return (
      <Group gap="xs" mih={80}>
        <Loader size="xs" aria-hidden />
        <Text size="sm" c="dimmed">
          Loading {file.fileName}…
        </Text>
      </Group>
    );
  }
  return (
    <Stack gap={4}>
      {file.contentType === 'application/pdf' ? (
        <iframe
          src={preview.data}
          title={`Receipt ${file.fileName} (PDF)`}
          style={{ display: 'block', width: '100%', height: PREVIEW_HEIGHT, minHeight: 240, border: '1px solid var(--mantine-color-gray-4)', borderRadius: 4 }}
        />
      ) : (
        <img
          src={preview.data}
          alt={`Receipt ${file.fileName}`}
          style={{ display: 'block', maxWidth: '100%', maxHeight: PREVIEW_HEIGHT, height: 'auto', objectFit: 'contain', border: '1px solid var(--mantine-color-gray-4)', borderRadius: 4 }}
        />
      )}
      <Box>{download}</Box>
    </Stack>
  );
}

interface PaneProps {
  requestId: number;
  /** The receipts one may go through, in their list's order. */
  files: ReceiptFile[];
  /** The one shown (an id of `files`). */
  chosen: string | null;
  onChoose: (id: string) => void;
  open: boolean;
  onOpen: (open: boolean) => void;
  /** The download link of a receipt, as the list beside it has it. */
  download: (file: ReceiptFile) => ReactNode;
}

/**
 * The chosen receipt's preview under a toggle that hides it (its list stays), with the previous
 * and next receipts a button away: the list's "Show" buttons and these work by keyboard.
 */
export function ReceiptPane({ requestId, files, chosen, onChoose, open, onOpen, download }: PaneProps) {
  const panelId = useId();
  const at = Math.max(
    0,
    files.findIndex((f) => f.id === chosen),
  );
  const file = files[at];
  if (!file) return null;
  const step = (by: number) => onChoose(files[(at + by + files.length) % files.length].id);
  return (
    <Stack gap="xs" data-testid="receipt-preview">
      <Group justify="space-between" gap="xs">
        <Text size="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>
          {files.length > 1 ? `Receipt ${at + 1} of ${files.length}: ` : 'Receipt: '}
          {file.fileName}
        </Text>
        <Group gap="xs">
          {files.length > 1 && (
            <>
              <Button variant="default" size="xs" onClick={() => step(-1)}>
                Previous receipt
              </Button>
              <Button variant="default" size="xs" onClick={() => step(1)}>
                Next receipt
              </Button>
            </>
          )}
          <Button variant="subtle" size="xs" aria-expanded={open} aria-controls={panelId} onClick={() => onOpen(!open)}>
            {open ? 'Hide preview' : 'Show preview'}
          </Button>
        </Group>
      </Group>
      <Box id={panelId}>{open && <Preview requestId={requestId} file={file} download={download(file)} />}</Box>
    </Stack>
  );
}
