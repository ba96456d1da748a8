/**
 * The signed checkpoint: an Ed25519 signature over (position, hash) of a chain head. The key lives outside the
 * ledger, so whoever can edit the ledger file cannot move the anchor, and a cut-off tail shows as a head below it.
 */
import { createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify } from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import { z } from 'zod';
import { canonicalJson } from '../../domain/encoding/canonicalJson.ts';
import type { CheckedCheckpoint } from './hashChain.ts';
import { loadOrCreateSecretFile } from './secretFile.ts';

const checkpointSchema = z.object({
  position: z.number().int().min(1),
  hash: z.string().regex(/^[0-9a-f]{64}$/),
  /** Base64 SPKI DER of the signing key, so a reader can tell which key signed. */
  publicKey: z.string(),
  /** Base64 Ed25519 signature over the canonical message. */
  signature: z.string(),
});

export type Checkpoint = z.infer<typeof checkpointSchema>;

/** Throws when the value is not a checkpoint at all (the message says which field). */
export const parseCheckpoint = (value: unknown): Checkpoint => {
  const parsed = checkpointSchema.safeParse(value);
  if (!parsed.success) throw new Error(`not a checkpoint: ${parsed.error.issues.map((i) => i.path.join('.') || 'value').join(', ')}`);
  return parsed.data;
};

// A fixed label keeps a signature made for anything else from passing as a checkpoint.
const message = (position: number, hash: string) =>
  Buffer.from(canonicalJson({ kind: 'tollgate-ledger-checkpoint', version: 1, position, hash }));

export interface CheckpointSigner {
  readonly publicKey: string;
  sign(position: number, hash: string): Checkpoint;
  /** Compares a stored checkpoint against our key; a checkpoint signed by any other key is not trusted. */
  check(checkpoint: Checkpoint): CheckedCheckpoint;
}

export const checkpointSigner = (privateKey: KeyObject): CheckpointSigner => {
  const publicKeyObject = createPublicKey(privateKey);
  const publicKey = publicKeyObject.export({ format: 'der', type: 'spki' }).toString('base64');
  return {
    publicKey,
    sign: (position, hash) => ({
      position,
      hash,
      publicKey,
      signature: sign(null, message(position, hash), privateKey).toString('base64'),
    }),
    check: ({ position, hash, publicKey: signer, signature }) => {
      const base = { position, hash };
      if (signer !== publicKey) return { ...base, signatureValid: false, signatureProblem: 'it was signed by a different key' };
      const valid = verify(null, message(position, hash), publicKeyObject, Buffer.from(signature, 'base64'));
      return valid ? { ...base, signatureValid: true } : { ...base, signatureValid: false, signatureProblem: 'its signature is invalid' };
    },
  };
};

const newPrivateKeyPem = (): Buffer =>
  Buffer.from(generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }));

/** Loads the signing key, creating it (PEM, mode 0600) on first use. */
export const loadCheckpointKey = async (path: string): Promise<KeyObject> => {
  const key = createPrivateKey(await loadOrCreateSecretFile(path, newPrivateKeyPem));
  if (key.asymmetricKeyType !== 'ed25519') throw new Error(`Checkpoint key ${path} is not an Ed25519 key.`);
  return key;
};

/** A key that lives as long as the process: for the memory ledger. */
export const ephemeralCheckpointKey = (): KeyObject => generateKeyPairSync('ed25519').privateKey;
