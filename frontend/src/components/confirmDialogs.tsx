import { Text } from '@mantine/core';
import { modals } from '@mantine/modals';

// The two confirmation dialogs (Save Changes, Cancel Changes), with their exact texts. Each returns a promise
// that resolves true on confirm and false on any other way out (button,
// Escape, click outside). Needs <ModalsProvider> (mounted in main.tsx).

export const CANCEL_CHANGES_TEXT = 'Are you sure you want to cancel the changes?';
export const SAVE_CHANGES_TEXT = 'Are you sure you want to save the changes?';

interface ConfirmOptions {
  title: string;
  text: string;
  confirmLabel: string;
  cancelLabel: string;
  danger?: boolean;
}

export function openConfirm({ title, text, confirmLabel, cancelLabel, danger }: ConfirmOptions): Promise<boolean> {
  // The focus goes back to where it was here, at once, before the caller goes on. Mantine
  // would do it 10 ms after closing, and could then take it from what the confirmed action
  // focuses meanwhile (the error summary of a refused save, when the server answers first).
  const trigger = document.activeElement instanceof HTMLElement ? document.activeElement : null;
  return new Promise((resolve) => {
    let settled = false;
    const settle = (confirmed: boolean) => {
      if (settled) return;
      settled = true;
      trigger?.focus({ preventScroll: true });
      resolve(confirmed);
    };
    modals.openConfirmModal({
      title,
      centered: true,
      children: <Text size="sm">{text}</Text>,
      labels: { confirm: confirmLabel, cancel: cancelLabel },
      // The primary action takes the focus (not the × in the corner): Enter confirms,
      // Escape or Tab to the other button keeps things as they are.
      confirmProps: { ...(danger ? { color: 'red' } : {}), 'data-autofocus': true },
      onConfirm: () => settle(true),
      onCancel: () => settle(false),
      onClose: () => settle(false),
      returnFocus: false,
    });
  });
}

/** 'Keep editing' / 'Cancel Changes' (danger). */
export const confirmCancelChanges = () =>
  openConfirm({
    title: 'Cancel Changes',
    text: CANCEL_CHANGES_TEXT,
    cancelLabel: 'Keep editing',
    confirmLabel: 'Cancel Changes',
    danger: true,
  });

/** 'Keep editing' / 'Save Changes'. */
export const confirmSaveChanges = () =>
  openConfirm({
    title: 'Save Changes',
    text: SAVE_CHANGES_TEXT,
    cancelLabel: 'Keep editing',
    confirmLabel: 'Save Changes',
  });
