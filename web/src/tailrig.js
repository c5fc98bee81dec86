// tailrig's runtime tail solver in WebAssembly: the C API of
// solver/include/solver/tailrig_solver.h, wrapped for JavaScript.
//
// Conventions are the C API's: matrices are 16 numbers, column-major (the
// layout of three.js Matrix4.elements and glTF), quaternions x, y, z, w,
// lengths in rig units. Every call that the C API refuses (a NaN, a matrix
// with an infinity, a count out of range) throws a TailrigError and leaves
// the chain as it was: nothing non-finite goes in, and the solver never
// gives anything non-finite out.
import createTailrigModule from '../dist/tailrig_solver.mjs';
import {
  CAPSULE_SIZE,
  COLLIDER_PARAMS,
  COLLIDER_PARAMS_VERSION,
  FRAME_INPUT,
  FRAME_INPUT_VERSION,
  MAX_CAPSULES,
  PARAMS_FIELDS,
  PARAMS_SIZE,
} from './layout.js';
import { check, TailrigError } from './errors.js';
import { TailBatch } from './tail_batch.js';

export { MAX_CAPSULES, TailBatch, TailrigError };

/**
 * Loads the WebAssembly module. In a browser, pass `wasmUrl` if the .wasm
 * is not served beside tailrig_solver.mjs (e.g. a bundler's asset URL).
 */
export async function loadTailrig(options = {}) {
  const moduleOptions = {};
  if (options.wasmUrl) moduleOptions.locateFile = () => String(options.wasmUrl);
  if (options.wasmBinary) {
    moduleOptions.wasmBinary = options.wasmBinary;
    // With the bytes at hand no URL is needed; naming the file keeps
    // emscripten from resolving it against import.meta.url, which a page
    // that loads this module from a blob: URL cannot be resolved against.
    moduleOptions.locateFile = (path) => path;
  }
  else if (!options.wasmUrl && isNode()) moduleOptions.wasmBinary = await readWasmInNode();
  return new Tailrig(await createTailrigModule(moduleOptions));
}

function isNode() {
  return typeof process === 'object' && typeof process.versions?.node === 'string';
}

// The module is built for the web (see wasm/build.sh); node gets the bytes.
async function readWasmInNode() {
  const { readFile } = await import('node:fs/promises');
  return readFile(new URL('../dist/tailrig_solver.wasm', import.meta.url));
}

export class Tailrig {
  constructor(wasmModule) {
    this.wasm = wasmModule;
  }

  /** The defaults of solver::ChainParams, as tailrig_params_default gives them. */
  defaultParams() {
    const ptr = this.wasm._malloc(PARAMS_SIZE);
    try {
      this.wasm._tailrig_params_default(ptr);
      return readParams(this.wasm, ptr);
    } finally {
      this.wasm._free(ptr);
    }
  }

  /** Runs fn(pointer) with a tailrig_params of `params` over the defaults on the wasm heap. */
  withParams(params, fn) {
    const ptr = this.wasm._malloc(PARAMS_SIZE);
    try {
      writeParams(this.wasm, ptr, { ...this.defaultParams(), ...params });
      return fn(ptr);
    } finally {
      this.wasm._free(ptr);
    }
  }

  /**
   * Builds a chain from plain rig data (tailrig_chain_create): `names`
   * (joint names; the tail is Tail_1..Tail_N, optional Tail_End), `parents`
   * (-1 for a root, else a smaller index), `inverseBinds` (16 per joint,
   * column-major), `hips` (index, or -1 to find it by name), `params`
   * (a partial object over defaultParams()).
   */
  createChain({ names, parents, inverseBinds, hips = -1, params = {} }) {
    const wasm = this.wasm;
    const count = names.length;
    if (parents.length !== count || inverseBinds.length !== 16 * count) {
      throw new TailrigError(1, 'names, parents and inverseBinds (16 per joint) differ in length');
    }
    const allocations = [];
    const alloc = (bytes) => {
      const ptr = wasm._malloc(Math.max(bytes, 8));
      if (!ptr) throw new TailrigError(5, 'out of memory');
      allocations.push(ptr);
      return ptr;
    };
    try {
      const namePtrs = alloc(4 * count);
      names.forEach((name, i) => {
        const bytes = wasm.lengthBytesUTF8(name) + 1;
        const ptr = alloc(bytes);
        wasm.stringToUTF8(name, ptr, bytes);
        wasm.HEAP32[(namePtrs >> 2) + i] = ptr;
      });
      const parentsPtr = alloc(4 * count);
      wasm.HEAP32.set(Int32Array.from(parents), parentsPtr >> 2);
      const ibmPtr = alloc(8 * 16 * count);
      wasm.HEAPF64.set(Float64Array.from(inverseBinds), ibmPtr >> 3);
      const paramsPtr = alloc(PARAMS_SIZE);
      writeParams(wasm, paramsPtr, { ...this.defaultParams(), ...params });
      const outPtr = alloc(4);
      check(wasm, wasm._tailrig_chain_create(namePtrs, parentsPtr, ibmPtr, count, hips, paramsPtr, outPtr));
      return new TailChain(this, wasm.HEAP32[outPtr >> 2]);
    } finally {
      for (const ptr of allocations) wasm._free(ptr);
    }
  }
}

