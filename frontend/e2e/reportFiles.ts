import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { Locator, Page } from '@playwright/test';
import { readSheet } from 'read-excel-file/node';
import { expect } from './fixtures';

// The report specs' file side: export through the UI's menu, then open what was saved
// (CSV parsed, XLSX read as a sheet, PDF through Debian's pdftotext).

export type Format = 'CSV' | 'Excel (XLSX)' | 'PDF';
const EXTENSION: Record<Format, string> = { CSV: 'csv', 'Excel (XLSX)': 'xlsx', PDF: 'pdf' };

/** Chooses `format` in the export menu (the button named `button` inside `scope`), waits for the
 * saved file and checks it is named as the server names it: `<stem>-<YYYY-MM-DD>.<ext>`. */
export async function exportFile(page: Page, format: Format, stem: string, scope: Page | Locator = page, button = 'Export') {
  await scope.getByRole('button', { name: button, exact: true }).click();
  const download = page.waitForEvent('download');
  await page.getByRole('menuitem', { name: format, exact: true }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(new RegExp(`^${stem}-\\d{4}-\\d{2}-\\d{2}\\.${EXTENSION[format]}$`));
  const path = await file.path();
  await expect(scope.getByText(`Saved ${file.suggestedFilename()}`)).toBeVisible();
  return path;
}

/** RFC 4180: quoted fields may hold commas, quotes ("") and line breaks; CRLF ends a record. */
export function parseCsv(text: string): string[][] {
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < body.length; i++) {
    const ch = body[i];
    if (quoted) {
      if (ch === '"' && body[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(field);
      field = '';
    } else if (ch === '\r' && body[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i++;
    } else field += ch;
  }
  if (field !== '' || row.length) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}

export function readCsv(path: string): { bom: boolean; rows: string[][] } {
  const text = readFileSync(path, 'utf8');
  return { bom: text.startsWith('\uFEFF'), rows: parseCsv(text) };
}

export async function readXlsx(path: string): Promise<unknown[][]> {
  return (await readSheet(path)) as unknown[][];
}

export function readPdf(path: string): string {
  expect(readFileSync(path).subarray(0, 5).toString()).toBe('%PDF-');
  return execFileSync('pdftotext', ['-layout', path, '-'], { encoding: 'utf8' });
}

/** The rows of a CSV/XLSX whose column `header` holds `value` (compared as text). */
export function rowsWhere(rows: unknown[][], header: string, value: string | number): unknown[][] {
  const col = rows[0].indexOf(header);
  expect(col, `column "${header}" in ${JSON.stringify(rows[0])}`).toBeGreaterThanOrEqual(0);
  return rows.slice(1).filter((r) => String(r[col]) === String(value));
}

/** A cell of `row` by header name. */
export const cell = (rows: unknown[][], row: unknown[], header: string) => row[rows[0].indexOf(header)];
