/**
 * A Python that can import the pinned Hermes, for the specs that check tollgate's files through Hermes' own code:
 * $TOLLGATE_TEST_HERMES_PYTHON, else the virtualenv the e2e suite creates (spec/e2e/hermes/support/hermesVenv.ts:
 * `.cache/hermes-venv-<version>`). Null when there is none: those specs are skipped (the e2e suite covers real Hermes).
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = resolve(fileURLToPath(new URL('../../../../', import.meta.url)));

export const hermesPython = (): string | null => {
  const given = process.env['TOLLGATE_TEST_HERMES_PYTHON'];
  if (given && existsSync(given)) return given;
  const venv = join(repoRoot, '.cache', 'hermes-venv-0.19.0', 'bin', 'python');
  return existsSync(venv) ? venv : null;
};
