#!/usr/bin/env node
// Entry point: runs the TypeScript sources through tsx, so a clone works without a build step.
// `tollgate hook ...` is started by an agent runtime once per tool call, so it skips tsx: the hook client is plain
// JavaScript (adapters/hooks/hookClient.mjs) and costs about one bare Node start.
if (process.argv[2] === 'hook') {
  const { runHookMain } = await import('../adapters/hooks/hookClient.mjs');
  void runHookMain(process.argv.slice(3));
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../ops/cli/main.ts');
}
