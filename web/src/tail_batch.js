// Many tails of one rig stepped together: the batch C API
// (solver/include/solver/tailrig_batch.h) in WebAssembly, 4 chains per
// SIMD128 instruction. Made by TailChain.createBatch(count).
//
// The hips go in through a Float64Array on the wasm heap (16 per chain,
// column-major, rig units) and the rotations come out as a Float32Array
// (4 per bone, x y z w, chain-major), so a frame copies nothing it does not
// have to. Refused calls throw a TailrigError and leave every chain as it
// was.
import { check, TailrigError } from './errors.js';
import { CAPSULE_SIZE, FRAME_INPUT, FRAME_INPUT_VERSION } from './layout.js';

export class TailBatch {
  constructor(tailrig, handle) {
    const wasm = tailrig.wasm;
    this.tailrig = tailrig;
    this.wasm = wasm;
    this.handle = handle;
    /** Chains in the batch. */
    this.size = wasm._tailrig_batch_size(handle);
    /** Tail bones per chain (Tail_End excluded). */
    this.boneCount = wasm._tailrig_batch_bone_count(handle);
    /** The kernel: 'baseline' (4 lanes: wasm SIMD128). */
    this.isa = wasm.UTF8ToString(wasm._tailrig_batch_isa(handle));
    // One block: the hips of every chain, reset's hips, the rotations.
    const hipsBytes = 8 * 16 * this.size;
    this.hipsPtr = wasm._malloc(hipsBytes + 8 * 16 + 4 * 4 * this.size * this.boneCount);
    if (!this.hipsPtr) {
      wasm._tailrig_batch_destroy(handle);
      throw new TailrigError(5, 'out of memory');
    }
    this.resetHipsPtr = this.hipsPtr + hipsBytes;
    this.rotationsPtr = this.resetHipsPtr + 8 * 16;
    this.colliderCapacity = 0;
    this.framesPtr = 0; // tailrig_frame_input per chain, then their capsules
  }

  /**
   * Room for `perChain` (0..16) capsules per chain in step(dt, hips,
   * capsules). Allocates: call it at set-up.
   */
  setColliderCapacity(perChain) {
    const wasm = this.live();
    check(wasm, wasm._tailrig_batch_set_collider_capacity(this.handle, perChain));
    if (this.framesPtr) wasm._free(this.framesPtr);
    this.framesPtr = wasm._malloc(this.size * (FRAME_INPUT.size + perChain * CAPSULE_SIZE));
    if (!this.framesPtr) throw new TailrigError(5, 'out of memory');
    this.colliderCapacity = perChain;
    const capsulesPtr = this.framesPtr + this.size * FRAME_INPUT.size;
    for (let c = 0; c < this.size; ++c) {
      const frame = this.framesPtr + c * FRAME_INPUT.size;
      wasm._tailrig_frame_input_default(frame);
      wasm.HEAPU32[(frame + FRAME_INPUT.capsules) >> 2] = capsulesPtr + c * perChain * CAPSULE_SIZE;
      wasm.HEAP32[(frame + FRAME_INPUT.capsuleCount) >> 2] = perChain;
    }
  }

  /**
   * The hips input on the wasm heap: 16 numbers per chain (chain c at
   * 16 * c), written by the caller before step(). Ask again after anything
   * that may grow the wasm memory (creating chains or batches): the old
   * view is then detached.
   */
  hipsWorld() {
    const wasm = this.live();
    return wasm.HEAPF64.subarray(this.hipsPtr >> 3, (this.hipsPtr >> 3) + 16 * this.size);
  }

  /**
   * Advances every chain by dt seconds (0..3600) to its hips: `hipsWorld`
   * (16 * size numbers), or, without it, what the caller wrote into
   * hipsWorld(). `capsules` (after setColliderCapacity(k)): 8 numbers per
   * capsule (a, b, radiusA, radiusB; world, rig units), k per chain, chain
   * c's at 8 * k * c, where they are at the end of the frame
   * (tailrig_batch_step_frames).
   */
  step(dt, hipsWorld, capsules) {
    const wasm = this.live();
    if (hipsWorld) {
      if (hipsWorld.length !== 16 * this.size) {
        throw new TailrigError(1, `hipsWorld must have 16 * ${this.size} numbers, not ${hipsWorld.length}`);
      }
      wasm.HEAPF64.set(hipsWorld, this.hipsPtr >> 3);
    }
    if (!capsules) {
      check(wasm, wasm._tailrig_batch_step(this.handle, dt, this.hipsPtr, this.size));
      return;
    }
    const k = this.colliderCapacity;
    if (capsules.length !== 8 * k * this.size) {
      throw new TailrigError(1, `capsules must have 8 * ${k} * ${this.size} numbers (setColliderCapacity), not ${capsules.length}`);
    }
    const heap = wasm.HEAPF64;
    const hips = this.hipsPtr >> 3;
    for (let c = 0; c < this.size; ++c) {
      heap.copyWithin((this.framesPtr + c * FRAME_INPUT.size + FRAME_INPUT.hipsWorld) >> 3, hips + 16 * c, hips + 16 * c + 16);
    }
    heap.set(capsules, (this.framesPtr + this.size * FRAME_INPUT.size) >> 3);
    check(wasm, wasm._tailrig_batch_step_frames(this.handle, dt, this.framesPtr, this.size));
  }

  /** Puts chain `index` at rest in its settled carry pose for these hips (16 numbers). */
  reset(index, hipsWorld) {
    const wasm = this.live();
    if (!hipsWorld || hipsWorld.length !== 16) throw new TailrigError(1, 'hipsWorld must have 16 numbers');
    wasm.HEAPF64.set(hipsWorld, this.resetHipsPtr >> 3);
    check(wasm, wasm._tailrig_batch_reset(this.handle, index, this.resetHipsPtr));
  }

  /** Replaces the per-step parameters of every chain (a partial object; [build] fields ignored). */
  setParams(params) {
    const wasm = this.live();
    this.tailrig.withParams(params, (ptr) => check(wasm, wasm._tailrig_batch_set_params(this.handle, ptr)));
  }

  /**
   * Local rotation (x, y, z, w floats) of bone i of chain c at
   * 4 * (c * boneCount + i): the glTF node.rotation.
   */
  localRotations(out = new Float32Array(4 * this.size * this.boneCount)) {
    const wasm = this.live();
    const quats = this.size * this.boneCount;
    check(wasm, wasm._tailrig_batch_local_rotations(this.handle, this.rotationsPtr, quats));
    out.set(wasm.HEAPF32.subarray(this.rotationsPtr >> 2, (this.rotationsPtr >> 2) + 4 * quats));
    return out;
  }

  /** Frees the batch; using it afterwards throws. */
  dispose() {
    if (!this.handle) return;
    this.wasm._tailrig_batch_destroy(this.handle);
    this.wasm._free(this.hipsPtr);
    if (this.framesPtr) this.wasm._free(this.framesPtr);
    this.handle = 0;
  }

  live() {
    if (!this.handle) throw new TailrigError(1, 'the batch was disposed');
    return this.wasm;
  }
}
