// @vitest-environment jsdom
import { MantineProvider } from '@mantine/core';
import { ModalsProvider } from '@mantine/modals';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { theme } from '../lib/theme';
import { stubLayoutApis } from '../test/dom';
import { CANCEL_CHANGES_TEXT, confirmCancelChanges, confirmSaveChanges, SAVE_CHANGES_TEXT } from './confirmDialogs';

beforeAll(stubLayoutApis);
afterEach(cleanup);

function renderProviders() {
  render(
    <MantineProvider theme={theme} env="test">
      <ModalsProvider />
    </MantineProvider>,
  );
}

/** Opens the dialog; the answer is wrapped so awaiting `open` does not await the answer. */
async function open(confirm: () => Promise<boolean>): Promise<{ answer: Promise<boolean> }> {
  let answer!: Promise<boolean>;
  await act(async () => {
    answer = confirm();
  });
  return { answer };
}

describe('Cancel Changes dialog', () => {
  it('asks with the exact text; Keep editing resolves false', async () => {
    renderProviders();
    const { answer: result } = await open(confirmCancelChanges);
    expect(screen.getByText(CANCEL_CHANGES_TEXT)).toBeTruthy();
    expect(CANCEL_CHANGES_TEXT).toBe('Are you sure you want to cancel the changes?');
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Keep editing' })));
    await expect(result).resolves.toBe(false);
    expect(screen.queryByText(CANCEL_CHANGES_TEXT)).toBeNull();
  });

  it('Cancel Changes is the danger button and resolves true', async () => {
    renderProviders();
    const { answer: result } = await open(confirmCancelChanges);
    const confirm = screen.getByRole('button', { name: 'Cancel Changes' });
    expect(confirm.getAttribute('style') ?? '').toContain('--button-bg: var(--mantine-color-red-filled)');
    await act(async () => fireEvent.click(confirm));
    await expect(result).resolves.toBe(true);
  });
});

describe('Save Changes dialog', () => {
  it('asks with the exact text; Save Changes resolves true', async () => {
    renderProviders();
    const { answer: result } = await open(confirmSaveChanges);
    expect(screen.getByText('Are you sure you want to save the changes?')).toBeTruthy();
    expect(SAVE_CHANGES_TEXT).toBe('Are you sure you want to save the changes?');
    expect(screen.getByRole('button', { name: 'Keep editing' })).toBeTruthy();
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Save Changes' })));
    await expect(result).resolves.toBe(true);
  });

  it('closing with Escape counts as not confirmed', async () => {
    renderProviders();
    const { answer: result } = await open(confirmSaveChanges);
    await act(async () => fireEvent.keyDown(screen.getByRole('dialog'), { key: 'Escape' }));
    await expect(result).resolves.toBe(false);
  });
});