/** One tail chain and its state (a tailrig_chain handle). */
export class TailChain {
  constructor(tailrig, handle) {
    const wasm = tailrig.wasm;
    this.tailrig = tailrig;
    this.wasm = wasm;
    this.handle = handle;
    /** Number of tail bones N (Tail_End excluded). */
    this.boneCount = wasm._tailrig_chain_bone_count(handle);
    /** Rig joint index of each tail bone, Tail_1 first. */
    this.boneJoints = Int32Array.from({ length: this.boneCount }, (_, i) =>
      wasm._tailrig_chain_bone_joint(handle, i),
    );
    // One block for every call's scratch, so a step allocates nothing:
    // the frame input (its hips_world doubles as reset's and step's
    // matrix), the capsules, the two outputs.
    const n = this.boneCount;
    this.scratchBytes = FRAME_INPUT.size + MAX_CAPSULES * CAPSULE_SIZE + 8 * 4 * n + 8 * 16 * n;
    this.framePtr = wasm._malloc(this.scratchBytes);
    if (!this.framePtr) {
      wasm._tailrig_chain_destroy(handle);
      throw new TailrigError(5, 'out of memory');
    }
    this.capsulesPtr = this.framePtr + FRAME_INPUT.size;
    this.rotationsPtr = this.capsulesPtr + MAX_CAPSULES * CAPSULE_SIZE;
    this.matricesPtr = this.rotationsPtr + 8 * 4 * n;
    wasm._tailrig_frame_input_default(this.framePtr);
    wasm.HEAPU32[(this.framePtr + FRAME_INPUT.capsules) >> 2] = this.capsulesPtr;
  }

  /** Frees the chain; using it afterwards throws. */
  dispose() {
    if (!this.handle) return;
    this.wasm._tailrig_chain_destroy(this.handle);
    this.wasm._free(this.framePtr);
    this.handle = 0;
  }

  /**
   * Advances by dt seconds to the hips world matrix (16 numbers,
   * column-major, rig units). `capsules`: colliders where they are at the
   * end of the frame, world space, rig units; an array of
   * {a: [x,y,z], b: [x,y,z], radiusA, radiusB} or a flat array of 8 numbers
   * per capsule (a, b, radiusA, radiusB). Without capsules this is
   * tailrig_chain_step, with them tailrig_chain_step_frame.
   */
  step(dt, hipsWorld, capsules) {
    const wasm = this.live();
    this.writeHips(hipsWorld);
    const count = capsules ? this.writeCapsules(capsules) : 0;
    if (count === 0) {
      check(wasm, wasm._tailrig_chain_step(this.handle, dt, this.framePtr + FRAME_INPUT.hipsWorld));
    } else {
      wasm.HEAP32[(this.framePtr + FRAME_INPUT.capsuleCount) >> 2] = count;
      check(wasm, wasm._tailrig_chain_step_frame(this.handle, dt, this.framePtr));
    }
  }

  /** Puts the tail at rest in its settled carry pose for these hips. */
  reset(hipsWorld) {
    const wasm = this.live();
    this.writeHips(hipsWorld);
    check(wasm, wasm._tailrig_chain_reset(this.handle, this.framePtr + FRAME_INPUT.hipsWorld));
  }

  /** Replaces the per-step parameters (a partial object; [build] fields ignored). */
  setParams(params) {
    const wasm = this.live();
    this.tailrig.withParams(params, (ptr) => check(wasm, wasm._tailrig_chain_set_params(this.handle, ptr)));
  }

  /**
   * `count` tails of this chain's rig, params and collider params, stepped
   * together (tailrig_batch_create); this chain stays usable and
   * independent.
   */
  createBatch(count) {
    const wasm = this.live();
    const outPtr = wasm._malloc(4);
    try {
      check(wasm, wasm._tailrig_batch_create(this.handle, count, outPtr));
      return new TailBatch(this.tailrig, wasm.HEAP32[outPtr >> 2]);
    } finally {
      wasm._free(outPtr);
    }
  }

  /** Collider margin (metres) and friction (0..1). */
  colliderParams() {
    const wasm = this.live();
    const ptr = wasm._malloc(COLLIDER_PARAMS.size);
    try {
      wasm._tailrig_collider_params_default(ptr);
      check(wasm, wasm._tailrig_chain_get_collider_params(this.handle, ptr));
      return {
        margin: wasm.HEAPF64[(ptr + COLLIDER_PARAMS.margin) >> 3],
        friction: wasm.HEAPF64[(ptr + COLLIDER_PARAMS.friction) >> 3],
      };
    } finally {
      wasm._free(ptr);
    }
  }

