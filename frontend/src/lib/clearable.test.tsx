// @vitest-environment jsdom
import { MantineProvider, MultiSelect, Select } from '@mantine/core';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { useState } from 'react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { stubLayoutApis } from '../test/dom';
import { DateInput } from '@mantine/dates';
import { clearable, clearableDate } from './clearable';
import { installComboboxKeys } from './comboboxKeys';
import { theme } from './theme';

let uninstall: () => void;
beforeAll(() => {
  stubLayoutApis();
  uninstall = installComboboxKeys();
});
afterAll(() => uninstall());
afterEach(cleanup);

const DATA = ['Waiting', 'Sent', 'Failed'];

function Filter({ required = false }: { required?: boolean }) {
  const [value, setValue] = useState<string | null>('Sent');
  return (
    <MantineProvider theme={theme} env="test">
      <Select label="Status" data={DATA} value={value} onChange={setValue} required={required} {...clearable('Status', !required)} />
      <output data-testid="value">{value ?? ''}</output>
    </MantineProvider>
  );
}

function Many() {
  const [value, setValue] = useState<string[]>(['Sent', 'Failed']);
  return (
    <MantineProvider theme={theme} env="test">
      <MultiSelect label="Status" data={DATA} value={value} onChange={setValue} {...clearable('Status')} />
      <output data-testid="value">{value.join(',')}</output>
    </MantineProvider>
  );
}

const value = () => screen.getByTestId('value').textContent;
const key = (el: HTMLElement, code: string) =>
  act(() => {
    fireEvent.keyDown(el, { key: code === 'Space' ? ' ' : code, code });
  });

describe('an optional choice is cleared by its named button; a required one is never emptied', () => {
  it('an optional select: its × is a named stop in the Tab order, and clearing gives the focus back to the field', () => {
    render(<Filter />);
    const clear = screen.getByRole('button', { name: 'Clear Status' });
    expect(clear.tabIndex).toBe(0);
    expect(clear.getAttribute('aria-hidden')).toBe('false');
    // Enter or Space on a focused button is its click.
    clear.focus();
    act(() => clear.click());
    expect(value()).toBe('');
    expect(document.activeElement).toBe(screen.getByRole('textbox', { name: 'Status' }));
    // Nothing left to clear: the button goes with the choice.
    expect(screen.queryByRole('button', { name: 'Clear Status' })).toBeNull();
  });

  it('an optional multiselect empties at once the same way', () => {
    render(<Many />);
    act(() => screen.getByRole('button', { name: 'Clear Status' }).click());
    expect(value()).toBe('');
  });

  it('a required select has no clear button, and taking its chosen option again keeps it', async () => {
    render(<Filter required />);
    expect(screen.queryByRole('button', { name: /Clear/ })).toBeNull();
    const input = screen.getByRole('textbox', { name: /Status/ });
    input.focus();
    await key(input, 'Enter');
    expect(input.hasAttribute('data-expanded')).toBe(true);
    await key(input, 'Enter');
    expect(value()).toBe('Sent');
  });
});

function EndDate() {
  const [value, setValue] = useState<string | null>('2026-06-30');
  return (
    <MantineProvider theme={theme} env="test">
      <DateInput label="End date" valueFormat="YYYY-MM-DD" value={value} onChange={setValue} {...clearableDate('End date', () => setValue(null))} />
      <output data-testid="value">{value ?? ''}</output>
    </MantineProvider>
  );
}

it('an optional date is cleared by its named button in the Tab order, and the focus goes back to it', () => {
  render(<EndDate />);
  const clear = screen.getByRole('button', { name: 'Clear End date' });
  expect(clear.tabIndex).toBe(0);
  act(() => clear.click());
  expect(value()).toBe('');
  expect(document.activeElement).toBe(screen.getByRole('textbox', { name: 'End date' }));
  expect(screen.queryByRole('button', { name: 'Clear End date' })).toBeNull();
});

/** Every .tsx file under `dir`. */
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sources(full);
    return full.endsWith('.tsx') && !full.endsWith('.test.tsx') ? [full] : [];
  });
}

it('every clearable select, multiselect and date of the screens clears through clearable() or clearableDate(): one pattern, named', () => {
  const src = path.resolve(__dirname, '..');
  const bare = ['features', 'components', 'app'].flatMap((dir) =>
    sources(path.join(src, dir)).flatMap((file) => {
      const text = readFileSync(file, 'utf8');
      // A Select, MultiSelect or DateInput element, up to the end of its opening tag.
      const tags = text.match(/<(Select|MultiSelect|DateInput)\b[\s\S]*?\/>/g) ?? [];
      return tags.filter((tag) => /\bclearable\b(?!\()/.test(tag)).map((tag) => `${path.relative(src, file)}: ${tag.split('\n')[0].trim()} …`);
    }),
  );
  expect(bare).toEqual([]);
});
