import { expect } from 'chai';
import { chmod, readFile, stat, writeFile } from 'node:fs/promises';
import { checkpointSigner, ephemeralCheckpointKey, loadCheckpointKey } from '../../../adapters/ledger/checkpoint.ts';
import { fileCheckpointStore } from '../../../adapters/ledger/checkpointStore.ts';
import { checkpointWriter } from '../../../adapters/ledger/checkpointWriter.ts';
import { KeyFilePermissionError } from '../../../adapters/ledger/secretFile.ts';
import { useTempDir } from '../../support/tempDir.ts';

const hashOf = (n: number) => n.toString(16).padStart(64, '0');

describe('signed checkpoint', () => {
  const temp = useTempDir('checkpoint');

  it('creates the key file on first use with mode 0600 and loads the same key after', async () => {
    const path = temp.current.file('keys', 'checkpoint.ed25519');
    const first = checkpointSigner(await loadCheckpointKey(path));
    expect((await stat(path)).mode & 0o777).to.equal(0o600);
    expect((await stat(temp.current.file('keys'))).mode & 0o777).to.equal(0o700);
    expect(await readFile(path, 'utf8')).to.match(/^-----BEGIN PRIVATE KEY-----/);
    const second = checkpointSigner(await loadCheckpointKey(path));
    expect(second.publicKey).to.equal(first.publicKey);
  });

  it('creates one key when several openers race for it', async () => {
    const path = temp.current.file('keys', 'checkpoint.ed25519');
    const signers = await Promise.all(Array.from({ length: 8 }, async () => checkpointSigner(await loadCheckpointKey(path))));
    expect(new Set(signers.map((s) => s.publicKey)).size).to.equal(1);
  });

  for (const mode of [0o640, 0o604, 0o660])
    it(`refuses a key file with mode ${mode.toString(8)} (group or others may use it)`, async () => {
      const path = temp.current.file('keys', 'checkpoint.ed25519');
      await loadCheckpointKey(path);
      await chmod(path, mode);
      let error: unknown;
      await loadCheckpointKey(path).catch((e: unknown) => (error = e));
      expect(error).to.be.instanceOf(KeyFilePermissionError);
    });

  it('accepts its own signature and refuses a changed position, hash or signature, or another key', () => {
    const signer = checkpointSigner(ephemeralCheckpointKey());
    const checkpoint = signer.sign(7, hashOf(7));
    expect(signer.check(checkpoint)).to.deep.equal({ position: 7, hash: hashOf(7), signatureValid: true });
    expect(signer.check({ ...checkpoint, position: 8 }).signatureValid).to.equal(false);
    expect(signer.check({ ...checkpoint, hash: hashOf(8) }).signatureValid).to.equal(false);
    const forged = checkpointSigner(ephemeralCheckpointKey()).sign(7, hashOf(7));
    expect(signer.check(forged)).to.include({ signatureValid: false, signatureProblem: 'it was signed by a different key' });
    expect(signer.check({ ...forged, publicKey: signer.publicKey }).signatureValid).to.equal(false);
  });

  it('stores {position, hash, publicKey, signature} in a file replaced atomically', async () => {
    const signer = checkpointSigner(ephemeralCheckpointKey());
    const path = temp.current.file('ledger.db.checkpoint.json');
    const store = fileCheckpointStore(path);
    expect(await store.read()).to.equal(undefined);
    await store.write(signer.sign(3, hashOf(3)));
    await store.write(signer.sign(4, hashOf(4)));
    const stored = JSON.parse(await readFile(path, 'utf8')) as Record<string, unknown>;
    expect(Object.keys(stored).sort()).to.deep.equal(['hash', 'position', 'publicKey', 'signature']);
    expect(stored.position).to.equal(4);
    await writeFile(path, '{"position": "x"}');
    let error: unknown;
    await store.read().catch((e: unknown) => (error = e));
    expect(error).to.be.instanceOf(Error).with.property('message').match(/not a checkpoint/);
  });

  it('debounces writes: many commits, few file writes, and close writes the last head', async () => {
    const signer = checkpointSigner(ephemeralCheckpointKey());
    const store = fileCheckpointStore(temp.current.file('cp.json'));
    let writes = 0;
    const counting = { read: store.read, write: async (c: Parameters<typeof store.write>[0]) => ((writes += 1), store.write(c)) };
    const writer = checkpointWriter({ store: counting, signer, intervalMs: 50, hashAt: (p) => hashOf(p) });
    for (let p = 1; p <= 200; p += 1) writer.committed({ position: p, hash: hashOf(p) });
    expect(writes).to.equal(0);
    await writer.close();
    expect(writes).to.equal(1);
    expect((await store.read())?.position).to.equal(200);
  });

  it('never moves a checkpoint backwards or onto a chain that no longer holds it', async () => {
    const signer = checkpointSigner(ephemeralCheckpointKey());
    const store = fileCheckpointStore(temp.current.file('cp.json'));
    await store.write(signer.sign(10, hashOf(10)));
    const problems: string[] = [];
    const behind = checkpointWriter({ store, signer, hashAt: hashOf, onProblem: (p) => problems.push(p) });
    behind.committed({ position: 5, hash: hashOf(5) });
    await behind.close();
    expect((await store.read())?.position).to.equal(10);
    const forked = checkpointWriter({ store, signer, hashAt: () => 'f'.repeat(64), onProblem: (p) => problems.push(p) });
    forked.committed({ position: 12, hash: hashOf(12) });
    await forked.close();
    expect((await store.read())?.position).to.equal(10);
    expect(problems).to.have.length(1);
    expect(problems[0]).to.match(/no longer matches it at position 10/);
  });
});
