/**
 * The runtime registrations a daemon starts with: the stored file, cross-checked with the ledger's
 * RuntimeRegistered events (key digest, runtime, process). What the ledger does not vouch for is dropped, recorded
 * as RegistrationDropped and logged: its runtime then blocks until it registers again, which is the safe side.
 */
import type { Ledger } from '../../adapters/ledger/port.ts';
import { decodeEvent, encodeEvent } from '../../domain/events/codec.ts';
import { registrationsStream, RuntimeRegistry, type RecordedRegistration } from '../gate/runtimeRegistry.ts';

export const openRegistrations = async (ledger: Ledger, path: string, now: () => string, log: (line: string) => void): Promise<RuntimeRegistry> => {
  const registry = RuntimeRegistry.open(path);
  const dropped = registry.keepRecorded(await recordedRegistrations(ledger));
  if (dropped.length === 0) return registry;
  const at = now();
  await ledger.append(registrationsStream, dropped.map((d) => encodeEvent({ type: 'RegistrationDropped', data: { ...d, at } })));
  for (const d of dropped) log(`runtime registration ${d.registrationId} dropped at start: ${d.problem}`);
  return registry;
};

/** Every registration the ledger recorded, by id. */
export const recordedRegistrations = async (ledger: Ledger): Promise<Map<string, RecordedRegistration>> => {
  const recorded = new Map<string, RecordedRegistration>();
  for (const record of await ledger.readStream(registrationsStream)) {
    const event = decodeEvent(record);
    if (event.type === 'RuntimeRegistered') recorded.set(event.data.registrationId, event.data);
  }
  return recorded;
};
