/**
 * The runtime registrations file against the ledger (red team 2, R7): every stored key must be one the daemon
 * handed out (its digest is in RuntimeRegistered). A key added or changed in the file lets its writer sign as a
 * runtime; doctor reports it now, and the daemon drops it at its next start (RegistrationDropped, also reported).
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Ledger } from '../../adapters/ledger/port.ts';
import { RuntimeRegistry } from '../gate/runtimeRegistry.ts';
import { recordedRegistrations } from '../runtime/openRegistrations.ts';
import type { TollgateConfig } from '../config/configSchema.ts';
import { ok, warn, type Check } from './checks.ts';

const title = 'runtime registrations';

export const registrationChecks = async (ledger: Ledger, config: TollgateConfig, sincePosition: number): Promise<Check[]> => {
  const path = join(resolve(config.data.dir), 'keys', 'runtime-registrations.json');
  const checks: Check[] = [];
  const dropped = (await ledger.readAll({ filter: { types: ['RegistrationDropped'] } })).filter((r) => r.position > sincePosition);
  if (dropped.length > 0) {
    checks.push(warn('runtime.registrations.dropped', title, `${dropped.length} stored registration(s) dropped at the daemon's start: the file held keys the ledger does not vouch for`,
      'someone wrote tollgate\'s keys folder (the agent\'s user can, in the single-user setup); the separate-principal setup prevents it'));
  }
  if (!existsSync(path)) return [...checks, ok('runtime.registrations', title, 'no registrations stored yet')];
  let registry: RuntimeRegistry;
  try { registry = RuntimeRegistry.open(path); } catch (error) {
    return [...checks, warn('runtime.registrations', title, (error as Error).message, 'move the file aside; running runtimes then block until they restart')];
  }
  const unvouched = registry.unvouched(await recordedRegistrations(ledger));
  if (unvouched.length === 0) return [...checks, ok('runtime.registrations', title, `${path}: every stored key is one the daemon handed out`)];
  const list = unvouched.map((u) => `${u.registrationId}: ${u.problem}`).join('; ');
  return [...checks, warn('runtime.registrations', title, `${path} holds ${unvouched.length} registration(s) the ledger does not vouch for (${list})`,
    'someone wrote the file to sign requests as a runtime; the daemon drops these at its next start — restart it now, and find who wrote tollgate\'s keys folder')];
};
