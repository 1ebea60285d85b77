import type { SignOutReason } from './authSlice';
import type { Tokens } from './storage';

// Session messages between open tabs of the app (same origin only).
export type SessionMessage =
  | { type: 'refresh-start'; ts: number }
  /** tokens null: the refresh ended without new tokens (e.g. network error). */
  | { type: 'refresh-done'; ts: number; tokens: Tokens | null }
  | { type: 'logout'; ts: number; reason: SignOutReason };

type Outgoing =
  | { type: 'refresh-start' }
  | { type: 'refresh-done'; tokens: Tokens | null }
  | { type: 'logout'; reason: SignOutReason };

/** Cross-tab messages are kept 45 seconds; older ones are ignored. */
export const MESSAGE_TTL_MS = 45_000;
export const CHANNEL_NAME = 'mentorpay-session';

let channel: BroadcastChannel | null = null;
const listeners = new Set<(message: SessionMessage) => void>();

function open(): BroadcastChannel | null {
  if (channel || typeof BroadcastChannel === 'undefined') return channel;
  channel = new BroadcastChannel(CHANNEL_NAME);
  channel.onmessage = (event: MessageEvent<SessionMessage>) => {
    const message = event.data;
    if (!message || typeof message.ts !== 'number') return;
    if (Date.now() - message.ts > MESSAGE_TTL_MS) return;
    listeners.forEach((listener) => listener(message));
  };
  return channel;
}

/** Tells the other tabs; a tab never receives its own messages. */
export function broadcast(message: Outgoing): void {
  open()?.postMessage({ ...message, ts: Date.now() });
}

export function subscribe(listener: (message: SessionMessage) => void): () => void {
  open();
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Closes the channel (tests; a page simply unloads). */
export function closeChannel(): void {
  channel?.close();
  channel = null;
  listeners.clear();
}
