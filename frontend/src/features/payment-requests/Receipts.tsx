import { Anchor, Button, FileButton, Group, Progress, Stack, Table, Text, Title } from '@mantine/core';
import { UnseenHeader } from '../../components/TableHead';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { asApiError } from '../../components/ErrorDisplay';
import { useGenerateUploadUrlsMutation } from './api';
import { announceErrorMessage, checkReceipt, formatBytes, receiptAccept, type ReceiptFile, type ReceiptRules } from './receiptRules';
import { ReceiptPane } from './ReceiptPreview';
import { putWithProgress, UploadError } from './upload';
import { useReceiptDownload } from './useReceiptDownload';

// Receipts of the forms that take them: the list of attached files (download needs the bearer
// token, so the bytes are fetched and handed to the browser as an object URL), the chosen
// one previewed below the list (ReceiptPreview.tsx) and, in
// create/edit, the upload with per-file progress: announce (POST /fileupload/generate-upload-urls),
// PUT the bytes to the signed URL, then add the file id to the details' receipt field (the
// form's rules name it), saved with the form.

interface Row {
  key: string;
  fileName: string;
  size: number;
  /** Progress or state of a new file. */
  status?: ReactNode;
  error?: string;
  actions?: ReactNode;
}

function ReceiptTable({ rows, withStatus }: { rows: Row[]; withStatus: boolean }) {
  return (
    <Table aria-label="Receipts" withTableBorder fz="sm" maw={860}>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>File</Table.Th>
          <Table.Th w={90}>Size</Table.Th>
          {withStatus && <Table.Th w={260}>Upload</Table.Th>}
          <UnseenHeader w={120}>Actions</UnseenHeader>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {rows.map((r) => (
          <Table.Tr key={r.key}>
            <Table.Td>
              <Text size="sm" fw={500} style={{ wordBreak: 'break-all' }}>
                {r.fileName}
              </Text>
              {r.error && (
                <Text size="xs" c="red" role="alert">
                  {r.error}
                </Text>
              )}
            </Table.Td>
            <Table.Td>{formatBytes(r.size)}</Table.Td>
            {withStatus && <Table.Td>{r.status}</Table.Td>}
            <Table.Td>
              {/* Wraps rather than widen the table at 320 px. */}
              <Group gap="xs">{r.actions}</Group>
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/** Which receipt is previewed, and whether the preview is open; choosing one opens it. */
function usePreviewChoice(files: ReceiptFile[]) {
  const [chosen, setChosen] = useState<string | null>(null);
  const [open, setOpen] = useState(true);
  const current = files.find((f) => f.id === chosen) ?? files[0];
  const show = (file: ReceiptFile) => (
    <Anchor
      component="button"
      type="button"
      size="sm"
      aria-label={`Show ${file.fileName}`}
      aria-pressed={open && current?.id === file.id}
      fw={open && current?.id === file.id ? 700 : undefined}
      onClick={() => {
        setChosen(file.id);
        setOpen(true);
      }}
    >
      Show
    </Anchor>
  );
  return { chosen: current?.id ?? null, setChosen, open, setOpen, show };
}

/** View / approve modes and the details list: the attached files, each shown or downloaded. */
export function ReceiptList({ requestId, files }: { requestId: number; files: ReceiptFile[] }) {
  const download = useReceiptDownload(requestId);
  const choice = usePreviewChoice(files);
  return (
    <Stack gap="xs" component="section" aria-label="Receipts" data-testid="receipts">
      <Title order={2} size="h5">
        Receipts
      </Title>
      {files.length === 0 ? (
        <Text size="sm" c="dimmed">
          No receipts attached.
        </Text>
      ) : (
        <>
          <ReceiptTable
            withStatus={false}
            rows={files.map((f) => ({
              key: f.id,
              fileName: f.fileName,
              size: f.size,
              error: download.errors[f.id],
              actions: (
                <>
                  {choice.show(f)}
                  {download.link(f)}
                </>
              ),
            }))}
          />
          <ReceiptPane
            requestId={requestId}
            files={files}
            chosen={choice.chosen}
            onChoose={choice.setChosen}
            open={choice.open}
            onOpen={choice.setOpen}
            download={download.namedLink}
          />
        </>
      )}
    </Stack>
  );
}

interface Upload {
  key: string;
  fileName: string;
  size: number;
  state: 'uploading' | 'uploaded' | 'failed';
  /** 0–100. */
  progress: number;
  error?: string;
  fileId?: string;
}

interface EditorProps {
  /** The receipts the form takes (size, types). */
  rules: ReceiptRules;
  /** Set once the request is saved: its stored receipts can be downloaded. */
  requestId?: number;
  /** The stored receipts (the request's `files`). */
  stored: ReceiptFile[];
  /** The receipt ids of the form being edited. */
  fileIds: string[];
  /** Functional, so uploads finishing together do not overwrite each other. */
  onFileIds: (update: (ids: string[]) => string[]) => void;
  /** The save's field errors (`details.fileIds[1]`, `details.fileIds` on the expense form). */
  errors: Record<string, string>;
  /** True while a file is still uploading (saving then would leave it out). */
  onBusyChange: (busy: boolean) => void;
}

/** Create / edit: add receipts with progress, remove them (a stored one goes when the form is saved). */
export function ReceiptsEditor({ rules, requestId, stored, fileIds, onFileIds, errors, onBusyChange }: EditorProps) {
  const [uploads, setUploads] = useState<Upload[]>([]);
  const [announce] = useGenerateUploadUrlsMutation();
  const download = useReceiptDownload(requestId);
  // Saved receipts still listed are previewed; a new one is seen once the form is saved.
  const previewable = fileIds.map((id) => stored.find((f) => f.id === id)).filter((f): f is ReceiptFile => f !== undefined);
  const choice = usePreviewChoice(previewable);
  const resetPicker = useRef<() => void>(null);
  const aborts = useRef(new AbortController());
  useEffect(() => {
    const controller = new AbortController();
    aborts.current = controller;
    return () => controller.abort();
  }, []);
  const busy = uploads.some((u) => u.state === 'uploading');
  useEffect(() => onBusyChange(busy), [busy, onBusyChange]);

  const patch = (key: string, p: Partial<Upload>) => setUploads((all) => all.map((u) => (u.key === key ? { ...u, ...p } : u)));

  const upload = async (file: File) => {
    const key = `${Date.now()}-${Math.random()}`;
    const base = { key, fileName: file.name, size: file.size, progress: 0 };
    const check = checkReceipt(file, rules);
    if (!check.ok) {
      setUploads((all) => [...all, { ...base, state: 'failed', error: check.error }]);
      return;
    }
    setUploads((all) => [...all, { ...base, state: 'uploading' }]);
    // One announcement per file, right before its upload: the signed URL lives 15 minutes.
    const announced = await announce([{ fileName: file.name, contentType: check.contentType, size: file.size }]);
    if ('error' in announced) {
      patch(key, { state: 'failed', error: announceErrorMessage(asApiError(announced.error)) });
      return;
    }
    const { fileId, uploadUrl } = announced.data[0];
    try {
      await putWithProgress(uploadUrl, file, check.contentType, rules, (f) => patch(key, { progress: Math.round(f * 100) }), aborts.current.signal);
    } catch (e) {
      if (!aborts.current.signal.aborted) patch(key, { state: 'failed', error: e instanceof UploadError ? e.message : String(e) });
      return;
    }
    patch(key, { state: 'uploaded', progress: 100, fileId });
    onFileIds((ids) => (ids.includes(fileId) ? ids : [...ids, fileId]));
  };

  const pick = (files: File[]) => {
    resetPicker.current?.();
    files.forEach((f) => void upload(f));
  };
  const dismiss = (key: string) => setUploads((all) => all.filter((u) => u.key !== key));
  const remove = (id: string) => onFileIds((ids) => ids.filter((x) => x !== id));

  const attached: Row[] = fileIds.map((id, i) => {
    const saved = stored.find((f) => f.id === id);
    const fresh = uploads.find((u) => u.fileId === id);
    const fileName = saved?.fileName ?? fresh?.fileName ?? id;
    return {
      key: id,
      fileName,
      size: saved?.size ?? fresh?.size ?? 0,
      status: saved ? (
        <Text size="xs" c="dimmed">
          Saved
        </Text>
      ) : (
        <Stack gap={2}>
          <Progress value={100} color="green" aria-label={`Upload of ${fileName}`} />
          <Text size="xs" c="dimmed">
            Uploaded; attached when you save
          </Text>
        </Stack>
      ),
      error: errors[`details.${rules.field}[${i}]`] ?? (saved ? download.errors[id] : undefined),
      actions: (
        <>
          {saved && requestId !== undefined && choice.show(saved)}
          {saved && requestId !== undefined && download.link(saved)}
          <Anchor component="button" type="button" size="sm" c="red" aria-label={`Remove ${fileName}`} onClick={() => remove(id)}>
            Remove
          </Anchor>
        </>
      ),
    };
  });
  const pending: Row[] = uploads
    .filter((u) => u.state !== 'uploaded')
    .map((u) => ({
      key: u.key,
      fileName: u.fileName,
      size: u.size,
      error: u.error,
      status:
        u.state === 'uploading' ? (
          <Stack gap={2}>
            <Progress value={u.progress} striped animated aria-label={`Upload of ${u.fileName}`} />
            <Text size="xs" c="dimmed">
              Uploading… {u.progress}%
            </Text>
          </Stack>
        ) : (
          <Text size="xs" c="red">
            Not attached
          </Text>
        ),
      actions:
        u.state === 'failed' ? (
          <Anchor component="button" type="button" size="sm" aria-label={`Dismiss ${u.fileName}`} onClick={() => dismiss(u.key)}>
            Dismiss
          </Anchor>
        ) : null,
    }));
  const removedStored = stored.filter((f) => !fileIds.includes(f.id)).length;

  return (
    <Stack gap="xs" component="section" aria-label="Receipts">
      <Group justify="space-between">
        <Title order={2} size="h5">
          Receipts
        </Title>
        <FileButton onChange={pick} accept={receiptAccept(rules)} multiple resetRef={resetPicker}>
          {(props) => (
            <Button {...props} variant="light" size="xs">
              Add receipts…
            </Button>
          )}
        </FileButton>
      </Group>
      <Text size="xs" c="dimmed">
        PDF, PNG, JPEG or HEIC, up to 10 MB each.
      </Text>
      {attached.length + pending.length === 0 ? (
        <Text size="sm" c="dimmed">
          No receipts attached.
        </Text>
      ) : (
        <ReceiptTable withStatus rows={[...attached, ...pending]} />
      )}
      {requestId !== undefined && previewable.length > 0 && (
        <ReceiptPane
          requestId={requestId}
          files={previewable}
          chosen={choice.chosen}
          onChoose={choice.setChosen}
          open={choice.open}
          onOpen={choice.setOpen}
          download={download.namedLink}
        />
      )}
      {errors[`details.${rules.field}`] && (
        <Text c="red" size="sm">
          Receipts: {errors[`details.${rules.field}`]}
        </Text>
      )}
      {removedStored > 0 && (
        <Text size="sm" c="orange.8">
          {removedStored === 1 ? '1 saved receipt is' : `${removedStored} saved receipts are`} deleted when you save.
        </Text>
      )}
    </Stack>
  );
}
