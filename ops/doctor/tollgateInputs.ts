/** What doctor needs of tollgate's own configuration; undefined when it cannot be read (another principal's file). */
import { accessSync, constants } from 'node:fs';
import { configPath, loadConfig } from '../config/loadConfig.ts';
import type { ConfigCheckInput } from './configChecks.ts';

export const tollgateInputsOf = (flag?: string): ConfigCheckInput | undefined => {
  const path = configPath(flag);
  if (path !== null) {
    try { accessSync(path, constants.R_OK); } catch { return undefined; }
  }
  return { config: loadConfig(flag), configPath: path };
};
