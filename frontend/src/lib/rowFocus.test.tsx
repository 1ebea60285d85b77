// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { useRowFocus } from './rowFocus';

afterEach(cleanup);

/** Rows of one field each, added and removed by buttons, as the forms' lists are. */
function Rows({ start }: { start: number }) {
  const [rows, setRows] = useState(() => Array.from({ length: start }, (_, i) => i + 1));
  const [next, setNext] = useState(start + 1);
  const { bodyRef, addButtonRef, added, removed } = useRowFocus();
  return (
    <>
      <table>
        <tbody ref={bodyRef}>
          {rows.map((n) => (
            <tr key={n}>
              <td>
                <input aria-label={`Row ${n}`} />
              </td>
              <td>
                <button
                  onClick={(e) => {
                    removed(e.currentTarget);
                    setRows((rs) => rs.filter((r) => r !== n));
                  }}
                >
                  Remove row {n}
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <button
        ref={addButtonRef}
        onClick={() => {
          setRows((rs) => [...rs, next]);
          setNext((n) => n + 1);
          added();
        }}
      >
        Add row
      </button>
    </>
  );
}

describe('useRowFocus', () => {
  it('puts the focus in the first field of a row just added', () => {
    render(<Rows start={1} />);
    fireEvent.click(screen.getByRole('button', { name: 'Add row' }));
    expect(document.activeElement).toBe(screen.getByLabelText('Row 2'));
    fireEvent.click(screen.getByRole('button', { name: 'Add row' }));
    expect(document.activeElement).toBe(screen.getByLabelText('Row 3'));
  });

  it('hands the focus of a removed row to the one that took its place, or the one above', () => {
    render(<Rows start={3} />);
    fireEvent.click(screen.getByRole('button', { name: 'Remove row 2' }));
    expect(document.activeElement).toBe(screen.getByLabelText('Row 3'));
    fireEvent.click(screen.getByRole('button', { name: 'Remove row 3' }));
    expect(document.activeElement).toBe(screen.getByLabelText('Row 1'));
  });

  it('hands it to the add button when no row is left', () => {
    render(<Rows start={1} />);
    fireEvent.click(screen.getByRole('button', { name: 'Remove row 1' }));
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Add row' }));
  });
});
