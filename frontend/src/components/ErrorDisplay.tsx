import { Alert, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { GENERIC_ERROR, statusSentence, type ApiError } from '../api/errors';

interface Props {
  /** An API error, or a plain title/message pair. */
  error?: Pick<ApiError, 'status' | 'title' | 'detail'>;
  title?: string;
  message?: string;
  children?: ReactNode;
}

/** Shows a failed call or a refused page in a consistent, readable way: a human title and the
 * server's own words (never a bare status code). */
export function ErrorDisplay({ error, title, message, children }: Props) {
  const heading = title ?? error?.title ?? GENERIC_ERROR;
  const text = message ?? error?.detail;
  return (
    <Alert color="red" variant="light" title={heading} role="alert">
      <Stack gap="sm">
        {text && <Text size="sm">{text}</Text>}
        {children}
      </Stack>
    </Alert>
  );
}

/** Turns RTK Query's `error` (typed unknown-ish) into ApiError for display. */
export function asApiError(error: unknown): ApiError {
  if (typeof error === 'object' && error !== null && 'title' in error) return error as ApiError;
  return { status: 0, title: GENERIC_ERROR, detail: statusSentence(0) };
}
