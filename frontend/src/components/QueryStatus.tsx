import { Center, Loader } from '@mantine/core';
import type { ReactNode } from 'react';
import { asApiError, ErrorDisplay } from './ErrorDisplay';

/** Loading spinner or error for a page's main query; children once data is there. */
export function QueryStatus({ isLoading, error, children }: { isLoading: boolean; error: unknown; children: ReactNode }) {
  if (isLoading)
    return (
      <Center py="xl">
        <Loader aria-label="Loading" />
      </Center>
    );
  if (error) return <ErrorDisplay error={asApiError(error)} />;
  return children;
}
