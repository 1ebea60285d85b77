import { Modal, type ModalProps } from '@mantine/core';
import { useEffect, useState } from 'react';

/**
 * A dialog that is open while it is mounted (`{editing && <EditModal … />}`). Mantine gives the
 * focus back only when `opened` turns false, never when the dialog is removed, which left the
 * focus on the page's body; this gives it back to what had it when the dialog appeared (the
 * button that opened it), unless something else has taken it meanwhile.
 */
export function MountedModal(props: Omit<ModalProps, 'opened' | 'returnFocus'>) {
  const [opener] = useState(() => document.activeElement);
  useEffect(
    () => () => {
      // After the dialog has left the page (React's development double mount runs this
      // while it is still there, with the focus inside it: then nothing happens).
      setTimeout(() => {
        const lost = document.activeElement === null || document.activeElement === document.body;
        if (lost && opener instanceof HTMLElement && opener.isConnected) opener.focus();
      });
    },
    [opener],
  );
  return <Modal opened returnFocus={false} {...props} />;
}
