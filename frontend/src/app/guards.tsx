import { Button, Center } from '@mantine/core';
import { useEffect } from 'react';
import { Navigate, Outlet, isRouteErrorResponse, useLocation, useRouteError } from 'react-router';
import { selectIsSignedIn, selectSignOutReason } from '../api/authSlice';
import { ErrorDisplay } from '../components/ErrorDisplay';
import { useAppSelector } from '../lib/hooks';

/** Location state the login page receives from RequireAuth. */
export interface LoginLocationState {
  from?: string;
}

/**
 * Pages needing sign-in. Anonymous visitors go to /login and the page they
 * wanted is remembered, except after a deliberate logout (the next user
 * should start at Home).
 */
export function RequireAuth() {
  const signedIn = useAppSelector(selectIsSignedIn);
  const reason = useAppSelector(selectSignOutReason);
  const location = useLocation();
  if (signedIn) return <Outlet />;
  const state: LoginLocationState | undefined =
    reason === 'user' ? undefined : { from: location.pathname + location.search + location.hash };
  return <Navigate to="/login" replace state={state} />;
}

/** /login, /forgot-password, /set-password: a signed-in user goes to where they wanted, or Home. */
export function AnonymousOnly() {
  const signedIn = useAppSelector(selectIsSignedIn);
  const location = useLocation();
  if (!signedIn) return <Outlet />;
  const from = (location.state as LoginLocationState | null)?.from;
  const target = from && from.startsWith('/') && !from.startsWith('//') ? from : '/';
  return <Navigate to={target} replace />;
}

/** errorElement of the root route: a route error (or an unknown path) sends the user Home. */
export function RouteErrorRedirect() {
  const error = useRouteError();
  const location = useLocation();
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  useEffect(() => {
    if (!notFound) console.error('Route error', error);
  }, [error, notFound]);

  if (location.pathname !== '/') return <Navigate to="/" replace />;
  // Home itself failed: redirecting again would loop.
  return (
    <Center p="xl">
      <ErrorDisplay title="Something went wrong" message="The page could not be shown.">
        <Button w="fit-content" onClick={() => window.location.reload()}>
          Reload
        </Button>
      </ErrorDisplay>
    </Center>
  );
}
