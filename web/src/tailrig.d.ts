// Types of src/tailrig.js: the tail solver's C API in WebAssembly.

/** 16 numbers, column-major (three.js Matrix4.elements, glTF), rig units. */
export type Matrix4Elements = ArrayLike<number>;

/** solver::ChainParams as the C API's tailrig_params carries them. */
export interface TailrigParams {
  /** Spring frequency of the root link, Hz (> 0). */
  rootFrequencyHz: number;
  /** Spring frequency of the tip link, Hz (> 0). */
  tipFrequencyHz: number;
  /** Damping ratio zeta (>= 0; 1 = critical). */
  dampingRatio: number;
  /** m/s² along world -Y (>= 0). */
  gravity: number;
  /** [build] carry of the whole tail, degrees. */
  carryDeg: number;
  /** [build] 0 centred rest arc .. 1 authored curve. */
  restCurve: number;
  /** [build] character forward in bind space (glTF +Z). */
  forwardAxis: [number, number, number];
  /** [build] character lateral in bind space (glTF +X). */
  lateralAxis: [number, number, number];
  /** [build] metres per rig unit (> 0; glTF 1). */
  metersPerUnit: number;
  /** Neighbour bend coupling, 1/s (>= 0; 0 off). */
  bendCouplingRate: number;
  /** Elastic bend limit, degrees (<= 0 off). */
  bendLimitDeg: number;
  /** Particles stay behind the hips' forward plane. */
  forwardPlane: boolean;
  /** Floor plane y = floorHeight. */
  floorEnabled: boolean;
  /** World Y of the floor, metres. */
  floorHeight: number;
  /** Tail clearance above the floor, metres (>= 0). */
  floorClearance: number;
  /** Floor contact damping, 1/s (>= 0). */
  contactDamping: number;
  /** Fixed internal step, seconds (0 < h <= 0.1). */
  internalStep: number;
  /** Internal steps per step() at most (>= 1). */
  maxSubsteps: number;
  /** Settle time simulated by reset(), seconds (0..600). */
  resetSettleTime: number;
  /** Hips jump in one step treated as a teleport, metres (> 0). */
  teleportDistance: number;
  /** Hips turn in one step treated as a teleport, degrees (> 0). */
  teleportAngleDeg: number;
}

/** A tapered capsule in world space, rig units: segment a..b, a radius at each end. */
export interface Capsule {
  a: [number, number, number];
  b: [number, number, number];
  radiusA: number;
  radiusB: number;
}

export interface ChainRig {
  /** Joint names; the tail is Tail_1..Tail_N with an optional Tail_End. */
  names: string[];
  /** Parent index per joint: -1 for a root, else a smaller index. */
  parents: ArrayLike<number>;
  /** 16 numbers per joint: bind space -> joint space, column-major. */
  inverseBinds: ArrayLike<number>;
  /** Hips joint index, or -1 (default) to find it by name. */
  hips?: number;
  params?: Partial<TailrigParams>;
}

export declare const MAX_CAPSULES: 16;

export declare class TailrigError extends Error {
  /** tailrig_status value. */
  code: number;
  /** 'INVALID_ARGUMENT' | 'NON_FINITE' | 'NO_TAIL' | 'BROKEN_CHAIN' | 'OUT_OF_MEMORY' | 'INTERNAL' */
  status: string;
}

export interface LoadOptions {
  /** Where tailrig_solver.wasm is served (default: beside tailrig_solver.mjs). */
  wasmUrl?: string | URL;
  /** The .wasm bytes, if the caller has them. */
  wasmBinary?: ArrayBuffer | Uint8Array;
}

export declare function loadTailrig(options?: LoadOptions): Promise<Tailrig>;

export declare class Tailrig {
  defaultParams(): TailrigParams;
  /** Throws TailrigError (NO_TAIL, BROKEN_CHAIN, NON_FINITE, ...). */
  createChain(rig: ChainRig): TailChain;
}

export declare class TailChain {
  /** Tail bones N (Tail_End excluded). */
  readonly boneCount: number;
  /** Rig joint index of each tail bone, Tail_1 first. */
  readonly boneJoints: Int32Array;
  /** Advances dt seconds (0..3600) to the hips; capsules at the end of the frame (at most 16). */
  step(dt: number, hipsWorld: Matrix4Elements, capsules?: Capsule[] | ArrayLike<number>): void;
  reset(hipsWorld: Matrix4Elements): void;
  setParams(params: Partial<TailrigParams>): void;
  colliderParams(): { margin: number; friction: number };
  setColliderParams(params: { margin?: number; friction?: number }): void;
  /** x, y, z, w per tail bone: the glTF node.rotation. */
  localRotations(out?: Float64Array): Float64Array;
  /**
   * `count` (1..1,000,000) tails of this chain's rig, params and collider
   * params, stepped together in SIMD lanes (tailrig_batch_create).
   */
  createBatch(count: number): TailBatch;
  /** 16 per tail bone, column-major, world. */
  worldMatrices(out?: Float64Array): Float64Array;
  /** x, y, z per tail bone, world. */
  worldPositions(out?: Float64Array): Float64Array;
  dispose(): void;
}

/** Many tails of one rig stepped together (tailrig_batch.h), 4 per SIMD128 instruction. */
export declare class TailBatch {
  /** Chains in the batch. */
  readonly size: number;
  /** Tail bones per chain (Tail_End excluded). */
  readonly boneCount: number;
  /** The kernel: 'baseline' (4 lanes; wasm SIMD128). */
  readonly isa: string;
  /**
   * The hips input on the wasm heap, 16 per chain (chain c at 16 * c),
   * column-major, rig units; written before step(). Ask again after
   * creating chains or batches (the wasm memory may grow).
   */
  hipsWorld(): Float64Array;
  /** Room for perChain (0..16) capsules per chain in step(); allocates (set-up). */
  setColliderCapacity(perChain: number): void;
  /**
   * Advances every chain by dt seconds (0..3600) to hipsWorld (16 * size
   * numbers) or to what hipsWorld() holds; capsules: 8 numbers each
   * (a, b, radiusA, radiusB), setColliderCapacity's count per chain, chain-major.
   */
  step(dt: number, hipsWorld?: ArrayLike<number> | null, capsules?: ArrayLike<number>): void;
  /** Chain `index` at rest in its settled carry pose for these hips. */
  reset(index: number, hipsWorld: Matrix4Elements): void;
  setParams(params: Partial<TailrigParams>): void;
  /** x, y, z, w floats of bone i of chain c at 4 * (c * boneCount + i): the glTF node.rotation. */
  localRotations(out?: Float32Array): Float32Array;
  dispose(): void;
}
