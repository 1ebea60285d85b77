import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

// The session state lives beside the base query (not in features/auth) because
// the base query must log out and track refreshes, and shared code may not
// import a feature. The auth feature holds the sign-in pages and endpoints.

export interface UserDetails {
  firstName: string;
  lastName: string;
  email: string;
  /** The first role decides administrator status and is the one displayed. */
  roles: string[];
  permissions: string[];
}

/** A token refresh is in process, succeeded or failed (idle before any refresh). */
export type RefreshState = 'idle' | 'inProcess' | 'success' | 'failed';

/** Why the last session ended; the login page explains it, the guard uses it. */
export type SignOutReason = 'user' | 'idle' | 'expired';

export interface AuthState {
  userDetails: UserDetails | null;
  refreshState: RefreshState;
  signOutReason: SignOutReason | null;
  /** The server's own words when it ended the session (a refused refresh, e.g. coordinator sign-in blocked). */
  signOutMessage?: string;
}

export const initialAuthState: AuthState = {
  userDetails: null,
  refreshState: 'idle',
  signOutReason: null,
};

const authSlice = createSlice({
  name: 'auth',
  initialState: initialAuthState,
  reducers: {
    loggedIn(state, action: PayloadAction<UserDetails>) {
      state.userDetails = action.payload;
      state.refreshState = 'idle';
      state.signOutReason = null;
      delete state.signOutMessage;
    },
    refreshStateChanged(state, action: PayloadAction<RefreshState>) {
      state.refreshState = action.payload;
    },
    /** Keeps refreshState, so a failed refresh stays visible after the logout it causes. */
    loggedOut(state, action: PayloadAction<SignOutReason>) {
      state.userDetails = null;
      state.signOutReason = action.payload;
    },
    /** Set just before the logout it explains. */
    signOutMessageSet(state, action: PayloadAction<string>) {
      state.signOutMessage = action.payload;
    },
    /** The login page has told the user why the session ended. */
    signOutReasonCleared(state) {
      state.signOutReason = null;
      delete state.signOutMessage;
    },
  },
});

export const { loggedIn, refreshStateChanged, loggedOut, signOutMessageSet, signOutReasonCleared } = authSlice.actions;
export const authReducer = authSlice.reducer;

type WithAuth = { auth: AuthState };
export const selectUserDetails = (state: WithAuth) => state.auth.userDetails;
export const selectIsSignedIn = (state: WithAuth) => state.auth.userDetails !== null;
export const selectSignOutReason = (state: WithAuth) => state.auth.signOutReason;
export const selectSignOutMessage = (state: WithAuth) => state.auth.signOutMessage;
export const selectPermissions = (state: WithAuth) => state.auth.userDetails?.permissions ?? [];
