// The browser side of passkeys: the server's WebAuthn options (JSON, binary fields in
// base64url) turned into what navigator.credentials.create/get take, and the credential
// they give back turned into JSON for the server. Shared by the sign-in's second step and
// the security dialog.

/** Bytes as base64url without padding (what WebAuthn's JSON forms use). */
export function toBase64Url(bytes: ArrayBuffer | Uint8Array): string {
  const view = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
  let binary = '';
  for (const b of view) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** base64url (padded or not, or plain base64) back to bytes. */
export function fromBase64Url(text: string): Uint8Array<ArrayBuffer> {
  const base64 = text.replace(/-/g, '+').replace(/_/g, '/');
  const binary = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
  const out = new Uint8Array(new ArrayBuffer(binary.length));
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}

type Json = Record<string, unknown>;
interface Descriptor {
  id: string;
  type: string;
  transports?: string[];
}

function descriptors(list: unknown): PublicKeyCredentialDescriptor[] | undefined {
  if (!Array.isArray(list)) return undefined;
  return (list as Descriptor[]).map((d) => ({ ...d, id: fromBase64Url(d.id), type: 'public-key', transports: d.transports as AuthenticatorTransport[] | undefined }));
}

/** The server's creation options (`publicKey`) as `navigator.credentials.create` takes them. */
export function creationOptions(publicKey: Json): PublicKeyCredentialCreationOptions {
  const user = publicKey.user as Json;
  return {
    ...(publicKey as unknown as PublicKeyCredentialCreationOptions),
    challenge: fromBase64Url(publicKey.challenge as string),
    user: { ...(user as unknown as PublicKeyCredentialUserEntity), id: fromBase64Url(user.id as string) },
    excludeCredentials: descriptors(publicKey.excludeCredentials),
  };
}

/** The server's request options (`publicKey`) as `navigator.credentials.get` takes them. */
export function requestOptions(publicKey: Json): PublicKeyCredentialRequestOptions {
  return {
    ...(publicKey as unknown as PublicKeyCredentialRequestOptions),
    challenge: fromBase64Url(publicKey.challenge as string),
    allowCredentials: descriptors(publicKey.allowCredentials),
  };
}

/** A credential the browser made or used, as the JSON the server reads. */
export function credentialJson(credential: PublicKeyCredential): Json {
  const r = credential.response;
  const response: Json = { clientDataJSON: toBase64Url(r.clientDataJSON) };
  if ('attestationObject' in r) {
    const attestation = r as AuthenticatorAttestationResponse;
    response.attestationObject = toBase64Url(attestation.attestationObject);
    if (typeof attestation.getTransports === 'function') response.transports = attestation.getTransports();
  } else {
    const assertion = r as AuthenticatorAssertionResponse;
    response.authenticatorData = toBase64Url(assertion.authenticatorData);
    response.signature = toBase64Url(assertion.signature);
    response.userHandle = assertion.userHandle ? toBase64Url(assertion.userHandle) : null;
  }
  return { id: credential.id, rawId: toBase64Url(credential.rawId), type: credential.type, response, extensions: credential.getClientExtensionResults() };
}

/** What a failed browser prompt means, in words. */
export function passkeyFailure(error: unknown): string {
  const name = error instanceof DOMException ? error.name : '';
  if (name === 'NotAllowedError') return 'The passkey request was cancelled or timed out. Try again when you are ready.';
  if (name === 'InvalidStateError') return 'This device already holds a passkey for your account.';
  if (name === 'SecurityError') return 'This address cannot use passkeys. Open MentorPay at its usual address and try again.';
  if (name === 'NotSupportedError') return 'This browser or device does not support passkeys.';
  return 'The passkey could not be used. Please try again.';
}

/** Whether this browser offers passkeys at all. */
export function passkeysSupported(): boolean {
  return typeof window !== 'undefined' && 'PublicKeyCredential' in window && !!navigator.credentials;
}

/** Asks the browser to make a passkey with the server's options. */
export async function createPasskey(publicKey: Json): Promise<Json> {
  const credential = await navigator.credentials.create({ publicKey: creationOptions(publicKey) });
  if (!credential) throw new DOMException('No passkey was made.', 'NotAllowedError');
  return credentialJson(credential as PublicKeyCredential);
}

/** Asks the browser to sign the server's challenge with one of the account's passkeys. */
export async function signWithPasskey(publicKey: Json): Promise<Json> {
  const credential = await navigator.credentials.get({ publicKey: requestOptions(publicKey) });
  if (!credential) throw new DOMException('No passkey was used.', 'NotAllowedError');
  return credentialJson(credential as PublicKeyCredential);
}
