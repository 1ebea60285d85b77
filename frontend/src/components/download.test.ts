import { configureStore } from '@reduxjs/toolkit';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { authReducer, loggedIn } from '../api/authSlice';
import { storeTokens } from '../api/storage';
import { admin, fakeJwt, json } from '../test/helpers';
import { apiUrl, DownloadError, fetchFile, filenameFromDisposition, formatBytes, minutesOffset } from './download';

describe('filenameFromDisposition', () => {
  it('reads the quoted name the server sends', () => {
    expect(filenameFromDisposition('attachment; filename="participants-2026-11-23.csv"', 'x.csv')).toBe('participants-2026-11-23.csv');
  });
  it('prefers the RFC 6266 extended name', () => {
    expect(filenameFromDisposition(`attachment; filename="a.pdf"; filename*=UTF-8''caf%C3%A9%20report.pdf`, 'x.pdf')).toBe('café report.pdf');
  });
  it('takes an unquoted name and unescapes quotes', () => {
    expect(filenameFromDisposition('attachment; filename=all-approvals.xlsx', 'x')).toBe('all-approvals.xlsx');
    expect(filenameFromDisposition('attachment; filename="say \\"hi\\".csv"', 'x')).toBe('say "hi".csv');
  });
  it('never names a folder, and falls back when nothing is named', () => {
    expect(filenameFromDisposition('attachment; filename="../../etc/passwd"', 'x')).toBe('passwd');
    expect(filenameFromDisposition(null, 'report.csv')).toBe('report.csv');
    expect(filenameFromDisposition('attachment', 'report.csv')).toBe('report.csv');
    expect(filenameFromDisposition('attachment; filename=""', 'report.csv')).toBe('report.csv');
  });
});

describe('apiUrl and sizes', () => {
  it('leaves empty values out of the query', () => {
    const url = apiUrl('/reports/participants/retrieve', { ReportFormat: 'Csv', MentorProgramId: 3, RoleCode: '', DistrictId: undefined });
    expect(url.endsWith('/api/v1/reports/participants/retrieve?ReportFormat=Csv&MentorProgramId=3')).toBe(true);
    expect(apiUrl('/reports/bonuses/list')).toMatch(/\/api\/v1\/reports\/bonuses\/list$/);
  });
  it('formats byte counts', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(12.3 * 1024 * 1024)).toBe('12.3 MB');
  });
  it('takes the offset from the browser clock', () => {
    const d = new Date();
    expect(minutesOffset(d)).toBe(d.getTimezoneOffset());
  });
});

describe('fetchFile', () => {
  afterEach(() => localStorage.clear());
  const store = () => {
    const s = configureStore({ reducer: { auth: authReducer } });
    s.dispatch(loggedIn(admin));
    storeTokens({ accessToken: fakeJwt(600), refreshToken: 'r' });
    return s;
  };
  /** A body that arrives in three pieces, as a streamed export does. */
  const streamed = (parts: string[], headers: Record<string, string>) =>
    new Response(
      new ReadableStream({
        start(c) {
          for (const p of parts) c.enqueue(new TextEncoder().encode(p));
          c.close();
        },
      }),
      { status: 200, headers },
    );

  it('sends the bearer token, reports every chunk and names the file as the server does', async () => {
    const s = store();
    const fetchMock = vi.fn().mockResolvedValue(
      streamed(['a,b\n', '1,2\n', '3,4\n'], { 'Content-Type': 'text/csv', 'Content-Disposition': 'attachment; filename="r-2026-01-02.csv"' }),
    );
    vi.stubGlobal('fetch', fetchMock);
    const seen: number[] = [];
    const file = await fetchFile('http://localhost/api/v1/x', { dispatch: s.dispatch, fallbackName: 'r.csv', onProgress: (p) => seen.push(p.received) });
    expect(fetchMock.mock.calls[0][1].headers.Authorization).toBe(`Bearer ${localStorage.getItem('accessToken')}`);
    expect(file.fileName).toBe('r-2026-01-02.csv');
    expect(await file.blob.text()).toBe('a,b\n1,2\n3,4\n');
    expect(seen).toEqual([0, 4, 8, 12]);
  });

  it("rejects with the server's problem, and a 401 ends the session", async () => {
    const s = store();
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(json(403, { status: 403, title: 'Forbidden', detail: 'Not yours.' })));
    await expect(fetchFile('http://localhost/x', { dispatch: s.dispatch, fallbackName: 'f' })).rejects.toMatchObject({
      error: { status: 403, detail: 'Not yours.' },
    });
    expect(s.getState().auth.userDetails).not.toBeNull();

    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(json(401, { status: 401, title: 'Unauthorized', detail: 'Expired.' })));
    const failure = await fetchFile('http://localhost/x', { dispatch: s.dispatch, fallbackName: 'f' }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(DownloadError);
    expect(s.getState().auth.userDetails).toBeNull();
  });
});
