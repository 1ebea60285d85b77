// @vitest-environment jsdom
import { MantineProvider } from '@mantine/core';
import { configureStore } from '@reduxjs/toolkit';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { Provider } from 'react-redux';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { authReducer, loggedIn } from '../api/authSlice';
import { storeTokens } from '../api/storage';
import { theme } from '../lib/theme';
import { stubLayoutApis } from '../test/dom';
import { admin, fakeJwt, json } from '../test/helpers';
import { ExportMenu } from './ExportMenu';

beforeAll(stubLayoutApis);

let saved: Blob[];
beforeEach(() => {
  saved = [];
  URL.createObjectURL = vi.fn((blob: Blob) => {
    saved.push(blob);
    return 'blob:test';
  });
  URL.revokeObjectURL = vi.fn();
  // jsdom does not navigate; the click on the download link is all that is needed.
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
});
afterEach(() => {
  cleanup();
  localStorage.clear();
});

/** A streamed body: `chunks` now, then either the end or (open) nothing until the request is aborted. */
function streamed(chunks: string[], open: boolean, signal: AbortSignal | undefined, headers: Record<string, string> = {}) {
  return new Response(
    new ReadableStream<Uint8Array>({
      start(c) {
        for (const chunk of chunks) c.enqueue(new TextEncoder().encode(chunk));
        if (!open) c.close();
        signal?.addEventListener('abort', () => c.error(new DOMException('The user aborted a request.', 'AbortError')));
      },
    }),
    { status: 200, headers: { 'Content-Type': 'text/csv', ...headers } },
  );
}

function renderMenu(url = vi.fn((format: string) => `http://localhost/api/v1/reports/x/retrieve?ReportFormat=${format}`)) {
  const store = configureStore({ reducer: { auth: authReducer } });
  store.dispatch(loggedIn(admin));
  storeTokens({ accessToken: fakeJwt(600), refreshToken: 'r' });
  render(
    <Provider store={store}>
      <MantineProvider theme={theme} env="test">
        <ExportMenu url={url} fallbackName="report" />
      </MantineProvider>
    </Provider>,
  );
  return url;
}

async function choose(format: string) {
  fireEvent.click(screen.getByRole('button', { name: 'Export' }));
  fireEvent.click(await screen.findByRole('menuitem', { name: format }));
}

describe('ExportMenu', () => {
  it('downloads the chosen format with the token and saves it under the server name', async () => {
    const fetchMock = vi.fn((_url: string, init: RequestInit) =>
      Promise.resolve(streamed(['a,b\r\n', '1,2\r\n'], false, init.signal ?? undefined, { 'Content-Disposition': 'attachment; filename="x-2026-11-23.csv"' })),
    );
    vi.stubGlobal('fetch', fetchMock);
    const url = renderMenu();
    await choose('CSV');
    expect(await screen.findByText('Saved x-2026-11-23.csv')).toBeTruthy();
    expect(url).toHaveBeenCalledWith('Csv');
    expect((fetchMock.mock.calls[0][1].headers as Record<string, string>).Authorization).toMatch(/^Bearer /);
    // jsdom's Blob has no text(); its FileReader reads it.
    const text = await new Promise<string>((resolve) => {
      const reader = new FileReader();
      reader.onload = () => resolve(String(reader.result));
      reader.readAsText(saved[0]);
    });
    expect(text).toBe('a,b\r\n1,2\r\n');
  });

  it('shows the bytes received while the file streams, and Cancel stops it without saving', async () => {
    vi.stubGlobal('fetch', vi.fn((_url: string, init: RequestInit) => Promise.resolve(streamed(['12345'], true, init.signal ?? undefined))));
    renderMenu();
    await choose('Excel (XLSX)');
    const progress = await screen.findByTestId('export-progress');
    await waitFor(() => expect(progress.textContent).toContain('Downloading Excel (XLSX)… 5 B'));
    expect(screen.getByRole('button', { name: 'Export' }).hasAttribute('disabled')).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByTestId('export-progress')).toBeNull());
    expect(screen.queryByText(/Saved/)).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(saved).toHaveLength(0);
  });

  it("shows the server's reason when the export is refused", async () => {
    vi.stubGlobal('fetch', vi.fn(() => Promise.resolve(json(400, { status: 400, title: 'Bad Request', detail: 'EndDate is before StartDate.' }))));
    renderMenu();
    await choose('PDF');
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('EndDate is before StartDate.');
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss' }));
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
  });
});
