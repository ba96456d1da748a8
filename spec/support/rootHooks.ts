/**
 * Mocha root hooks. The pinned Hermes is installed (or reused) once before any spec runs, so the plugin specs that
 * need Hermes' own Python find it even in a fresh clone, where they would otherwise run before the e2e suite
 * creates it. Whether its absence fails or skips is each suite's call (see spec/e2e/hermes/support/hermesVenv.ts).
 */
import { ensureHermes } from '../e2e/hermes/support/hermesVenv.ts';

export const mochaHooks = {
  async beforeAll(this: Mocha.Context): Promise<void> {
    this.timeout(20 * 60_000);
    await ensureHermes();
  },
};
