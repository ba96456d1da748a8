/** The scheduler port: jobs run on a cron expression, never overlapping themselves. node-cron behind it. */
import { schedule as cronSchedule, validate } from 'node-cron';

export interface ScheduledJob { stop(): void }
export type Scheduler = (expression: string, name: string, job: () => Promise<void>) => ScheduledJob;

export const cronScheduler: Scheduler = (expression, name, job) => {
  if (!validate(expression)) throw new Error(`${name}: "${expression}" is not a cron expression`);
  const task = cronSchedule(expression, job, { name, noOverlap: true });
  return { stop: () => { void task.stop(); } };
};
