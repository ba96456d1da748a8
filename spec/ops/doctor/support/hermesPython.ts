/**
 * A Python that can import the pinned Hermes, for the specs that check tollgate's files through Hermes' own code:
 * $TOLLGATE_TEST_HERMES_PYTHON, else the virtualenv the e2e suite creates (spec/e2e/hermes/support/hermesVenv.ts:
 * `.cache/hermes-venv-<version>`, or `$TOLLGATE_E2E_VENV`). Null when there is none: those specs are skipped (the e2e suite covers real Hermes).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { venvDir } from '../../../e2e/hermes/support/hermesVenv.ts';

export const hermesPython = (): string | null => {
  const given = process.env['TOLLGATE_TEST_HERMES_PYTHON'];
  if (given && existsSync(given)) return given;
  const venv = join(venvDir, 'bin', 'python');
  return existsSync(venv) ? venv : null;
};
