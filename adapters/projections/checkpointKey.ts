/** The HMAC key that authenticates projection checkpoints: 32 random bytes, 0600 in keys/, created on first use. */
import { randomBytes } from 'node:crypto';
import { loadOrCreateSecretFile } from '../ledger/secretFile.ts';

export const CHECKPOINT_KEY_BYTES = 32;

export const loadCheckpointHmacKey = async (path: string): Promise<Buffer> => {
  const key = await loadOrCreateSecretFile(path, () => randomBytes(CHECKPOINT_KEY_BYTES));
  if (key.length !== CHECKPOINT_KEY_BYTES) throw new Error(`Checkpoint key ${path} must hold exactly ${CHECKPOINT_KEY_BYTES} bytes.`);
  return key;
};
