import { Modal, type ModalProps } from '@mantine/core';
import { useLayoutEffect, useState } from 'react';

/**
 * A dialog that is open while it is mounted (`{editing && <EditModal … />}`). Mantine gives the
 * focus back only when `opened` turns false, never when the dialog is removed, which left the
 * focus on the page's body; this gives it back to what had it when the dialog appeared (the
 * button that opened it).
 *
 * It does so as the dialog leaves, before its elements do, so the focus never drops to the
 * body: from there the page's own rescue (`keepFocusOnPage`) would send it to the heading if
 * its timer ran first, and it may, the removal coming from a render React commits whenever
 * the page's data allows. The focus is left alone when it is outside every dialog: the person
 * or the page put it there (React's development double mount runs this at once, the focus
 * still on the opener).
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
