#!/usr/bin/env node
// Entry point: runs the TypeScript sources through tsx, so a clone works without a build step.
const { register } = await import('tsx/esm/api');
register();
await import('../ops/cli/main.ts');
