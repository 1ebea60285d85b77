import { useEffect, useRef, useState } from 'react';
import { REQUEST_ABORTED } from '../api/errors';
import { useAppDispatch } from '../lib/hooks';
import { DownloadError, fetchFile, saveFile, type DownloadProgress } from './download';

/** Where a download stands; `what` names the file being fetched (an export's format, …). */
export type DownloadState<What> =
  | { kind: 'idle' }
  | { kind: 'running'; what: What; progress: DownloadProgress }
  | { kind: 'saved'; fileName: string }
  | { kind: 'failed'; message: string };

/**
 * One file fetched with the session's token and saved under the server's name, with its
 * progress, a cancel and the failure in words. Leaving the page stops a running download; a
 * newer download takes over from an older one.
 */
export function useDownload<What>(failed: string) {
  const dispatch = useAppDispatch();
  const [state, setState] = useState<DownloadState<What>>({ kind: 'idle' });
  const controller = useRef<AbortController | null>(null);
  useEffect(() => () => controller.current?.abort(), []);

  const start = async (url: string, fallbackName: string, what: What) => {
    controller.current?.abort();
    const abort = new AbortController();
    controller.current = abort;
    setState({ kind: 'running', what, progress: { received: 0, total: null } });
    try {
      const file = await fetchFile(url, {
        dispatch,
        signal: abort.signal,
        fallbackName,
        onProgress: (progress) => setState({ kind: 'running', what, progress }),
      });
      saveFile(file);
      setState({ kind: 'saved', fileName: file.fileName });
    } catch (error) {
      if (controller.current !== abort) return; // a newer download took over
      const problem = error instanceof DownloadError ? error.error : undefined;
      if (problem?.title === REQUEST_ABORTED) setState({ kind: 'idle' });
      else setState({ kind: 'failed', message: problem?.detail ?? failed });
    } finally {
      if (controller.current === abort) controller.current = null;
    }
  };

  return {
    state,
    start,
    cancel: () => controller.current?.abort(),
    dismiss: () => setState({ kind: 'idle' }),
  };
}
