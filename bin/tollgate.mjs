#!/usr/bin/env node
// Entry point: runs the TypeScript sources through tsx (no build step needed), or the built copy in dist/ if present.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const built = fileURLToPath(new URL('../dist/ops/cli/main.js', import.meta.url));
if (existsSync(built) && process.env.TOLLGATE_FROM_SOURCE !== '1') {
  await import(built);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../ops/cli/main.ts');
}
