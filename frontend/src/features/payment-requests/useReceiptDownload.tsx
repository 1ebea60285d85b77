import { Anchor } from '@mantine/core';
import { useState } from 'react';
import { asApiError } from '../../components/ErrorDisplay';
import { useDownloadReceiptMutation } from './api';
import type { ReceiptFile } from './receiptRules';

/** Fetches a receipt with the session's token and saves it under its own name. */
export function useReceiptDownload(requestId: number | undefined) {
  const [download] = useDownloadReceiptMutation();
  const [busy, setBusy] = useState<string | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const run = async (file: ReceiptFile) => {
    if (requestId === undefined) return;
    setBusy(file.id);
    setErrors(({ [file.id]: _, ...rest }) => rest);
    const result = await download({ id: requestId, fileId: file.id });
    setBusy(null);
    if ('error' in result) {
      setErrors((e) => ({ ...e, [file.id]: `The download failed: ${asApiError(result.error).detail}` }));
      return;
    }
    const a = document.createElement('a');
    a.href = result.data;
    a.download = file.fileName;
    document.body.append(a);
    a.click();
    a.remove();
    // The browser has taken the bytes by then; the URL would otherwise live as long as the tab.
    setTimeout(() => URL.revokeObjectURL(result.data), 60_000);
  };
  const link = (file: ReceiptFile) => (
    <Anchor component="button" type="button" size="sm" aria-label={`Download ${file.fileName}`} disabled={busy === file.id} onClick={() => void run(file)}>
      {busy === file.id ? 'Downloading…' : 'Download'}
    </Anchor>
  );
  /** The same, its file named in the visible words (beside a preview, as its fallback). */
  const namedLink = (file: ReceiptFile) => (
    <Anchor component="button" type="button" size="sm" disabled={busy === file.id} onClick={() => void run(file)} style={{ overflowWrap: 'anywhere', textAlign: 'start' }}>
      {busy === file.id ? 'Downloading…' : `Download ${file.fileName}`}
    </Anchor>
  );
  return { link, namedLink, errors };
}

