/** The HMAC key for payload digests: 32 random bytes in a 0600 file, created on first use. */
import { randomBytes } from 'node:crypto';
import { dirname, join } from 'node:path';
import { loadOrCreateSecretFile } from '../ledger/secretFile.ts';

export const PAYLOAD_KEY_BYTES = 32;

export const payloadKeyPathFor = (storePath: string) => join(dirname(storePath), 'keys', 'payload-hmac.key');

export const loadPayloadKey = async (path: string): Promise<Buffer> => {
  const key = await loadOrCreateSecretFile(path, () => randomBytes(PAYLOAD_KEY_BYTES));
  if (key.length !== PAYLOAD_KEY_BYTES) throw new Error(`Payload key ${path} must hold exactly ${PAYLOAD_KEY_BYTES} bytes.`);
  return key;
};
