// @vitest-environment jsdom
import { MantineProvider, MultiSelect, Select } from '@mantine/core';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { stubLayoutApis } from '../test/dom';
import { installComboboxKeys } from './comboboxKeys';
import { theme } from './theme';

let uninstall: () => void;
beforeAll(() => {
  stubLayoutApis();
  uninstall = installComboboxKeys();
});
afterAll(() => uninstall());
afterEach(cleanup);

const DATA = ['Car', 'Bus', 'Train'];

function One({ searchable = false }: { searchable?: boolean }) {
  const [value, setValue] = useState<string | null>(null);
  return (
    <MantineProvider theme={theme} env="test">
      <Select label="Transit type" data={DATA} value={value} onChange={setValue} searchable={searchable} />
      <output data-testid="value">{value ?? ''}</output>
    </MantineProvider>
  );
}

function Many() {
  const [value, setValue] = useState<string[]>(['Car']);
  return (
    <MantineProvider theme={theme} env="test">
      <MultiSelect label="Status" data={DATA} value={value} onChange={setValue} />
      <output data-testid="value">{value.join(',')}</output>
    </MantineProvider>
  );
}

const key = (el: HTMLElement, code: string) =>
  act(() => {
    fireEvent.keyDown(el, { key: code === 'Space' ? ' ' : code, code });
  });
const value = () => screen.getByTestId('value').textContent;

describe('selects by Enter and Space', () => {
  it('Enter opens a closed select on its first option, Enter again takes it', async () => {
    render(<One />);
    const input = screen.getByRole('textbox', { name: 'Transit type' });
    input.focus();
    await key(input, 'Enter');
    expect(input.hasAttribute('data-expanded')).toBe(true);
    await key(input, 'Enter');
    expect(value()).toBe('Car');
  });

  it('Space opens and takes as well, and taking the chosen option again keeps it', async () => {
    render(<One />);
    const input = screen.getByRole('textbox', { name: 'Transit type' });
    input.focus();
    await key(input, 'Space');
    await key(input, 'ArrowDown');
    await key(input, 'Space');
    expect(value()).toBe('Bus');
    await key(input, 'Space');
    await key(input, 'Space');
    expect(value()).toBe('Bus');
  });

  it('a searchable select takes the first match of what was typed on Enter, and types a space while searching', async () => {
    render(<One searchable />);
    const input = screen.getByRole('textbox', { name: 'Transit type' });
    input.focus();
    act(() => {
      fireEvent.change(input, { target: { value: 'Tr' } });
    });
    const space = fireEvent.keyDown(input, { key: ' ', code: 'Space' });
    // Not handled here: the browser types the space.
    expect(space).toBe(true);
    await key(input, 'Enter');
    expect(value()).toBe('Train');
  });

  it('Enter takes the option shown highlighted, even when Mantine has lost count of it', async () => {
    // A searchable select opens when it gets the focus, and Mantine then recounts the
    // highlighted option on a timer. An arrow pressed before that timer ran (a quick person on
    // a busy page) highlighted an option the timer then forgot: Enter took nothing and
    // submitted the form around it.
    vi.useFakeTimers();
    try {
      render(<One searchable />);
      const input = screen.getByRole('textbox', { name: 'Transit type' });
      act(() => input.focus());
      expect(input.hasAttribute('data-expanded')).toBe(true);
      await key(input, 'ArrowDown');
      act(() => vi.runOnlyPendingTimers());
      expect(screen.getByRole('option', { name: 'Car' }).hasAttribute('data-combobox-selected')).toBe(true);
      await key(input, 'Enter');
      expect(value()).toBe('Car');
    } finally {
      vi.useRealTimers();
    }
  });

  it('a multiselect opens with Enter and takes the highlighted option with Space', async () => {
    render(<Many />);
    const input = screen.getByRole('textbox', { name: 'Status' });
    input.focus();
    await key(input, 'Enter');
    expect(input.hasAttribute('data-expanded')).toBe(true);
    await key(input, 'ArrowDown');
    await key(input, 'Space');
    expect(value()).toBe('Car,Bus');
  });
});
