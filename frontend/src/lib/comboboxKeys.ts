// Every select and multiselect (Mantine's comboboxes) opens and chooses with Enter and Space,
// not with the arrow keys only: Enter on a closed select opens it on the current choice, Enter
// on an open one takes the highlighted option, or the first when none is highlighted; Space
// does the same except while a search is being typed (there it is a space). Installed once on
// the document, in the capture phase, ahead of Mantine's own key handling, which never sees
// these keys on a combobox. Tested in comboboxKeys.test.tsx.

const OPTION = '[data-combobox-option]:not([data-combobox-disabled])';

const isCombobox = (el: EventTarget | null): el is HTMLInputElement =>
  el instanceof HTMLInputElement && el.getAttribute('aria-haspopup') === 'listbox' && !el.disabled;

/** The open list of a combobox input, or null while it is closed. */
function listOf(input: HTMLInputElement): HTMLElement | null {
  if (!input.hasAttribute('data-expanded')) return null;
  const id = input.getAttribute('aria-controls');
  return (id && input.ownerDocument.getElementById(id)) || null;
}

/** Opens the list on the current choice, as Mantine does for ArrowDown. */
function open(input: HTMLInputElement) {
  input.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowDown', code: 'ArrowDown', bubbles: true, cancelable: true }));
}

/** What a typed search looks like: text that is not the chosen option's label. */
function searching(input: HTMLInputElement, list: HTMLElement | null): boolean {
  if (input.readOnly || input.value === '') return false;
  const checked = list?.querySelector('[data-checked]');
  return !checked || checked.textContent?.trim() !== input.value.trim();
}

export function onComboboxKey(event: KeyboardEvent): void {
  const input = event.target;
  if (!isCombobox(input) || event.isComposing) return;
  const enter = event.code === 'Enter' || event.code === 'NumpadEnter';
  const space = event.code === 'Space';
  if (!enter && !space) return;
  if (event.altKey || event.ctrlKey || event.metaKey) return;
  const list = listOf(input);
  if (space && searching(input, list)) return;
  if (!list) {
    event.preventDefault();
    event.stopPropagation();
    open(input);
    return;
  }
  // The option shown highlighted is taken here, on Enter too: Mantine's own Enter goes by an
  // index it recounts on a timer after the list opens, and an arrow pressed before that timer
  // ran left it counting none, so Enter took nothing and submitted the form.
  const highlighted = list.querySelector<HTMLElement>(`${OPTION}[data-combobox-selected]`);
  event.preventDefault();
  event.stopPropagation();
  // A select keeps its choice; a multiselect adds the first option not yet taken (taking a
  // taken one again would remove it).
  const single = input.classList.contains('mantine-Input-input');
  const fallback = single
    ? (list.querySelector<HTMLElement>(`${OPTION}[data-checked]`) ?? list.querySelector<HTMLElement>(OPTION))
    : list.querySelector<HTMLElement>(`${OPTION}:not([data-checked])`);
  (highlighted ?? fallback)?.click();
}

/** Installs the keys on `doc`; returns their removal. */
export function installComboboxKeys(doc: Document = document): () => void {
  doc.addEventListener('keydown', onComboboxKey, true);
  return () => doc.removeEventListener('keydown', onComboboxKey, true);
}
