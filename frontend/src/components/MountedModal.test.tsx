// @vitest-environment jsdom
import { MantineProvider } from '@mantine/core';
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { theme } from '../lib/theme';
import { stubLayoutApis } from '../test/dom';
import { MountedModal } from './MountedModal';
import { keepFocusOnPage } from './pageFocus';

beforeAll(stubLayoutApis);
afterEach(cleanup);

/** A page with its heading, the button that opens the dialog and a search field. */
function Page({ open, withOpener = true }: { open: boolean; withOpener?: boolean }) {
  return (
    <MantineProvider theme={theme} env="test">
      <main>
        <h1 tabIndex={-1}>Users</h1>
        {withOpener && <button type="button">New user</button>}
        <input aria-label="Search" />
        {open && (
          <MountedModal title="New user" onClose={() => undefined}>
            <input aria-label="Name" />
          </MountedModal>
        )}
      </main>
    </MantineProvider>
  );
}

/** Opens the dialog from its button and puts the focus in its field, as a person would. */
function openFromButton() {
  const view = render(<Page open={false} />);
  const opener = screen.getByRole('button', { name: 'New user' });
  opener.focus();
  view.rerender(<Page open />);
  act(() => screen.getByLabelText('Name').focus());
  return { view, opener };
}

describe('MountedModal', () => {
  it('gives the focus back to its opener as it leaves, before any timer runs', () => {
    const removeRescue = keepFocusOnPage();
    const { view, opener } = openFromButton();
    view.rerender(<Page open={false} />);
    // At once: the page's rescue of a focus lost to the body never gets its turn.
    expect(document.activeElement).toBe(opener);
    removeRescue();
  });

  it('leaves a focus the page moved outside the dialog where it is', () => {
    const { view } = openFromButton();
    const search = screen.getByLabelText('Search');
    act(() => search.focus());
    view.rerender(<Page open={false} />);
    expect(document.activeElement).toBe(search);
  });

  it('leaves a focus whose opener went with the action to the page heading', async () => {
    const removeRescue = keepFocusOnPage();
    const { view } = openFromButton();
    view.rerender(<Page open={false} withOpener={false} />);
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Users' })));
    removeRescue();
  });
});
