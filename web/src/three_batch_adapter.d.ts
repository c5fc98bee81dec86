// Types of src/three_batch_adapter.js.
import type { Bone, Skeleton } from 'three';
import type { TailBatch, Tailrig, TailrigParams } from './tailrig.js';

export interface BatchAdapterOptions {
  params?: Partial<TailrigParams>;
}

/** Many characters of one rig, their tails stepped by one TailBatch. */
export declare class TailrigThreeBatchAdapter {
  /** skeletons: copies of one rig (same bones, names, inverse binds). */
  constructor(tailrig: Tailrig, skeletons: Skeleton[], options?: BatchAdapterOptions);
  readonly batch: TailBatch;
  readonly boneCount: number;
  /** Per character (skeleton order): the hips bone and its Tail_1..Tail_N bones. */
  readonly characters: { hips: Bone; tail: Bone[] }[];
  /** Steps every tail by dt seconds to its body's current pose and writes the tail bones. */
  update(dt: number): void;
  /** Every tail at rest for its body's current pose. */
  reset(): void;
  /** The hips world matrices into batch.hipsWorld() (what update() does before stepping). */
  readHips(): void;
  /** The batch's rotations into the tail bones, then their world matrices. */
  writeTails(): void;
  dispose(): void;
}
