import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { clockIsSet, now } from './dates';

export const ADMIN_EMAIL = 'admin@example.org';
export const ADMIN_PASSWORD = 'e2e-Admin-password-1';

const frontendDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const binary = path.resolve(frontendDir, process.env.MENTORPAY_BIN ?? '../target/debug/mentorpay');

export interface RunningServer {
  url: string;
  output: string[];
  stop(): Promise<void>;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

function exited(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise((resolve) => child.once('exit', () => resolve()));
}

/**
 * Starts `mentorpay serve` on a free port with a fresh database in a temporary
 * folder, and waits until GET /api/v1/health answers 200. MENTORPAY_UI_DIR,
 * when set in the environment, is passed on (serve a fresh `node build.mjs dist`). With
 * MENTORPAY_CLOCK set, the server's clock starts at the tests' now (./dates.ts); a server
 * that needs a calendar of its own gets MENTORPAY_CLOCK in `env` (its tests then date from it).
 */
export async function startServer(env: Record<string, string> = {}): Promise<RunningServer> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'mentorpay-e2e-'));
  // A caller that must know the address first (a provider's redirect URI) names the port.
  const port = Number(env.MENTORPAY_LISTEN?.split(':')[1]) || (await freePort());
  const url = `http://127.0.0.1:${port}`;
  const output: string[] = [];
  const child = spawn(binary, ['serve'], {
    env: {
      ...process.env,
      MENTORPAY_LISTEN: `127.0.0.1:${port}`,
      MENTORPAY_DATABASE_URL: `sqlite://${dataDir}/e2e.db?mode=rwc`,
      MENTORPAY_ADMIN_EMAIL: ADMIN_EMAIL,
      MENTORPAY_ADMIN_PASSWORD: ADMIN_PASSWORD,
      MENTORPAY_DATA_DIR: dataDir,
      // Every test signs in through the form; the default throttle would refuse.
      MENTORPAY_LOGIN_ATTEMPTS_PER_MINUTE: '1000',
      // Every server starts at the tests' running clock, not at the variable's instant: one
      // started later in the run (a short-lived one beside the worker's) then agrees with the
      // tests and the browser to the second.
      ...(clockIsSet ? { MENTORPAY_CLOCK: now().toISOString() } : {}),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString()));

  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited(child);
      clearTimeout(timer);
    }
    await rm(dataDir, { recursive: true, force: true });
  };

  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) break;
    try {
      const response = await fetch(`${url}/api/v1/health`);
      if (response.ok) return { url, output, stop };
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  await stop();
  throw new Error(`mentorpay (${binary}) did not become healthy:\n${output.join('')}`);
}
