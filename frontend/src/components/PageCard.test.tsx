// @vitest-environment jsdom
import { MantineProvider } from '@mantine/core';
import { cleanup, render, screen } from '@testing-library/react';
import { useEffect } from 'react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { theme } from '../lib/theme';
import { stubLayoutApis } from '../test/dom';
import { PageCard } from './PageCard';

beforeAll(stubLayoutApis);
afterEach(cleanup);

describe('PageCard', () => {
  // A frame component declared inside PageCard was a new type on every render: React
  // unmounted and remounted the whole page body each time (open dropdowns closed, inputs
  // lost focus, Playwright never saw them stable).
  it.each([false, true])('keeps its children mounted across renders (flush: %s)', (flush) => {
    let mounts = 0;
    function Child() {
      useEffect(() => {
        mounts += 1;
      }, []);
      return <input aria-label="Filter" />;
    }
    const page = (title: string) => (
      <MantineProvider theme={theme} env="test">
        <PageCard title={title} flush={flush}>
          <Child />
        </PageCard>
      </MantineProvider>
    );
    const { rerender } = render(page('One'));
    const input = screen.getByRole('textbox', { name: 'Filter' });
    rerender(page('Two'));
    rerender(page('Three'));
    expect(mounts).toBe(1);
    expect(screen.getByRole('textbox', { name: 'Filter' })).toBe(input);
    expect(screen.getByRole('region', { name: 'Three' })).toBeTruthy();
  });
});
