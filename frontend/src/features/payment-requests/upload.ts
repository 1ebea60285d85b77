import { uploadErrorMessage, type ReceiptRules } from './receiptRules';

/** A PUT the server (or the network) refused, with the message to show next to the file. */
export class UploadError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * PUTs `body` to a signed upload URL with XMLHttpRequest, because fetch reports no upload
 * progress. No bearer token (the signed URL is the credential) and exactly the announced
 * Content-Type. `onProgress` gets 0–1; the promise rejects with UploadError.
 */
export function putWithProgress(url: string, body: Blob, contentType: string, rules: ReceiptRules, onProgress: (fraction: number) => void, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('PUT', url);
    xhr.setRequestHeader('Content-Type', contentType);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable && e.total > 0) onProgress(e.loaded / e.total);
    };
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        onProgress(1);
        resolve();
      } else {
        reject(new UploadError(xhr.status, uploadErrorMessage(xhr.status, xhr.responseText, rules)));
      }
    };
    xhr.onerror = () => reject(new UploadError(0, uploadErrorMessage(0, '', rules)));
    xhr.onabort = () => reject(new UploadError(0, 'The upload was cancelled.'));
    signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(body);
  });
}
