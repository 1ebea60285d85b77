import type { PermissionCode } from '../lib/permissions';
import { Button } from '@mantine/core';
import type { ComponentType } from 'react';
import { ErrorDisplay } from '../components/ErrorDisplay';
import { PermissionGate } from '../components/PermissionGate';

/** Raised on window when a page's code could not be loaded (cancelable). */
export const CHUNK_LOAD_ERROR_EVENT = 'mentorpay:chunk-load-error';

export interface ChunkLoadErrorDetail {
  error: unknown;
}

function ChunkLoadFailed() {
  return (
    <ErrorDisplay title="This page could not be loaded" message="Reload the application to try again.">
      <Button w="fit-content" onClick={() => window.location.reload()}>
        Reload
      </Button>
    </ErrorDisplay>
  );
}

/**
 * A route `lazy` loader: each page is its own chunk, loaded on demand and
 * shown behind its permission gate. A failed load (typically a deploy
 * replaced the hashed chunks) raises CHUNK_LOAD_ERROR_EVENT; it is rethrown
 * (-> the route's errorElement) unless a listener called preventDefault().
 */
export function lazyPage<P extends object>(
  load: () => Promise<{ default: ComponentType<P> }>,
  options: { permission?: PermissionCode; props?: P } = {},
) {
  return async (): Promise<{ Component: ComponentType }> => {
    let Page: ComponentType<P>;
    try {
      Page = (await load()).default;
    } catch (error) {
      const event = new CustomEvent<ChunkLoadErrorDetail>(CHUNK_LOAD_ERROR_EVENT, {
        cancelable: true,
        detail: { error },
      });
      if (window.dispatchEvent(event)) throw error;
      return { Component: ChunkLoadFailed };
    }
    const props = (options.props ?? {}) as P;
    return {
      Component: () => (
        <PermissionGate permission={options.permission}>
          <Page {...props} />
        </PermissionGate>
      ),
    };
  };
}
