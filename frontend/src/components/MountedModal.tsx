import { Modal, type ModalProps } from '@mantine/core';
import { useLayoutEffect, useState } from 'react';

/**
 * A dialog that is open while it is mounted (`{editing && <EditModal … />}`). Mantine gives the
 * focus back only when `opened` turns false, never when the dialog is removed, which left the
 * focus on the page's body; this gives it back to what had it when the dialog appeared (the
 * button that opened it).
 *
 * It does so as the dialog leaves, before its elements go, so the focus never drops to the
 * body, where the page's own rescue (`keepFocusOnPage`) could send it to the heading first.
 * A focus outside every dialog is left where it is: the person or the page put it there
 * (React's development double mount runs this at once, the focus still on the opener).
 */
export function MountedModal(props: Omit<ModalProps, 'opened' | 'returnFocus'>) {
  const [opener] = useState(() => document.activeElement);
  useLayoutEffect(
    () => () => {
      const active = document.activeElement;
      const inDialog = !active || active === document.body || active.closest('[role="dialog"]') !== null;
      if (inDialog && opener instanceof HTMLElement && opener.isConnected) opener.focus();
    },
    [opener],
  );
  return <Modal opened returnFocus={false} {...props} />;
}
