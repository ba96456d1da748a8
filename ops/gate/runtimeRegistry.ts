/**
 * Runtime registrations: the key each registered runtime signs its requests with (and the daemon its answers).
 * Kept in memory and, for a daemon with a data folder, in `<data.dir>/keys/runtime-registrations.json` (mode 0600)
 * so a daemon restart keeps them: a running Hermes keeps its key in memory only and must not lose its sessions.
 * The ledger records `RuntimeRegistered` without the key.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { processGone, processStartTime } from './processLiveness.ts';

export interface Registration {
  readonly registrationId: string;
  readonly runtime: string;
  readonly pid: number | null;
  readonly pidStart: string | null;
  readonly key: Buffer;
  readonly at: string;
}

/** Registrations kept; the oldest are forgotten (their sessions then cannot be claimed: unknown counts as alive). */
const maxRegistrations = 1000;
/** Nonces remembered per registration, against replayed requests. */
const noncesKept = 4096;

interface StoredRegistration { registrationId: string; runtime: string; pid: number | null; pidStart: string | null; key: string; at: string }

export class RuntimeRegistry {
  private readonly byId = new Map<string, Registration>();
  private readonly nonces = new Map<string, Set<string>>();

  private constructor(private readonly path: string | null) {}

  /** Opens the registry (path null: in memory only, for memory ledgers and tests). A damaged file is an error. */
  static open(path: string | null): RuntimeRegistry {
    const registry = new RuntimeRegistry(path);
    if (path === null) return registry;
    let text: string;
    try { text = readFileSync(path, 'utf8'); } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return registry;
      throw error;
    }
    let stored: StoredRegistration[] | undefined;
    try { stored = (JSON.parse(text) as { registrations?: StoredRegistration[] }).registrations; } catch (error) {
      throw new Error(`${path} is not valid JSON (${(error as Error).message}); move it aside to start without registrations (running runtimes then block until restarted)`);
    }
    if (!Array.isArray(stored)) throw new Error(`${path} holds no registrations list`);
    for (const r of stored) registry.byId.set(r.registrationId, { ...r, key: Buffer.from(r.key, 'base64') });
    return registry;
  }

  register(input: { readonly registrationId: string; readonly runtime: string; readonly pid: number | null; readonly at: string }): Registration {
    const registration: Registration = {
      ...input, pidStart: input.pid === null ? null : processStartTime(input.pid), key: randomBytes(32),
    };
    this.byId.set(registration.registrationId, registration);
    while (this.byId.size > maxRegistrations) this.byId.delete(this.byId.keys().next().value as string);
    this.save();
    return registration;
  }

  get(registrationId: string): Registration | undefined {
    return this.byId.get(registrationId);
  }

  /**
   * Records a request nonce; false when this registration already used it (a replayed request). The last
   * `noncesKept` nonces of each registration are remembered, in memory only.
   */
  useNonce(registrationId: string, nonce: string): boolean {
    let seen = this.nonces.get(registrationId);
    if (seen === undefined) { seen = new Set(); this.nonces.set(registrationId, seen); }
    if (seen.has(nonce)) return false;
    seen.add(nonce);
    if (seen.size > noncesKept) seen.delete(seen.values().next().value as string);
    return true;
  }

  /** Whether the registration's process is known to be gone (unknown registrations and liveness count as alive). */
  isGone(registrationId: string): boolean {
    const r = this.byId.get(registrationId);
    return r !== undefined && processGone(r.pid, r.pidStart);
  }

  private save(): void {
    if (this.path === null) return;
    const registrations: StoredRegistration[] = [...this.byId.values()].map((r) => ({ ...r, key: r.key.toString('base64') }));
    mkdirSync(dirname(this.path), { recursive: true, mode: 0o700 });
    const temp = `${this.path}.${process.pid}.tmp`;
    writeFileSync(temp, `${JSON.stringify({ version: 1, registrations })}\n`, { mode: 0o600 });
    chmodSync(temp, 0o600);
    renameSync(temp, this.path);
  }
}
