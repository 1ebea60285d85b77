import { Anchor, List, Paper, Title } from '@mantine/core';
import { useEffect, useId, useRef, useState } from 'react';
import { invalidFields, summaryLine, type InvalidField } from './invalidFields';

/**
 * The summary of a refused submit, at the top of its form: a titled box that takes focus (so a
 * screen reader says it and a keyboard user starts there) and lists each field in error as a
 * link that moves focus to the field. It reads the fields from its form (inputs marked
 * aria-invalid, their labels and messages), so an editor only places it and marks its fields
 * as it already does. `attempt` changes at each refused submit (the save's error object, or a
 * counter for checks made in the browser); `lines` are errors no field on the page shows.
 */
export function ErrorSummary({ attempt, lines = [] }: { attempt: unknown; lines?: string[] }) {
  const box = useRef<HTMLDivElement>(null);
  const titleId = useId();
  const [fields, setFields] = useState<InvalidField[]>([]);
  useEffect(() => {
    const el = box.current;
    if (!attempt || !el) return;
    setFields(invalidFields(el.closest('form') ?? el.parentElement ?? document.body));
    el.focus();
  }, [attempt]);
  if (!attempt) return null;

  const go = (id: string) => {
    const field = document.getElementById(id);
    field?.scrollIntoView({ block: 'center' });
    field?.focus();
  };
  return (
    <div ref={box} tabIndex={-1} role="alert" aria-labelledby={titleId} data-testid="error-summary">
      <Paper withBorder p="md" style={{ borderColor: 'var(--mantine-color-red-9)', borderWidth: 3 }}>
        <Title order={2} size="h4" id={titleId} c="red.9" mb="xs">
          There is a problem
        </Title>
        <List size="sm" spacing={4}>
          {fields.map((f) => (
            <List.Item key={f.id}>
              <Anchor
                href={`#${f.id}`}
                c="red.9"
                td="underline"
                onClick={(event) => {
                  event.preventDefault();
                  go(f.id);
                }}
              >
                {summaryLine(f)}
              </Anchor>
            </List.Item>
          ))}
          {lines.map((line) => (
            <List.Item key={line}>{line}</List.Item>
          ))}
        </List>
      </Paper>
    </div>
  );
}
