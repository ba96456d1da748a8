/** Options every command shares (set on the root program). */
import type { Command } from 'commander';
import type { TollgateConfig } from '../config/configSchema.ts';
import { loadConfig } from '../config/loadConfig.ts';

export const configFrom = (command: Command): TollgateConfig => {
  const root = command.parent ?? command;
  return loadConfig(root.opts<{ config?: string }>().config);
};
