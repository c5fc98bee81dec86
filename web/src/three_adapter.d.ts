// Types of src/three_adapter.js.
import type { Bone, Object3D, Skeleton } from 'three';
import type { TailChain, Tailrig, TailrigParams } from './tailrig.js';

/** A capsule in its bone's own space (as `fix` stores it), rig units. */
export interface BoneCapsule {
  bone: Bone;
  a: [number, number, number];
  b: [number, number, number];
  radiusA: number;
  radiusB: number;
}

export interface AdapterOptions {
  params?: Partial<TailrigParams>;
  /** The bone whose world matrix drives the tail (default: Tail_1's parent). */
  hips?: Bone;
  /** 'stored' (default): bones' userData.tailrig_collider; 'none'; or explicit capsules. */
  colliders?: 'stored' | 'none' | BoneCapsule[];
  /** Link centreline to collider surface, metres. */
  colliderMargin?: number;
}

export declare class TailrigThreeAdapter {
  static fromObject(tailrig: Tailrig, object: Object3D, options?: AdapterOptions): TailrigThreeAdapter;
  constructor(tailrig: Tailrig, skeleton: Skeleton, options?: AdapterOptions);
  readonly chain: TailChain;
  readonly hips: Bone;
  /** Tail_1..Tail_N. */
  readonly tailBones: Bone[];
  /** What the latest update gave the solver (overwritten by the next update: copy to keep). */
  readonly lastFrame: { dt: number; hips: Float64Array; capsules: Float64Array };
  /** Steps the tail to the body's current pose and writes the tail bones. */
  update(dt: number): void;
  reset(): void;
  dispose(): void;
}

export declare function rigFromSkeleton(skeleton: Skeleton): {
  bones: Bone[];
  names: string[];
  parents: number[];
  inverseBinds: Float64Array;
};
