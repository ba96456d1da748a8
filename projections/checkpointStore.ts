/** Where projections keep their checkpoints: the state, the ledger position it reflects, and the code that made it. */
export interface ProjectionCheckpoint {
  readonly codeHash: string;
  readonly position: number;
  readonly state: unknown;
}

export interface CheckpointStore {
  load(name: string): Promise<ProjectionCheckpoint | null>;
  save(name: string, checkpoint: ProjectionCheckpoint): Promise<void>;
}

/** Checkpoints in memory (tests, eval). */
export const memoryCheckpointStore = (): CheckpointStore & { readonly saved: Map<string, ProjectionCheckpoint> } => {
  const saved = new Map<string, ProjectionCheckpoint>();
  return {
    saved,
    load: async (name) => saved.get(name) ?? null,
    save: async (name, checkpoint) => { saved.set(name, structuredClone(checkpoint)); },
  };
};
