import type { SegmentResult } from './chainSegments.ts';

export declare const segmentEventText: (position: number, id: string, stream: string, revision: number, type: string, version: number, data: string, metadata: string, recordedAt: string) => string;
export declare const checkSegment: (rows: Iterable<readonly unknown[]>, after: number, through: number, checkpointPosition: number) => SegmentResult;