  setColliderParams({ margin, friction }) {
    const wasm = this.live();
    const current = this.colliderParams();
    const ptr = wasm._malloc(COLLIDER_PARAMS.size);
    try {
      wasm.HEAPU32[(ptr + COLLIDER_PARAMS.version) >> 2] = COLLIDER_PARAMS_VERSION;
      wasm.HEAPU32[(ptr + COLLIDER_PARAMS.reserved) >> 2] = 0;
      wasm.HEAPF64[(ptr + COLLIDER_PARAMS.margin) >> 3] = margin ?? current.margin;
      wasm.HEAPF64[(ptr + COLLIDER_PARAMS.friction) >> 3] = friction ?? current.friction;
      check(wasm, wasm._tailrig_chain_set_collider_params(this.handle, ptr));
    } finally {
      wasm._free(ptr);
    }
  }

  /** Local rotation (x, y, z, w) of every tail bone: the glTF node.rotation. */
  localRotations(out = new Float64Array(4 * this.boneCount)) {
    const wasm = this.live();
    check(wasm, wasm._tailrig_chain_local_rotations(this.handle, this.rotationsPtr, this.boneCount));
    const heap = wasm.HEAPF64;
    const first = this.rotationsPtr >> 3;
    for (let i = 0; i < out.length; ++i) out[i] = heap[first + i];
    return out;
  }

  /** World matrix (16 numbers, column-major) of every tail bone. */
  worldMatrices(out = new Float64Array(16 * this.boneCount)) {
    const wasm = this.live();
    check(wasm, wasm._tailrig_chain_world_matrices(this.handle, this.matricesPtr, this.boneCount));
    out.set(wasm.HEAPF64.subarray(this.matricesPtr >> 3, (this.matricesPtr >> 3) + 16 * this.boneCount));
    return out;
  }

  /** World position (x, y, z) of every tail bone, from worldMatrices(). */
  worldPositions(out = new Float64Array(3 * this.boneCount)) {
    const m = this.worldMatrices();
    for (let b = 0; b < this.boneCount; ++b) {
      out[3 * b] = m[16 * b + 12];
      out[3 * b + 1] = m[16 * b + 13];
      out[3 * b + 2] = m[16 * b + 14];
    }
    return out;
  }

  live() {
    if (!this.handle) throw new TailrigError(1, 'the chain was disposed');
    return this.wasm;
  }

  writeHips(hipsWorld) {
    if (!hipsWorld || hipsWorld.length !== 16) throw new TailrigError(1, 'hipsWorld must have 16 numbers');
    this.wasm.HEAPF64.set(hipsWorld, (this.framePtr + FRAME_INPUT.hipsWorld) >> 3);
  }

  writeCapsules(capsules) {
    const flat = flattenCapsules(capsules);
    const count = flat.length / 8;
    if (!Number.isInteger(count) || count > MAX_CAPSULES) {
      throw new TailrigError(1, `capsules: 8 numbers each, at most ${MAX_CAPSULES}`);
    }
    this.wasm.HEAPF64.set(flat, this.capsulesPtr >> 3);
    return count;
  }
}

function flattenCapsules(capsules) {
  if (capsules.length === 0 || typeof capsules[0] === 'number') return capsules;
  const flat = new Float64Array(8 * capsules.length);
  capsules.forEach((c, i) => {
    flat.set([c.a[0], c.a[1], c.a[2], c.b[0], c.b[1], c.b[2], c.radiusA, c.radiusB], 8 * i);
  });
  return flat;
}

function readParams(wasm, ptr) {
  const params = {};
  for (const [name, offset, type] of PARAMS_FIELDS) {
    if (type === 'vec3') params[name] = Array.from(wasm.HEAPF64.subarray((ptr + offset) >> 3, ((ptr + offset) >> 3) + 3));
    else if (type === 'f64') params[name] = wasm.HEAPF64[(ptr + offset) >> 3];
    else if (type === 'bool') params[name] = wasm.HEAP32[(ptr + offset) >> 2] !== 0;
    else params[name] = wasm.HEAP32[(ptr + offset) >> 2];
  }
  return params;
}

function writeParams(wasm, ptr, params) {
  wasm.HEAPU8.fill(0, ptr, ptr + PARAMS_SIZE);
  for (const [name, offset, type] of PARAMS_FIELDS) {
    const value = params[name];
    if (type === 'vec3') wasm.HEAPF64.set(value.map(Number), (ptr + offset) >> 3);
    else if (type === 'f64') wasm.HEAPF64[(ptr + offset) >> 3] = Number(value);
    else if (type === 'bool') wasm.HEAP32[(ptr + offset) >> 2] = value ? 1 : 0;
    // An i32 that is not an integer would be truncated by the typed array;
    // pass a NaN instead so the C API refuses it with a message.
    else wasm.HEAP32[(ptr + offset) >> 2] = Number.isInteger(value) ? value : -1;
  }
}
