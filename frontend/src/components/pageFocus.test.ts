// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { documentTitle, focusPageHeading, keepFocusOnPage, takePendingFocus } from './pageFocus';

/** A main region with a focusable h1, as a page renders it. */
function heading(text: string) {
  const main = document.querySelector('main') ?? document.body.appendChild(document.createElement('main'));
  const h1 = document.createElement('h1');
  h1.tabIndex = -1;
  h1.textContent = text;
  main.appendChild(h1);
  return h1;
}

afterEach(() => {
  document.body.innerHTML = '';
});

describe('the focus after a navigation', () => {
  it('goes to the heading already on the page', () => {
    const h1 = heading('Budgets');
    focusPageHeading();
    expect(document.activeElement).toBe(h1);
  });

  it('waits for a heading that comes with the data', () => {
    document.body.appendChild(document.createElement('main'));
    focusPageHeading();
    const h1 = heading('Budget 2026-27');
    takePendingFocus(h1);
    expect(document.activeElement).toBe(h1);
  });

  it('leaves a field the person moved to meanwhile alone', () => {
    document.body.appendChild(document.createElement('main'));
    focusPageHeading();
    const field = document.body.appendChild(document.createElement('input'));
    field.focus();
    takePendingFocus(heading('Participants'));
    expect(document.activeElement).toBe(field);
  });

  it('is asked for once: a heading mounted later without a navigation keeps its place', () => {
    document.body.appendChild(document.createElement('main'));
    focusPageHeading();
    takePendingFocus(heading('First'));
    const second = heading('Second');
    takePendingFocus(second);
    expect(document.activeElement).not.toBe(second);
  });

  it("is taken by the loaded page's heading when the loading one leaves with it", () => {
    document.body.appendChild(document.createElement('main'));
    focusPageHeading();
    const loading = heading('Payment request');
    takePendingFocus(loading);
    loading.remove();
    const loaded = heading('Payment request F2 #4');
    takePendingFocus(loaded);
    expect(document.activeElement).toBe(loaded);
  });

  it('leaves the field a page focused itself (the sign-in form) alone', () => {
    const h1 = heading('Sign in');
    const field = document.querySelector('main')!.appendChild(document.createElement('input'));
    field.focus();
    focusPageHeading();
    expect(document.activeElement).toBe(field);
    expect(document.activeElement).not.toBe(h1);
  });

  it('names the document after the page', () => {
    expect(documentTitle('Reports')).toBe('Reports · MentorPay');
  });
});

describe('a focus dropped to the page body', () => {
  it('goes to the heading when its element leaves the page, and only then', async () => {
    vi.useFakeTimers();
    const stop = keepFocusOnPage();
    try {
      const h1 = heading('Payment requests');
      const button = document.querySelector('main')!.appendChild(document.createElement('button'));
      button.focus();
      button.remove();
      await vi.advanceTimersByTimeAsync(100);
      expect(document.activeElement).toBe(h1);

      const other = document.querySelector('main')!.appendChild(document.createElement('button'));
      other.focus();
      other.blur(); // a click on the page's background: the person's choice
      document.querySelector('main')!.appendChild(document.createElement('p'));
      await vi.advanceTimersByTimeAsync(100);
      expect(document.activeElement).toBe(document.body);
    } finally {
      stop();
      vi.useRealTimers();
    }
  });
});
