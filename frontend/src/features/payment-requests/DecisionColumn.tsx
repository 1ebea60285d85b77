import { Box, Button, Grid } from '@mantine/core';
import { useId, useState, type ReactNode } from 'react';
import { useBelow } from '../../components/useBelow';
import { HEADER_HEIGHT } from '../../lib/theme';

/**
 * The approve screen's decision column. From the md breakpoint up it sits beside the request,
 * sticky, always open. In a narrower window it comes first, folded behind one button (closed
 * at first, so the request is what one sees), and open it is part of the page and scrolls away
 * with it: it never covers the request. Folding keeps what was typed (the panel stays mounted).
 */
export function DecisionColumn({ label, children }: { label: string; children: ReactNode }) {
  const wide = !useBelow('md');
  const [open, setOpen] = useState(false);
  const id = useId();
  return (
    <Grid.Col
      span={{ base: 12, md: 5 }}
      order={{ base: 1, md: 2 }}
      style={wide ? { position: 'sticky', top: HEADER_HEIGHT + 16 } : undefined}
      data-testid="approve-decision"
    >
      {!wide && (
        <Button
          variant="light"
          fullWidth
          justify="space-between"
          mb={open ? 'sm' : 0}
          aria-expanded={open}
          aria-controls={id}
          onClick={() => setOpen((o) => !o)}
          rightSection={
            <span aria-hidden style={{ display: 'inline-block', transform: open ? 'rotate(180deg)' : undefined }}>
              ▾
            </span>
          }
        >
          {label}
        </Button>
      )}
      <Box id={id} hidden={!wide && !open}>
        {children}
      </Box>
    </Grid.Col>
  );
}
